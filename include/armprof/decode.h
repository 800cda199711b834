/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: a decoder for Statistical Profiling Extension sample records
 * (chapter D18, record format version 0).
 *
 * It needs nothing else from the model: link it alone (the armprof library
 * contains it) to read records that a PE, this model or anything else wrote
 * to a Profiling Buffer. Any byte stream is safe: every function reads only
 * the bytes it is given, and each call consumes at least one byte, so a loop
 * over a stream ends.
 *
 *   armprof_spe_decoder d;
 *   armprof_spe_decoder_init(&d, bytes, size);
 *   armprof_spe_record r;
 *   while (armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_OK) ...
 *   if (d.error) fprintf(stderr, "offset %zu: %s\n", d.error_offset, d.error);
 */
#ifndef ARMPROF_DECODE_H
#define ARMPROF_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

/* The packet types of D18.2, by header (Tables D18-1 and D18-2). */
typedef enum armprof_spe_packet_type {
    ARMPROF_SPE_PKT_PADDING,     /* 0x00 (D18.2.8) */
    ARMPROF_SPE_PKT_END,         /* 0x01 (D18.2.5) */
    ARMPROF_SPE_PKT_TIMESTAMP,   /* 0x71 (D18.2.9) */
    ARMPROF_SPE_PKT_ADDRESS,     /* 0b10110xxx, or 0b001000xx 0b10110xxx (D18.2.1) */
    ARMPROF_SPE_PKT_COUNTER,     /* 0b10011xxx, or 0b001000xx 0b10011xxx (D18.2.3) */
    ARMPROF_SPE_PKT_CONTEXT,     /* 0b011001xx (D18.2.2) */
    ARMPROF_SPE_PKT_DATA_SOURCE, /* 0b01xx0011 (D18.2.4) */
    ARMPROF_SPE_PKT_EVENTS,      /* 0b01xx0010 (D18.2.6) */
    ARMPROF_SPE_PKT_OP_TYPE,     /* 0b010010xx (D18.2.7) */
    ARMPROF_SPE_PKT_UNKNOWN,     /* any other header: skipped by its size (D18.1.3) */
} armprof_spe_packet_type;

/* One packet as it stands in the stream. */
typedef struct armprof_spe_packet {
    size_t offset; /* of the first header byte, from the start of the stream */
    armprof_spe_packet_type type;
    uint8_t header[2];    /* header[1] only for a 16-bit header */
    uint8_t header_size;  /* 1 or 2 */
    uint8_t payload_size; /* 0, 1, 2, 4 or 8 bytes */
    /* Address and Counter: INDEX (0..31, the Extended format's byte 0 bits
     * [1:0] are INDEX[4:3]); Context: INDEX; Operation Type: CLASS. */
    uint8_t index;
    /* A known packet type whose header or payload holds a value the manual
     * calls reserved. Software ignores it (D18.1.3); the record decoder does. */
    bool reserved;
    uint64_t payload; /* little-endian (D18.1.2) */
} armprof_spe_packet;

typedef enum armprof_spe_decode_status {
    ARMPROF_SPE_DECODE_OK,    /* a packet or record was decoded */
    ARMPROF_SPE_DECODE_EOF,   /* no more bytes (not an error) */
    ARMPROF_SPE_DECODE_ERROR, /* malformed: see error and error_offset */
    ARMPROF_SPE_DECODE_MORE,  /* streaming only: feed the next chunk, or finish */
} armprof_spe_decode_status;

/* A position in a byte stream. Fields are read-only for the caller. */
typedef struct armprof_spe_decoder {
    const uint8_t *data;
    size_t size;
    size_t pos;
    const char *error;   /* why the last call returned ERROR (a static string) */
    size_t error_offset; /* the byte offset the error is about */
} armprof_spe_decoder;

/* Arguments: the decoder and the packet or record to fill must not be NULL.
 * data may be NULL: an empty stream, whatever size says. */
void armprof_spe_decoder_init(armprof_spe_decoder *d, const uint8_t *data, size_t size);

/* The next packet. ERROR when the stream ends inside a header or payload:
 * error_offset is the packet's first byte, and the decoder moves to the end
 * of the stream. */
armprof_spe_decode_status armprof_spe_next_packet(armprof_spe_decoder *d, armprof_spe_packet *p);

/* Address packet INDEX values (D18.2.1). */
enum {
    ARMPROF_SPE_ADDR_PC = 0,
    ARMPROF_SPE_ADDR_BRANCH_TARGET = 1,
    ARMPROF_SPE_ADDR_DATA_VIRTUAL = 2,
    ARMPROF_SPE_ADDR_DATA_PHYSICAL = 3,
    ARMPROF_SPE_ADDR_PREV_BRANCH_TARGET = 4,
};
/* Counter packet INDEX values (D18.2.3). */
enum {
    ARMPROF_SPE_COUNTER_TOTAL = 0,
    ARMPROF_SPE_COUNTER_ISSUE = 1,
    ARMPROF_SPE_COUNTER_TRANSLATION = 2,
    ARMPROF_SPE_COUNTER_ALT_ISSUE = 4,
};

/* One sample record (D18.1.2): the packets from the first one after any
 * Padding up to and including an End or Timestamp packet. A packet that
 * occurs twice keeps its last value. */
typedef struct armprof_spe_record {
    size_t offset;          /* of the record's first packet */
    size_t size;            /* bytes, up to and including End or Timestamp */
    uint32_t address_valid; /* bit i: address[i] holds the payload of INDEX i */
    uint64_t address[32];
    uint32_t counter_valid; /* bit i: counter[i] holds the payload of INDEX i */
    uint16_t counter[32];
    uint8_t context_valid; /* bit 0: CONTEXTIDR_EL1, bit 1: CONTEXTIDR_EL2 */
    uint32_t context[2];
    bool events_valid;
    uint8_t events_size; /* payload bytes; bits not output read as zero */
    uint64_t events;
    bool data_source_valid;
    uint8_t data_source_size;
    uint16_t data_source;
    bool op_valid;
    uint8_t op_class, op_subclass;
    bool timestamp_valid; /* ended by a Timestamp packet, not End */
    uint64_t timestamp;
    uint32_t packets; /* packets in the record, Padding excluded */
    uint32_t ignored; /* of which unknown or reserved, ignored (D18.1.3) */
} armprof_spe_record;

/* The next record, Padding before it skipped. ERROR when a packet is
 * truncated or the stream ends before the record's End or Timestamp packet;
 * *r then holds what was decoded of the record. */
armprof_spe_decode_status armprof_spe_next_record(armprof_spe_decoder *d, armprof_spe_record *r);

/* Adds a packet to a record being assembled, as armprof_spe_next_record()
 * does: the first packet gives the record's offset, Padding inside a record
 * counts for nothing, a repeated packet keeps its last value. Returns true
 * when the packet ends the record (End or Timestamp); false also when r or
 * p is NULL. Clear *r (all zero) before its first packet. */
bool armprof_spe_record_add_packet(armprof_spe_record *r, const armprof_spe_packet *p);

/* ---- streaming: the bytes in chunks ----
 *
 * The same packets and records, with the same offsets (from the start of
 * the whole stream) and errors, for a stream that arrives in pieces of any
 * size: a file read a block at a time, a buffer drained as it fills. Memory
 * is the decoder's own (a packet split across two chunks is carried over,
 * at most ten bytes), whatever the length of the stream.
 *
 *   armprof_spe_stream s;
 *   armprof_spe_stream_init(&s);
 *   for (;;) {
 *       st = armprof_spe_stream_next_record(&s, &r);
 *       if (st == ARMPROF_SPE_DECODE_MORE) {
 *           n = fread(buf, 1, sizeof buf, f);
 *           if (n) armprof_spe_stream_feed(&s, buf, n); else armprof_spe_stream_finish(&s);
 *       } else if (st == ARMPROF_SPE_DECODE_OK) use(&r); else break;
 *   }
 *
 * A record that spans chunks is assembled in the decoder, so its packets
 * may come from chunks that no longer exist. Packets and records may be
 * taken in turn from one stream, but a record then holds only the packets
 * taken as part of it; use one or the other. */
typedef struct armprof_spe_stream {
    /* Private: the state between calls. Read only error and error_offset. */
    const uint8_t *chunk;
    size_t chunk_size, chunk_pos;
    size_t chunk_offset; /* of chunk[0] in the stream */
    uint8_t carry[16];   /* the start of a packet cut by the end of a chunk */
    uint8_t carry_size;
    size_t carry_offset;
    bool finished, in_record;
    armprof_spe_record record; /* assembled by armprof_spe_stream_next_record() */
    const char *error;         /* why the last call returned ERROR (a static string) */
    size_t error_offset;       /* the byte offset the error is about */
} armprof_spe_stream;

void armprof_spe_stream_init(armprof_spe_stream *s);
/* The next bytes of the stream. They are read in place: keep them
 * unchanged until a call returns MORE (the decoder then holds no pointer to
 * them). Feeding before MORE is returned, or after finish, is ignored and
 * returns false. */
bool armprof_spe_stream_feed(armprof_spe_stream *s, const uint8_t *data, size_t size);
/* No more bytes will come: a packet or record left open becomes an ERROR,
 * as at the end of the data for armprof_spe_next_packet()/next_record(). */
void armprof_spe_stream_finish(armprof_spe_stream *s);
/* As armprof_spe_next_packet(), or MORE when the bytes fed are used up. */
armprof_spe_decode_status armprof_spe_stream_next_packet(armprof_spe_stream *s,
                                                         armprof_spe_packet *p);
/* As armprof_spe_next_record(), or MORE when the bytes fed are used up
 * (the record so far is kept, and goes on with the next chunk). *r holds a
 * record only when OK or ERROR is returned; after MORE or EOF its contents
 * are unspecified. */
armprof_spe_decode_status armprof_spe_stream_next_record(armprof_spe_stream *s,
                                                         armprof_spe_record *r);

/* ---- interpreting payloads ---- */

/* An instruction address: PC, branch target or previous branch target
 * (D18.2.1). va is ADDR, bits [55:0], sign-extended from bit 55. */
typedef struct armprof_spe_inst_address {
    uint64_t va;
    uint8_t el;           /* EL, byte 7 bits [6:5] */
    bool ns;              /* NS, byte 7 bit [7] */
    bool nse;             /* NSE, byte 7 bit [4] (FEAT_RME) */
    const char *security; /* "Secure", "Non-secure", "Realm" or "reserved" */
} armprof_spe_inst_address;
armprof_spe_inst_address armprof_spe_decode_inst_address(uint64_t payload);

/* A data access virtual address: TAG, byte 7, and ADDR, bytes 6:0. va is
 * TAG:ADDR when TAG is not zero, ADDR sign-extended from bit 55 otherwise
 * (TAG reads as zero when TBI is 0). */
typedef struct armprof_spe_data_va {
    uint64_t va;
    uint8_t tag;
} armprof_spe_data_va;
armprof_spe_data_va armprof_spe_decode_data_va(uint64_t payload);

/* A data access physical address. */
typedef struct armprof_spe_data_pa {
    uint64_t pa;     /* ADDR, bits [55:0] */
    bool ns;         /* NS, byte 7 bit [7] */
    bool ch;         /* CH, byte 7 bit [6]: Tag Checked (FEAT_MTE2) */
    bool nse;        /* NSE, byte 7 bit [4] (FEAT_RME) */
    uint8_t pat;     /* PAT, byte 7 bits [3:0] (FEAT_MTE2) */
    const char *pas; /* "Secure", "Non-secure", "Realm" or "reserved" */
} armprof_spe_data_pa;
armprof_spe_data_pa armprof_spe_decode_data_pa(uint64_t payload);

/* The Operation Type payload types of D18.2.7, from CLASS and SUBCLASS. */
typedef enum armprof_spe_op_kind {
    ARMPROF_SPE_OP_OTHER,        /* Other: ASE, FP, COND */
    ARMPROF_SPE_OP_SVE,          /* Data processing, SVE vector: EVL, PRED, FP */
    ARMPROF_SPE_OP_SME,          /* Data processing, SME array: ETS, FP */
    ARMPROF_SPE_OP_LDST_GP,      /* Load/store, general: general-purpose registers */
    ARMPROF_SPE_OP_LDST_SIMDFP,  /* ... SIMD&FP registers */
    ARMPROF_SPE_OP_LDST_UNSPEC,  /* ... unspecified registers */
    ARMPROF_SPE_OP_LDST_TAGS,    /* ... Allocation Tags */
    ARMPROF_SPE_OP_LDST_NV2,     /* ... MRS or MSR transformed by HCR_EL2.NV2 */
    ARMPROF_SPE_OP_LDST_EXT,     /* Load/store, extended: AR, EXCL, AT */
    ARMPROF_SPE_OP_LDST_SVE_SME, /* Load/store, SVE or SME: SG, EVL, PRED */
    ARMPROF_SPE_OP_LDST_MEMCPY,  /* Load/store, Memory Copy */
    ARMPROF_SPE_OP_LDST_MEMSET,  /* Load/store, Memory Set */
    ARMPROF_SPE_OP_LDST_GCS,     /* Load/store, GCS: COMM */
    ARMPROF_SPE_OP_BRANCH,       /* Branch: CR, GCS, IND, COND */
    ARMPROF_SPE_OP_RESERVED,     /* a reserved CLASS or SUBCLASS */
} armprof_spe_op_kind;

/* An Operation Type payload's fields; those its kind does not have are 0. */
typedef struct armprof_spe_op {
    armprof_spe_op_kind kind;
    const char *name;  /* the payload type's name in D18.2.7 */
    bool ldst;         /* LDST: store, or an access that returns no value */
    bool cond;         /* COND */
    bool fp;           /* FP */
    bool ase;          /* ASE: Advanced SIMD */
    bool pred;         /* PRED */
    bool sg;           /* SG: gather or scatter */
    bool ar, excl, at; /* AR, EXCL, AT */
    bool comm;         /* COMM: not a Branch with link or Procedure return */
    bool gcs;          /* Branch GCS */
    bool ind;          /* IND: indirect branch */
    uint8_t cr;        /* CR: 0 not recorded, 1 with link, 2 return, 3 neither */
    uint8_t evl;       /* EVL encoding; bits = 32 << evl (7: more than 2048) */
    uint8_t ets;       /* ETS encoding, bits [6:4,2]; bits = 128 << ets, 15: whole ZA */
} armprof_spe_op;
armprof_spe_op armprof_spe_decode_op(unsigned op_class, unsigned subclass);

/* The Events packet bit's name in D18.2.6 ("Architecturally retired"), or
 * NULL for an IMPLEMENTATION DEFINED or read-as-zero bit. */
const char *armprof_spe_event_name(unsigned bit);
/* Short names for text output ("retired", "l1d-access", ...), NULL as above. */
const char *armprof_spe_event_short_name(unsigned bit);
/* Names of an Address or Counter packet INDEX ("PC", "total latency"), or
 * "IMPDEF" / "reserved". */
const char *armprof_spe_address_name(unsigned index);
const char *armprof_spe_counter_name(unsigned index);
const char *armprof_spe_packet_type_name(armprof_spe_packet_type type);

/* ---- text ---- */

/* One line (without a newline) describing the packet with the manual's
 * names and field values; snprintf semantics (returns the length it needed;
 * buf may be NULL when size is 0). p must not be NULL. */
int armprof_spe_packet_text(const armprof_spe_packet *p, char *buf, size_t size);
/* The packet as one JSON object; snprintf semantics. */
int armprof_spe_packet_json(const armprof_spe_packet *p, char *buf, size_t size);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif
#endif
