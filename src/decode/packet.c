/* Packet framing (D18.1.1, D18.1.3, D18.1.4): which packet a header starts
 * and how many bytes it spans. The size of every packet, known or not,
 * comes from the header alone, so that a stream can be parsed without
 * knowing the alignment or the packet types (D18.1.3). */
#include "armprof/decode.h"

void armprof_spe_decoder_init(armprof_spe_decoder *d, const uint8_t *data, size_t size)
{
    d->data = data;
    d->size = data ? size : 0;
    d->pos = 0;
    d->error = NULL;
    d->error_offset = 0;
}

/* D18.1.1: 0x00-0x3F have no payload (0x20-0x3F begin a 16-bit header,
 * whose second byte is read by the same rule); above, SZ (bits [5:4]) is
 * log2 of the payload's byte count. */
static unsigned payload_size_of(uint8_t header)
{
    return header < 0x40 ? 0u : 1u << (header >> 4 & 3u);
}

/* Table D18-1: the 8-bit headers. */
static armprof_spe_packet_type type_of_8bit(uint8_t h, uint8_t *index)
{
    if (h == 0x00) return ARMPROF_SPE_PKT_PADDING;
    if (h == 0x01) return ARMPROF_SPE_PKT_END;
    if (h == 0x71) return ARMPROF_SPE_PKT_TIMESTAMP;
    if ((h & 0xcf) == 0x42) return ARMPROF_SPE_PKT_EVENTS;
    if ((h & 0xcf) == 0x43) return ARMPROF_SPE_PKT_DATA_SOURCE;
    *index = h & 3u;
    if ((h & 0xfc) == 0x64) return ARMPROF_SPE_PKT_CONTEXT;
    if ((h & 0xfc) == 0x48) return ARMPROF_SPE_PKT_OP_TYPE;
    *index = h & 7u;
    if ((h & 0xf8) == 0xb0) return ARMPROF_SPE_PKT_ADDRESS;
    if ((h & 0xf8) == 0x98) return ARMPROF_SPE_PKT_COUNTER;
    *index = 0;
    return ARMPROF_SPE_PKT_UNKNOWN;
}

/* Table D18-2: the 16-bit headers, the Extended formats of Address and
 * Counter packets; byte 0 bits [1:0] are INDEX[4:3]. */
static armprof_spe_packet_type type_of_16bit(uint8_t h0, uint8_t h1, uint8_t *index)
{
    if ((h0 & 0xfc) != 0x20) return ARMPROF_SPE_PKT_UNKNOWN;
    armprof_spe_packet_type t;
    if ((h1 & 0xf8) == 0xb0)
        t = ARMPROF_SPE_PKT_ADDRESS;
    else if ((h1 & 0xf8) == 0x98)
        t = ARMPROF_SPE_PKT_COUNTER;
    else
        return ARMPROF_SPE_PKT_UNKNOWN;
    *index = (uint8_t)((h0 & 3u) << 3 | (h1 & 7u));
    return t;
}

/* INDEX values that D18.2.1 and D18.2.3 list neither as defined nor as
 * IMPLEMENTATION DEFINED (0b0011x and 0b1xxxx are IMPLEMENTATION DEFINED). */
static bool reserved_address_index(unsigned i)
{
    return i == 5 || (i >= 8 && i <= 15);
}

static bool reserved_counter_index(unsigned i)
{
    return i == 3 || i == 5 || (i >= 8 && i <= 15);
}

static bool is_reserved(const armprof_spe_packet *p)
{
    switch (p->type) {
    case ARMPROF_SPE_PKT_ADDRESS:
        return reserved_address_index(p->index);
    case ARMPROF_SPE_PKT_COUNTER:
        return reserved_counter_index(p->index);
    case ARMPROF_SPE_PKT_CONTEXT:
        return p->index > 1; /* D18.2.2: INDEX 0b1x reserved */
    case ARMPROF_SPE_PKT_DATA_SOURCE:
        return p->payload_size > 2; /* D18.2.4: SZ 0b00 or 0b01 only */
    case ARMPROF_SPE_PKT_OP_TYPE:
        return armprof_spe_decode_op(p->index, (unsigned)p->payload).kind ==
               ARMPROF_SPE_OP_RESERVED;
    default:
        return false;
    }
}

static armprof_spe_decode_status fail(armprof_spe_decoder *d, size_t offset, const char *why)
{
    d->error = why;
    d->error_offset = offset;
    d->pos = d->size; /* nothing after a truncated packet can be framed */
    return ARMPROF_SPE_DECODE_ERROR;
}

armprof_spe_decode_status armprof_spe_next_packet(armprof_spe_decoder *d, armprof_spe_packet *p)
{
    if (d->pos >= d->size) return ARMPROF_SPE_DECODE_EOF;
    const uint8_t *b = d->data + d->pos;
    const size_t left = d->size - d->pos;
    p->offset = d->pos;
    p->index = 0;
    p->header[0] = b[0];
    p->header[1] = 0;
    uint8_t size_byte = b[0];
    if (b[0] >= 0x20 && b[0] < 0x40) {
        if (left < 2) return fail(d, p->offset, "16-bit header truncated by the end of the data");
        p->header[1] = b[1];
        p->header_size = 2;
        size_byte = b[1];
        p->type = type_of_16bit(b[0], b[1], &p->index);
    } else {
        p->header_size = 1;
        p->type = type_of_8bit(b[0], &p->index);
    }
    p->payload_size = (uint8_t)payload_size_of(size_byte);
    if (left < (size_t)p->header_size + p->payload_size)
        return fail(d, p->offset, "packet payload truncated by the end of the data");
    uint64_t v = 0;
    for (unsigned i = p->payload_size; i-- > 0;)
        v = v << 8 | b[p->header_size + i];
    p->payload = v;
    /* A header whose fixed bits (SZ included) differ from Table D18-1 is
     * not the packet it resembles: type_of_8bit() matched the whole byte
     * for Context, Operation Type, Address, Counter and Timestamp. */
    p->reserved = is_reserved(p);
    d->pos += (size_t)p->header_size + p->payload_size;
    return ARMPROF_SPE_DECODE_OK;
}
