/* SPDX-License-Identifier: BSD-3-Clause */
/* The streaming decoder (armprof_spe_stream_*, decode.h) promises the same
 * packets, records, statuses, offsets and errors as the whole-data decoder
 * for a stream cut into chunks of any sizes. The whole-data decoder is
 * checked against the manual by test_decode.c; this test checks the
 * promise: each stream is decoded whole, then again in chunks of every size
 * from 1 to 17 bytes, of 64 bytes and of pseudo-random sizes (0 included),
 * and the two sequences must agree field by field.
 *
 * Each chunk is a heap copy freed as soon as the decoder asks for the next
 * one, so under AddressSanitizer a decoder that keeps a pointer into an
 * old chunk, or reads past a chunk's end, is an error.
 *
 * Streams: the record files named on the command line (tests/data and the
 * real-hardware records in shared/data/real-spe), every prefix of the
 * smaller ones (a packet or record cut anywhere), and pseudo-random streams
 * of well-formed and malformed packets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "check.h"

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

/* One step of a decode: a status with its packet or record, or the error. */
typedef struct step {
    armprof_spe_decode_status st;
    armprof_spe_packet p;
    armprof_spe_record r;
    const char *error;
    size_t error_offset;
} step;

#define MAX_STEPS 8192

typedef struct steps {
    step s[MAX_STEPS];
    size_t n;
} steps;

static bool same_packet(const armprof_spe_packet *a, const armprof_spe_packet *b)
{
    return a->offset == b->offset && a->type == b->type && a->header[0] == b->header[0] &&
           a->header[1] == b->header[1] && a->header_size == b->header_size &&
           a->payload_size == b->payload_size && a->index == b->index &&
           a->reserved == b->reserved && a->payload == b->payload;
}

static bool same_record(const armprof_spe_record *a, const armprof_spe_record *b)
{
    bool same =
        a->offset == b->offset && a->size == b->size && a->address_valid == b->address_valid &&
        a->counter_valid == b->counter_valid && a->context_valid == b->context_valid &&
        a->events_valid == b->events_valid && a->events_size == b->events_size &&
        a->events == b->events && a->data_source_valid == b->data_source_valid &&
        a->data_source_size == b->data_source_size && a->data_source == b->data_source &&
        a->op_valid == b->op_valid && a->op_class == b->op_class &&
        a->op_subclass == b->op_subclass && a->timestamp_valid == b->timestamp_valid &&
        a->timestamp == b->timestamp && a->packets == b->packets && a->ignored == b->ignored;
    for (unsigned i = 0; i < 32; i++) {
        if (a->address_valid >> i & 1) same = same && a->address[i] == b->address[i];
        if (a->counter_valid >> i & 1) same = same && a->counter[i] == b->counter[i];
    }
    for (unsigned i = 0; i < 2; i++)
        if (a->context_valid >> i & 1) same = same && a->context[i] == b->context[i];
    return same;
}

static void whole(const uint8_t *data, size_t size, bool records, steps *out)
{
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, data, size);
    out->n = 0;
    for (;;) {
        step *s = &out->s[out->n++];
        memset(s, 0, sizeof *s);
        s->st = records ? armprof_spe_next_record(&d, &s->r) : armprof_spe_next_packet(&d, &s->p);
        s->error = d.error;
        s->error_offset = d.error_offset;
        if (s->st != ARMPROF_SPE_DECODE_OK || out->n == MAX_STEPS) return;
    }
}

/* The chunk sizes: `fixed` bytes each, or pseudo-random (0 to 20) when
 * fixed is 0. */
static void chunked(const uint8_t *data, size_t size, bool records, size_t fixed, rng *g,
                    steps *out)
{
    armprof_spe_stream s;
    armprof_spe_stream_init(&s);
    uint8_t *chunk = NULL;
    size_t pos = 0;
    out->n = 0;
    for (;;) {
        step *t = &out->s[out->n];
        memset(t, 0, sizeof *t);
        t->st = records ? armprof_spe_stream_next_record(&s, &t->r)
                        : armprof_spe_stream_next_packet(&s, &t->p);
        if (t->st == ARMPROF_SPE_DECODE_MORE) {
            free(chunk);
            chunk = NULL;
            if (pos == size) {
                armprof_spe_stream_finish(&s);
                continue;
            }
            size_t n = fixed ? fixed : (size_t)(next(g) % 21);
            if (n > size - pos) n = size - pos;
            chunk = malloc(n ? n : 1);
            if (!chunk) abort();
            memcpy(chunk, data + pos, n);
            const bool fed = armprof_spe_stream_feed(&s, chunk, n);
            CHECK(fed, "feed of %zu bytes at %zu refused", n, pos);
            pos += n;
            continue;
        }
        t->error = s.error;
        t->error_offset = s.error_offset;
        out->n++;
        if (t->st != ARMPROF_SPE_DECODE_OK || out->n == MAX_STEPS) break;
    }
    free(chunk);
}

static unsigned streams;

static void compare(const char *name, const uint8_t *data, size_t size, rng *g)
{
    static steps want, got; /* large: not on the stack (constant after use) */
    streams++;
    for (int records = 0; records < 2; records++) {
        whole(data, size, records, &want);
        for (size_t fixed = 0; fixed <= 18; fixed++) {
            const size_t chunk = fixed == 18 ? 64 : fixed;
            chunked(data, size, records, chunk, g, &got);
            bool same = got.n == want.n;
            size_t at = 0;
            for (; same && at < want.n; at++) {
                const step *a = &want.s[at], *b = &got.s[at];
                same = a->st == b->st &&
                       (a->st != ARMPROF_SPE_DECODE_OK ||
                        (records ? same_record(&a->r, &b->r) : same_packet(&a->p, &b->p)));
                if (same && a->st == ARMPROF_SPE_DECODE_ERROR) {
                    same = b->error && !strcmp(a->error, b->error) &&
                           a->error_offset == b->error_offset &&
                           (!records || same_record(&a->r, &b->r));
                }
            }
            CHECK(same, "%s (%zu bytes), %s in chunks of %zu: differs at step %zu of %zu/%zu", name,
                  size, records ? "records" : "packets", chunk, at ? at - 1 : 0, want.n, got.n);
        }
    }
}

/* Headers of every packet type (Table D18-1, D18-2) with some reserved and
 * unknown ones, for pseudo-random streams that are mostly well formed. */
static const uint8_t headers[] = {
    0x00, 0x01, 0x71, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0x98, 0x99, 0x9a, 0x64, 0x65,
    0x43, 0x53, 0x42, 0x52, 0x62, 0x48, 0x49, 0x4a, 0x20, 0x21, 0x22, 0x23, 0xff,
};

static size_t random_stream(rng *g, uint8_t *b, size_t cap)
{
    size_t n = 0;
    const bool noise = next(g) % 8 == 0;
    while (n + 12 < cap && next(g) % 64) {
        if (noise) {
            b[n++] = (uint8_t)next(g);
            continue;
        }
        uint8_t h = headers[next(g) % sizeof headers];
        b[n++] = h;
        unsigned payload;
        if ((h & 0xfc) == 0x20) { /* 16-bit header: second byte Address or Counter */
            h = next(g) & 1 ? 0xb0 : 0x98;
            b[n++] = (uint8_t)(h | (next(g) & 7));
            payload = (h & 0xf8) == 0xb0 ? 8 : 2;
        } else if (h == 0x00 || h == 0x01) {
            payload = 0;
        } else {
            payload = 1u << (h >> 4 & 3);
            if ((h & 0xf8) == 0xb0 || h == 0x71) payload = 8;
            if ((h & 0xf8) == 0x98) payload = 2;
            if ((h & 0xfc) == 0x64) payload = 4;
        }
        for (unsigned i = 0; i < payload; i++)
            b[n++] = (uint8_t)next(g);
    }
    /* A stream cut anywhere: mid-packet, mid-record, or whole. */
    if (n && next(g) % 3 == 0) n -= (size_t)(next(g) % (n < 12 ? n : 12));
    return n;
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *b = malloc(1 << 20);
    *size = b ? fread(b, 1, 1 << 20, f) : 0;
    fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    rng g = {0x9e3779b97f4a7c15ull};
    for (int i = 1; i < argc; i++) {
        size_t size;
        uint8_t *data = read_all(argv[i], &size);
        CHECK(data != NULL, "cannot read %s", argv[i]);
        if (!data) continue;
        compare(argv[i], data, size, &g);
        /* Every prefix of a small file: the end of the data in every
         * position of a packet and of a record. */
        if (size <= 512)
            for (size_t cut = 0; cut < size; cut++)
                compare(argv[i], data, cut, &g);
        free(data);
    }
    static uint8_t buf[4096];
    for (int i = 0; i < 1500; i++)
        compare("random stream", buf, random_stream(&g, buf, sizeof buf), &g);

    /* The API's refusals: a feed while bytes remain, and after finish. */
    armprof_spe_stream s;
    armprof_spe_stream_init(&s);
    const uint8_t two_ends[] = {0x01, 0x01};
    CHECK(armprof_spe_stream_feed(&s, two_ends, 2), "first feed");
    armprof_spe_packet p;
    CHECK(armprof_spe_stream_next_packet(&s, &p) == ARMPROF_SPE_DECODE_OK, "End");
    CHECK(!armprof_spe_stream_feed(&s, two_ends, 2), "feed with a byte left is refused");
    CHECK(armprof_spe_stream_next_packet(&s, &p) == ARMPROF_SPE_DECODE_OK && p.offset == 1,
          "the second End, at offset 1");
    armprof_spe_stream_finish(&s);
    CHECK(!armprof_spe_stream_feed(&s, two_ends, 2), "feed after finish is refused");
    CHECK(armprof_spe_stream_next_packet(&s, &p) == ARMPROF_SPE_DECODE_EOF, "then EOF");
    CHECK(armprof_spe_stream_next_packet(NULL, &p) == ARMPROF_SPE_DECODE_ERROR, "NULL stream");
    armprof_spe_stream_init(&s);
    CHECK(armprof_spe_stream_next_record(&s, NULL) == ARMPROF_SPE_DECODE_ERROR && s.error,
          "NULL record");
    printf("%u streams compared\n", streams);
    return check_summary();
}
