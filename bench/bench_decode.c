/* SPDX-License-Identifier: BSD-3-Clause */
/* SPE record decoder throughput (include/armprof/decode.h). An Armv9.4 PE
 * profiling EL0 and EL1 with timestamps, context and physical addresses
 * produces the records first: a mix of loads, stores, branches and other
 * operations, every one sampled (PMSICR_EL1.COUNT set to 1 after each
 * selection), the records collected from the sink until the stream holds
 * MB megabytes. Then the stream is decoded three times, each timed:
 * - packets: armprof_spe_next_packet() over the whole stream;
 * - records: armprof_spe_next_record() into structured records;
 * - stream: armprof_spe_stream_next_record() on the same bytes fed in 64KB
 *   chunks (what `armprof decode` and `report` do with a file);
 * - text: every packet formatted with armprof_spe_packet_text() into a
 *   buffer (the `armprof decode` loop without the output);
 * - json: the same with armprof_spe_packet_json() (`armprof decode --json`).
 * Prints megabytes and records (or packets) per second for each.
 * Usage: bench_decode [MB] (default 64). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "bench_common.h"

typedef struct stream {
    uint8_t *data;
    size_t len, cap;
} stream;

static void collect(void *ctx, const uint8_t *record, size_t size)
{
    stream *s = ctx;
    if (s->len + size > s->cap) return; /* full: the generator stops */
    memcpy(s->data + s->len, record, size);
    s->len += size;
}

static uint64_t rng(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

/* Runs the model until the stream is within a maximum-size record of cap. */
static long generate(stream *s)
{
    /* The 1MB buffer is restarted whenever it fills: the sink keeps the records. */
    uint64_t buffer, buffer_size;
    armprof_pe *pe = bench_spe_pe("bench_decode", &buffer, &buffer_size);
    bench_set(pe, "CONTEXTIDR_EL1", 0x1234);
    armprof_spe_set_sink(pe, collect, s);
    unsigned idx;
    const int pmsicr = armprof_reg_lookup("PMSICR_EL1", &idx);
    uint64_t state = 0x9E3779B97F4A7C15ull, pc = 0xffff800008000000ull;
    long ops = 0;
    unsigned el = 1;
    while (s->len + 256 <= s->cap) {
        if ((ops & 1023) == 0) {
            el ^= 1;
            armprof_set_el(pe, el, NULL, 0);
            pc = el ? 0xffff800008000000ull : 0x400000;
            armprof_set_physical_count(pe, (uint64_t)ops);
            if (armprof_pmbirq(pe)) {
                armprof_psb_csync(pe);
                bench_set(pe, "PMBPTR_EL1", buffer);
                bench_set(pe, "PMBSR_EL1", 0);
            }
        }
        const uint64_t r = rng(&state);
        armprof_op op;
        memset(&op, 0, sizeof op);
        op.pc = pc;
        op.total_latency = (uint32_t)(1 + (r >> 8) % 400);
        op.issue_latency = (uint32_t)((r >> 20) % 40);
        const unsigned kind = (unsigned)(r % 100);
        if (kind < 45) {
            op.op_class = kind < 30 ? ARMPROF_OP_LOAD : ARMPROF_OP_STORE;
            op.ldst_kind = (armprof_ldst_kind)((r >> 32) % 3); /* general, extended, SIMD&FP */
            op.vaddr = (el ? 0xffff000020000000ull : 0x7ff000000ull) + ((r >> 16) & 0xfff8);
            op.paddr = 0x60000000ull + ((r >> 16) & 0xfff8);
            op.l1d_access = true;
            op.l1d_refill = (r >> 40) % 10 == 0;
            op.translation_latency = (uint32_t)((r >> 44) % 30);
            op.data_source_valid = op.op_class == ARMPROF_OP_LOAD;
            op.data_source = (uint16_t)(r >> 48);
            op.events = ARMPROF_SPE_EV_TLB_ACCESS;
        } else if (kind < 63) {
            op.op_class = ARMPROF_OP_BRANCH;
            op.branch_kind = (armprof_branch_kind)((r >> 32) % 5);
            op.conditional = op.branch_kind == ARMPROF_BRANCH_DIRECT && (r >> 36) & 1;
            op.taken = !op.conditional || (r >> 37) & 1;
            op.mispredicted = (r >> 40) % 20 == 0;
            op.target = (pc & ~0xffffull) + ((r >> 16) & 0xfffc);
        } else {
            op.op_class = ARMPROF_OP_OTHER;
            op.fp = (r >> 32) & 1;
        }
        armprof_op *p = &op;
        if (armprof_dispatch(pe, p)) armprof_reg_set(pe, pmsicr, idx, 1);
        armprof_retire(pe, p);
        pc = op.op_class == ARMPROF_OP_BRANCH && op.taken ? op.target : pc + 4;
        ops++;
    }
    armprof_pe_destroy(pe);
    return ops;
}

int main(int argc, char **argv)
{
    const long mb = argc > 1 ? atol(argv[1]) : 64;
    if (mb <= 0) {
        fprintf(stderr, "usage: bench_decode [MB]\n");
        return 2;
    }
    stream s = {malloc((size_t)mb << 20), 0, (size_t)mb << 20};
    if (!s.data) {
        fprintf(stderr, "bench_decode: cannot allocate %ld MB\n", mb);
        return 2;
    }
    double t0 = bench_now();
    const long ops = generate(&s);
    const double t_gen = bench_now() - t0;
    const double mbytes = (double)s.len / (1 << 20);
    printf("bench_decode: %.1f MB of records from %ld operations of the model (%.2f s)\n", mbytes,
           ops, t_gen);

    armprof_spe_decoder d;
    armprof_spe_packet p;
    uint64_t packets = 0, sum = 0;
    t0 = bench_now();
    armprof_spe_decoder_init(&d, s.data, s.len);
    while (armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_OK) {
        packets++;
        sum += p.payload;
    }
    const double t_pkt = bench_now() - t0;

    armprof_spe_record r;
    uint64_t records = 0, ignored = 0;
    t0 = bench_now();
    armprof_spe_decoder_init(&d, s.data, s.len);
    armprof_spe_decode_status st;
    while ((st = armprof_spe_next_record(&d, &r)) == ARMPROF_SPE_DECODE_OK) {
        records++;
        ignored += r.ignored;
        sum += r.address[0] ^ r.events;
    }
    const double t_rec = bench_now() - t0;
    if (st != ARMPROF_SPE_DECODE_EOF || ignored) {
        fprintf(stderr, "bench_decode: the model's records do not decode cleanly: %s\n",
                d.error ? d.error : "ignored packets");
        return 1;
    }

    /* The same records through the streaming decoder, 64KB at a time. */
    uint64_t streamed = 0;
    size_t fed = 0;
    armprof_spe_stream ss;
    armprof_spe_stream_init(&ss);
    t0 = bench_now();
    while ((st = armprof_spe_stream_next_record(&ss, &r)) != ARMPROF_SPE_DECODE_EOF) {
        if (st == ARMPROF_SPE_DECODE_MORE) {
            const size_t n = s.len - fed < 65536 ? s.len - fed : 65536;
            if (n == 0)
                armprof_spe_stream_finish(&ss);
            else
                armprof_spe_stream_feed(&ss, s.data + fed, n);
            fed += n;
        } else if (st == ARMPROF_SPE_DECODE_OK) {
            streamed++;
            sum += r.address[0] ^ r.events;
        } else {
            break;
        }
    }
    const double t_stream = bench_now() - t0;
    if (st != ARMPROF_SPE_DECODE_EOF || streamed != records) {
        fprintf(stderr, "bench_decode: the stream decoder disagrees: %llu records of %llu\n",
                (unsigned long long)streamed, (unsigned long long)records);
        return 1;
    }

    char line[512];
    uint64_t chars = 0;
    t0 = bench_now();
    armprof_spe_decoder_init(&d, s.data, s.len);
    while (armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_OK)
        chars += (uint64_t)armprof_spe_packet_text(&p, line, sizeof line);
    const double t_txt = bench_now() - t0;

    uint64_t json_chars = 0;
    t0 = bench_now();
    armprof_spe_decoder_init(&d, s.data, s.len);
    while (armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_OK)
        json_chars += (uint64_t)armprof_spe_packet_json(&p, line, sizeof line);
    const double t_json = bench_now() - t0;

    printf("bench_decode: packets: %.3f s, %.0f MB/s, %.1f million packets per second "
           "(%llu packets, checksum %llx)\n",
           t_pkt, mbytes / t_pkt, (double)packets / t_pkt / 1e6, (unsigned long long)packets,
           (unsigned long long)(sum & 0xffff));
    printf("bench_decode: records: %.3f s, %.0f MB/s, %.1f million records per second "
           "(%llu records, %.1f bytes each)\n",
           t_rec, mbytes / t_rec, (double)records / t_rec / 1e6, (unsigned long long)records,
           (double)s.len / (double)records);
    printf("bench_decode: stream: %.3f s, %.0f MB/s, %.1f million records per second "
           "(64KB chunks)\n",
           t_stream, mbytes / t_stream, (double)streamed / t_stream / 1e6);
    printf("bench_decode: text: %.3f s, %.0f MB/s, %.1f million packets per second "
           "(%.0f MB of text)\n",
           t_txt, mbytes / t_txt, (double)packets / t_txt / 1e6, (double)chars / (1 << 20));
    printf("bench_decode: json: %.3f s, %.0f MB/s, %.1f million packets per second "
           "(%.0f MB of JSON)\n",
           t_json, mbytes / t_json, (double)packets / t_json / 1e6, (double)json_chars / (1 << 20));
    free(s.data);
    return 0;
}
