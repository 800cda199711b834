/* SPDX-License-Identifier: BSD-3-Clause */
/* The SPE record decoder (include/armprof/decode.h) against chapter D18 of
 * the manual. Every byte string is written out by hand from the header
 * tables (Table D18-1, Table D18-2) and the payload field descriptions of
 * D18.2; expected values come from those tables, not from the decoder.
 *
 * Every decode runs on a heap copy of exactly the bytes under test, so that
 * under AddressSanitizer a read one byte past the end is an error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "check.h"

/* A heap copy of n bytes (at least one byte is allocated so that n == 0 is
 * not a NULL pointer, but the decoder is told n). */
static uint8_t *copy_of(const uint8_t *b, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (!c) abort();
    if (n) memcpy(c, b, n);
    return c;
}

/* Decodes the single packet b[0..n) and checks that it spans all n bytes:
 * each test string below is exactly one packet. */
static armprof_spe_packet one(const uint8_t *b, size_t n)
{
    uint8_t *c = copy_of(b, n);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, c, n);
    armprof_spe_packet p;
    memset(&p, 0xa5, sizeof p);
    const armprof_spe_decode_status st = armprof_spe_next_packet(&d, &p);
    CHECK(st == ARMPROF_SPE_DECODE_OK, "header 0x%02x: status %d", b[0], st);
    CHECK(d.pos == n, "header 0x%02x: consumed %zu bytes, the packet has %zu", b[0], d.pos, n);
    CHECK(p.offset == 0, "header 0x%02x: offset %zu", b[0], p.offset);
    CHECK((size_t)p.header_size + p.payload_size == n, "header 0x%02x: header %u + payload %u",
          b[0], p.header_size, p.payload_size);
    CHECK(armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_EOF, "header 0x%02x: not EOF",
          b[0]);
    free(c);
    return p;
}

/* A packet of one header byte h and n payload bytes 0x11, 0x22, ... so that
 * the little-endian payload value is predictable (D18.1.2). */
static armprof_spe_packet one_h(uint8_t h, unsigned n)
{
    uint8_t b[9] = {h, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    return one(b, 1u + n);
}

/* The little-endian value of the payload one_h() writes. */
static uint64_t le_pattern(unsigned n)
{
    const uint64_t all = UINT64_C(0x8877665544332211);
    return n >= 8 ? all : all & ((UINT64_C(1) << (8 * n)) - 1);
}

/* ---- Table D18-1: 8-bit headers ---- */

static void test_framing_packets(void)
{
    /* Table D18-1: 0b00000000 Padding, D18.2.8; no payload (D18.1.1, 0x00-0x1F). */
    armprof_spe_packet p = one((const uint8_t[]){0x00}, 1);
    CHECK(p.type == ARMPROF_SPE_PKT_PADDING && p.header_size == 1 && p.payload_size == 0,
          "0x00: type %d", p.type);
    /* Table D18-1: 0b00000001 End packet, D18.2.5. */
    p = one((const uint8_t[]){0x01}, 1);
    CHECK(p.type == ARMPROF_SPE_PKT_END && p.payload_size == 0 && !p.reserved, "0x01: type %d",
          p.type);
    /* Table D18-1: 0b01110001 Timestamp; D18.2.9 SZ 0b11, TS bytes <7:0>,
     * Figure D18-39: TS[7:0] is the first payload byte (little-endian,
     * D18.1.2). */
    const uint8_t ts[] = {0x71, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01};
    p = one(ts, sizeof ts);
    CHECK(p.type == ARMPROF_SPE_PKT_TIMESTAMP && p.payload_size == 8 && !p.reserved,
          "0x71: type %d size %u", p.type, p.payload_size);
    CHECK(p.payload == UINT64_C(0x0123456789abcdef), "TS = 0x%llx", (unsigned long long)p.payload);
    /* 0x70, 0x72, 0x73 ... share SZ 0b11 but not Timestamp's bits [3:0] =
     * 0b0001 (D18.2.9): 0x72 is Events (below), 0x70 and 0x79 are unknown. */
    CHECK(one_h(0x70, 8).type == ARMPROF_SPE_PKT_UNKNOWN, "0x70 not a Timestamp");
    CHECK(one_h(0x79, 8).type == ARMPROF_SPE_PKT_UNKNOWN, "0x79 not a Timestamp");
}

static void test_events_header(void)
{
    /* Table D18-1: 0b01xx0010 Events; D18.2.6 SZ byte 0 bits [5:4]: 0b00
     * byte, 0b01 halfword, 0b10 word, 0b11 doubleword. */
    static const struct {
        uint8_t h;
        unsigned size;
    } ev[] = {{0x42, 1}, {0x52, 2}, {0x62, 4}, {0x72, 8}};
    for (unsigned i = 0; i < 4; i++) {
        const armprof_spe_packet p = one_h(ev[i].h, ev[i].size);
        CHECK(p.type == ARMPROF_SPE_PKT_EVENTS, "0x%02x: type %d", ev[i].h, p.type);
        CHECK(p.payload_size == ev[i].size, "0x%02x: payload %u bytes", ev[i].h, p.payload_size);
        CHECK(p.payload == le_pattern(ev[i].size), "0x%02x: payload 0x%llx", ev[i].h,
              (unsigned long long)p.payload);
        CHECK(!p.reserved, "0x%02x: every SZ is defined for Events", ev[i].h);
    }
}

static void test_data_source_header(void)
{
    /* Table D18-1: 0b01xx0011 Data Source. D18.2.4 SZ: only 0b00 (byte) and
     * 0b01 (halfword) are listed, so SZ 0b10 and 0b11 are reserved values:
     * the packet is framed by its SZ and flagged (D18.1.3: "packets
     * containing reserved values in fields" are ignored). */
    static const struct {
        uint8_t h;
        unsigned size;
        bool reserved;
    } ds[] = {{0x43, 1, false}, {0x53, 2, false}, {0x63, 4, true}, {0x73, 8, true}};
    for (unsigned i = 0; i < 4; i++) {
        const armprof_spe_packet p = one_h(ds[i].h, ds[i].size);
        CHECK(p.type == ARMPROF_SPE_PKT_DATA_SOURCE, "0x%02x: type %d", ds[i].h, p.type);
        CHECK(p.payload_size == ds[i].size, "0x%02x: payload %u", ds[i].h, p.payload_size);
        CHECK(p.payload == le_pattern(ds[i].size), "0x%02x: payload 0x%llx", ds[i].h,
              (unsigned long long)p.payload);
        CHECK(p.reserved == ds[i].reserved, "0x%02x: reserved %d", ds[i].h, p.reserved);
    }
}

static void test_context_header(void)
{
    /* Table D18-1: 0b011001xx Context. D18.2.2: SZ 0b10 (word), INDEX byte 0
     * bits [1:0]: 0b00 CONTEXTIDR_EL1, 0b01 CONTEXTIDR_EL2, others reserved. */
    for (unsigned i = 0; i < 4; i++) {
        const armprof_spe_packet p = one_h((uint8_t)(0x64 | i), 4);
        CHECK(p.type == ARMPROF_SPE_PKT_CONTEXT, "0x%02x: type %d", 0x64 | i, p.type);
        CHECK(p.index == i, "0x%02x: INDEX %u", 0x64 | i, p.index);
        CHECK(p.payload == UINT64_C(0x44332211), "0x%02x: CONTEXT 0x%llx", 0x64 | i,
              (unsigned long long)p.payload);
        CHECK(p.reserved == (i >= 2), "0x%02x: reserved %d", 0x64 | i, p.reserved);
    }
    /* Bits [5:4] are fixed at 0b10 for Context in Table D18-1: 0x54 (SZ
     * 0b01) and 0x74 (SZ 0b11) are not Context packets. */
    CHECK(one_h(0x54, 2).type == ARMPROF_SPE_PKT_UNKNOWN, "0x54 is not Context");
    CHECK(one_h(0x74, 8).type == ARMPROF_SPE_PKT_UNKNOWN, "0x74 is not Context");
}

static void test_op_type_header(void)
{
    /* Table D18-1: 0b010010xx Operation Type. D18.2.7: SZ 0b00 (byte),
     * CLASS byte 0 bits [1:0]: 0b00, 0b01, 0b10 defined, 0b11 reserved.
     * SUBCLASS 0x00 is defined in CLASS 0 (Other), 1 (general-purpose
     * load) and 2 (Branch), so only CLASS decides here. */
    for (unsigned c = 0; c < 4; c++) {
        const armprof_spe_packet p = one((const uint8_t[]){(uint8_t)(0x48 | c), 0x00}, 2);
        CHECK(p.type == ARMPROF_SPE_PKT_OP_TYPE, "0x%02x: type %d", 0x48 | c, p.type);
        CHECK(p.index == c, "0x%02x: CLASS %u", 0x48 | c, p.index);
        CHECK(p.payload == 0 && p.payload_size == 1, "0x%02x: payload", 0x48 | c);
        CHECK(p.reserved == (c == 3), "0x%02x: reserved %d", 0x48 | c, p.reserved);
    }
    /* A reserved SUBCLASS (Branch 0b001xxxxx, D18.2.7 "Other values are
     * reserved") is a reserved value in the payload. */
    CHECK(one((const uint8_t[]){0x4a, 0x20}, 2).reserved, "Branch SUBCLASS 0x20 reserved");
    /* SZ is fixed at 0b00: 0x58 is not an Operation Type packet. */
    CHECK(one_h(0x58, 2).type == ARMPROF_SPE_PKT_UNKNOWN, "0x58 is not Operation Type");
}

/* D18.2.1 Address INDEX: 0b00000..0b00100 defined, 0b0011x and 0b1xxxx
 * IMPLEMENTATION DEFINED, all other values reserved. */
static const char *const address_names[8] = {
    "PC",       "branch target", "data VA", "data PA", "previous branch target",
    "reserved", "IMPDEF",        "IMPDEF"};
/* D18.2.3 Counter INDEX: 0b00000, 0b00001, 0b00010, 0b00100 defined,
 * 0b0011x and 0b1xxxx IMPLEMENTATION DEFINED, all other values reserved. */
static const char *const counter_names[8] = {"total latency",
                                             "issue latency",
                                             "translation latency",
                                             "reserved",
                                             "alternate clock issue latency",
                                             "reserved",
                                             "IMPDEF",
                                             "IMPDEF"};

static void test_short_address_counter(void)
{
    for (unsigned i = 0; i < 8; i++) {
        /* Table D18-1: 0b10110xxx Address (Short format), SZ 0b11, INDEX
         * byte 0 bits [2:0]. Only INDEX 0b00101 is reserved among 0..7. */
        armprof_spe_packet p = one_h((uint8_t)(0xb0 | i), 8);
        CHECK(p.type == ARMPROF_SPE_PKT_ADDRESS, "0x%02x: type %d", 0xb0 | i, p.type);
        CHECK(p.index == i && p.header_size == 1, "0x%02x: INDEX %u", 0xb0 | i, p.index);
        CHECK(p.payload == le_pattern(8), "0x%02x: payload", 0xb0 | i);
        CHECK(p.reserved == (i == 5), "Address INDEX %u: reserved %d", i, p.reserved);
        CHECK(!strcmp(armprof_spe_address_name(i), address_names[i]), "Address INDEX %u: %s", i,
              armprof_spe_address_name(i));
        /* Table D18-1: 0b10011xxx Counter (Short format), SZ 0b01 halfword.
         * Reserved among 0..7: 0b00011 and 0b00101. */
        p = one_h((uint8_t)(0x98 | i), 2);
        CHECK(p.type == ARMPROF_SPE_PKT_COUNTER, "0x%02x: type %d", 0x98 | i, p.type);
        CHECK(p.index == i && p.header_size == 1, "0x%02x: INDEX %u", 0x98 | i, p.index);
        CHECK(p.payload == 0x2211, "0x%02x: COUNT 0x%llx", 0x98 | i, (unsigned long long)p.payload);
        CHECK(p.reserved == (i == 3 || i == 5), "Counter INDEX %u: reserved %d", i, p.reserved);
        CHECK(!strcmp(armprof_spe_counter_name(i), counter_names[i]), "Counter INDEX %u: %s", i,
              armprof_spe_counter_name(i));
    }
    /* Address bit [3] reads as 0 and Counter bit [3] as 1 (D18.2.1, D18.2.3):
     * 0xb8 (0b10111000) and 0x90 (0b10010000) are neither. */
    CHECK(one_h(0xb8, 8).type == ARMPROF_SPE_PKT_UNKNOWN, "0xb8 unknown");
    CHECK(one_h(0x90, 2).type == ARMPROF_SPE_PKT_UNKNOWN, "0x90 unknown");
    /* A Counter-like header with the wrong SZ (0b10011xxx needs SZ 0b01):
     * 0xa8 = 0b10101000 is unknown, framed by its SZ 0b10. */
    CHECK(one_h(0xa8, 4).type == ARMPROF_SPE_PKT_UNKNOWN, "0xa8 unknown");
}

/* ---- Table D18-2: 16-bit (Extended format) headers ---- */

static void test_extended_headers(void)
{
    /* Byte 0 = 0b001000xx with INDEX[4:3] in bits [1:0]; byte 1 = 0b10110xxx
     * (Address) with INDEX[2:0]. INDEX 0b10001 = 17 is IMPLEMENTATION
     * DEFINED (0b1xxxx). */
    const uint8_t a17[] = {0x22, 0xb1, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    armprof_spe_packet p = one(a17, sizeof a17);
    CHECK(p.type == ARMPROF_SPE_PKT_ADDRESS && p.header_size == 2 && p.payload_size == 8,
          "22 b1: type %d header %u payload %u", p.type, p.header_size, p.payload_size);
    CHECK(p.index == 17 && !p.reserved, "22 b1: INDEX %u reserved %d", p.index, p.reserved);
    CHECK(p.header[0] == 0x22 && p.header[1] == 0xb1, "22 b1: header bytes");
    CHECK(p.payload == le_pattern(8), "22 b1: payload");
    CHECK(!strcmp(armprof_spe_address_name(17), "IMPDEF"), "Address 17: %s",
          armprof_spe_address_name(17));
    /* 0b01000 = 8: "All other values are reserved." */
    const uint8_t a8[] = {0x21, 0xb0, 0, 0, 0, 0, 0, 0, 0, 0};
    p = one(a8, sizeof a8);
    CHECK(p.type == ARMPROF_SPE_PKT_ADDRESS && p.index == 8 && p.reserved,
          "21 b0: type %d INDEX %u reserved %d", p.type, p.index, p.reserved);
    CHECK(!strcmp(armprof_spe_address_name(8), "reserved"), "Address 8 reserved");
    /* INDEX 0b11111 = 31, the last IMPLEMENTATION DEFINED one. */
    const uint8_t a31[] = {0x23, 0xb7, 0, 0, 0, 0, 0, 0, 0, 0};
    p = one(a31, sizeof a31);
    CHECK(p.index == 31 && !p.reserved, "23 b7: INDEX %u", p.index);
    /* The Extended format may carry a Short-format INDEX: 0b00011 data PA. */
    const uint8_t a3[] = {0x20, 0xb3, 0, 0, 0, 0, 0, 0, 0, 0};
    p = one(a3, sizeof a3);
    CHECK(p.type == ARMPROF_SPE_PKT_ADDRESS && p.index == 3 && !p.reserved, "20 b3: INDEX %u",
          p.index);

    /* Counter: byte 1 = 0b10011xxx, SZ 0b01. */
    const uint8_t c17[] = {0x22, 0x99, 0x34, 0x12};
    p = one(c17, sizeof c17);
    CHECK(p.type == ARMPROF_SPE_PKT_COUNTER && p.header_size == 2 && p.payload_size == 2,
          "22 99: type %d", p.type);
    CHECK(p.index == 17 && !p.reserved && p.payload == 0x1234, "22 99: INDEX %u COUNT 0x%llx",
          p.index, (unsigned long long)p.payload);
    CHECK(!strcmp(armprof_spe_counter_name(17), "IMPDEF"), "Counter 17 IMPDEF");
    const uint8_t c8[] = {0x21, 0x98, 0x00, 0x00};
    p = one(c8, sizeof c8);
    CHECK(p.type == ARMPROF_SPE_PKT_COUNTER && p.index == 8 && p.reserved, "21 98: INDEX %u",
          p.index);
    CHECK(!strcmp(armprof_spe_counter_name(15), "reserved"), "Counter 15 reserved");
    CHECK(!strcmp(armprof_spe_counter_name(16), "IMPDEF"), "Counter 16 IMPDEF");

    /* Byte 0 bits [4:2] read as zero (D18.2.1, D18.2.3): 0x24 = 0b00100100
     * is no Table D18-2 header. Its size still comes from byte 1 (D18.1.1:
     * "Second byte encodes the payload length"), 0xb0 SZ 0b11: 8 bytes. */
    const uint8_t u1[] = {0x24, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8};
    p = one(u1, sizeof u1);
    CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.header_size == 2 && p.payload_size == 8,
          "24 b0: type %d payload %u", p.type, p.payload_size);
    const uint8_t u2[] = {0x3c, 0x98, 0x00, 0x00}; /* 0b00111100: bits [4:2] = 0b111 */
    p = one(u2, sizeof u2);
    CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.payload_size == 2, "3c 98: type %d", p.type);
    /* Byte 1 neither pattern of Table D18-2: 0x43 (SZ 0b00) -> 1 byte,
     * 0x62 (SZ 0b10) -> 4 bytes, 0x10 (below 0x40) -> no payload. */
    p = one((const uint8_t[]){0x20, 0x43, 0x99}, 3);
    CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.payload_size == 1 && p.payload == 0x99,
          "20 43: type %d payload %u", p.type, p.payload_size);
    p = one((const uint8_t[]){0x21, 0x62, 1, 2, 3, 4}, 6);
    CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.payload_size == 4, "21 62: type %d", p.type);
    p = one((const uint8_t[]){0x20, 0x10}, 2);
    CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.header_size == 2 && p.payload_size == 0,
          "20 10: type %d payload %u", p.type, p.payload_size);
}

/* ---- D18.1.1 / D18.1.3: unknown packets are skipped by their size ---- */

/* The payload size D18.1.1 gives a first header byte of 0x40 or above,
 * written as its ranges. */
static unsigned d18_1_1_payload(unsigned h)
{
    const unsigned low = h & 0x3f; /* the ranges repeat every 0x40 */
    if (low < 0x10) return 1;      /* 0x40-0x4F, 0x80-0x8F, 0xC0-0xCF */
    if (low < 0x20) return 2;      /* 0x50-0x5F, 0x90-0x9F, 0xD0-0xDF */
    if (low < 0x30) return 4;      /* 0x60-0x6F, 0xA0-0xAF, 0xE0-0xEF */
    return 8;                      /* 0x70-0x7F, 0xB0-0xBF, 0xF0-0xFF */
}

static void test_unknown_headers(void)
{
    /* 0x02-0x1F: single byte header, no payload; none is in Table D18-1. */
    for (unsigned h = 0x02; h <= 0x1f; h++) {
        const armprof_spe_packet p = one((const uint8_t[]){(uint8_t)h}, 1);
        CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.payload_size == 0 && p.header_size == 1,
              "0x%02x: type %d payload %u", h, p.type, p.payload_size);
    }
    /* Examples with payloads: 0x44 (0b01000100, SZ 0b00) matches no row of
     * Table D18-1 -> 1 byte; 0x40 -> 1; 0x5f -> 2; 0x80 -> 1; 0xc0 -> 1;
     * 0xd5 -> 2; 0xe7 -> 4; 0xff -> 8. */
    static const struct {
        uint8_t h;
        unsigned size;
    } ex[] = {{0x44, 1}, {0x40, 1}, {0x5f, 2}, {0x80, 1}, {0xc0, 1},
              {0xd5, 2}, {0xe7, 4}, {0xff, 8}, {0x6c, 4}, {0x7a, 8}};
    for (unsigned i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        const armprof_spe_packet p = one_h(ex[i].h, ex[i].size);
        CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN && p.payload_size == ex[i].size,
              "0x%02x: type %d payload %u", ex[i].h, p.type, p.payload_size);
        CHECK(p.payload == le_pattern(ex[i].size), "0x%02x: payload", ex[i].h);
    }
    /* Every header from 0x40 up takes the D18.1.1 size whatever its type;
     * bits [7:6] = 0b11 appear in no row of Table D18-1, so 0xC0-0xFF are
     * all unknown. */
    for (unsigned h = 0x40; h <= 0xff; h++) {
        const unsigned n = d18_1_1_payload(h);
        const armprof_spe_packet p = one_h((uint8_t)h, n);
        CHECK(p.payload_size == n, "0x%02x: payload %u, D18.1.1 gives %u", h, p.payload_size, n);
        if (h >= 0xc0) CHECK(p.type == ARMPROF_SPE_PKT_UNKNOWN, "0x%02x: type %d", h, p.type);
    }
}

/* Decodes all records of b[0..n) into r[] (up to max), returning the last
 * status, and the decoder in *out. */
static armprof_spe_decode_status records_of(const uint8_t *b, size_t n, armprof_spe_record *r,
                                            unsigned max, unsigned *count, armprof_spe_decoder *out)
{
    uint8_t *c = copy_of(b, n);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, c, n);
    armprof_spe_decode_status st;
    armprof_spe_record scratch;
    *count = 0;
    while ((st = armprof_spe_next_record(&d, *count < max ? &r[*count] : &scratch)) ==
           ARMPROF_SPE_DECODE_OK)
        ++*count;
    free(c);
    d.data = NULL; /* freed */
    *out = d;
    return st;
}

static void test_unknown_in_record(void)
{
    /* D18.1.3: "Software must ignore unknown packets, using the size field
     * encoded in the header. This includes packets containing reserved
     * values in fields." */
    const uint8_t b[] = {
        0xb0, 0x00, 0x10, 0x00, 0x40, 0x00, 0x00, 0x00, 0xa0,    /* PC 0x40001000, EL1 NS */
        0xc5, 0x77,                                              /* unknown, SZ 0b00 */
        0x49, 0x00,                                              /* Op: load GP */
        0x05,                                                    /* unknown, no payload */
        0x99, 0x07, 0x00,                                        /* issue latency 7 */
        0x24, 0xb0, 1,    2,    3,    4,    5,    6,    7,    8, /* unknown 16-bit */
        0x66, 0x78, 0x56, 0x34, 0x12,                            /* Context INDEX 2: reserved */
        0x9b, 0x05, 0x00,                                        /* Counter INDEX 3: reserved */
        0x01,                                                    /* End */
    };
    armprof_spe_record r;
    unsigned n;
    armprof_spe_decoder d;
    const armprof_spe_decode_status st = records_of(b, sizeof b, &r, 1, &n, &d);
    CHECK(st == ARMPROF_SPE_DECODE_EOF && n == 1, "status %d, %u records", st, n);
    CHECK(r.offset == 0 && r.size == sizeof b, "record at %zu size %zu", r.offset, r.size);
    CHECK(r.packets == 9 && r.ignored == 5, "packets %u ignored %u", r.packets, r.ignored);
    CHECK(r.address_valid == 1u && r.address[0] == UINT64_C(0xa000000040001000),
          "address_valid 0x%x PC 0x%llx", r.address_valid, (unsigned long long)r.address[0]);
    CHECK(r.op_valid && r.op_class == 1 && r.op_subclass == 0, "op");
    CHECK(r.counter_valid == (1u << 1) && r.counter[1] == 7, "counter_valid 0x%x", r.counter_valid);
    CHECK(r.context_valid == 0, "reserved Context INDEX stored: 0x%x", r.context_valid);
    CHECK(!r.timestamp_valid && !r.events_valid && !r.data_source_valid, "nothing else");
}

/* ---- D18.2.1: Address payloads ---- */

static void test_inst_address(void)
{
    /* NS byte 7 bit [7], EL bits [6:5], NSE bit [4], ADDR bytes <6:0>.
     * 0xa0 = NS 1, EL 0b01, NSE 0: Non-secure EL1. */
    armprof_spe_inst_address a = armprof_spe_decode_inst_address(UINT64_C(0xa000000040001000));
    CHECK(a.va == UINT64_C(0x40001000) && a.el == 1 && a.ns && !a.nse, "va 0x%llx el %u",
          (unsigned long long)a.va, a.el);
    CHECK(!strcmp(a.security, "Non-secure"), "security %s", a.security);
    /* 0x40 = NS 0, EL 0b10, NSE 0: Secure EL2; ADDR bit 55 set so the VA is
     * an upper-range address, sign-extended from bit 55. */
    a = armprof_spe_decode_inst_address(UINT64_C(0x40ffffff80001000));
    CHECK(a.va == UINT64_C(0xffffffff80001000) && a.el == 2 && !a.ns && !a.nse, "va 0x%llx el %u",
          (unsigned long long)a.va, a.el);
    CHECK(!strcmp(a.security, "Secure"), "security %s", a.security);
    /* ADDR bit 55 clear: not extended. 0x60 = EL 0b11 (EL3). */
    a = armprof_spe_decode_inst_address(UINT64_C(0x607ffffffffffffc));
    CHECK(a.va == UINT64_C(0x007ffffffffffffc) && a.el == 3, "va 0x%llx el %u",
          (unsigned long long)a.va, a.el);
    /* EL 0b00. */
    CHECK(armprof_spe_decode_inst_address(UINT64_C(0x8000000000400000)).el == 0, "EL0");
    /* With FEAT_RME, NSE:NS: 0b11 Realm, 0b10 reserved ("All other values
     * are reserved"; no Root encoding). 0xb0 = NS 1, EL1, NSE 1. */
    a = armprof_spe_decode_inst_address(UINT64_C(0xb000000000001000));
    CHECK(a.ns && a.nse && a.el == 1 && !strcmp(a.security, "Realm"), "security %s", a.security);
    a = armprof_spe_decode_inst_address(UINT64_C(0x1000000000001000));
    CHECK(!a.ns && a.nse && a.el == 0 && !strcmp(a.security, "reserved"), "security %s",
          a.security);
    CHECK(a.va == 0x1000, "NSE is not part of ADDR: 0x%llx", (unsigned long long)a.va);
}

static void test_data_addresses(void)
{
    /* Data access VA: TAG byte <7>, ADDR bytes <6:0>. With a tag the VA is
     * TAG:ADDR (TBI 1: "includes the top-byte tag"). */
    armprof_spe_data_va v = armprof_spe_decode_data_va(UINT64_C(0x5a00123456789abc));
    CHECK(v.tag == 0x5a && v.va == UINT64_C(0x5a00123456789abc), "tag 0x%x va 0x%llx", v.tag,
          (unsigned long long)v.va);
    /* TAG reads as zero: ADDR bits [55:0] sign-extended from bit 55
     * (decode.h's rule for an upper-range address without its tag). */
    v = armprof_spe_decode_data_va(UINT64_C(0x00ffffff00001000));
    CHECK(v.tag == 0 && v.va == UINT64_C(0xffffffff00001000), "va 0x%llx",
          (unsigned long long)v.va);
    v = armprof_spe_decode_data_va(UINT64_C(0x0000ffff00001000));
    CHECK(v.tag == 0 && v.va == UINT64_C(0x0000ffff00001000), "va 0x%llx",
          (unsigned long long)v.va);

    /* Data access PA: NS bit [63], CH bit [62], bit [61] RES0, NSE bit
     * [60], PAT bits [59:56], ADDR bits [55:0]. 0xca = NS 1, CH 1, NSE 0,
     * PAT 0xa. */
    armprof_spe_data_pa a = armprof_spe_decode_data_pa(UINT64_C(0xca00000087654000));
    CHECK(a.pa == UINT64_C(0x87654000) && a.ns && a.ch && !a.nse && a.pat == 0xa,
          "pa 0x%llx ns %d ch %d nse %d pat %u", (unsigned long long)a.pa, a.ns, a.ch, a.nse,
          a.pat);
    CHECK(!strcmp(a.pas, "Non-secure"), "pas %s", a.pas);
    /* ADDR is 56 bits of PA, never sign-extended. */
    a = armprof_spe_decode_data_pa(UINT64_C(0x00ff000000000000));
    CHECK(a.pa == UINT64_C(0x00ff000000000000) && !a.ns && !a.ch && a.pat == 0 &&
              !strcmp(a.pas, "Secure"),
          "pa 0x%llx pas %s", (unsigned long long)a.pa, a.pas);
    /* NSE:NS 0b11 Realm PAS; 0b10 reserved. */
    a = armprof_spe_decode_data_pa(UINT64_C(0x9000000000000000));
    CHECK(a.ns && a.nse && !strcmp(a.pas, "Realm"), "pas %s", a.pas);
    a = armprof_spe_decode_data_pa(UINT64_C(0x1f00000000000000));
    CHECK(!a.ns && a.nse && a.pat == 0xf && !strcmp(a.pas, "reserved"), "pas %s pat %u", a.pas,
          a.pat);
    /* Bit [61] (reads as 0) does not leak into the other fields. */
    a = armprof_spe_decode_data_pa(UINT64_C(0x2000000000000000));
    CHECK(!a.ns && !a.ch && !a.nse && a.pat == 0 && a.pa == 0, "bit 61");
}

/* ---- D18.2.7: Operation Type payloads ---- */

typedef struct op_case {
    uint8_t cls, sub;
    armprof_spe_op_kind kind;
    /* expected fields, as a string of flags to keep the table readable */
    bool ldst, cond, fp, ase, pred, sg, ar, excl, at, comm, gcs, ind;
    uint8_t cr, evl, ets;
} op_case;

#define K(x) ARMPROF_SPE_OP_##x
/* Field order: ldst cond fp ase pred sg ar excl at comm gcs ind cr evl ets */
static const op_case op_cases[] = {
    /* CLASS 0b00. Other 0b00000xxx: ASE bit 2, FP bit 1, COND bit 0. */
    {0, 0x00, K(OTHER), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x01, K(OTHER), 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x02, K(OTHER), 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x04, K(OTHER), 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x07, K(OTHER), 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* SVE vector 0b0xxx1xx0: EVL bits [6:4], PRED bit 2, FP bit 1. */
    {0, 0x08, K(SVE), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x4c, K(SVE), 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0},
    {0, 0x2a, K(SVE), 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0},
    {0, 0x7e, K(SVE), 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0},
    /* SME array 0b1xxx1xx0: ETS bits [6:4,2], FP bit 1. */
    {0, 0x88, K(SME), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x8c, K(SME), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
    {0, 0xbe, K(SME), 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7},
    {0, 0xc8, K(SME), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8},
    {0, 0xdc, K(SME), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11},
    {0, 0xfe, K(SME), 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15}, /* whole ZA */
    /* ETS 0b1100 (0xe8), 0b1101 (0xec), 0b1110 (0xf8): "All other values
     * are reserved". */
    {0, 0xe8, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0xec, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0xfa, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* Reserved in CLASS 0: bit 3 set with bit 0 set, or bit 3 clear above 7. */
    {0, 0x09, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x10, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0x8f, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},

    /* CLASS 0b01. Load/store, general: LDST bit 0. */
    {1, 0x00, K(LDST_GP), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x01, K(LDST_GP), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x04, K(LDST_SIMDFP), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x05, K(LDST_SIMDFP), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x10, K(LDST_UNSPEC), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x11, K(LDST_UNSPEC), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x14, K(LDST_TAGS), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x15, K(LDST_TAGS), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x30, K(LDST_NV2), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x31, K(LDST_NV2), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* Extended 0b000xxx1x: AR bit 4, EXCL bit 3, AT bit 2, LDST bit 0. */
    {1, 0x02, K(LDST_EXT), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x03, K(LDST_EXT), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x06, K(LDST_EXT), 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
    {1, 0x0a, K(LDST_EXT), 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x12, K(LDST_EXT), 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x1f, K(LDST_EXT), 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0},
    /* SVE or SME 0bxxxx1x0x: SG bit 7, EVL bits [6:4], PRED bit 2, LDST 0. */
    {1, 0x08, K(LDST_SVE_SME), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x2c, K(LDST_SVE_SME), 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0},
    {1, 0x89, K(LDST_SVE_SME), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0xfd, K(LDST_SVE_SME), 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0},
    /* Memory Copy 0b0010000x. */
    {1, 0x20, K(LDST_MEMCPY), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x21, K(LDST_MEMCPY), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* Memory Set 0b00100101 only: "A store" (ldst set). */
    {1, 0x25, K(LDST_MEMSET), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x24, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x27, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* GCS 0b01000x0x: COMM bit 2, LDST bit 0. */
    {1, 0x40, K(LDST_GCS), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x41, K(LDST_GCS), 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x44, K(LDST_GCS), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    {1, 0x45, K(LDST_GCS), 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    /* Reserved in CLASS 1: no pattern matches. */
    {1, 0x22, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x32, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x42, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x50, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0x80, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},

    /* CLASS 0b10, Branch 0b000xxxxx: CR bits [4:3], GCS bit 2, IND bit 1,
     * COND bit 0. */
    {2, 0x00, K(BRANCH), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0x01, K(BRANCH), 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0x02, K(BRANCH), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},
    {2, 0x04, K(BRANCH), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
    {2, 0x08, K(BRANCH), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}, /* with link */
    {2, 0x10, K(BRANCH), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0}, /* return */
    {2, 0x1f, K(BRANCH), 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 3, 0, 0},
    {2, 0x20, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {2, 0xff, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    /* CLASS 0b11 reserved, whatever SUBCLASS. */
    {3, 0x00, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {3, 0x25, K(RESERVED), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
};
#undef K

static void test_op_types(void)
{
    for (size_t i = 0; i < sizeof op_cases / sizeof op_cases[0]; i++) {
        const op_case *c = &op_cases[i];
        const armprof_spe_op o = armprof_spe_decode_op(c->cls, c->sub);
        CHECK(o.kind == c->kind, "CLASS %u SUBCLASS 0x%02x: kind %d, want %d", c->cls, c->sub,
              o.kind, c->kind);
        CHECK(o.ldst == c->ldst && o.cond == c->cond && o.fp == c->fp && o.ase == c->ase &&
                  o.pred == c->pred && o.sg == c->sg,
              "CLASS %u SUBCLASS 0x%02x: ldst %d cond %d fp %d ase %d pred %d sg %d", c->cls,
              c->sub, o.ldst, o.cond, o.fp, o.ase, o.pred, o.sg);
        CHECK(o.ar == c->ar && o.excl == c->excl && o.at == c->at && o.comm == c->comm &&
                  o.gcs == c->gcs && o.ind == c->ind,
              "CLASS %u SUBCLASS 0x%02x: ar %d excl %d at %d comm %d gcs %d ind %d", c->cls, c->sub,
              o.ar, o.excl, o.at, o.comm, o.gcs, o.ind);
        CHECK(o.cr == c->cr && o.evl == c->evl && o.ets == c->ets,
              "CLASS %u SUBCLASS 0x%02x: cr %u evl %u ets %u", c->cls, c->sub, o.cr, o.evl, o.ets);
        CHECK(o.name != NULL, "CLASS %u SUBCLASS 0x%02x: no name", c->cls, c->sub);
        /* The header reports a reserved SUBCLASS as a reserved value. */
        const armprof_spe_packet p = one((const uint8_t[]){(uint8_t)(0x48 | c->cls), c->sub}, 2);
        CHECK(p.reserved == (c->kind == ARMPROF_SPE_OP_RESERVED),
              "CLASS %u SUBCLASS 0x%02x: packet reserved %d", c->cls, c->sub, p.reserved);
    }
    /* The payload types' names as D18.2.7 titles them. */
    CHECK(!strcmp(armprof_spe_decode_op(1, 0x25).name, "Load/store, Memory Set"), "%s",
          armprof_spe_decode_op(1, 0x25).name);
    CHECK(!strcmp(armprof_spe_decode_op(1, 0x20).name, "Load/store, Memory Copy"), "%s",
          armprof_spe_decode_op(1, 0x20).name);
    CHECK(!strcmp(armprof_spe_decode_op(0, 0x88).name, "Data processing, SME array"), "%s",
          armprof_spe_decode_op(0, 0x88).name);
    CHECK(!strcmp(armprof_spe_decode_op(0, 0x08).name, "Data processing, SVE vector"), "%s",
          armprof_spe_decode_op(0, 0x08).name);
    CHECK(!strcmp(armprof_spe_decode_op(2, 0x00).name, "Branch"), "%s",
          armprof_spe_decode_op(2, 0x00).name);
    CHECK(!strcmp(armprof_spe_decode_op(3, 0x00).name, "reserved"), "%s",
          armprof_spe_decode_op(3, 0x00).name);
    /* Exhaustively: CLASS 2 is Branch for exactly 0x00-0x1f; CLASS 3 never
     * decodes. */
    unsigned branches = 0, class3 = 0;
    for (unsigned s = 0; s < 256; s++) {
        branches += armprof_spe_decode_op(2, s).kind == ARMPROF_SPE_OP_BRANCH;
        class3 += armprof_spe_decode_op(3, s).kind != ARMPROF_SPE_OP_RESERVED;
    }
    CHECK(branches == 32 && class3 == 0, "branches %u, CLASS 3 decoded %u", branches, class3);
}

/* ---- D18.2.6: Events names ---- */

static void test_event_names(void)
{
    /* E[n] titles in D18.2.6. */
    static const char *const names[26] = {
        "Generated exception",
        "Architecturally retired",
        "Level 1 data cache access",
        "Level 1 data cache refill or miss",
        "TLB access",
        "TLB walk",
        "Not taken",
        "Mispredicted",
        "Last Level cache access",
        "Last Level cache miss",
        "Remote access",
        "Misalignment",
        NULL, /* E[15:12] IMPLEMENTATION DEFINED */
        NULL,
        NULL,
        NULL,
        "Transactional",
        "Partial or empty predicate",
        "Empty predicate",
        "Level 2 data cache access",
        "Level 2 data cache miss",
        "Cache data modified",
        "Recently fetched",
        "Data snooped",
        "Streaming SVE mode",
        "SMCU or external coprocessor operation",
    };
    for (unsigned bit = 0; bit < 26; bit++) {
        const char *got = armprof_spe_event_name(bit);
        if (names[bit]) {
            CHECK(got && !strcmp(got, names[bit]), "E[%u]: '%s', want '%s'", bit,
                  got ? got : "(null)", names[bit]);
            CHECK(armprof_spe_event_short_name(bit) != NULL, "E[%u]: no short name", bit);
        } else {
            CHECK(!got && !armprof_spe_event_short_name(bit), "E[%u] IMPDEF: '%s'", bit, got);
        }
    }
    /* E[31:26], E[47:32] and E[63:48]: IMPLEMENTATION DEFINED or RAZ. */
    for (unsigned bit = 26; bit < 70; bit++)
        CHECK(!armprof_spe_event_name(bit) && !armprof_spe_event_short_name(bit),
              "E[%u] has a name", bit);
}

/* ---- D18.1.2, D18.1.3: records ---- */

/* The stream the record tests cut up: Padding, a record ended by End, two
 * Padding bytes, a record ended by a Timestamp, Padding. Every packet is
 * listed with its offset and size so the expected outcome of any cut can be
 * worked out from this table alone. */
static const uint8_t stream[] = {
    0x00,                                                       /* 0: Padding */
    0xb0, 0x00, 0x10, 0x00, 0x40, 0x00, 0x00, 0x00, 0xa0,       /* 1: PC */
    0x49, 0x00,                                                 /* 10: Op load GP */
    0x22, 0x99, 0x34, 0x12,                                     /* 12: Counter INDEX 17 */
    0x64, 0x78, 0x56, 0x34, 0x12,                               /* 16: CONTEXTIDR_EL1 */
    0x01,                                                       /* 21: End */
    0x00, 0x00,                                                 /* 22: Padding */
    0x20, 0xb2, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x5a, /* 24: data VA */
    0x62, 0x06, 0x00, 0x00, 0x00,                               /* 34: Events */
    0x43, 0x05,                                                 /* 39: Data Source */
    0x71, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,       /* 41: Timestamp */
    0x00,                                                       /* 50: Padding */
};
static const struct {
    size_t offset, size;
    int record; /* -1: Padding between records */
} stream_packets[] = {
    {0, 1, -1},  {1, 9, 0},   {10, 2, 0}, {12, 4, 0}, {16, 5, 0}, {21, 1, 0},  {22, 1, -1},
    {23, 1, -1}, {24, 10, 1}, {34, 5, 1}, {39, 2, 1}, {41, 9, 1}, {50, 1, -1},
};
static const size_t record_offset[2] = {1, 24}, record_end[2] = {22, 50};

static void test_records(void)
{
    armprof_spe_record r[3];
    unsigned n;
    armprof_spe_decoder d;
    armprof_spe_decode_status st = records_of(stream, sizeof stream, r, 3, &n, &d);
    CHECK(st == ARMPROF_SPE_DECODE_EOF && n == 2 && !d.error, "status %d records %u", st, n);
    CHECK(d.pos == sizeof stream, "stopped at %zu", d.pos);
    /* Record 0: from the PC to the End packet; Padding before it skipped. */
    CHECK(r[0].offset == 1 && r[0].size == 21, "record 0 at %zu size %zu", r[0].offset, r[0].size);
    CHECK(!r[0].timestamp_valid && r[0].packets == 5 && r[0].ignored == 0,
          "record 0: ts %d packets %u ignored %u", r[0].timestamp_valid, r[0].packets,
          r[0].ignored);
    CHECK(r[0].address_valid == 1u && r[0].address[0] == UINT64_C(0xa000000040001000), "PC");
    CHECK(r[0].counter_valid == (1u << 17) && r[0].counter[17] == 0x1234, "counter 0x%x",
          r[0].counter_valid);
    CHECK(r[0].context_valid == 1 && r[0].context[0] == 0x12345678, "context");
    CHECK(r[0].op_valid && r[0].op_class == 1 && r[0].op_subclass == 0, "op");
    /* Record 1: ended by the Timestamp packet (D18.2.9 "must come at the
     * end of the record"); TS 0x0102030405060708 little-endian. */
    CHECK(r[1].offset == 24 && r[1].size == 26, "record 1 at %zu size %zu", r[1].offset, r[1].size);
    CHECK(r[1].timestamp_valid && r[1].timestamp == UINT64_C(0x0102030405060708), "TS 0x%llx",
          (unsigned long long)r[1].timestamp);
    CHECK(r[1].address_valid == (1u << 2) && r[1].address[2] == UINT64_C(0x5a00000000002000),
          "data VA 0x%llx", (unsigned long long)r[1].address[2]);
    CHECK(r[1].events_valid && r[1].events_size == 4 && r[1].events == 6, "events");
    CHECK(r[1].data_source_valid && r[1].data_source_size == 1 && r[1].data_source == 5,
          "data source");
    CHECK(r[1].packets == 4, "record 1 packets %u", r[1].packets);

    /* A packet repeated in a record keeps its last value (decode.h). */
    const uint8_t rep[] = {0xb0, 1, 0, 0,    0, 0, 0,    0, 0, 0xb0, 2,    0,    0,    0,    0,
                           0,    0, 0, 0x99, 7, 0, 0x99, 9, 0, 0x42, 0x02, 0x52, 0x00, 0x08, 0x01};
    st = records_of(rep, sizeof rep, r, 1, &n, &d);
    CHECK(st == ARMPROF_SPE_DECODE_EOF && n == 1, "repeat: status %d", st);
    CHECK(r[0].address[0] == 2 && r[0].counter[1] == 9 && r[0].packets == 7,
          "repeat: PC %llu COUNT %u packets %u", (unsigned long long)r[0].address[0],
          r[0].counter[1], r[0].packets);
    CHECK(r[0].events_size == 2 && r[0].events == 0x0800, "repeat: events %u bytes 0x%llx",
          r[0].events_size, (unsigned long long)r[0].events);

    /* Only Padding is permitted between records (D18.1.3): a stream of
     * Padding alone holds no record. */
    const uint8_t pad[] = {0, 0, 0, 0};
    st = records_of(pad, sizeof pad, r, 1, &n, &d);
    CHECK(st == ARMPROF_SPE_DECODE_EOF && n == 0 && d.pos == 4, "padding: status %d", st);
    st = records_of(pad, 0, r, 1, &n, &d);
    CHECK(st == ARMPROF_SPE_DECODE_EOF && n == 0, "empty: status %d", st);
    /* A lone Timestamp packet is a record (D18.1.2: the sequence of headers
     * may be empty), as is a lone End. */
    const uint8_t two[] = {0x01, 0x00, 0x71, 1, 0, 0, 0, 0, 0, 0, 0};
    st = records_of(two, sizeof two, r, 3, &n, &d);
    CHECK(st == ARMPROF_SPE_DECODE_EOF && n == 2, "lone: status %d records %u", st, n);
    CHECK(r[0].offset == 0 && r[0].size == 1 && r[1].offset == 2 && r[1].size == 9 &&
              r[1].timestamp == 1,
          "lone: %zu+%zu %zu+%zu", r[0].offset, r[0].size, r[1].offset, r[1].size);
}

/* Every prefix of stream[]: complete records decode, and the cut is
 * reported at the truncated packet's first byte, or at the record's first
 * byte when the cut falls between packets of an unfinished record. */
static void test_truncation(void)
{
    const size_t npk = sizeof stream_packets / sizeof stream_packets[0];
    for (size_t cut = 0; cut <= sizeof stream; cut++) {
        /* Expected outcome from the packet table. */
        bool want_error = false;
        size_t want_offset = 0;
        unsigned want_records = 0;
        for (size_t i = 0; i < npk; i++) {
            const size_t o = stream_packets[i].offset, e = o + stream_packets[i].size;
            const int rec = stream_packets[i].record;
            if (e <= cut) {
                if (rec >= 0 && e == record_end[rec]) want_records = (unsigned)rec + 1;
                continue;
            }
            if (o < cut) { /* cut inside this packet */
                want_error = true;
                want_offset = o;
            } else if (rec >= 0 && o > record_offset[rec]) { /* between packets of a record */
                want_error = true;
                want_offset = record_offset[rec];
            }
            break;
        }
        armprof_spe_record r[3];
        unsigned n;
        armprof_spe_decoder d;
        const armprof_spe_decode_status st = records_of(stream, cut, r, 3, &n, &d);
        CHECK(n == want_records, "cut %zu: %u records, want %u", cut, n, want_records);
        if (want_error) {
            CHECK(st == ARMPROF_SPE_DECODE_ERROR && d.error != NULL, "cut %zu: status %d", cut, st);
            CHECK(d.error_offset == want_offset, "cut %zu: error at %zu, want %zu", cut,
                  d.error_offset, want_offset);
            CHECK(d.pos == cut, "cut %zu: decoder left at %zu", cut, d.pos);
        } else {
            CHECK(st == ARMPROF_SPE_DECODE_EOF && !d.error, "cut %zu: status %d (%s at %zu)", cut,
                  st, d.error ? d.error : "", d.error_offset);
        }
        if (n >= 1) CHECK(r[0].offset == 1 && r[0].size == 21, "cut %zu: record 0", cut);

        /* Packet by packet the error is always at the truncated packet. */
        uint8_t *c = copy_of(stream, cut);
        armprof_spe_decoder_init(&d, c, cut);
        armprof_spe_packet p;
        armprof_spe_decode_status pst;
        size_t packets = 0;
        while ((pst = armprof_spe_next_packet(&d, &p)) == ARMPROF_SPE_DECODE_OK && packets < npk) {
            CHECK(p.offset == stream_packets[packets].offset &&
                      (size_t)p.header_size + p.payload_size == stream_packets[packets].size,
                  "cut %zu: packet %zu at %zu", cut, packets, p.offset);
            packets++;
        }
        const bool mid_packet = packets < npk && stream_packets[packets].offset < cut;
        if (mid_packet)
            CHECK(pst == ARMPROF_SPE_DECODE_ERROR &&
                      d.error_offset == stream_packets[packets].offset,
                  "cut %zu: packet status %d at %zu", cut, pst, d.error_offset);
        else
            CHECK(pst == ARMPROF_SPE_DECODE_EOF, "cut %zu: packet status %d", cut, pst);
        free(c);
    }
}

/* ---- robustness ---- */

static uint64_t xorshift64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static void test_random_streams(void)
{
    uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
    unsigned bad_progress = 0, bad_sum = 0, bad_error = 0, errors = 0, records = 0;
    for (unsigned iter = 0; iter < 200000; iter++) {
        const size_t len = (size_t)(xorshift64(&seed) % 65);
        uint8_t *b = malloc(len ? len : 1);
        if (!b) abort();
        for (size_t i = 0; i < len; i++) {
            /* Bias towards the bytes that matter so that records complete:
             * a quarter End, a quarter Padding, the rest anything. */
            const uint64_t v = xorshift64(&seed);
            b[i] = (v & 3) == 0 ? 0x01 : (v & 3) == 1 ? 0x00 : (uint8_t)(v >> 8);
        }
        armprof_spe_decoder d;
        armprof_spe_decoder_init(&d, b, len);
        armprof_spe_record r;
        armprof_spe_decode_status st;
        size_t accounted = 0;
        for (unsigned calls = 0;; calls++) {
            const size_t before = d.pos;
            st = armprof_spe_next_record(&d, &r);
            if (st == ARMPROF_SPE_DECODE_OK) {
                records++;
                if (d.pos <= before || calls > len) bad_progress++;
                /* Bytes skipped before the record are Padding (0x00). */
                for (size_t i = before; i < r.offset && i < len; i++)
                    if (b[i] != 0x00) bad_sum++;
                if (r.offset < before || r.offset + r.size != d.pos) bad_sum++;
                accounted += (r.offset - before) + r.size;
                continue;
            }
            if (st == ARMPROF_SPE_DECODE_EOF) {
                for (size_t i = before; i < len; i++)
                    if (b[i] != 0x00) bad_sum++;
                accounted += len - before;
                if (accounted != len) bad_sum++;
            } else {
                errors++;
                if (!d.error || d.error_offset >= len || d.pos != len) bad_error++;
            }
            break;
        }
        /* After the end, EOF again and nothing moves. */
        const size_t end = d.pos;
        if (armprof_spe_next_record(&d, &r) != ARMPROF_SPE_DECODE_EOF || d.pos != end)
            bad_progress++;
        free(b);
    }
    CHECK(bad_progress == 0, "%u calls did not advance or did not end", bad_progress);
    CHECK(bad_sum == 0, "%u streams where records + Padding do not cover the bytes", bad_sum);
    CHECK(bad_error == 0, "%u errors without a message or offset in the data", bad_error);
    /* The fixed seed must exercise both outcomes for the checks to mean
     * anything. */
    CHECK(records > 10000 && errors > 10000, "%u records, %u errors", records, errors);
}

/* ---- text and JSON ---- */

static void expect_text(const uint8_t *b, size_t n, const char *const *want, bool json)
{
    armprof_spe_packet p = one(b, n);
    char buf[512];
    const int len = json ? armprof_spe_packet_json(&p, buf, sizeof buf)
                         : armprof_spe_packet_text(&p, buf, sizeof buf);
    CHECK(len > 0 && (size_t)len == strlen(buf), "0x%02x: length %d, strlen %zu", b[0], len,
          strlen(buf));
    for (; *want; want++)
        CHECK(strstr(buf, *want) != NULL, "0x%02x: '%s' lacks '%s'", b[0], buf, *want);
    if (json) {
        int depth = 0;
        bool in_string = false, control = false;
        for (const char *s = buf; *s; s++) {
            if ((unsigned char)*s < 0x20) control = true;
            if (*s == '"' && (s == buf || s[-1] != '\\')) in_string = !in_string;
            if (in_string) continue;
            if (*s == '{' || *s == '[') depth++;
            if (*s == '}' || *s == ']') depth--;
        }
        CHECK(buf[0] == '{' && buf[len - 1] == '}' && depth == 0 && !in_string && !control,
              "0x%02x: not one JSON object: %s", b[0], buf);
    }
}

#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})

static void test_text(void)
{
    /* Names and fields of D18.2. */
    expect_text((const uint8_t[]){0x00}, 1, WANT("Padding"), false);
    expect_text((const uint8_t[]){0x01}, 1, WANT("End"), false);
    expect_text((const uint8_t[]){0x71, 0xe8, 0x03, 0, 0, 0, 0, 0, 0}, 9,
                WANT("Timestamp", "TS=1000"), false);
    /* PC, NS 1, EL 0b01 (byte 7 = 0xa0). */
    expect_text((const uint8_t[]){0xb0, 0x00, 0x10, 0x00, 0x40, 0, 0, 0, 0xa0}, 9,
                WANT("Address", "PC", "0x0000000040001000", "EL=1", "NS=1", "NSE=0", "Non-secure"),
                false);
    /* Branch target, Realm EL2 (0xd0 = NS 1, EL 0b10, NSE 1). */
    expect_text((const uint8_t[]){0xb1, 0x00, 0x20, 0, 0, 0, 0, 0, 0xd0}, 9,
                WANT("branch target", "EL=2", "NS=1", "NSE=1", "Realm"), false);
    expect_text((const uint8_t[]){0xb2, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12, 0x00, 0x5a}, 9,
                WANT("data VA", "0x5a00123456789abc", "TAG=0x5a"), false);
    expect_text((const uint8_t[]){0xb3, 0x00, 0x40, 0x65, 0x87, 0, 0, 0, 0xca}, 9,
                WANT("data PA", "87654000", "NS=1", "CH=1", "PAT=0xa", "Non-secure"), false);
    expect_text((const uint8_t[]){0xb5, 0, 0, 0, 0, 0, 0, 0, 0}, 9, WANT("reserved", "ignored"),
                false);
    expect_text((const uint8_t[]){0x98, 0x07, 0x00}, 3, WANT("Counter", "total latency", "COUNT=7"),
                false);
    expect_text((const uint8_t[]){0x22, 0x99, 0x34, 0x12}, 4,
                WANT("Counter", "IMPDEF", "INDEX=17", "COUNT=4660"), false);
    expect_text((const uint8_t[]){0x65, 0x34, 0x12, 0, 0}, 5,
                WANT("Context", "CONTEXTIDR_EL2", "CONTEXT=0x1234"), false);
    expect_text((const uint8_t[]){0x43, 0x05}, 2, WANT("Data Source", "SOURCE=0x5"), false);
    /* E[1] retired, E[11] misalignment. */
    expect_text((const uint8_t[]){0x52, 0x02, 0x08}, 3,
                WANT("Events", "E=0x802", "retired", "misaligned"), false);
    /* E[12], IMPLEMENTATION DEFINED: no name, shown by number. */
    expect_text((const uint8_t[]){0x52, 0x00, 0x10}, 3, WANT("E[12]"), false);
    expect_text((const uint8_t[]){0x49, 0x1f}, 2,
                WANT("Operation Type", "CLASS=1", "Load/store, extended", "AR=1", "EXCL=1", "AT=1",
                     "LDST=1"),
                false);
    expect_text((const uint8_t[]){0x4a, 0x0b}, 2,
                WANT("Branch", "CR=1", "GCS=0", "IND=1", "COND=1"), false);
    expect_text((const uint8_t[]){0x48, 0x4e}, 2, WANT("SVE vector", "EVL=512", "PRED=1", "FP=1"),
                false);
    expect_text((const uint8_t[]){0x48, 0xfc}, 2, WANT("SME array", "ETS=ZA"), false);
    expect_text((const uint8_t[]){0x48, 0x98}, 2, WANT("SME array", "ETS=512"), false);
    expect_text((const uint8_t[]){0x49, 0x45}, 2, WANT("GCS", "COMM=1", "LDST=1"), false);
    expect_text((const uint8_t[]){0x49, 0x8d}, 2,
                WANT("SVE or SME", "SG=1", "EVL=32", "PRED=1", "LDST=1"), false);
    expect_text((const uint8_t[]){0xc5, 0x77}, 2, WANT("Unknown", "0xc5", "ignored"), false);
    expect_text((const uint8_t[]){0x66, 0, 0, 0, 0}, 5, WANT("Context", "reserved"), false);

    expect_text((const uint8_t[]){0x01}, 1, WANT("\"type\":\"End\"", "\"offset\":0"), true);
    expect_text((const uint8_t[]){0x71, 0xe8, 0x03, 0, 0, 0, 0, 0, 0}, 9,
                WANT("\"type\":\"Timestamp\"", "\"ts\":1000", "\"size\":9"), true);
    expect_text((const uint8_t[]){0xb0, 0x00, 0x10, 0x00, 0x40, 0, 0, 0, 0xa0}, 9,
                WANT("\"type\":\"Address\"", "\"el\":1", "\"ns\":1", "\"nse\":0",
                     "\"va\":\"0x40001000\"", "\"security\":\"Non-secure\""),
                true);
    expect_text((const uint8_t[]){0xb3, 0x00, 0x40, 0x65, 0x87, 0, 0, 0, 0xca}, 9,
                WANT("\"pa\":\"0x87654000\"", "\"ch\":1", "\"pat\":\"0xa\""), true);
    expect_text((const uint8_t[]){0x98, 0x07, 0x00}, 3,
                WANT("\"type\":\"Counter\"", "\"count\":7", "\"size\":3"), true);
    expect_text((const uint8_t[]){0x64, 0x34, 0x12, 0, 0}, 5,
                WANT("\"name\":\"CONTEXTIDR_EL1\"", "\"context\":\"0x1234\""), true);
    expect_text((const uint8_t[]){0x43, 0x05}, 2,
                WANT("\"type\":\"Data Source\"", "\"source\":\"0x5\""), true);
    expect_text((const uint8_t[]){0x52, 0x02, 0x10}, 3, WANT("\"events\":[\"retired\",\"E[12]\"]"),
                true);
    expect_text((const uint8_t[]){0x4a, 0x0b}, 2,
                WANT("\"class\":2", "\"kind\":\"Branch\"", "\"cr\":1", "\"ind\":1"), true);
    expect_text((const uint8_t[]){0x49, 0x04}, 2,
                WANT("\"kind\":\"Load/store, SIMD&FP\"", "\"ldst\":0"), true);
    expect_text((const uint8_t[]){0x24, 0xb0, 1, 2, 3, 4, 5, 6, 7, 8}, 10,
                WANT("\"type\":\"Unknown\"", "\"size\":10", "\"ignored\":true"), true);
    expect_text((const uint8_t[]){0x4b, 0x00}, 2, WANT("\"ignored\":true"), true);
}

/* D18.2.7 EVL (SVE vector and SVE or SME load/store): 0b110 is 2048 bits,
 * 0b111 "More than 2048 bits" -- not 32 << 7 = 4096. */
static void test_text_evl(void)
{
    expect_text((const uint8_t[]){0x48, 0x6c}, 2, WANT("SVE vector", "EVL=2048"), false);
    expect_text((const uint8_t[]){0x48, 0x7c}, 2, WANT("SVE vector", "EVL=>2048"), false);
    expect_text((const uint8_t[]){0x49, 0xfd}, 2, WANT("SVE or SME", "EVL=>2048"), false);
    expect_text((const uint8_t[]){0x49, 0xfd}, 2, WANT("\"evl\":\">2048\""), true);
    expect_text((const uint8_t[]){0x49, 0xed}, 2, WANT("\"evl_bits\":2048"), true);
    const uint8_t b[][2] = {{0x48, 0x7c}, {0x49, 0xfd}};
    for (unsigned i = 0; i < 2; i++) {
        const armprof_spe_packet p = one(b[i], 2);
        char text[256], json[256];
        armprof_spe_packet_text(&p, text, sizeof text);
        armprof_spe_packet_json(&p, json, sizeof json);
        CHECK(!strstr(text, "4096") && !strstr(json, "4096"), "EVL 0b111 as 4096: %s / %s", text,
              json);
    }
}

/* snprintf semantics: the return value is the full length whatever the
 * size, and a too-small buffer holds a NUL-terminated prefix. */
static void test_text_truncation(void)
{
    const uint8_t b[] = {0xb3, 0x00, 0x40, 0x65, 0x87, 0, 0, 0, 0xca};
    const armprof_spe_packet p = one(b, sizeof b);
    for (int json = 0; json < 2; json++) {
        char full[512];
        const int n = json ? armprof_spe_packet_json(&p, full, sizeof full)
                           : armprof_spe_packet_text(&p, full, sizeof full);
        CHECK(n > 10 && (size_t)n == strlen(full), "json %d: length %d", json, n);
        const int n0 =
            json ? armprof_spe_packet_json(&p, NULL, 0) : armprof_spe_packet_text(&p, NULL, 0);
        CHECK(n0 == n, "json %d: size 0 gives %d, want %d", json, n0, n);
        unsigned bad = 0;
        for (size_t size = 1; size <= (size_t)n + 1; size++) {
            char buf[520];
            memset(buf, '#', sizeof buf);
            const int m = json ? armprof_spe_packet_json(&p, buf, size)
                               : armprof_spe_packet_text(&p, buf, size);
            const size_t keep = size - 1 < (size_t)n ? size - 1 : (size_t)n;
            if (m != n || buf[keep] != '\0' || memcmp(buf, full, keep) != 0 || buf[size] != '#')
                bad++;
        }
        CHECK(bad == 0, "json %d: %u buffer sizes broke snprintf semantics", json, bad);
    }
}

int main(void)
{
    test_framing_packets();
    test_events_header();
    test_data_source_header();
    test_context_header();
    test_op_type_header();
    test_short_address_counter();
    test_extended_headers();
    test_unknown_headers();
    test_unknown_in_record();
    test_inst_address();
    test_data_addresses();
    test_op_types();
    test_event_names();
    test_records();
    test_truncation();
    test_random_streams();
    test_text();
    test_text_evl();
    test_text_truncation();
    return check_summary();
}
