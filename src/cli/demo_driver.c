/* SPDX-License-Identifier: BSD-3-Clause */
/* `armprof demo`'s firmware, hypervisor and kernel (demo_driver.h). The
 * order of the writes, and each value, follow what the manual asks of
 * software (the comments cite it) and what Linux does: the arm_spe_pmu
 * driver for SPE, perf's armv8 PMU driver for the counters. */
#include "cli/demo_driver.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/kernel.h"
#include "drv/drv_regs.h"

/* The kernel's Profiling Buffer: 64KB of vmalloc-like VA in the TTBR1_EL1
 * half, backed by pages that are not contiguous in PA. */
#define BUF_VA    0xffff000040000000ull
#define BUF_PAGES 16u
#define TABLE_PA  0x80000000ull
/* SAMPLE_BUFFER_FULL's number is not in the project's copy of the manual:
 * the configuration gives it one no other event uses. */
#define SBF_EVENT 0x40FFu
/* The interval between PMPCSR reads by the external profiling agent, in
 * instructions (a prime, so that it does not beat with the loops). */
#define PCSR_PERIOD     4099u
#define PMPCSR_OFFSET   0x200u
#define PMPCSCTL_OFFSET 0xE50u

typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
} bytes;

typedef struct sys {
    drv_cpu cpu;
    armprof_mem *mem;
    demo_result *r;
    FILE *log;
    uint64_t page_pa[BUF_PAGES];
    bytes out, sink;
    armprof_kernel *k;
} sys;

static const struct {
    const char *name;
    uint16_t number;
} counters[DEMO_COUNTERS] = {
    {"L1D_CACHE_REFILL", 0x03},
    {"BR_MIS_PRED_RETIRED", 0x22},
    {"MEM_ACCESS", 0x13},
    {"DTLB_WALK", DEMO_EV_DTLB_WALK},
    {"LL_CACHE_MISS_RD", DEMO_EV_LL_CACHE_MISS_RD},
    {"SAMPLE_BUFFER_FULL", SBF_EVENT},
};

static void append(bytes *b, const uint8_t *data, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void sink(void *ctx, const uint8_t *record, size_t size)
{
    sys *s = ctx;
    append(&s->sink, record, size);
    s->r->sink_records++;
}

static void say(const sys *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const sys *s, const char *fmt, ...)
{
    if (!s->log) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->log, fmt, ap);
    va_end(ap);
}

static void msr(sys *s, const char *reg, uint64_t v)
{
    drv_msr(&s->cpu, reg, v);
}

static uint64_t mrs(sys *s, const char *reg)
{
    return drv_mrs(&s->cpu, reg);
}

static uint64_t fld(const char *reg, const char *field, uint64_t v)
{
    return drv_fld(reg, field, v);
}

/* ---- the system software: armprof's virtual kernel (armprof/kernel.h) ---- */

static void on_data(void *ctx, const uint8_t *data, size_t size)
{
    append(&((sys *)ctx)->out, data, size);
}

static void on_pmbirq(void *ctx, const armprof_kernel_irq *irq)
{
    sys *s = ctx;
    if (irq->buffer_full && irq->number <= 3)
        say(s,
            "  PMBIRQ #%llu: buffer full, PMBSR_EL1 = 0x%llx, %zu bytes copied out, "
            "buffer restarted\n",
            (unsigned long long)irq->number, (unsigned long long)irq->pmbsr, s->out.n);
    else if (!irq->buffer_full)
        say(s, "  PMBIRQ #%llu: PMBSR_EL1 = 0x%llx is not buffer full: profiling stopped\n",
            (unsigned long long)irq->number, (unsigned long long)irq->pmbsr);
}

static bool boot(sys *s, char *err, size_t errlen)
{
    armprof_kernel_params p;
    armprof_kernel_params_default(&p);
    /* vmalloc'd pages: in VA order, but scattered in PA */
    for (unsigned i = 0; i < BUF_PAGES; i++)
        s->page_pa[i] = 0x50000000ull + (uint64_t)((i * 7) % BUF_PAGES) * 0x2000;
    p.buffer_va = BUF_VA;
    p.buffer_pages = BUF_PAGES;
    p.page_pa = s->page_pa;
    p.table_pa = TABLE_PA;
    p.data = on_data;
    p.data_ctx = s;
    p.irq = on_pmbirq;
    p.irq_ctx = s;
    p.events = DEMO_COUNTERS;
    for (unsigned i = 0; i < DEMO_COUNTERS; i++) {
        p.event[i] = counters[i].number;
        s->r->counter_name[i] = counters[i].name;
    }
    s->k = armprof_kernel_boot(s->cpu.pe, &p, err, errlen);
    if (!s->k) return false;
    const armprof_kernel_setup k = armprof_kernel_get_setup(s->k);
    demo_result *r = s->r;
    r->align_log2 = k.align_log2;
    r->max_size_log2 = k.max_size_log2;
    r->interval = k.interval;
    say(s,
        "EL3 firmware:  MDCR_EL3 = 0x%016llx  NSPB 0b11 (buffer owned by Non-secure), "
        "EnPMSS 1, PMSSE 0b11, EnPM2 1\n",
        (unsigned long long)k.mdcr_el3);
    say(s, "               SCR_EL3  = 0x%016llx  NS, RW, HCE, FGTEn, FGTEn2\n",
        (unsigned long long)k.scr_el3);
    say(s, "EL2 hypervisor: MDCR_EL2 = 0x%016llx  E2PB 0b11 (buffer owned by EL1), HPMN %u\n",
        (unsigned long long)k.mdcr_el2, k.counters);
    say(s, "               HDFGRTR2_EL2/HDFGWTR2_EL2 open PMSSCR_EL1, the saved values and "
           "the instruction counter to EL1; PMSCR_EL2 PA\n");
    say(s, "EL1 kernel:    PMU: cycle counter, instruction counter and");
    for (unsigned i = 0; i < DEMO_COUNTERS; i++)
        say(s, "%s %s", i ? "," : "", counters[i].name);
    say(s, "\n");
    say(s,
        "               SPE probe: PMBIDR_EL1 = 0x%llx (Align %u: %u-byte records), "
        "PMSIDR_EL1 = 0x%llx (MaxSize %u, minimum interval %u)\n",
        (unsigned long long)k.pmbidr, k.align_log2, 1u << k.align_log2,
        (unsigned long long)k.pmsidr, k.max_size_log2, k.interval);
    say(s,
        "               SPE: %u KB buffer at VA 0x%llx (%u scattered pages), interval %u "
        "with RND, PMSCR_EL1 E0SPE E1SPE TS PA CX\n",
        BUF_PAGES * 4, (unsigned long long)BUF_VA, BUF_PAGES, k.interval);
    drv_set_el(&s->cpu, 1);
    return true;
}

/* A PMU snapshot requested by the kernel, polled as in Example D13-8. */
static bool snapshot(sys *s, demo_snapshot *out)
{
    msr(s, "PMSSCR_EL1", fld("PMSSCR_EL1", "SS", 1));
    uint64_t sscr = mrs(s, "PMSSCR_EL1");
    for (unsigned polls = 0; drv_get_fld("PMSSCR_EL1", "SS", sscr) && polls < 1000; polls++) {
        armprof_cycles(s->cpu.pe, 1);
        sscr = mrs(s, "PMSSCR_EL1");
        s->r->snapshot_polls++;
    }
    /* ISB: the Context synchronization event between seeing the Capture
     * event complete and reading the saved values (D13.9). */
    if (drv_get_fld("PMSSCR_EL1", "SS", sscr) || drv_get_fld("PMSSCR_EL1", "NC", sscr))
        return false;
    out->cycles = mrs(s, "PMCCNTSVR_EL1");
    out->instructions = mrs(s, "PMICNTSVR_EL1");
    for (unsigned i = 0; i < DEMO_COUNTERS; i++) {
        char reg[32];
        snprintf(reg, sizeof reg, "PMEVCNTSVR%u_EL1", i);
        out->counter[i] = mrs(s, reg);
    }
    s->r->snapshots++;
    return true;
}

/* ---- PC sampling by an external agent (H7) ---- */

static void pcsr_start(sys *s)
{
    /* PMPCSCTL.EN 1: PC sampling active (it resets suspended) */
    const armprof_ext_outcome o = armprof_external_write(s->cpu.pe, PMPCSCTL_OFFSET, 8, 1, NULL);
    say(s, "External agent: PMPCSCTL.EN = 1 (%s); PMPCSR read every %u instructions\n",
        o.kind == ARMPROF_EXT_OK ? "done" : "refused", PCSR_PERIOD);
}

static void pcsr_read(sys *s)
{
    const armprof_ext_outcome o = armprof_external_read(s->cpu.pe, PMPCSR_OFFSET, 8, NULL);
    s->r->pc_reads++;
    /* PMPCSR[31:0] all ones: no sample (H7.1) */
    if (o.kind != ARMPROF_EXT_OK || (o.value & 0xffffffffull) == 0xffffffffull) return;
    s->r->pc_samples++;
    /* PC in [55:0], the EL and Security state above */
    s->r->pc_in_phase[demo_phase_of_pc(o.value & ((1ull << 56) - 1))]++;
}

/* ---- the run ---- */

static armprof_pe *make_pe(char *err, size_t errlen)
{
    armprof_config c;
    char num[16];
    snprintf(num, sizeof num, "%u", SBF_EVENT);
    if (!armprof_config_preset(&c, "armv9.4-all") ||
        !armprof_config_set(&c, "event_number_SAMPLE_BUFFER_FULL", num, err, errlen) ||
        /* 64-byte record alignment: a record never straddles a cache line */
        !armprof_config_set(&c, "pmbidr_align", "6", err, errlen) ||
        !armprof_config_set(&c, "pmsidr_interval", "0", err, errlen))
        return NULL;
    return armprof_pe_create(&c, err, errlen);
}

static void run_phase(sys *s, demo_workload *w, unsigned phase, uint64_t ops)
{
    armprof_pe *pe = s->cpu.pe;
    const uint64_t irqs = armprof_kernel_get_status(s->k).irqs;
    /* the context switch to the phase's task */
    armprof_kernel_switch_context(s->k, DEMO_PID(phase));
    drv_set_el(&s->cpu, 0);
    demo_workload_set_phase(w, phase);
    for (uint64_t i = 0; i < ops; i++) {
        /* the system counter, at a quarter of the core clock */
        armprof_set_physical_count(pe, 1000000 + w->cycles / 4);
        demo_workload_step(w, pe);
        if (armprof_pmbirq(pe)) armprof_kernel_service(s->k);
        if (i % PCSR_PERIOD == 0) pcsr_read(s);
    }
    s->r->phase_ops[phase] = ops;
    drv_set_el(&s->cpu, 1);
    const bool ok = snapshot(s, &s->r->snapshot[phase + 1]);
    say(s, "phase %u %-13s %9llu instructions, %3llu PMBIRQs serviced, PMU snapshot %s\n",
        phase + 1, demo_phase_name(phase), (unsigned long long)ops,
        (unsigned long long)(armprof_kernel_get_status(s->k).irqs - irqs), ok ? "taken" : "FAILED");
}

bool demo_run(const demo_params *p, demo_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    armprof_pe *pe = make_pe(err, errlen);
    if (!pe) return false;
    sys s;
    memset(&s, 0, sizeof s);
    s.cpu.pe = pe;
    s.mem = armprof_pe_memory(pe);
    s.r = r;
    s.log = p->log;
    armprof_spe_set_sink(pe, sink, &s);

    bool ok = boot(&s, err, errlen);
    if (ok) {
        pcsr_start(&s);
        ok = snapshot(&s, &r->snapshot[0]);
        if (!ok) snprintf(err, errlen, "the first PMU snapshot failed");
    }
    if (ok) {
        say(&s, "EL0 workload:  %llu instructions in %u phases\n", (unsigned long long)p->ops,
            DEMO_PHASES);
        demo_workload w;
        demo_workload_init(&w, 0x2545F4914F6CDD1Dull);
        for (unsigned ph = 0; ph < DEMO_PHASES; ph++)
            run_phase(&s, &w, ph, p->ops / DEMO_PHASES + (ph < p->ops % DEMO_PHASES));
        armprof_kernel_stop(s.k);
    }
    if (s.k) {
        const armprof_kernel_status ks = armprof_kernel_get_status(s.k);
        r->irqs = ks.irqs;
        r->buffer_full = ks.buffer_full;
        r->faults = ks.faults;
        r->truncated = ks.truncated;
        r->irq_stuck = ks.irq_stuck;
        r->traps = ks.traps;
        r->failures = ks.failures;
        memcpy(r->failure, ks.failure, sizeof r->failure);
        armprof_kernel_destroy(s.k);
    }
    r->stats = armprof_spe_get_stats(pe);
    r->data = s.out.p;
    r->size = s.out.n;
    r->sink_data = s.sink.p;
    r->sink_size = s.sink.n;
    /* the demo's own accesses (snapshots) after the kernel's */
    r->traps += s.cpu.traps;
    if (s.cpu.failures && !r->failures) memcpy(r->failure, s.cpu.failure, sizeof r->failure);
    r->failures += s.cpu.failures;
    armprof_pe_destroy(pe);
    if (!ok) demo_result_free(r);
    return ok;
}

void demo_result_free(demo_result *r)
{
    free(r->data);
    free(r->sink_data);
    r->data = r->sink_data = NULL;
    r->size = r->sink_size = 0;
}
