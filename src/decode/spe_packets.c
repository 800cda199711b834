/* SPDX-License-Identifier: BSD-3-Clause */
/* The SPE packet table (spe_packets.def) and what the encoder and the
 * decoder derive from it: header bytes, packet types and INDEX meanings. */
#include "spe_packets.h"

const spe_packet_desc spe_packet_table[ARMPROF_SPE_PKT_UNKNOWN] = {
#define SPE_PACKET(id, name, header, mask, ext0, ext0_mask, index_bits, size, min, max)            \
    [ARMPROF_SPE_PKT_##id] = {                                                                     \
        name, header, mask, ext0, ext0_mask, index_bits, SPE_SIZE_##size, min, max,                \
    },
#include "spe_packets.def"
};

/* decode.h spells the INDEX values for its users; they are the table's. */
#define SAME_INDEX(public, table) _Static_assert((int)(public) == (int)(table), #public)
SAME_INDEX(ARMPROF_SPE_ADDR_PC, SPE_INDEX_ADDRESS_PC);
SAME_INDEX(ARMPROF_SPE_ADDR_BRANCH_TARGET, SPE_INDEX_ADDRESS_BRANCH_TARGET);
SAME_INDEX(ARMPROF_SPE_ADDR_DATA_VIRTUAL, SPE_INDEX_ADDRESS_DATA_VIRTUAL);
SAME_INDEX(ARMPROF_SPE_ADDR_DATA_PHYSICAL, SPE_INDEX_ADDRESS_DATA_PHYSICAL);
SAME_INDEX(ARMPROF_SPE_ADDR_PREV_BRANCH_TARGET, SPE_INDEX_ADDRESS_PREV_BRANCH_TARGET);
SAME_INDEX(ARMPROF_SPE_COUNTER_TOTAL, SPE_INDEX_COUNTER_TOTAL);
SAME_INDEX(ARMPROF_SPE_COUNTER_ISSUE, SPE_INDEX_COUNTER_ISSUE);
SAME_INDEX(ARMPROF_SPE_COUNTER_TRANSLATION, SPE_INDEX_COUNTER_TRANSLATION);
SAME_INDEX(ARMPROF_SPE_COUNTER_ALT_ISSUE, SPE_INDEX_COUNTER_ALT_ISSUE);

static const struct {
    armprof_spe_packet_type type;
    uint8_t value, mask;
} impdef_rows[] = {
#define SPE_INDEX_IMPDEF(packet, value, mask) {ARMPROF_SPE_PKT_##packet, value, mask},
#include "spe_packets.def"
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static unsigned index_mask(const spe_packet_desc *d)
{
    return (1u << d->index_bits) - 1;
}

/* Only Address and Counter packets have an Extended format, for INDEX
 * values above the Short format's three bits. */
static bool extended(const spe_packet_desc *d, unsigned index)
{
    return d->ext0_mask != 0 && index > index_mask(d);
}

/* SZ of a payload of 1, 2, 4 or 8 bytes (SPEAddPacketToRecord()). */
static unsigned sz_of(unsigned payload_bytes)
{
    return payload_bytes <= 1 ? 0u : payload_bytes == 2 ? 1u : payload_bytes <= 4 ? 2u : 3u;
}

unsigned spe_packet_header(armprof_spe_packet_type t, unsigned index, unsigned payload_bytes,
                           uint8_t h[2])
{
    const spe_packet_desc *d = &spe_packet_table[t];
    unsigned b = d->header | (index & index_mask(d));
    if (d->size == SPE_SIZE_SZ) b |= sz_of(payload_bytes) << SPE_FIELD_HEADER_SZ_LO;
    if (!extended(d, index)) {
        h[0] = (uint8_t)b;
        return 1;
    }
    /* SPEConstructRecord(): '001000':index<4:3>, then the Short format
     * header with index<2:0>. */
    h[0] = (uint8_t)(d->ext0 | (index >> d->index_bits & ~d->ext0_mask & 0xffu));
    h[1] = (uint8_t)b;
    return 2;
}

unsigned spe_packet_header_size(armprof_spe_packet_type t, unsigned index)
{
    return extended(&spe_packet_table[t], index) ? 2u : 1u;
}

const char *const spe_index_names[ARMPROF_SPE_PKT_UNKNOWN][32] = {
#define SPE_INDEX(packet, id, value, name) [ARMPROF_SPE_PKT_##packet][value] = name,
#include "spe_packets.def"
};

bool spe_packet_index_impdef(armprof_spe_packet_type t, unsigned index)
{
    if (index >= 32) return false; /* INDEX is five bits */
    for (size_t i = 0; i < COUNT_OF(impdef_rows); i++)
        if (impdef_rows[i].type == t && (index & impdef_rows[i].mask) == impdef_rows[i].value)
            return true;
    return false;
}
