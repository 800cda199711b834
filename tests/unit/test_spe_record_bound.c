/* SPDX-License-Identifier: BSD-3-Clause */
/* Property test of the SPE packet table and the record-size bound (issue
 * 13): one table, src/decode/spe_packets.def, drives the record encoder
 * (src/spe/record.c), the decoder and spe_max_record_size(), the bound that
 * PMSIDR_EL1.MaxSize is checked against.
 *
 * Part 1, the table against the framing rules of D18.1.1 that hold for
 * every packet: no byte is the 8-bit header of two rows (Table D18-1);
 * a row without payload has a header in 0x00-0x1F; a FIXED row's SZ bits
 * (in its mask) give its one size; an SZ row leaves SZ out of its mask; and
 * every header spe_packet_header() makes, for every INDEX the packet can
 * carry (Table D18-2's Extended format above the Short format's) and every
 * payload size of the row, decodes back to the same type, INDEX and size.
 *
 * Part 2, the bound: RUNS random configurations (preset, SPE version,
 * FEAT_SPE_PBT, FEAT_SPE_ALTCLK, FEAT_SPE_FDS and the other SPE features,
 * counter size, PMBIDR_EL1.Align, Events and Data Source payload sizes,
 * 'SPE get prev br if not br' and the other previous-branch options,
 * spe_filter_events; PMSIDR_EL1.MaxSize the smallest the configuration
 * accepts from a random start, often the tightest), each set up as a
 * Non-secure EL1 kernel would (stage 1 off, a 4MB buffer), running OPS
 * random operations at EL0 and EL1 (every class, load/store and Other kind,
 * branch kind; random addresses, latencies above the counters' range,
 * events, data sources; some dispatched before they retire) with
 * PMSIRR_EL1.INTERVAL 1 and PMSICR_EL1.COUNT 1 before each operation, so
 * that every operation is sampled, and PMSCR_EL1/EL2 TS, PA and CX changed
 * now and then. Every record the sink receives must be:
 * - no larger than spe_max_record_size() and 2^PMSIDR_EL1.MaxSize, read as
 *   software reads it (PMSIDR_EL1.MaxSize "Defines the largest size for a
 *   single record"; RHXSYK and D17.8.2 leave that much room in the buffer);
 * - a sequence of packets that each match their table row (header pattern,
 *   Extended format, payload size, no reserved value), ended by End or
 *   Timestamp, then only Padding (D18.1.2, D18.1.3), one decoded record.
 * And every operation sampled where profiling is enabled gives a record.
 * So that the checks cannot pass vacuously, every packet type must occur
 * and, in at least a quarter of the configurations, a record must be
 * exactly as large as the bound: the workload reaches the largest records,
 * so a bound that misses a packet fails (each packet of the sum left out in
 * turn, and the padding, made this test fail). */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "check.h"
#include "decode/spe_packets.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"
#include "spe/sample.h"

#define RUNS     300u
#define OPS      600u
#define BUF_PA   0x80000000ull
#define BUF_SIZE 0x400000ull /* OPS records of 2^11 bytes fit: no buffer full event */

/* ---- part 1: the table ---- */

static void test_table(void)
{
    for (unsigned b = 0; b < 256; b++) {
        unsigned rows = 0;
        for (unsigned t = 0; t < ARMPROF_SPE_PKT_UNKNOWN; t++)
            if ((b & spe_packet_table[t].mask) == spe_packet_table[t].header) rows++;
        CHECK(rows <= 1, "0x%02x is the header of %u rows", b, rows);
    }
    static const unsigned sizes[] = {0, 1, 2, 4, 8};
    for (unsigned t = 0; t < ARMPROF_SPE_PKT_UNKNOWN; t++) {
        const spe_packet_desc *d = &spe_packet_table[t];
        CHECK(d->name != NULL && (d->header & ~d->mask) == 0, "row %u: name, pattern", t);
        switch (d->size) {
        case SPE_SIZE_NONE:
            CHECK(d->header < 0x20 && d->max_payload == 0, "%s: no payload below 0x20", d->name);
            break;
        case SPE_SIZE_FIXED:
            CHECK(d->header >= 0x40 && (d->mask & 0x30) == 0x30 &&
                      d->min_payload == d->max_payload &&
                      spe_header_payload_size(d->header) == d->max_payload,
                  "%s: SZ in the pattern gives %u bytes", d->name, d->max_payload);
            break;
        default:
            CHECK(d->header >= 0x40 && (d->mask & 0x30) == 0 && d->min_payload >= 1 &&
                      d->min_payload <= d->max_payload,
                  "%s: SZ free", d->name);
            break;
        }
        CHECK(d->ext0_mask == 0 || spe_header_is_16bit(d->ext0), "%s: Table D18-2 byte 0", d->name);
        const unsigned indexes = d->ext0_mask ? 32u : 1u << d->index_bits;
        for (unsigned index = 0; index < indexes; index++)
            for (unsigned k = 0; k < 5; k++) {
                const unsigned bytes = sizes[k];
                if (bytes < d->min_payload || bytes > d->max_payload) continue;
                uint8_t b[2 + 8] = {0};
                const unsigned n = spe_packet_header((armprof_spe_packet_type)t, index, bytes, b);
                CHECK(n == spe_packet_header_size((armprof_spe_packet_type)t, index),
                      "%s INDEX %u: header size", d->name, index);
                armprof_spe_decoder dec;
                armprof_spe_decoder_init(&dec, b, n + bytes);
                armprof_spe_packet p;
                const bool ok = armprof_spe_next_packet(&dec, &p) == ARMPROF_SPE_DECODE_OK;
                CHECK(ok && p.type == t && p.index == index && p.header_size == n &&
                          p.payload_size == bytes && dec.pos == n + bytes,
                      "%s INDEX %u, %u bytes: decoded as %s INDEX %u, %u+%u bytes", d->name, index,
                      bytes, armprof_spe_packet_type_name(p.type), p.index, p.header_size,
                      p.payload_size);
            }
    }
}

/* ---- part 2: random configurations ---- */

typedef struct run {
    unsigned n;
    char what[256]; /* the configuration, for messages */
    size_t bound, max_size;
    unsigned long records, bad_size, bad_packets;
    size_t largest;
    unsigned long seen[ARMPROF_SPE_PKT_UNKNOWN + 1];
} run;

/* A packet of the record against its row of the table. */
static const char *check_packet(const armprof_spe_packet *p)
{
    if (p->type == ARMPROF_SPE_PKT_UNKNOWN) return "no row of the table";
    const spe_packet_desc *d = &spe_packet_table[p->type];
    if ((p->header[p->header_size - 1] & d->mask) != d->header) return "header not its row's";
    if (p->header_size == 2 && (d->ext0_mask == 0 || (p->header[0] & d->ext0_mask) != d->ext0))
        return "16-bit header not Table D18-2's";
    if (p->payload_size < d->min_payload || p->payload_size > d->max_payload)
        return "payload size not its row's";
    if (p->reserved) return "a reserved value";
    return NULL;
}

static void sink(void *ctx, const uint8_t *rec, size_t size)
{
    run *R = ctx;
    R->records++;
    if (size > R->largest) R->largest = size;
    if (size > R->bound || size > R->max_size) {
        if (R->bad_size++ < 3)
            fprintf(stderr, "run %u (%s): a %zu-byte record, bound %zu, 2^MaxSize %zu\n", R->n,
                    R->what, size, R->bound, R->max_size);
    }
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, rec, size);
    armprof_spe_packet p;
    memset(&p, 0, sizeof p);
    const char *why = NULL;
    bool ended = false;
    while (!why && armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_OK) {
        R->seen[p.type]++;
        why = check_packet(&p);
        if (!why && ended && p.type != ARMPROF_SPE_PKT_PADDING) why = "a packet after the end";
        if (!why && !ended && p.type == ARMPROF_SPE_PKT_PADDING) why = "Padding inside the record";
        if (p.type == ARMPROF_SPE_PKT_END || p.type == ARMPROF_SPE_PKT_TIMESTAMP) ended = true;
    }
    if (!why && d.error) why = d.error;
    if (!why && !ended) why = "no End or Timestamp packet";
    if (!why) {
        armprof_spe_record r;
        armprof_spe_decoder_init(&d, rec, size);
        if (armprof_spe_next_record(&d, &r) != ARMPROF_SPE_DECODE_OK || r.offset != 0 ||
            r.ignored != 0 || armprof_spe_next_record(&d, &r) != ARMPROF_SPE_DECODE_EOF)
            why = "not one record";
    }
    if (why && R->bad_packets++ < 3) {
        fprintf(stderr, "run %u (%s): record %lu: %s at offset %zu:", R->n, R->what, R->records,
                why, p.offset);
        for (size_t i = 0; i < size && i < 128; i++)
            fprintf(stderr, " %02x", rec[i]);
        fputc('\n', stderr);
    }
}

static void feature(armprof_config *c, armprof_feature f, bool on, run *R)
{
    armprof_config_set_feature(c, f, on);
    if (on) {
        const size_t len = strlen(R->what);
        snprintf(R->what + len, sizeof R->what - len, " %s", armprof_feature_name(f) + 5);
    }
}

static void option(armprof_config *c, armprof_option o, uint64_t v, run *R)
{
    c->options[o] = v;
    const size_t len = strlen(R->what);
    snprintf(R->what + len, sizeof R->what - len, " %s=%llu", armprof_option_name(o),
             (unsigned long long)v);
}

/* A random configuration the model accepts, or false after too many
 * draws the architecture's rules reject. */
static bool random_config(rng *g, armprof_config *c, run *R, unsigned long *rejected)
{
    static const char *const presets[] = {"armv9.4-all", "armv8.2-spe", "armv8.4-nv"};
    static const armprof_feature versions[] = {ARMPROF_FEAT_SPEv1p1, ARMPROF_FEAT_SPEv1p2,
                                               ARMPROF_FEAT_SPEv1p3, ARMPROF_FEAT_SPEv1p4,
                                               ARMPROF_FEAT_SPEv1p5};
    static const armprof_feature extras[] = {
        ARMPROF_FEAT_SPE_PBT, ARMPROF_FEAT_SPE_ALTCLK, ARMPROF_FEAT_SPE_FDS, ARMPROF_FEAT_SPE_SME,
        ARMPROF_FEAT_SPE_FPF, ARMPROF_FEAT_SPE_CRR,    ARMPROF_FEAT_SPE_EFT, ARMPROF_FEAT_SPE_ERnd,
        ARMPROF_FEAT_SPE_nVM, ARMPROF_FEAT_SPE_EXC,    ARMPROF_FEAT_SPE_FnE, ARMPROF_FEAT_SPE_DPFZS,
        ARMPROF_FEAT_SPE_SFE, ARMPROF_FEAT_SVE,        ARMPROF_FEAT_SME,     ARMPROF_FEAT_MTE,
        ARMPROF_FEAT_MTE2,    ARMPROF_FEAT_MOPS,       ARMPROF_FEAT_GCS,
    };
    static const uint64_t events_bytes[] = {0, 0, 2, 4, 8};
    for (unsigned draw = 0; draw < 200; draw++) {
        const char *preset = presets[below(g, 3)];
        snprintf(R->what, sizeof R->what, "%s:", preset);
        armprof_config_preset(c, preset);
        const unsigned level = below(g, 6);
        for (unsigned i = 0; i < 5; i++)
            feature(c, versions[i], i < level, R);
        for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++)
            feature(c, extras[i], chance(g, 2), R);
        option(c, ARMPROF_OPT_PMSIDR_INTERVAL, 0, R);
        option(c, ARMPROF_OPT_PMSIDR_COUNTSIZE, 2 + below(g, 2), R);
        option(c, ARMPROF_OPT_PMBIDR_ALIGN, chance(g, 2) ? below(g, 4) : below(g, 12), R);
        option(c, ARMPROF_OPT_SPE_EVENTS_PAYLOAD, events_bytes[below(g, 5)], R);
        option(c, ARMPROF_OPT_SPE_DS_PAYLOAD, below(g, 3), R);
        option(c, ARMPROF_OPT_SPE_PREV_BR_NOT_BRANCH, chance(g, 2), R);
        option(c, ARMPROF_OPT_SPE_PREV_BR_EXCEPTION, chance(g, 2), R);
        option(c, ARMPROF_OPT_SPE_PREV_BR_ERET, chance(g, 2), R);
        if (chance(g, 4)) option(c, ARMPROF_OPT_SPE_FILTER_EVENTS, rnd(g), R);
        const size_t len = strlen(R->what);
        /* The smallest MaxSize from a random start that the configuration
         * accepts: from 6, the tightest. */
        for (unsigned ms = chance(g, 2) ? 6 : 6 + below(g, 6); ms <= 11; ms++) {
            c->options[ARMPROF_OPT_PMSIDR_MAXSIZE] = ms;
            if (armprof_config_validate(c, NULL, 0)) {
                snprintf(R->what + len, sizeof R->what - len, " pmsidr_maxsize=%u", ms);
                return true;
            }
        }
        ++*rejected;
    }
    return false;
}

static void random_op(rng *g, armprof_op *op, unsigned el, uint64_t pc)
{
    memset(op, 0, sizeof *op);
    op->pc = pc;
    op->op_class = (armprof_op_class)below(g, 4);
    /* Latencies beyond 16 bits now and then: the counters saturate. */
    op->total_latency = chance(g, 8) ? (uint32_t)rnd(g) : below(g, 500);
    op->issue_latency = chance(g, 8) ? (uint32_t)rnd(g) : below(g, 100);
    op->translation_latency = chance(g, 8) ? (uint32_t)rnd(g) : below(g, 300);
    op->alt_issue_latency = chance(g, 8) ? (uint32_t)rnd(g) : below(g, 300);
    /* Any bits: the model drops those the configuration does not define. */
    op->events = (uint32_t)rnd(g);
    op->impdef_events = (uint16_t)rnd(g);
    op->l1d_access = chance(g, 2);
    op->l1d_refill = op->l1d_access && chance(g, 3);
    op->conditional = chance(g, 4);
    op->fp = chance(g, 2);
    op->simd = chance(g, 2);
    op->predicated = chance(g, 2);
    op->vector_length = 16 + below(g, 4096);
    switch (op->op_class) {
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        op->ldst_kind = (armprof_ldst_kind)below(g, ARMPROF_LDST_NV2 + 1);
        op->vaddr = rnd(g);
        op->tbi = chance(g, 2);
        op->tag_checked = chance(g, 2);
        op->paddr = rnd(g) & 0xfffffffff8ull; /* 40 bits: within every pa_size */
        op->pas = ARMPROF_PAS_NONSECURE;
        op->data_source_valid = !chance(g, 5);
        op->data_source = (uint16_t)rnd(g);
        op->acquire_release = chance(g, 2);
        op->exclusive = chance(g, 2);
        op->atomic = chance(g, 2);
        op->gather_scatter = chance(g, 2);
        break;
    case ARMPROF_OP_BRANCH:
        op->branch_kind = (armprof_branch_kind)below(g, el ? 7 : 5);
        op->taken = !chance(g, 4);
        op->mispredicted = chance(g, 8);
        op->target = (el ? 0xffff800000000000ull : 0) | (rnd(g) & 0x7ffffffffffcull);
        break;
    default:
        op->other_kind = (armprof_other_kind)below(g, 3);
        op->cond_failed = op->conditional && chance(g, 2);
        op->tile_size = 1 + below(g, 1u << 20);
        break;
    }
}

/* What the kernel and the hypervisor set now and then: timestamps,
 * physical addresses and context in the records. Mostly on, so that the
 * largest records occur. */
static void random_pmscr(armprof_pe *pe, rng *g)
{
    drv_set_field(pe, "PMSCR_EL1", "TS", !chance(g, 4));
    drv_set_field(pe, "PMSCR_EL1", "PA", !chance(g, 4));
    drv_set_field(pe, "PMSCR_EL1", "CX", !chance(g, 4));
    drv_set_field(pe, "PMSCR_EL2", "PA", !chance(g, 4));
    drv_set_field(pe, "PMSCR_EL2", "CX", !chance(g, 4));
}

static void one_run(run *R, const armprof_config *cfg, rng *g)
{
    char err[256];
    armprof_pe *pe = armprof_pe_create(cfg, err, sizeof err);
    CHECK(pe != NULL, "run %u (%s): %s", R->n, R->what, err);
    if (!pe) return;
    R->bound = spe_max_record_size(cfg);
    R->max_size = (size_t)1 << drv_get_field(pe, "PMSIDR_EL1", "MaxSize");

    /* Firmware and hypervisor: Non-secure EL1 owns the buffer. */
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    drv_set_field(pe, "MDCR_EL3", "NSPB", 3);
    drv_set_field(pe, "MDCR_EL2", "E2PB", 2);
    drv_set(pe, "HCR_EL2", 1ull << 31); /* RW; TGE, E2H 0 */
    drv_set_field(pe, "SCTLR_EL1", "M", 0);
    drv_set(pe, "PMSCR_EL2", 0);
    /* The kernel: the buffer, sampling every operation, then PMSCR_EL1. */
    drv_set(pe, "PMBSR_EL1", 0);
    drv_set(pe, "PMBPTR_EL1", BUF_PA);
    drv_set(pe, "PMBLIMITR_EL1", BUF_PA + BUF_SIZE);
    drv_set_field(pe, "PMBLIMITR_EL1", "E", 1);
    drv_set(pe, "PMSFCR_EL1", 0);
    drv_set(pe, "PMSIRR_EL1", 0);
    drv_set_field(pe, "PMSIRR_EL1", "INTERVAL", 1);
    drv_set(pe, "PMSCR_EL1", 0);
    drv_set_field(pe, "PMSCR_EL1", "E0SPE", 1);
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    random_pmscr(pe, g);
    armprof_spe_set_sink(pe, sink, R);
    unsigned el = 1;
    CHECK(armprof_set_el(pe, el, err, sizeof err), "%s", err);

    unsigned idx;
    const int id_pmsicr = drv_reg("PMSICR_EL1", &idx);
    unsigned long enabled_ops = 0;
    uint64_t pc = 0xffff800008000000ull, count = 1000;
    for (unsigned i = 0; i < OPS; i++) {
        if (chance(g, 50)) {
            el ^= 1;
            CHECK(armprof_set_el(pe, el, err, sizeof err), "%s", err);
            pc = el ? 0xffff800008000000ull : 0x400000;
        }
        if (chance(g, 100)) random_pmscr(pe, g);
        if (chance(g, 50)) {
            drv_set(pe, "CONTEXTIDR_EL1", rnd(g));
            drv_set(pe, "CONTEXTIDR_EL2", rnd(g));
        }
        count += 1 + below(g, 50);
        armprof_set_physical_count(pe, count);
        armprof_op op;
        random_op(g, &op, el, pc);
        armprof_reg_set(pe, id_pmsicr, 0, 1); /* this operation is sampled */
        enabled_ops += armprof_spe_profiling_enabled(pe, el);
        if (chance(g, 4)) armprof_dispatch(pe, &op);
        armprof_retire(pe, &op);
        pc = op.op_class == ARMPROF_OP_BRANCH && op.taken ? op.target : pc + 4;
    }
    CHECK(R->records == enabled_ops && R->records > OPS / 2,
          "run %u (%s): %lu records of %lu operations sampled", R->n, R->what, R->records,
          enabled_ops);
    CHECK(drv_get_field(pe, "PMBSR_EL1", "S") == 0, "run %u: no buffer management event", R->n);
    armprof_pe_destroy(pe);
}

int main(void)
{
    test_table();

    rng g = {0x2545F4914F6CDD1Dull};
    unsigned long rejected = 0, records = 0, bad_size = 0, bad_packets = 0, tight = 0;
    unsigned long seen[ARMPROF_SPE_PKT_UNKNOWN + 1] = {0};
    unsigned runs = 0;
    size_t largest = 0;
    for (unsigned n = 0; n < RUNS; n++) {
        run R;
        memset(&R, 0, sizeof R);
        R.n = n;
        armprof_config cfg;
        if (!random_config(&g, &cfg, &R, &rejected)) continue;
        one_run(&R, &cfg, &g);
        runs++;
        records += R.records;
        bad_size += R.bad_size;
        bad_packets += R.bad_packets;
        tight += R.largest == R.bound;
        if (R.largest > largest) largest = R.largest;
        for (unsigned t = 0; t <= ARMPROF_SPE_PKT_UNKNOWN; t++)
            seen[t] += R.seen[t];
    }
    CHECK(bad_size == 0, "%lu records larger than the bound or 2^MaxSize", bad_size);
    CHECK(bad_packets == 0, "%lu records with packets not as the table says", bad_packets);
    CHECK(runs >= RUNS * 9 / 10, "%u of %u configurations accepted", runs, RUNS);
    for (unsigned t = 0; t < ARMPROF_SPE_PKT_UNKNOWN; t++)
        CHECK(seen[t] > 0, "no %s packet in %lu records",
              armprof_spe_packet_type_name((armprof_spe_packet_type)t), records);
    CHECK(tight >= runs / 4, "a record as large as the bound in only %lu of %u configurations",
          tight, runs);
    printf("%u configurations (%lu draws rejected), %lu records, the largest %zu bytes; "
           "a record reached the bound in %lu configurations\n",
           runs, rejected, records, largest, tight);
    return check_summary();
}
