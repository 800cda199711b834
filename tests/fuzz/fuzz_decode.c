/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the SPE record decoder (include/armprof/decode.h) on
 * arbitrary bytes, by packets and by records, with every packet formatted as
 * text and as JSON into a small buffer. Besides no crash, hang or leak, it
 * asserts the decoder's promises: each call consumes at least one byte
 * ("a loop over a stream ends"), an error's offset lies inside the data,
 * records come in increasing offsets and each spans bytes of the stream, and
 * the formatters respect the buffer size (snprintf semantics).
 *
 * Also built without libFuzzer (FUZZ_DECODE_MAIN) as a ctest that runs the
 * same checks over fixed pseudo-random inputs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* abort() rather than assert(): the checks stay in a release build. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_decode: %s:%d: %s\n", __FILE__, __LINE__, #cond);                \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* snprintf semantics: the output is NUL-terminated within the buffer and
 * holds the first size - 1 bytes of the whole text, whose length is the
 * return value. */
static void fits(const char *buf, size_t size, int n)
{
    REQUIRE(n > 0 && memchr(buf, 0, size) != NULL);
    REQUIRE(strlen(buf) == ((size_t)n < size ? (size_t)n : size - 1));
}

/* The formatters into a buffer too small for most packets and into one
 * that holds any packet (an Events packet with all 64 bits named is the
 * longest, about 800 bytes of JSON). */
static void format(const armprof_spe_packet *p)
{
    char small[24], big[2048];
    int n = armprof_spe_packet_text(p, small, sizeof small);
    fits(small, sizeof small, n);
    int m = armprof_spe_packet_text(p, big, sizeof big);
    fits(big, sizeof big, m);
    REQUIRE(m == n && (size_t)m < sizeof big);
    REQUIRE(strncmp(small, big, sizeof small - 1) == 0);
    REQUIRE(armprof_spe_packet_text(p, NULL, 0) == n);

    n = armprof_spe_packet_json(p, small, sizeof small);
    fits(small, sizeof small, n);
    m = armprof_spe_packet_json(p, big, sizeof big);
    fits(big, sizeof big, m);
    REQUIRE(m == n && (size_t)m < sizeof big);
    REQUIRE(big[0] == '{' && big[m - 1] == '}');
}

static void by_packets(const uint8_t *data, size_t size)
{
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, data, size);
    armprof_spe_packet p;
    size_t prev = 0;
    for (;;) {
        const size_t before = d.pos;
        const armprof_spe_decode_status st = armprof_spe_next_packet(&d, &p);
        if (st == ARMPROF_SPE_DECODE_EOF) {
            REQUIRE(before >= size && d.error == NULL);
            break;
        }
        if (st == ARMPROF_SPE_DECODE_ERROR) {
            REQUIRE(d.error != NULL && d.error_offset < size && d.error_offset == before);
            REQUIRE(d.pos == size); /* nothing after a truncated packet */
            break;
        }
        REQUIRE(st == ARMPROF_SPE_DECODE_OK);
        REQUIRE(d.pos > before && d.pos <= size);
        REQUIRE(p.offset == before && p.offset >= prev);
        REQUIRE(d.pos - before == (size_t)p.header_size + p.payload_size);
        REQUIRE(p.header_size == 1 || p.header_size == 2);
        REQUIRE(p.payload_size <= 8 && (p.payload_size & (p.payload_size - 1)) == 0);
        REQUIRE(p.type <= ARMPROF_SPE_PKT_UNKNOWN);
        REQUIRE(p.index < 32);
        REQUIRE(p.payload_size == 8 || p.payload >> (8 * p.payload_size) == 0);
        prev = p.offset;
        format(&p);
        /* the interpretations take any payload */
        (void)armprof_spe_decode_inst_address(p.payload);
        (void)armprof_spe_decode_data_va(p.payload);
        (void)armprof_spe_decode_data_pa(p.payload);
        const armprof_spe_op op = armprof_spe_decode_op(p.index & 3u, (unsigned)p.payload & 0xffu);
        REQUIRE(op.name != NULL);
    }
}

static void by_records(const uint8_t *data, size_t size)
{
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, data, size);
    armprof_spe_record r;
    size_t end_of_last = 0;
    for (;;) {
        const size_t before = d.pos;
        const armprof_spe_decode_status st = armprof_spe_next_record(&d, &r);
        if (st == ARMPROF_SPE_DECODE_EOF) {
            REQUIRE(d.error == NULL && d.pos >= size);
            break;
        }
        REQUIRE(d.pos > before && d.pos <= size);
        REQUIRE(r.offset >= end_of_last && r.offset >= before && r.offset < size);
        REQUIRE(r.size >= 1 && r.offset + r.size == d.pos);
        REQUIRE(r.ignored <= r.packets);
        if (st == ARMPROF_SPE_DECODE_ERROR) {
            REQUIRE(d.error != NULL && d.error_offset < size);
            break;
        }
        REQUIRE(st == ARMPROF_SPE_DECODE_OK);
        REQUIRE(r.packets >= 1);
        /* ended by End or Timestamp, the record's last byte(s) */
        REQUIRE(r.timestamp_valid ? data[d.pos - 9] == 0x71 : data[d.pos - 1] == 0x01);
        end_of_last = d.pos;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    by_packets(data, size);
    by_records(data, size);
    return 0;
}

#ifdef FUZZ_DECODE_MAIN
/* Fixed inputs: random bytes, and random bytes drawn mostly from the
 * headers of D18 so that the packets are more often well formed. */
int main(void)
{
    static const uint8_t headers[] = {0x00, 0x01, 0x71, 0x42, 0x52, 0x62, 0x43, 0x53, 0x64, 0x65,
                                      0x49, 0x4a, 0x48, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0x98, 0x99,
                                      0x9a, 0x9c, 0x20, 0x21, 0x23, 0x3f, 0x7f, 0xff};
    uint64_t s = 0x2545F4914F6CDD1Dull;
    uint8_t buf[512];
    LLVMFuzzerTestOneInput(NULL, 0);
    for (unsigned run = 0; run < 4000; run++) {
        const size_t n = (size_t)(run * 7 % sizeof buf);
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            buf[i] = (run & 1) && (s >> 40) % 3 ? headers[(s >> 8) % sizeof headers] : (uint8_t)s;
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("fuzz_decode: 4000 inputs\n");
    return 0;
}
#endif
