/* SPDX-License-Identifier: BSD-3-Clause */
/* The SPE packet table (spe_packets.def) in C: the packet rows indexed by
 * armprof_spe_packet_type, INDEX values and payload fields as constants,
 * and the header encoding and classification both the record encoder
 * (src/spe/record.c) and the decoder use. Needs only the public decode.h, so
 * that the standalone decoder library keeps needing nothing from the model;
 * the model includes it as "decode/spe_packets.h". */
#ifndef ARMPROF_DECODE_SPE_PACKETS_H
#define ARMPROF_DECODE_SPE_PACKETS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "armprof/decode.h"

typedef enum spe_payload_size {
    SPE_SIZE_NONE,
    SPE_SIZE_FIXED,
    SPE_SIZE_SZ,
} spe_payload_size;

typedef struct spe_packet_desc {
    const char *name;
    uint8_t header, mask;
    uint8_t ext0, ext0_mask;
    uint8_t index_bits;
    uint8_t size; /* spe_payload_size */
    uint8_t min_payload, max_payload;
} spe_packet_desc;

/* One row per SPE_PACKET, at [ARMPROF_SPE_PKT_<ID>]. */
extern const spe_packet_desc spe_packet_table[ARMPROF_SPE_PKT_UNKNOWN];

enum spe_packet_index {
#define SPE_INDEX(packet, id, value, name) SPE_INDEX_##packet##_##id = (value),
#include "spe_packets.def"
};

enum spe_packet_field {
#define SPE_FIELD(payload, id, hi, lo)                                                             \
    SPE_FIELD_##payload##_##id##_HI = (hi), SPE_FIELD_##payload##_##id##_LO = (lo),
#include "spe_packets.def"
};

enum spe_op_subclass {
#define SPE_OP_SUBCLASS(id, op_class, mask, value, name)                                           \
    SPE_OP_##id##_MASK = (mask), SPE_OP_##id##_VALUE = (value),
#include "spe_packets.def"
};

static inline uint64_t spe_bits(uint64_t v, unsigned hi, unsigned lo)
{
    const unsigned width = hi - lo + 1;
    return width >= 64 ? v : v >> lo & ((UINT64_C(1) << width) - 1);
}
#define SPE_FIELD_GET(v, payload, id)                                                              \
    spe_bits((v), SPE_FIELD_##payload##_##id##_HI, SPE_FIELD_##payload##_##id##_LO)
/* v placed at the field (v no wider than it), in v's type. */
#define SPE_FIELD_PUT(v, payload, id) ((v) << SPE_FIELD_##payload##_##id##_LO)

/* D18.1.1: the first header byte alone says how long a packet is, whatever
 * its type: 0x00-0x1F no payload, 0x20-0x3F the first byte of a 16-bit
 * header whose second byte gives the length by the same rule, above that
 * SZ (bits [5:4]) is log2 of the payload's byte count. */
static inline bool spe_header_is_16bit(uint8_t b0)
{
    return b0 >= 0x20 && b0 < 0x40;
}
static inline unsigned spe_header_payload_size(uint8_t b)
{
    return b < 0x40 ? 0u : 1u << SPE_FIELD_GET(b, HEADER, SZ);
}

/* The type of the packet whose header is h[0] (h[0] and h[1] when
 * header_size is 2), with its INDEX (or CLASS) in *index, 0 for types that
 * have none; ARMPROF_SPE_PKT_UNKNOWN when no row of Table D18-1 or D18-2
 * matches. */
static inline armprof_spe_packet_type spe_packet_classify(const uint8_t *h, unsigned header_size,
                                                          uint8_t *index)
{
    /* One test a row, with the row's constants: the decoder runs this for
     * every packet, so no loop over the table in memory. */
    if (header_size == 2) {
        /* Table D18-2: byte 0 bits [1:0] are INDEX[4:3]; only rows with an
         * Extended format match. */
#define SPE_PACKET(id, name, header, mask, ext0, ext0_mask, index_bits, size, min, max)            \
    if ((ext0_mask) != 0 && (h[0] & (ext0_mask)) == (ext0) && (h[1] & (mask)) == (header)) {       \
        *index = (uint8_t)((h[0] & ~(ext0_mask)&0xffu) << (index_bits) |                           \
                           (h[1] & ((1u << (index_bits)) - 1)));                                   \
        return ARMPROF_SPE_PKT_##id;                                                               \
    }
#include "spe_packets.def"
    } else {
#define SPE_PACKET(id, name, header, mask, ext0, ext0_mask, index_bits, size, min, max)            \
    if ((h[0] & (mask)) == (header)) {                                                             \
        *index = (uint8_t)(h[0] & ((1u << (index_bits)) - 1));                                     \
        return ARMPROF_SPE_PKT_##id;                                                               \
    }
#include "spe_packets.def"
    }
    *index = 0;
    return ARMPROF_SPE_PKT_UNKNOWN;
}

/* The header of a packet of type t with INDEX (or CLASS) index and a
 * payload of payload_bytes (used for SZ; a FIXED row's SZ is its own) into
 * h[0..1]: the 8-bit header (Short format), or Table D18-2's Extended format
 * when index does not fit the Short format. Returns the header size. */
unsigned spe_packet_header(armprof_spe_packet_type t, unsigned index, unsigned payload_bytes,
                           uint8_t h[2]);
/* 1 or 2: the size spe_packet_header() gives for index. */
unsigned spe_packet_header_size(armprof_spe_packet_type t, unsigned index);

/* The names of the INDEX values, by packet and value (NULL where the manual
 * defines none); at hand for every Address, Counter and Context packet the
 * decoder checks for D18.1.3's reserved values. */
extern const char *const spe_index_names[ARMPROF_SPE_PKT_UNKNOWN][32];
/* The NAME of an SPE_INDEX row, or NULL when the manual defines no such
 * INDEX (CLASS) value for the packet type. */
static inline const char *spe_packet_index_name(armprof_spe_packet_type t, unsigned index)
{
    return (unsigned)t < ARMPROF_SPE_PKT_UNKNOWN && index < 32 ? spe_index_names[t][index] : NULL;
}
/* index is an IMPLEMENTATION DEFINED INDEX value of the packet type. */
bool spe_packet_index_impdef(armprof_spe_packet_type t, unsigned index);

/* armprof_spe_record_add_packet() for the library's own decoders. */
bool spe_record_add(armprof_spe_record *r, const armprof_spe_packet *p);

/* A record emptied, and copied, by the C library's memset and memcpy. With
 * the size known (about 400 bytes, the address array most of it) gcc
 * emits rep stosq and rep movsq for x86-64, whose start-up takes longer
 * than decoding a 50-byte record; hiding the size makes it call them. */
static inline void spe_record_clear(armprof_spe_record *r)
{
    size_t size = sizeof *r;
    __asm__("" : "+r"(size));
    memset(r, 0, size);
}

static inline void spe_record_copy(armprof_spe_record *dst, const armprof_spe_record *src)
{
    size_t size = sizeof *dst;
    __asm__("" : "+r"(size));
    memcpy(dst, src, size);
}

/* Both record decoders (whole data and streaming) report it alike. */
#define SPE_ERROR_RECORD_NOT_ENDED                                                                 \
    "record not ended by an End or Timestamp packet before the end of the data"

#endif
