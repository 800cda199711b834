/* SPDX-License-Identifier: BSD-3-Clause AND Apache-2.0 */
/* The SPE decoder (include/armprof/decode.h) on two Profiling Buffer
 * excerpts recorded on real hardware (tests/data/real-spe/, whose README.md
 * gives their provenance and licences): every packet of the two streams,
 * Padding included (offset, type, header byte, INDEX or CLASS, payload size
 * and value, not reserved), then every record (offset, size, packet count,
 * the value the record keeps of each packet) and the payload interpreters
 * on its fields: PC and branch target addresses with EL, NS and NSE; data
 * virtual address with TAG; latency counters; Events bits and their names;
 * Operation Type CLASS, SUBCLASS and the fields of its payload type; Data
 * Source; Context; Timestamp.
 *
 * Every expected value was worked out by hand from `xxd` of the files and
 * chapter D18 of the manual: D18.1.1 (how the first header byte gives the
 * payload size), Table D18-1 (8-bit headers; no header in these files is in
 * 0x20-0x3F, so Table D18-2's 16-bit headers do not occur), D18.1.2
 * (payloads are little-endian: the last payload byte is the most
 * significant) and the field layouts of D18.2. None was taken from the
 * decoder's output. Each value's comment names the bytes (file offsets) it
 * comes from and the section that defines the field.
 *
 * The header bytes that occur, bit by bit against Table D18-1:
 *   0x00 0b00000000  Padding (D18.2.8), no payload (D18.1.1: 0x00-0x1F).
 *   0x43 0b01000011  Data Source (0b01xx0011, D18.2.4); SZ [5:4] 0b00: 1 byte.
 *   0x49 0b01001001  Operation Type (0b010010xx, D18.2.7), SZ 0b00: 1 byte;
 *                    CLASS [1:0] 0b01 Load, store, or atomic.
 *   0x4a 0b01001010  Operation Type, CLASS 0b10 Branch or exception return.
 *   0x52 0b01010010  Events (0b01xx0010, D18.2.6); SZ 0b01: halfword.
 *   0x62 0b01100010  Events; SZ 0b10: word. (Not Context: Context is
 *                    0b011001xx, and bits [3:2] here are 0b00.)
 *   0x65 0b01100101  Context (0b011001xx, D18.2.2), SZ 0b10: word; INDEX
 *                    [1:0] 0b01 CONTEXTIDR_EL2.
 *   0x71 0b01110001  Timestamp (D18.2.9), SZ 0b11: doubleword; ends a record
 *                    (D18.1.2).
 *   0x98 0b10011000  Counter, Short format (0b10011xxx, D18.2.3), SZ 0b01:
 *                    halfword; INDEX [2:0] 0b000 Total latency.
 *   0x99 0b10011001  Counter, INDEX 0b001 Issue latency.
 *   0x9a 0b10011010  Counter, INDEX 0b010 Translation latency.
 *   0xb0 0b10110000  Address, Short format (0b10110xxx, D18.2.1), SZ 0b11:
 *                    doubleword; INDEX [2:0] 0b000 Instruction virtual
 *                    address (PC).
 *   0xb1 0b10110001  Address, INDEX 0b001 Branch target address.
 *   0xb2 0b10110010  Address, INDEX 0b010 Data access virtual address.
 *
 * The test takes no arguments: the files' bytes are embedded below, and
 * compared with tests/data/real-spe/ when the sources are where __FILE__
 * says. Every run decodes a heap copy of exactly the file's bytes, so that
 * under AddressSanitizer a read past the end is an error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "check.h"

/* ---- the two files ---- */

/* tests/data/real-spe/hiperf-4records.spe: 192 bytes, sha256
 * 40b786f8052a6219a25579a00bb197f8283b51ee579320724e37fbfc6c19bbe1. From
 * OpenHarmony developtools_hiperf, test/unittest/common/native/
 * spe_decoder_test.cpp (commit 1e5019667eab48293f46df20e3f74e0726d217fd),
 * Apache-2.0: see tests/data/real-spe/LICENSE.Apache-2.0. 16 bytes a line,
 * as `xxd` shows them: the lines start at offsets 0x00, 0x10, 0x20, ... */
static const uint8_t hiperf[192] = {
    0xb0, 0x68, 0xe0, 0x20, 0x84, 0xc0, 0xff, 0xff, 0xa0, 0x99, 0x06, 0x00, 0x98, 0x08, 0x00, 0x62,
    0x16, 0x00, 0x00, 0x00, 0x49, 0x00, 0x00, 0x00, 0xb2, 0xb0, 0x80, 0xad, 0xae, 0xe5, 0xff, 0xff,
    0x00, 0x9a, 0x01, 0x00, 0x00, 0x00, 0x00, 0x71, 0x46, 0xf9, 0xd5, 0x4a, 0x10, 0x62, 0x01, 0x00,
    0xb0, 0x0c, 0x27, 0xb9, 0xf2, 0x59, 0x00, 0x00, 0x80, 0x99, 0x07, 0x00, 0x98, 0x0a, 0x00, 0x62,
    0x12, 0x00, 0x00, 0x00, 0x49, 0x01, 0x00, 0x00, 0xb2, 0x60, 0x73, 0x2b, 0x81, 0x5a, 0x00, 0x00,
    0x00, 0x9a, 0x01, 0x00, 0x00, 0x00, 0x00, 0x71, 0x20, 0x43, 0xd6, 0x4a, 0x10, 0x62, 0x01, 0x00,
    0xb0, 0x68, 0x54, 0xf9, 0xf4, 0x59, 0x00, 0x00, 0x80, 0x99, 0x02, 0x00, 0x98, 0x03, 0x00, 0x62,
    0x42, 0x00, 0x00, 0x00, 0x4a, 0x01, 0x00, 0x00, 0xb1, 0x6c, 0x54, 0xf9, 0xf4, 0x59, 0x00, 0x00,
    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0xa1, 0x6c, 0xd6, 0x4a, 0x10, 0x62, 0x01, 0x00,
    0xb0, 0xb4, 0x2b, 0x20, 0x84, 0xc0, 0xff, 0xff, 0xa0, 0x99, 0x02, 0x00, 0x98, 0x03, 0x00, 0x62,
    0x02, 0x00, 0x00, 0x00, 0x4a, 0x02, 0x00, 0x00, 0xb1, 0xac, 0x5c, 0x35, 0x84, 0xc0, 0xff, 0xff,
    0xa0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0xcc, 0x99, 0xd6, 0x4a, 0x10, 0x62, 0x01, 0x00};

/* tests/data/real-spe/quipper-2records.spe: 128 bytes, sha256
 * 211a40d2cc6523846b96173613b97e6ea74f6e946f57dc90d62e356dc0581fa6. From
 * google/perf_data_converter, src/quipper/arm_spe_decoder_test.cc,
 * SampleSPEPackets (commit 530879f5c78623048982761008d2466f898a4649),
 * BSD-3-Clause, Copyright (c) 2016 Google Inc.: see
 * tests/data/real-spe/LICENSE.BSD-3-Clause.perf_data_converter. */
static const uint8_t quipper[128] = {
    0xb0, 0xd0, 0xc2, 0xa1, 0xed, 0x66, 0xba, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0x80,
    0x5f, 0x00, 0x00, 0x49, 0x00, 0x52, 0x16, 0x00, 0x99, 0x04, 0x00, 0x98, 0x0c, 0x00, 0xb2, 0x28,
    0x6b, 0x09, 0x03, 0x37, 0x0e, 0xff, 0x00, 0x9a, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x43, 0x00, 0x00, 0x00, 0x71, 0x2e, 0x65, 0x2f, 0x6a, 0x0a, 0x00, 0x00, 0x00,
    0xb0, 0xe0, 0xb0, 0xef, 0xed, 0x66, 0xba, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0x0e,
    0x00, 0x00, 0x00, 0x4a, 0x01, 0x52, 0x42, 0x00, 0x99, 0x10, 0x00, 0x98, 0x11, 0x00, 0xb1, 0xe4,
    0xb0, 0xef, 0xed, 0x66, 0xba, 0xff, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x71, 0x8d, 0x65, 0x2f, 0x6a, 0x0a, 0x00, 0x00, 0x00};

/* ---- every packet ---- */

typedef struct want_packet {
    uint16_t offset;
    armprof_spe_packet_type type;
    uint8_t header;       /* the (only) header byte */
    uint8_t index;        /* Address, Counter, Context INDEX; Operation Type CLASS; else 0 */
    uint8_t payload_size; /* bytes, from SZ (D18.1.1) */
    uint64_t payload;     /* the payload bytes, little-endian (D18.1.2) */
    uint8_t count;        /* 1; for Padding, this many one-byte packets in a row */
} want_packet;

#define PK(t) ARMPROF_SPE_PKT_##t

static const want_packet hiperf_packets[] = {
    /* -- record 0, 0x00-0x2f -- */
    /* 0x00: b0 Address INDEX 0 PC (D18.2.1); bytes 0x01-0x08 68 e0 20 84 c0 ff ff a0 */
    {0x00, PK(ADDRESS), 0xb0, 0, 8, UINT64_C(0xa0ffffc08420e068), 1},
    /* 0x09: 99 Counter INDEX 1 issue latency (D18.2.3); bytes 0x0a-0x0b 06 00 */
    {0x09, PK(COUNTER), 0x99, 1, 2, 0x0006, 1},
    /* 0x0c: 98 Counter INDEX 0 total latency (D18.2.3); bytes 0x0d-0x0e 08 00 */
    {0x0c, PK(COUNTER), 0x98, 0, 2, 0x0008, 1},
    /* 0x0f: 62 Events, word (D18.2.6); bytes 0x10-0x13 16 00 00 00 */
    {0x0f, PK(EVENTS), 0x62, 0, 4, 0x00000016, 1},
    /* 0x14: 49 Operation Type CLASS 0b01 (D18.2.7); SUBCLASS byte 0x15 00 */
    {0x14, PK(OP_TYPE), 0x49, 1, 1, 0x00, 1},
    {0x16, PK(PADDING), 0x00, 0, 0, 0, 2}, /* 0x16-0x17: 00 Padding (D18.2.8) */
    /* 0x18: b2 Address INDEX 2 data VA (D18.2.1); bytes 0x19-0x20 b0 80 ad ae e5 ff ff 00 */
    {0x18, PK(ADDRESS), 0xb2, 2, 8, UINT64_C(0x00ffffe5aead80b0), 1},
    /* 0x21: 9a Counter INDEX 2 translation latency (D18.2.3); bytes 0x22-0x23 01 00 */
    {0x21, PK(COUNTER), 0x9a, 2, 2, 0x0001, 1},
    {0x24, PK(PADDING), 0x00, 0, 0, 0, 3}, /* 0x24-0x26: 00 Padding (D18.2.8) */
    /* 0x27: 71 Timestamp (D18.2.9); TS bytes 0x28-0x2f 46 f9 d5 4a 10 62 01 00 */
    {0x27, PK(TIMESTAMP), 0x71, 0, 8, UINT64_C(0x000162104ad5f946), 1},

    /* -- record 1, 0x30-0x5f -- */
    /* 0x30: b0 Address INDEX 0 PC; bytes 0x31-0x38 0c 27 b9 f2 59 00 00 80 */
    {0x30, PK(ADDRESS), 0xb0, 0, 8, UINT64_C(0x80000059f2b9270c), 1},
    /* 0x39: 99 issue latency; bytes 0x3a-0x3b 07 00 */
    {0x39, PK(COUNTER), 0x99, 1, 2, 0x0007, 1},
    /* 0x3c: 98 total latency; bytes 0x3d-0x3e 0a 00 */
    {0x3c, PK(COUNTER), 0x98, 0, 2, 0x000a, 1},
    /* 0x3f: 62 Events, word; bytes 0x40-0x43 12 00 00 00 */
    {0x3f, PK(EVENTS), 0x62, 0, 4, 0x00000012, 1},
    /* 0x44: 49 Operation Type CLASS 0b01; SUBCLASS byte 0x45 01 */
    {0x44, PK(OP_TYPE), 0x49, 1, 1, 0x01, 1},
    {0x46, PK(PADDING), 0x00, 0, 0, 0, 2}, /* 0x46-0x47: 00 Padding (D18.2.8) */
    /* 0x48: b2 data VA; bytes 0x49-0x50 60 73 2b 81 5a 00 00 00 */
    {0x48, PK(ADDRESS), 0xb2, 2, 8, UINT64_C(0x0000005a812b7360), 1},
    /* 0x51: 9a translation latency; bytes 0x52-0x53 01 00 */
    {0x51, PK(COUNTER), 0x9a, 2, 2, 0x0001, 1},
    {0x54, PK(PADDING), 0x00, 0, 0, 0, 3}, /* 0x54-0x56: 00 Padding (D18.2.8) */
    /* 0x57: 71 Timestamp; bytes 0x58-0x5f 20 43 d6 4a 10 62 01 00 */
    {0x57, PK(TIMESTAMP), 0x71, 0, 8, UINT64_C(0x000162104ad64320), 1},

    /* -- record 2, 0x60-0x8f -- */
    /* 0x60: b0 PC; bytes 0x61-0x68 68 54 f9 f4 59 00 00 80 */
    {0x60, PK(ADDRESS), 0xb0, 0, 8, UINT64_C(0x80000059f4f95468), 1},
    /* 0x69: 99 issue latency; bytes 0x6a-0x6b 02 00 */
    {0x69, PK(COUNTER), 0x99, 1, 2, 0x0002, 1},
    /* 0x6c: 98 total latency; bytes 0x6d-0x6e 03 00 */
    {0x6c, PK(COUNTER), 0x98, 0, 2, 0x0003, 1},
    /* 0x6f: 62 Events, word; bytes 0x70-0x73 42 00 00 00 */
    {0x6f, PK(EVENTS), 0x62, 0, 4, 0x00000042, 1},
    /* 0x74: 4a Operation Type CLASS 0b10 (D18.2.7); SUBCLASS byte 0x75 01 */
    {0x74, PK(OP_TYPE), 0x4a, 2, 1, 0x01, 1},
    {0x76, PK(PADDING), 0x00, 0, 0, 0, 2}, /* 0x76-0x77: 00 Padding (D18.2.8) */
    /* 0x78: b1 Address INDEX 1 branch target (D18.2.1); bytes 0x79-0x80
     * 6c 54 f9 f4 59 00 00 80 */
    {0x78, PK(ADDRESS), 0xb1, 1, 8, UINT64_C(0x80000059f4f9546c), 1},
    {0x81, PK(PADDING), 0x00, 0, 0, 0, 6}, /* 0x81-0x86: 00 Padding (D18.2.8) */
    /* 0x87: 71 Timestamp; bytes 0x88-0x8f a1 6c d6 4a 10 62 01 00 */
    {0x87, PK(TIMESTAMP), 0x71, 0, 8, UINT64_C(0x000162104ad66ca1), 1},

    /* -- record 3, 0x90-0xbf -- */
    /* 0x90: b0 PC; bytes 0x91-0x98 b4 2b 20 84 c0 ff ff a0 */
    {0x90, PK(ADDRESS), 0xb0, 0, 8, UINT64_C(0xa0ffffc084202bb4), 1},
    /* 0x99: 99 issue latency; bytes 0x9a-0x9b 02 00 */
    {0x99, PK(COUNTER), 0x99, 1, 2, 0x0002, 1},
    /* 0x9c: 98 total latency; bytes 0x9d-0x9e 03 00 */
    {0x9c, PK(COUNTER), 0x98, 0, 2, 0x0003, 1},
    /* 0x9f: 62 Events, word; bytes 0xa0-0xa3 02 00 00 00 */
    {0x9f, PK(EVENTS), 0x62, 0, 4, 0x00000002, 1},
    /* 0xa4: 4a Operation Type CLASS 0b10; SUBCLASS byte 0xa5 02 */
    {0xa4, PK(OP_TYPE), 0x4a, 2, 1, 0x02, 1},
    {0xa6, PK(PADDING), 0x00, 0, 0, 0, 2}, /* 0xa6-0xa7: 00 Padding (D18.2.8) */
    /* 0xa8: b1 branch target; bytes 0xa9-0xb0 ac 5c 35 84 c0 ff ff a0 */
    {0xa8, PK(ADDRESS), 0xb1, 1, 8, UINT64_C(0xa0ffffc084355cac), 1},
    {0xb1, PK(PADDING), 0x00, 0, 0, 0, 6}, /* 0xb1-0xb6: 00 Padding (D18.2.8) */
    /* 0xb7: 71 Timestamp; bytes 0xb8-0xbf cc 99 d6 4a 10 62 01 00 */
    {0xb7, PK(TIMESTAMP), 0x71, 0, 8, UINT64_C(0x000162104ad699cc), 1},
};

static const want_packet quipper_packets[] = {
    /* -- record 0, 0x00-0x3f -- */
    /* 0x00: b0 Address INDEX 0 PC (D18.2.1); bytes 0x01-0x08 d0 c2 a1 ed 66 ba ff c0 */
    {0x00, PK(ADDRESS), 0xb0, 0, 8, UINT64_C(0xc0ffba66eda1c2d0), 1},
    {0x09, PK(PADDING), 0x00, 0, 0, 0, 5}, /* 0x09-0x0d: 00 Padding (D18.2.8) */
    /* 0x0e: 65 Context INDEX 1 (D18.2.2); CONTEXT bytes 0x0f-0x12 80 5f 00 00 */
    {0x0e, PK(CONTEXT), 0x65, 1, 4, 0x00005f80, 1},
    /* 0x13: 49 Operation Type CLASS 0b01 (D18.2.7); SUBCLASS byte 0x14 00 */
    {0x13, PK(OP_TYPE), 0x49, 1, 1, 0x00, 1},
    /* 0x15: 52 Events, halfword (D18.2.6); bytes 0x16-0x17 16 00 */
    {0x15, PK(EVENTS), 0x52, 0, 2, 0x0016, 1},
    /* 0x18: 99 Counter INDEX 1 issue latency (D18.2.3); bytes 0x19-0x1a 04 00 */
    {0x18, PK(COUNTER), 0x99, 1, 2, 0x0004, 1},
    /* 0x1b: 98 Counter INDEX 0 total latency; bytes 0x1c-0x1d 0c 00 */
    {0x1b, PK(COUNTER), 0x98, 0, 2, 0x000c, 1},
    /* 0x1e: b2 Address INDEX 2 data VA; bytes 0x1f-0x26 28 6b 09 03 37 0e ff 00 */
    {0x1e, PK(ADDRESS), 0xb2, 2, 8, UINT64_C(0x00ff0e3703096b28), 1},
    /* 0x27: 9a Counter INDEX 2 translation latency; bytes 0x28-0x29 01 00 */
    {0x27, PK(COUNTER), 0x9a, 2, 2, 0x0001, 1},
    {0x2a, PK(PADDING), 0x00, 0, 0, 0, 9}, /* 0x2a-0x32: 00 Padding (D18.2.8) */
    /* 0x33: 43 Data Source, byte (D18.2.4); SOURCE byte 0x34 00 */
    {0x33, PK(DATA_SOURCE), 0x43, 0, 1, 0x00, 1},
    {0x35, PK(PADDING), 0x00, 0, 0, 0, 2}, /* 0x35-0x36: 00 Padding (D18.2.8) */
    /* 0x37: 71 Timestamp (D18.2.9); TS bytes 0x38-0x3f 2e 65 2f 6a 0a 00 00 00 */
    {0x37, PK(TIMESTAMP), 0x71, 0, 8, UINT64_C(0x0000000a6a2f652e), 1},

    /* -- record 1, 0x40-0x7f -- */
    /* 0x40: b0 PC; bytes 0x41-0x48 e0 b0 ef ed 66 ba ff c0 */
    {0x40, PK(ADDRESS), 0xb0, 0, 8, UINT64_C(0xc0ffba66edefb0e0), 1},
    {0x49, PK(PADDING), 0x00, 0, 0, 0, 5}, /* 0x49-0x4d: 00 Padding (D18.2.8) */
    /* 0x4e: 65 Context INDEX 1; CONTEXT bytes 0x4f-0x52 0e 00 00 00 */
    {0x4e, PK(CONTEXT), 0x65, 1, 4, 0x0000000e, 1},
    /* 0x53: 4a Operation Type CLASS 0b10; SUBCLASS byte 0x54 01 */
    {0x53, PK(OP_TYPE), 0x4a, 2, 1, 0x01, 1},
    /* 0x55: 52 Events, halfword; bytes 0x56-0x57 42 00 */
    {0x55, PK(EVENTS), 0x52, 0, 2, 0x0042, 1},
    /* 0x58: 99 issue latency; bytes 0x59-0x5a 10 00 */
    {0x58, PK(COUNTER), 0x99, 1, 2, 0x0010, 1},
    /* 0x5b: 98 total latency; bytes 0x5c-0x5d 11 00 */
    {0x5b, PK(COUNTER), 0x98, 0, 2, 0x0011, 1},
    /* 0x5e: b1 Address INDEX 1 branch target; bytes 0x5f-0x66 e4 b0 ef ed 66 ba ff c0 */
    {0x5e, PK(ADDRESS), 0xb1, 1, 8, UINT64_C(0xc0ffba66edefb0e4), 1},
    {0x67, PK(PADDING), 0x00, 0, 0, 0, 16}, /* 0x67-0x76: 00 Padding (D18.2.8) */
    /* 0x77: 71 Timestamp; bytes 0x78-0x7f 8d 65 2f 6a 0a 00 00 00 */
    {0x77, PK(TIMESTAMP), 0x71, 0, 8, UINT64_C(0x0000000a6a2f658d), 1},
};

/* ---- every record, and what its fields mean ---- */

/* An instruction address payload (PC or branch target, D18.2.1): ADDR is
 * bytes 6:0 (bits [55:0]); byte 7 holds NS bit [7], EL bits [6:5], NSE bit
 * [4] and bits [3:0], which read as 0b0000. */
typedef struct want_inst_address {
    uint64_t addr; /* ADDR, bits [55:0] */
    uint8_t el;
    bool ns;
} want_inst_address;

typedef struct want_record {
    uint16_t offset, size; /* from its first packet up to and including the Timestamp */
    uint8_t packets;       /* packets other than Padding */
    uint32_t address_valid;
    want_inst_address pc, target; /* INDEX 0 and 1 */
    uint64_t data_addr;           /* INDEX 2: ADDR, bytes 6:0; TAG (byte 7) is 0 in all */
    uint32_t counter_valid;
    uint16_t counter[3]; /* INDEX 0 total, 1 issue, 2 translation latency */
    uint8_t context_valid;
    uint32_t context[2];
    uint8_t events_size; /* payload bytes */
    uint64_t events;
    const char *event_names[4]; /* D18.2.6's titles of the bits set, lowest first */
    uint8_t data_source_size;   /* 0: no Data Source packet */
    uint16_t data_source;
    uint8_t op_class, op_subclass;
    armprof_spe_op op; /* the SUBCLASS's payload type and fields (name not checked) */
    uint64_t timestamp;
} want_record;

#define ADDR_BIT(i) (UINT32_C(1) << ARMPROF_SPE_ADDR_##i)
#define CTR_BIT(i)  (UINT32_C(1) << ARMPROF_SPE_COUNTER_##i)
#define LATENCIES   (CTR_BIT(TOTAL) | CTR_BIT(ISSUE))

static const want_record hiperf_records[] = {
    {
        .offset = 0x00,
        .size = 48, /* 0x00-0x2f, the Timestamp's last byte at 0x2f */
        .packets = 8,
        .address_valid = ADDR_BIT(PC) | ADDR_BIT(DATA_VIRTUAL),
        /* bytes 0x01-0x07 -> ADDR 0xffffc08420e068; byte 0x08 0xa0 = 0b1010_0000:
         * NS 1, EL 0b01 (EL1), NSE 0 (D18.2.1) */
        .pc = {UINT64_C(0xffffc08420e068), 1, true},
        /* bytes 0x19-0x1f -> ADDR 0xffffe5aead80b0; byte 0x20 TAG 0x00 (D18.2.1) */
        .data_addr = UINT64_C(0xffffe5aead80b0),
        .counter_valid = LATENCIES | CTR_BIT(TRANSLATION),
        /* COUNT (D18.2.3): 0x0d-0x0e total 8, 0x0a-0x0b issue 6, 0x22-0x23 translation 1 */
        .counter = {8, 6, 1},
        /* 0x10-0x13: 0x16 = 0b0001_0110: E[1], E[2], E[4] (D18.2.6) */
        .events_size = 4,
        .events = 0x16,
        .event_names = {"Architecturally retired", "Level 1 data cache access", "TLB access"},
        /* CLASS 0b01 (header 0x49), SUBCLASS byte 0x15 = 0x00 = 0b0000000x: Load/store,
         * general, targeting the general-purpose registers; LDST bit [0] 0: a
         * memory-reading instruction (D18.2.7) */
        .op_class = 1,
        .op_subclass = 0x00,
        .op = {.kind = ARMPROF_SPE_OP_LDST_GP, .ldst = false},
        /* 0x28-0x2f (D18.2.9) */
        .timestamp = UINT64_C(0x000162104ad5f946),
    },
    {
        .offset = 0x30,
        .size = 48, /* 0x30-0x5f */
        .packets = 8,
        .address_valid = ADDR_BIT(PC) | ADDR_BIT(DATA_VIRTUAL),
        /* 0x31-0x37 -> ADDR 0x000059f2b9270c; 0x38 0x80 = 0b1000_0000: NS 1, EL 0b00 */
        .pc = {UINT64_C(0x000059f2b9270c), 0, true},
        /* 0x49-0x4f -> ADDR 0x00005a812b7360; 0x50 TAG 0x00 */
        .data_addr = UINT64_C(0x00005a812b7360),
        .counter_valid = LATENCIES | CTR_BIT(TRANSLATION),
        /* 0x3d-0x3e total 10, 0x3a-0x3b issue 7, 0x52-0x53 translation 1 */
        .counter = {10, 7, 1},
        /* 0x40-0x43: 0x12 = 0b0001_0010: E[1], E[4] */
        .events_size = 4,
        .events = 0x12,
        .event_names = {"Architecturally retired", "TLB access"},
        /* CLASS 0b01, SUBCLASS byte 0x45 = 0x01: Load/store, general-purpose; LDST 1:
         * not a memory-reading instruction (a store) */
        .op_class = 1,
        .op_subclass = 0x01,
        .op = {.kind = ARMPROF_SPE_OP_LDST_GP, .ldst = true},
        /* 0x58-0x5f */
        .timestamp = UINT64_C(0x000162104ad64320),
    },
    {
        .offset = 0x60,
        .size = 48, /* 0x60-0x8f */
        .packets = 7,
        .address_valid = ADDR_BIT(PC) | ADDR_BIT(BRANCH_TARGET),
        /* 0x61-0x67 -> ADDR 0x000059f4f95468; 0x68 0x80: NS 1, EL 0b00 */
        .pc = {UINT64_C(0x000059f4f95468), 0, true},
        /* 0x79-0x7f -> ADDR 0x000059f4f9546c; 0x80 0x80: NS 1, EL 0b00 (the target's
         * state, D18.2.1) */
        .target = {UINT64_C(0x000059f4f9546c), 0, true},
        .counter_valid = LATENCIES,
        /* 0x6d-0x6e total 3, 0x6a-0x6b issue 2 */
        .counter = {3, 2, 0},
        /* 0x70-0x73: 0x42 = 0b0100_0010: E[1], E[6] */
        .events_size = 4,
        .events = 0x42,
        .event_names = {"Architecturally retired", "Not taken"},
        /* CLASS 0b10 (header 0x4a), SUBCLASS byte 0x75 = 0x01 = 0b000_00_0_0_1: Branch;
         * CR [4:3] 0b00 not recorded, GCS [2] 0, IND [1] 0 direct, COND [0] 1
         * conditional (D18.2.7) */
        .op_class = 2,
        .op_subclass = 0x01,
        .op = {.kind = ARMPROF_SPE_OP_BRANCH, .cond = true},
        /* 0x88-0x8f */
        .timestamp = UINT64_C(0x000162104ad66ca1),
    },
    {
        .offset = 0x90,
        .size = 48, /* 0x90-0xbf */
        .packets = 7,
        .address_valid = ADDR_BIT(PC) | ADDR_BIT(BRANCH_TARGET),
        /* 0x91-0x97 -> ADDR 0xffffc084202bb4; 0x98 0xa0: NS 1, EL 0b01 */
        .pc = {UINT64_C(0xffffc084202bb4), 1, true},
        /* 0xa9-0xaf -> ADDR 0xffffc084355cac; 0xb0 0xa0: NS 1, EL 0b01 */
        .target = {UINT64_C(0xffffc084355cac), 1, true},
        .counter_valid = LATENCIES,
        /* 0x9d-0x9e total 3, 0x9a-0x9b issue 2 */
        .counter = {3, 2, 0},
        /* 0xa0-0xa3: 0x02: E[1] */
        .events_size = 4,
        .events = 0x02,
        .event_names = {"Architecturally retired"},
        /* CLASS 0b10, SUBCLASS byte 0xa5 = 0x02 = 0b000_00_0_1_0: Branch, CR 0b00,
         * GCS 0, IND 1 indirect, COND 0 unconditional */
        .op_class = 2,
        .op_subclass = 0x02,
        .op = {.kind = ARMPROF_SPE_OP_BRANCH, .ind = true},
        /* 0xb8-0xbf */
        .timestamp = UINT64_C(0x000162104ad699cc),
    },
};

static const want_record quipper_records[] = {
    {
        .offset = 0x00,
        .size = 64, /* 0x00-0x3f */
        .packets = 10,
        .address_valid = ADDR_BIT(PC) | ADDR_BIT(DATA_VIRTUAL),
        /* 0x01-0x07 -> ADDR 0xffba66eda1c2d0; 0x08 0xc0 = 0b1100_0000: NS 1, EL 0b10
         * (EL2), NSE 0 (D18.2.1) */
        .pc = {UINT64_C(0xffba66eda1c2d0), 2, true},
        /* 0x1f-0x25 -> ADDR 0xff0e3703096b28; 0x26 TAG 0x00 */
        .data_addr = UINT64_C(0xff0e3703096b28),
        .counter_valid = LATENCIES | CTR_BIT(TRANSLATION),
        /* 0x1c-0x1d total 12, 0x19-0x1a issue 4, 0x28-0x29 translation 1 */
        .counter = {12, 4, 1},
        /* INDEX 0b01: CONTEXTIDR_EL2 = bytes 0x0f-0x12, 0x5f80 (D18.2.2) */
        .context_valid = 1u << 1,
        .context = {0, 0x5f80},
        /* 0x16-0x17: 0x0016: E[1], E[2], E[4]; halfword (D18.2.6 SZ 0b01) */
        .events_size = 2,
        .events = 0x16,
        .event_names = {"Architecturally retired", "Level 1 data cache access", "TLB access"},
        /* byte 0x34: SOURCE 0x00, byte payload (D18.2.4; its meaning is
         * IMPLEMENTATION DEFINED) */
        .data_source_size = 1,
        .data_source = 0x00,
        /* CLASS 0b01, SUBCLASS byte 0x14 = 0x00: Load/store, general-purpose; LDST 0:
         * memory-reading (a load) */
        .op_class = 1,
        .op_subclass = 0x00,
        .op = {.kind = ARMPROF_SPE_OP_LDST_GP, .ldst = false},
        /* 0x38-0x3f */
        .timestamp = UINT64_C(0x0000000a6a2f652e),
    },
    {
        .offset = 0x40,
        .size = 64, /* 0x40-0x7f */
        .packets = 8,
        .address_valid = ADDR_BIT(PC) | ADDR_BIT(BRANCH_TARGET),
        /* 0x41-0x47 -> ADDR 0xffba66edefb0e0; 0x48 0xc0: NS 1, EL 0b10 */
        .pc = {UINT64_C(0xffba66edefb0e0), 2, true},
        /* 0x5f-0x65 -> ADDR 0xffba66edefb0e4; 0x66 0xc0: NS 1, EL 0b10 */
        .target = {UINT64_C(0xffba66edefb0e4), 2, true},
        .counter_valid = LATENCIES,
        /* 0x5c-0x5d total 0x11 = 17, 0x59-0x5a issue 0x10 = 16 */
        .counter = {17, 16, 0},
        /* CONTEXTIDR_EL2 = bytes 0x4f-0x52, 0x0e */
        .context_valid = 1u << 1,
        .context = {0, 0x0e},
        /* 0x56-0x57: 0x0042: E[1], E[6] */
        .events_size = 2,
        .events = 0x42,
        .event_names = {"Architecturally retired", "Not taken"},
        /* CLASS 0b10, SUBCLASS byte 0x54 = 0x01: Branch, CR 0b00, GCS 0, IND 0 direct,
         * COND 1 conditional */
        .op_class = 2,
        .op_subclass = 0x01,
        .op = {.kind = ARMPROF_SPE_OP_BRANCH, .cond = true},
        /* 0x78-0x7f */
        .timestamp = UINT64_C(0x0000000a6a2f658d),
    },
};

/* ---- the checks ---- */

static uint8_t *copy_of(const uint8_t *b, size_t n)
{
    uint8_t *c = malloc(n);
    if (!c) abort();
    memcpy(c, b, n);
    return c;
}

/* The packet tables cover each file byte for byte: each packet starts where
 * the one before it ends (D18.1.1: one header byte, then SZ's payload). */
static void check_table(const char *name, size_t size, const want_packet *w, size_t n)
{
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(w[i].offset == next, "%s: table entry %zu at 0x%x, expected 0x%zx", name, i,
              w[i].offset, next);
        CHECK(w[i].count == 1 || (w[i].type == ARMPROF_SPE_PKT_PADDING && w[i].count > 1),
              "%s: table entry %zu count %u", name, i, w[i].count);
        next = (size_t)w[i].offset + (size_t)w[i].count * (1u + w[i].payload_size);
    }
    CHECK(next == size, "%s: the table ends at 0x%zx, the file at 0x%zx", name, next, size);
}

/* Decodes the file packet by packet and checks each against the table.
 * Returns the number of packets. */
static size_t check_packets(const char *name, const uint8_t *bytes, size_t size,
                            const want_packet *w, size_t n)
{
    check_table(name, size, w, n);
    uint8_t *c = copy_of(bytes, size);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, c, size);
    size_t packets = 0;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        for (unsigned k = 0; k < w[i].count && ok; k++) {
            const size_t at = w[i].offset + k; /* Padding runs: one byte each */
            armprof_spe_packet p;
            memset(&p, 0xa5, sizeof p);
            const armprof_spe_decode_status st = armprof_spe_next_packet(&d, &p);
            CHECK(st == ARMPROF_SPE_DECODE_OK, "%s 0x%02zx: status %d", name, at, st);
            ok = st == ARMPROF_SPE_DECODE_OK;
            if (!ok) break;
            packets++;
            CHECK(p.offset == at, "%s: packet %zu at 0x%zx, expected 0x%02zx", name, packets - 1,
                  p.offset, at);
            CHECK(p.type == w[i].type, "%s 0x%02zx: type %s, expected %s", name, at,
                  armprof_spe_packet_type_name(p.type), armprof_spe_packet_type_name(w[i].type));
            CHECK(p.header_size == 1 && p.header[0] == w[i].header,
                  "%s 0x%02zx: header %u bytes 0x%02x", name, at, p.header_size, p.header[0]);
            CHECK(p.index == w[i].index, "%s 0x%02zx: INDEX %u, expected %u", name, at, p.index,
                  w[i].index);
            CHECK(p.payload_size == w[i].payload_size, "%s 0x%02zx: payload %u bytes, expected %u",
                  name, at, p.payload_size, w[i].payload_size);
            CHECK(p.payload == w[i].payload, "%s 0x%02zx: payload 0x%llx, expected 0x%llx", name,
                  at, (unsigned long long)p.payload, (unsigned long long)w[i].payload);
            /* Every INDEX, CLASS, SUBCLASS and SZ here is one D18.2 defines. */
            CHECK(!p.reserved, "%s 0x%02zx: reserved", name, at);
        }
    }
    armprof_spe_packet p;
    if (ok)
        CHECK(armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_EOF && !d.error,
              "%s: not EOF after %zu packets (%s)", name, packets, d.error ? d.error : "no error");
    free(c);
    return packets;
}

/* decode.h: an address's bits [63:56] are bit 55 repeated (and a data VA's
 * are TAG when TAG is not zero). This is the decoder's convention, not a
 * D18 field: the payload holds bits [55:0] only. */
static uint64_t sign_extended(uint64_t addr)
{
    return addr >> 55 & 1 ? addr | UINT64_C(0xff00000000000000) : addr;
}

#define ADDR_MASK UINT64_C(0x00ffffffffffffff)

static void check_inst_address(const char *what, uint64_t payload, const want_inst_address *w)
{
    /* The record keeps the whole payload: ADDR, then byte 7 = NS:EL:NSE:0000. */
    const uint64_t byte7 = (uint64_t)(w->ns ? 0x80u : 0u) | (uint64_t)w->el << 5;
    CHECK(payload == (w->addr | byte7 << 56), "%s: payload 0x%llx", what,
          (unsigned long long)payload);
    const armprof_spe_inst_address a = armprof_spe_decode_inst_address(payload);
    CHECK((a.va & ADDR_MASK) == w->addr, "%s: ADDR 0x%llx, expected 0x%llx", what,
          (unsigned long long)(a.va & ADDR_MASK), (unsigned long long)w->addr);
    CHECK(a.va == sign_extended(w->addr), "%s: VA 0x%llx", what, (unsigned long long)a.va);
    CHECK(a.el == w->el, "%s: EL %u, expected %u", what, a.el, w->el);
    CHECK(a.ns == w->ns, "%s: NS %d", what, a.ns);
    /* NSE bit [4] 0 in every byte 7 here; NSE 0, NS 1: Non-secure state, with
     * or without FEAT_RME (D18.2.1). */
    CHECK(!a.nse, "%s: NSE %d", what, a.nse);
    CHECK(!strcmp(a.security, "Non-secure"), "%s: %s", what, a.security);
}

static void check_op(const char *what, const armprof_spe_op *o, const armprof_spe_op *w)
{
    CHECK(o->kind == w->kind, "%s: payload type %d (%s), expected %d", what, o->kind, o->name,
          w->kind);
    CHECK(o->ldst == w->ldst, "%s: LDST %d", what, o->ldst);
    CHECK(o->cond == w->cond, "%s: COND %d", what, o->cond);
    CHECK(o->ind == w->ind, "%s: IND %d", what, o->ind);
    CHECK(o->gcs == w->gcs, "%s: GCS %d", what, o->gcs);
    CHECK(o->cr == w->cr, "%s: CR %u", what, o->cr);
    /* Fields of the other payload types: zero for these kinds (decode.h). */
    CHECK(!o->fp && !o->ase && !o->pred && !o->sg && !o->ar && !o->excl && !o->at && !o->comm &&
              o->evl == 0 && o->ets == 0,
          "%s: a field of another payload type is set", what);
}

static void check_record(const char *name, unsigned i, const armprof_spe_record *r,
                         const want_record *w)
{
    char what[64];
    snprintf(what, sizeof what, "%s record %u", name, i);
    CHECK(r->offset == w->offset && r->size == w->size, "%s: at 0x%zx size %zu", what, r->offset,
          r->size);
    CHECK(r->packets == w->packets && r->ignored == 0, "%s: %u packets, %u ignored", what,
          r->packets, r->ignored);

    /* Addresses (D18.2.1). */
    CHECK(r->address_valid == w->address_valid, "%s: address_valid 0x%x", what, r->address_valid);
    snprintf(what, sizeof what, "%s record %u PC", name, i);
    check_inst_address(what, r->address[ARMPROF_SPE_ADDR_PC], &w->pc);
    if (w->address_valid & ADDR_BIT(BRANCH_TARGET)) {
        snprintf(what, sizeof what, "%s record %u branch target", name, i);
        check_inst_address(what, r->address[ARMPROF_SPE_ADDR_BRANCH_TARGET], &w->target);
    }
    snprintf(what, sizeof what, "%s record %u", name, i);
    if (w->address_valid & ADDR_BIT(DATA_VIRTUAL)) {
        const uint64_t payload = r->address[ARMPROF_SPE_ADDR_DATA_VIRTUAL];
        CHECK(payload == w->data_addr, "%s: data VA payload 0x%llx (TAG 0)", what,
              (unsigned long long)payload);
        const armprof_spe_data_va a = armprof_spe_decode_data_va(payload);
        CHECK(a.tag == 0, "%s: TAG 0x%02x", what, a.tag);
        CHECK((a.va & ADDR_MASK) == w->data_addr, "%s: data ADDR 0x%llx", what,
              (unsigned long long)(a.va & ADDR_MASK));
        CHECK(a.va == sign_extended(w->data_addr), "%s: data VA 0x%llx", what,
              (unsigned long long)a.va);
    }

    /* Counters (D18.2.3): byte 1 of each COUNT here is 0x00, so 12-bit and
     * 16-bit counters read the same value. */
    CHECK(r->counter_valid == w->counter_valid, "%s: counter_valid 0x%x", what, r->counter_valid);
    for (unsigned c = 0; c < 3; c++)
        if (w->counter_valid & (1u << c))
            CHECK(r->counter[c] == w->counter[c], "%s: %s %u, expected %u", what,
                  armprof_spe_counter_name(c), r->counter[c], w->counter[c]);

    /* Context (D18.2.2). */
    CHECK(r->context_valid == w->context_valid, "%s: context_valid 0x%x", what, r->context_valid);
    for (unsigned c = 0; c < 2; c++)
        if (w->context_valid & (1u << c))
            CHECK(r->context[c] == w->context[c], "%s: CONTEXTIDR_EL%u 0x%x", what, c + 1,
                  r->context[c]);

    /* Events (D18.2.6), and the names of the bits set. */
    CHECK(r->events_valid && r->events_size == w->events_size && r->events == w->events,
          "%s: Events %u bytes 0x%llx", what, r->events_size, (unsigned long long)r->events);
    unsigned named = 0;
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!(w->events >> bit & 1)) continue;
        const char *n = armprof_spe_event_name(bit);
        const char *want = named < 4 ? w->event_names[named] : NULL;
        CHECK(n && want && !strcmp(n, want), "%s: E[%u] named %s, expected %s", what, bit,
              n ? n : "(none)", want ? want : "(none)");
        named++;
    }
    CHECK(named == 4 || w->event_names[named] == NULL, "%s: %u Events bits set", what, named);

    /* Data Source (D18.2.4). */
    CHECK(r->data_source_valid == (w->data_source_size != 0), "%s: Data Source %d", what,
          r->data_source_valid);
    if (w->data_source_size)
        CHECK(r->data_source_size == w->data_source_size && r->data_source == w->data_source,
              "%s: Data Source %u bytes 0x%x", what, r->data_source_size, r->data_source);

    /* Operation Type (D18.2.7). */
    CHECK(r->op_valid && r->op_class == w->op_class && r->op_subclass == w->op_subclass,
          "%s: CLASS %u SUBCLASS 0x%02x", what, r->op_class, r->op_subclass);
    const armprof_spe_op o = armprof_spe_decode_op(r->op_class, r->op_subclass);
    check_op(what, &o, &w->op);

    /* Timestamp (D18.2.9): it ends the record (D18.1.2). */
    CHECK(r->timestamp_valid && r->timestamp == w->timestamp, "%s: TS 0x%llx", what,
          (unsigned long long)r->timestamp);
}

static void check_records(const char *name, const uint8_t *bytes, size_t size, const want_record *w,
                          unsigned n)
{
    uint8_t *c = copy_of(bytes, size);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, c, size);
    for (unsigned i = 0; i < n; i++) {
        armprof_spe_record r;
        const armprof_spe_decode_status st = armprof_spe_next_record(&d, &r);
        CHECK(st == ARMPROF_SPE_DECODE_OK, "%s record %u: status %d (%s)", name, i, st,
              d.error ? d.error : "no error");
        if (st != ARMPROF_SPE_DECODE_OK) break;
        check_record(name, i, &r, &w[i]);
    }
    armprof_spe_record r;
    CHECK(armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_EOF && !d.error,
          "%s: not EOF after %u records", name, n);
    free(c);
}

/* The embedded bytes against the file in tests/data/real-spe/, when it can
 * be found: the test runs in the build tree with no arguments, so its path
 * comes from __FILE__ (absolute in a CMake build). When the sources are
 * not there, only the embedded copy is checked. */
static void compare_with_file(const char *name, const uint8_t *bytes, size_t size)
{
    static const char tail[] = "unit/test_real_spe.c";
    const char *self = __FILE__;
    const size_t len = strlen(self), tail_len = sizeof tail - 1;
    char path[4096];
    if (len < tail_len || strcmp(self + len - tail_len, tail) != 0 ||
        snprintf(path, sizeof path, "%.*sdata/real-spe/%s", (int)(len - tail_len), self, name) >=
            (int)sizeof path) {
        printf("%s: the sources' path is not known, embedded copy only\n", name);
        return;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("%s: %s not found, embedded copy only\n", name, path);
        return;
    }
    uint8_t buf[512];
    const size_t got = fread(buf, 1, sizeof buf, f);
    fclose(f);
    CHECK(got == size && memcmp(buf, bytes, size) == 0, "%s: %s differs from the embedded bytes",
          name, path);
}

int main(void)
{
    compare_with_file("hiperf-4records.spe", hiperf, sizeof hiperf);
    compare_with_file("quipper-2records.spe", quipper, sizeof quipper);
    /* hiperf: 8 + 8 + 7 + 7 packets and 5 + 5 + 8 + 8 Padding bytes;
     * quipper: 10 + 8 packets and 16 + 21 Padding bytes. */
    size_t n = check_packets("hiperf", hiperf, sizeof hiperf, hiperf_packets,
                             sizeof hiperf_packets / sizeof hiperf_packets[0]);
    CHECK(n == 56, "hiperf: %zu packets", n);
    n = check_packets("quipper", quipper, sizeof quipper, quipper_packets,
                      sizeof quipper_packets / sizeof quipper_packets[0]);
    CHECK(n == 55, "quipper: %zu packets", n);
    check_records("hiperf", hiperf, sizeof hiperf, hiperf_records,
                  sizeof hiperf_records / sizeof hiperf_records[0]);
    check_records("quipper", quipper, sizeof quipper, quipper_records,
                  sizeof quipper_records / sizeof quipper_records[0]);
    return check_summary();
}
