/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel (include/armprof/kernel.h), on the public API alone:
 * - after boot the buffer belongs to Non-secure EL1 (MDCR_EL3.NSPB 0b11,
 *   MDCR_EL2.E2PB 0b11: ProfilingBufferOwner(), D17.7.1), sampling is
 *   enabled at EL0 (PMSCR_EL1.E0SPE) and the PE is at Non-secure EL0;
 * - PMU counters count the architected events exactly: INST_RETIRED
 *   (0x08), LD_RETIRED (0x06), ST_RETIRED (0x07), BR_RETIRED (0x21) of
 *   the operations retired at EL0, and the instruction counter as many;
 * - the bytes the data callback receives are the bytes the unit wrote
 *   (written_bytes), records whole, every one with the CONTEXTIDR_EL1 the
 *   kernel switched to (PMSCR_EL1.CX, D18.2.2), and each PMBIRQ of a
 *   one-page buffer was a buffer full event (PMBSR_EL1.EC 0, BSC 1,
 *   D17.8.2) that restarted the buffer;
 * - the sample count follows the fixed interval (PMSIRR_EL1.INTERVAL
 *   without RND: one sample per INTERVAL operations, D17.2);
 * - a translation fault on the buffer's second page (PMBSR_EL1.EC 0b100100,
 *   a stage 1 Data Abort, D17.8.4) stops profiling, as Linux does;
 * - option spe_buffer_tlb: with 1 the buffer's page translation, once
 *   walked, stays in use after its descriptor is made invalid in memory
 *   until armprof_spe_tlb_invalidate() (a TLBI), then the write faults;
 *   with 0 (the default) the next write faults at once;
 * - armprof_op.data_address_unknown: a sampled load's record has no Data
 *   Virtual or Physical Address packet, the same load without it has both
 *   (D18.2.1 Address packets, INDEX 0b0010 and 0b0011);
 * - bad parameters get a message naming the parameter;
 * - Linux's arm_spe_pmu attributes set the filter registers as the driver
 *   does (PMSFCR_EL1: FE bit 0, FT 1, FL 2, FnE 3, FDS 4, B 16, LD 17,
 *   ST 18; PMSLATFR_EL1.MINLAT [15:0]), a bad name or value is refused
 *   naming it, and a filter the unit lacks refuses the boot (SPE v1 has no
 *   PMSNEVFR_EL1: PMSIDR_EL1.FnE 0). */
#include <stdlib.h>
#include <string.h>

#include "armprof/config.h"
#include "armprof/decode.h"
#include "armprof/kernel.h"
#include "armprof/memory.h"
#include "check.h"

#define OPS      100000u
#define INTERVAL 1024u
#define PID      4242u

typedef struct sink {
    uint8_t *p;
    size_t n, cap;
    uint64_t irqs, last_pmbsr;
} sink;

static void on_data(void *ctx, const uint8_t *data, size_t size)
{
    sink *s = ctx;
    if (s->n + size > s->cap) {
        s->cap = (s->n + size) * 2;
        s->p = realloc(s->p, s->cap);
        if (!s->p) abort();
    }
    memcpy(s->p + s->n, data, size);
    s->n += size;
}

static void on_irq(void *ctx, const armprof_kernel_irq *irq)
{
    sink *s = ctx;
    s->irqs++;
    s->last_pmbsr = irq->pmbsr;
}

static armprof_pe *make_pe_with(const char *preset, const char *option, const char *value)
{
    armprof_config c;
    char err[256];
    if (!armprof_config_preset(&c, preset)) abort();
    if (option && !armprof_config_set(&c, option, value, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "%s\n", err);
        abort();
    }
    return pe;
}

static armprof_pe *make_pe(const char *preset)
{
    return make_pe_with(preset, NULL, NULL);
}

static uint64_t reg(const armprof_pe *pe, const char *name)
{
    unsigned index = 0;
    const int r = armprof_reg_lookup(name, &index);
    if (r < 0) abort();
    return armprof_reg_get(pe, r, index);
}

static void params(armprof_kernel_params *p, sink *s)
{
    static const uint16_t events[] = {0x08, 0x06, 0x07, 0x21};
    armprof_kernel_params_default(p);
    p->interval = INTERVAL;
    p->random = false;
    p->buffer_pages = 1;
    p->data = on_data;
    p->data_ctx = s;
    p->irq = on_irq;
    p->irq_ctx = s;
    p->events = 4;
    memcpy(p->event, events, sizeof events);
}

/* A PE of preset (with option = value when option is not NULL) and its
 * kernel booted with params() and buffer_pages pages: NULL, with the
 * failure checked, when the boot fails. */
typedef struct fixture {
    sink s;
    armprof_kernel_params p;
    armprof_pe *pe;
    armprof_kernel *k;
} fixture;

static bool setup(fixture *f, const char *option, const char *value, uint32_t pages)
{
    char err[256];
    memset(f, 0, sizeof *f);
    params(&f->p, &f->s);
    f->p.buffer_pages = pages;
    f->pe = make_pe_with("armv9.4-all", option, value);
    f->k = armprof_kernel_boot(f->pe, &f->p, err, sizeof err);
    CHECK(f->k != NULL, "boot: %s", err);
    if (!f->k) armprof_pe_destroy(f->pe);
    return f->k != NULL;
}

static void teardown(fixture *f)
{
    armprof_kernel_destroy(f->k);
    armprof_pe_destroy(f->pe);
    free(f->s.p);
}

/* Operation i of the workload: a load, a store, a taken branch, an Other. */
static void retire(armprof_pe *pe, uint64_t i)
{
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x400000 + 4 * (i % 1024);
    op.op_class = (armprof_op_class[]){ARMPROF_OP_LOAD, ARMPROF_OP_STORE, ARMPROF_OP_BRANCH,
                                       ARMPROF_OP_OTHER}[i % 4];
    op.vaddr = op.paddr = 0x10000 + 8 * (i % 512);
    op.taken = op.op_class == ARMPROF_OP_BRANCH;
    op.target = op.pc + 4;
    op.total_latency = 5;
    armprof_retire(pe, &op);
    /* the events are counted at the end of the cycle (PMUEvent()) */
    armprof_cycles(pe, 1);
}

static void test_run(void)
{
    char err[256];
    sink s = {0};
    armprof_kernel_params p;
    params(&p, &s);
    armprof_pe *pe = make_pe("armv9.4-all");
    armprof_kernel *k = armprof_kernel_boot(pe, &p, err, sizeof err);
    CHECK(k != NULL, "boot: %s", err);
    if (!k) return;
    CHECK(armprof_current_el(pe) == 0, "EL%u after boot", armprof_current_el(pe));
    CHECK(armprof_current_security_state(pe) == ARMPROF_SS_NONSECURE, "not Non-secure");
    armprof_security_state owner_ss;
    unsigned owner_el = 9;
    CHECK(armprof_spe_buffer_owner(pe, &owner_ss, &owner_el) && owner_ss == ARMPROF_SS_NONSECURE &&
              owner_el == 1,
          "buffer owner EL%u", owner_el);
    CHECK(armprof_spe_profiling_enabled(pe, 0), "profiling not enabled at EL0");
    const armprof_kernel_setup su = armprof_kernel_get_setup(k);
    CHECK(su.interval == INTERVAL, "interval %u", su.interval);
    CHECK((reg(pe, "PMSIRR_EL1") >> 8) == INTERVAL >> 8 && !(reg(pe, "PMSIRR_EL1") & 1),
          "PMSIRR_EL1 0x%llx", (unsigned long long)reg(pe, "PMSIRR_EL1"));

    armprof_kernel_switch_context(k, PID);
    CHECK(reg(pe, "CONTEXTIDR_EL1") == PID, "CONTEXTIDR_EL1 0x%llx",
          (unsigned long long)reg(pe, "CONTEXTIDR_EL1"));
    CHECK(armprof_current_el(pe) == 0, "the context switch left EL%u", armprof_current_el(pe));
    for (uint64_t i = 0; i < OPS; i++) {
        retire(pe, i);
        if (armprof_pmbirq(pe)) CHECK(armprof_kernel_service(k), "PMBIRQ not serviced");
    }
    CHECK(!armprof_kernel_service(k), "service without PMBIRQ did something");
    armprof_kernel_stop(k);
    armprof_kernel_stop(k); /* idempotent */
    CHECK(armprof_current_el(pe) == 0, "stop left EL%u", armprof_current_el(pe));

    uint64_t cycles = 1, instructions = 0, ev[4] = {0};
    armprof_kernel_counters(k, &cycles, &instructions, ev);
    CHECK(ev[0] == OPS, "INST_RETIRED %llu", (unsigned long long)ev[0]);
    CHECK(ev[1] == OPS / 4 && ev[2] == OPS / 4 && ev[3] == OPS / 4, "LD %llu ST %llu BR %llu",
          (unsigned long long)ev[1], (unsigned long long)ev[2], (unsigned long long)ev[3]);
    CHECK(instructions == OPS, "PMICNTR_EL0 %llu", (unsigned long long)instructions);
    CHECK(cycles == OPS, "PMCCNTR_EL0 %llu: one cycle per operation", (unsigned long long)cycles);

    const armprof_spe_stats st = armprof_spe_get_stats(pe);
    const armprof_kernel_status ks = armprof_kernel_get_status(k);
    CHECK(ks.failures == 0, "%u accesses failed: %s", ks.failures, ks.failure);
    CHECK(s.n == st.written_bytes && ks.bytes == s.n, "%zu bytes out, %llu written", s.n,
          (unsigned long long)st.written_bytes);
    CHECK(ks.irqs > 0 && ks.irqs == ks.buffer_full && ks.faults == 0 && s.irqs == ks.irqs,
          "%llu PMBIRQs, %llu buffer full", (unsigned long long)ks.irqs,
          (unsigned long long)ks.buffer_full);
    CHECK(ks.irq_stuck == 0, "PMBIRQ stuck %llu times", (unsigned long long)ks.irq_stuck);
    /* SPEToCollectSample() without RND: the kernel leaves COUNT 0, the
     * operation that finds it 0 reloads INTERVAL without counting, and the
     * one taking it from 1 to 0 is sampled: one sample every INTERVAL + 1
     * operations */
    CHECK(st.selected == OPS / (INTERVAL + 1), "%llu samples", (unsigned long long)st.selected);

    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, s.p, s.n);
    armprof_spe_record rec;
    uint64_t n = 0, bad_context = 0;
    while (armprof_spe_next_record(&d, &rec) == ARMPROF_SPE_DECODE_OK) {
        n++;
        if (!(rec.context_valid & 1) || rec.context[0] != PID) bad_context++;
    }
    CHECK(d.error == NULL, "decoding: %s", d.error ? d.error : "");
    CHECK(n == st.written && n > 0, "%llu records decoded, %llu written", (unsigned long long)n,
          (unsigned long long)st.written);
    CHECK(bad_context == 0, "%llu records without CONTEXTIDR_EL1 %u",
          (unsigned long long)bad_context, PID);
    armprof_kernel_destroy(k);
    armprof_pe_destroy(pe);
    free(s.p);
}

static void test_fault(void)
{
    fixture f;
    if (!setup(&f, NULL, NULL, 2)) return;
    armprof_pe *pe = f.pe;
    armprof_kernel *k = f.k;
    const armprof_kernel_params p = f.p;
    /* the level 3 descriptor of the buffer's second page made invalid */
    armprof_mem_write64(armprof_pe_memory(pe), ARMPROF_PAS_NONSECURE,
                        p.table_pa + 0x3000 + 8 * (((p.buffer_va >> 12) & 0x1ff) + 1), 0);
    for (uint64_t i = 0; i < OPS; i++) {
        retire(pe, i);
        armprof_kernel_service(k);
    }
    armprof_kernel_stop(k);
    const armprof_kernel_status ks = armprof_kernel_get_status(k);
    CHECK(ks.irqs == 1 && ks.faults == 1 && ks.buffer_full == 0 && !ks.profiling,
          "%llu PMBIRQs, %llu faults", (unsigned long long)ks.irqs, (unsigned long long)ks.faults);
    CHECK((f.s.last_pmbsr >> 26 & 0x3f) == 0x24, "PMBSR_EL1 0x%llx: EC not a stage 1 Data Abort",
          (unsigned long long)f.s.last_pmbsr);
    CHECK(reg(pe, "PMSCR_EL1") == 0 && reg(pe, "PMBLIMITR_EL1") == 0,
          "profiling not stopped: PMSCR_EL1 0x%llx", (unsigned long long)reg(pe, "PMSCR_EL1"));
    /* what reached memory before the fault, all of it on the first page */
    const armprof_spe_stats st = armprof_spe_get_stats(pe);
    CHECK(f.s.n == st.written_bytes && f.s.n <= 4096 && f.s.n > 0, "%zu bytes out, %llu written",
          f.s.n, (unsigned long long)st.written_bytes);
    teardown(&f);
}

/* Retires operations until the unit has written n more records, or a
 * PMBIRQ; returns the records written. */
static uint64_t run_until_written(armprof_pe *pe, uint64_t n, uint64_t *i)
{
    const uint64_t start = armprof_spe_get_stats(pe).written;
    while (armprof_spe_get_stats(pe).written < start + n && !armprof_pmbirq(pe) && *i < 100 * OPS)
        retire(pe, (*i)++);
    return armprof_spe_get_stats(pe).written - start;
}

static void test_tlb(bool tlb)
{
    fixture f;
    if (!setup(&f, "spe_buffer_tlb", tlb ? "1" : "0", 2)) return;
    armprof_pe *pe = f.pe;
    const armprof_kernel_params p = f.p;
    uint64_t i = 0;
    CHECK(run_until_written(pe, 1, &i) == 1, "no first record");
    /* the first page's descriptor made invalid, without a TLBI */
    armprof_mem_write64(armprof_pe_memory(pe), ARMPROF_PAS_NONSECURE,
                        p.table_pa + 0x3000 + 8 * ((p.buffer_va >> 12) & 0x1ff), 0);
    const uint64_t more = run_until_written(pe, 2, &i);
    if (tlb) {
        CHECK(more == 2 && !armprof_pmbirq(pe), "spe_buffer_tlb 1: %llu more records, PMBIRQ %d",
              (unsigned long long)more, armprof_pmbirq(pe));
        armprof_spe_tlb_invalidate(pe);
        CHECK(run_until_written(pe, 1, &i) == 0 && armprof_pmbirq(pe),
              "after the invalidation the write does not fault");
    } else {
        CHECK(more == 0 && armprof_pmbirq(pe), "spe_buffer_tlb 0: %llu more records, PMBIRQ %d",
              (unsigned long long)more, armprof_pmbirq(pe));
    }
    /* a stage 1 Data Abort (EC 0b100100, D17.8.4) */
    CHECK((reg(pe, "PMBSR_EL1") >> 26 & 0x3f) == 0x24, "PMBSR_EL1 0x%llx",
          (unsigned long long)reg(pe, "PMBSR_EL1"));
    teardown(&f);
}

/* Sampled loads with and without a known address. */
static void test_unknown_address(bool unknown)
{
    fixture f;
    if (!setup(&f, NULL, NULL, 4)) return;
    armprof_pe *pe = f.pe;
    armprof_kernel *k = f.k;
    for (uint64_t i = 0; i < 10 * INTERVAL; i++) {
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = 0x400000;
        op.op_class = ARMPROF_OP_LOAD;
        op.vaddr = op.paddr = 0x12340;
        op.data_address_unknown = unknown;
        armprof_retire(pe, &op);
        armprof_cycles(pe, 1);
        armprof_kernel_service(k);
    }
    armprof_kernel_stop(k);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, f.s.p, f.s.n);
    armprof_spe_record rec;
    uint64_t n = 0, with_va = 0, with_pa = 0;
    while (armprof_spe_next_record(&d, &rec) == ARMPROF_SPE_DECODE_OK) {
        n++;
        with_va += (rec.address_valid >> ARMPROF_SPE_ADDR_DATA_VIRTUAL) & 1;
        with_pa += (rec.address_valid >> ARMPROF_SPE_ADDR_DATA_PHYSICAL) & 1;
    }
    CHECK(n >= 9, "%llu records", (unsigned long long)n);
    CHECK(unknown ? with_va == 0 && with_pa == 0 : with_va == n && with_pa == n,
          "data_address_unknown %d: %llu records, %llu with a data VA, %llu with a PA", unknown,
          (unsigned long long)n, (unsigned long long)with_va, (unsigned long long)with_pa);
    teardown(&f);
}

static void expect_error(const char *what, armprof_pe *pe, const armprof_kernel_params *p,
                         const char *needle)
{
    char err[256] = "";
    armprof_kernel *k = armprof_kernel_boot(pe, p, err, sizeof err);
    CHECK(k == NULL && strstr(err, needle), "%s: \"%s\" lacks \"%s\"", what, err, needle);
    armprof_kernel_destroy(k);
}

static void set_interval_300(armprof_kernel_params *p)
{
    p->interval = 300;
}
static void set_no_pages(armprof_kernel_params *p)
{
    p->buffer_pages = 0;
}
static void set_low_va(armprof_kernel_params *p)
{
    p->buffer_va = 0x1000;
}
static void set_40_events(armprof_kernel_params *p)
{
    p->events = 40;
}
static void set_bad_size(armprof_kernel_params *p)
{
    p->size = 8;
}

/* One parameter out of range at a time: the message names it. */
static void test_errors(void)
{
    sink s = {0};
    armprof_kernel_params p;
    armprof_pe *pe = make_pe("armv9.4-all");
    static const struct {
        const char *what, *needle;
        void (*set)(armprof_kernel_params *);
    } cases[] = {
        {"interval", "interval 300", set_interval_300},
        {"pages", "buffer_pages 0", set_no_pages},
        {"va", "buffer_va 0x1000", set_low_va},
        {"events", "events 40", set_40_events},
        {"size", "armprof_kernel_params.size", set_bad_size},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        params(&p, &s);
        cases[i].set(&p);
        expect_error(cases[i].what, pe, &p, cases[i].needle);
    }
    armprof_pe_destroy(pe);

    armprof_config c;
    char err[256];
    armprof_config_preset(&c, "armv8.2-spe");
    armprof_config_set_feature(&c, ARMPROF_FEAT_SPE, false);
    pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "PE: %s", err);
    if (!pe) return;
    params(&p, &s);
    expect_error("no SPE", pe, &p, "no FEAT_SPE");
    armprof_pe_destroy(pe);
    pe = make_pe("minimal");
    expect_error("no EL2", pe, &p, "no EL2");
    armprof_pe_destroy(pe);
}

static void test_attributes(void)
{
    char err[768];
    armprof_kernel_params p;
    armprof_kernel_params_default(&p);
    CHECK(armprof_kernel_spe_attribute(&p, "load_filter=1", err, sizeof err), "%s", err);
    CHECK(p.pmsfcr == (1ull << 17 | 1ull << 1), "load_filter: PMSFCR 0x%llx",
          (unsigned long long)p.pmsfcr);
    CHECK(armprof_kernel_spe_attribute(&p, "min_latency=20", err, sizeof err), "%s", err);
    CHECK(p.pmslatfr == 20 && p.pmsfcr == (1ull << 17 | 1ull << 2 | 1ull << 1),
          "min_latency: PMSLATFR 0x%llx PMSFCR 0x%llx", (unsigned long long)p.pmslatfr,
          (unsigned long long)p.pmsfcr);
    CHECK(armprof_kernel_spe_attribute(&p, "load_filter=0", err, sizeof err), "%s", err);
    CHECK(p.pmsfcr == 1ull << 2, "load_filter=0 leaves FT: PMSFCR 0x%llx",
          (unsigned long long)p.pmsfcr);
    CHECK(armprof_kernel_spe_attribute(&p, "event_filter=0x4", err, sizeof err) &&
              armprof_kernel_spe_attribute(&p, "inv_event_filter=0x8", err, sizeof err),
          "%s", err);
    CHECK(p.pmsevfr == 4 && p.pmsnevfr == 8 && (p.pmsfcr & 9) == 9, "events: PMSFCR 0x%llx",
          (unsigned long long)p.pmsfcr);
    CHECK(armprof_kernel_spe_attribute(&p, "inv_data_src_filter=0x1", err, sizeof err), "%s", err);
    CHECK(p.pmsdsfr == ~1ull && (p.pmsfcr & 1u << 4), "inv_data_src_filter: PMSDSFR 0x%llx",
          (unsigned long long)p.pmsdsfr);
    CHECK(armprof_kernel_spe_attribute(&p, "jitter=0", err, sizeof err) && !p.random &&
              armprof_kernel_spe_attribute(&p, "ts_enable=0", err, sizeof err) && !p.timestamps &&
              armprof_kernel_spe_attribute(&p, "branch_filter", err, sizeof err) &&
              (p.pmsfcr & (1u << 16 | 1u << 1)) == (1u << 16 | 1u << 1),
          "jitter, ts_enable, branch_filter alone: %s", err);
    const armprof_kernel_params before = p;
    static const struct {
        const char *attr, *needle;
    } bad[] = {
        {"colour=1", "'colour' is not an arm_spe_pmu attribute (ts_enable, pa_enable"},
        {"load_filter=2", "load_filter=2: 0 or 1"},
        {"min_latency=4096", "min_latency=4096: a number below 4096"},
        {"event_filter=x", "event_filter=x: a 64-bit mask"},
        {"min_latency=", "min_latency=: a number"},
        {"min_latency=-1", "min_latency=-1: a number"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        const bool ok = armprof_kernel_spe_attribute(&p, bad[i].attr, err, sizeof err);
        CHECK(!ok && strstr(err, bad[i].needle), "%s: %s", bad[i].attr, err);
    }
    CHECK(!memcmp(&before, &p, sizeof p), "a refused attribute changed the parameters");
    CHECK(!armprof_kernel_spe_attribute(NULL, "load_filter", NULL, 0), "NULL parameters");

    /* SPE v1: no PMSNEVFR_EL1 */
    sink s = {0};
    params(&p, &s);
    CHECK(armprof_kernel_spe_attribute(&p, "inv_event_filter=0x2", err, sizeof err), "%s", err);
    armprof_pe *pe = make_pe("armv8.2-spe");
    expect_error("inv_event_filter on SPE v1", pe, &p, "PMSIDR_EL1.FnE is 0");
    armprof_pe_destroy(pe);
    /* ...which Armv9.4 has, and a load filter */
    params(&p, &s);
    CHECK(armprof_kernel_spe_attribute(&p, "inv_event_filter=0x2", err, sizeof err) &&
              armprof_kernel_spe_attribute(&p, "load_filter=1", err, sizeof err),
          "%s", err);
    pe = make_pe("armv9.4-all");
    armprof_kernel *k = armprof_kernel_boot(pe, &p, err, sizeof err);
    CHECK(k != NULL, "boot with filters: %s", err);
    if (k) {
        const armprof_kernel_status st = armprof_kernel_get_status(k);
        CHECK(st.failures == 0, "%u accesses failed: %s", st.failures, st.failure);
        armprof_kernel_destroy(k);
    }
    armprof_pe_destroy(pe);
}

/* spe false: the PMU alone, on a PE with the PMU. */
static void test_pmu_only(void)
{
    char err[256];
    sink s = {0};
    armprof_kernel_params p;
    params(&p, &s);
    p.spe = false;
    armprof_pe *pe = make_pe("armv9.4-all");
    armprof_kernel *k = armprof_kernel_boot(pe, &p, err, sizeof err);
    CHECK(k != NULL, "boot: %s", err);
    if (!k) return;
    for (uint64_t i = 0; i < 1000; i++)
        retire(pe, i);
    uint64_t ev[4];
    armprof_kernel_counters(k, NULL, NULL, ev);
    CHECK(ev[0] == 1000 && ev[1] == 250, "INST_RETIRED %llu LD_RETIRED %llu",
          (unsigned long long)ev[0], (unsigned long long)ev[1]);
    CHECK(armprof_spe_get_stats(pe).selected == 0 && s.n == 0, "SPE sampled without the kernel");
    armprof_kernel_destroy(k);
    armprof_pe_destroy(pe);
}

/* A caller built against the header before pmsnevfr, pmsdsfr and
 * physical_time were added passes that smaller size: it boots, the fields
 * it does not have take their defaults (whatever lies past its struct),
 * and a size that was never the struct's is still refused. */
static void test_older_params_size(void)
{
    char err[256];
    sink s = {0};
    struct {
        armprof_kernel_params p;
        unsigned char past[64];
    } older;
    params(&older.p, &s);
    older.p.size = (uint32_t)offsetof(armprof_kernel_params, pmsnevfr);
    /* what the older caller never wrote: not the defaults */
    memset((unsigned char *)&older.p + older.p.size, 0xa5, sizeof older - older.p.size);
    armprof_pe *pe = make_pe("armv9.4-all");
    armprof_kernel *k = armprof_kernel_boot(pe, &older.p, err, sizeof err);
    CHECK(k != NULL, "boot with the older size %u: %s", older.p.size, err);
    /* physical_time's default is false: PMSCR_EL1.PCT stays 0 */
    if (k)
        CHECK(((reg(pe, "PMSCR_EL1") >> 6) & 3) == 0, "PMSCR_EL1 0x%llx",
              (unsigned long long)reg(pe, "PMSCR_EL1"));
    armprof_kernel_destroy(k);
    armprof_pe_destroy(pe);
    params(&older.p, &s);
    older.p.size = (uint32_t)offsetof(armprof_kernel_params, pmsnevfr) + 8;
    pe = make_pe("armv9.4-all");
    expect_error("size between", pe, &older.p, "armprof_kernel_params.size");
    armprof_pe_destroy(pe);
}

int main(void)
{
    test_older_params_size();
    test_run();
    test_fault();
    test_tlb(false);
    test_tlb(true);
    test_unknown_address(false);
    test_unknown_address(true);
    test_errors();
    test_pmu_only();
    test_attributes();
    return check_summary();
}
