/* SPDX-License-Identifier: BSD-3-Clause */
/* `armprof demo`'s firmware, hypervisor and kernel (demo_driver.h). The
 * order of the writes, and each value, follow what the manual asks of
 * software (the comments cite it) and what Linux does: the arm_spe_pmu
 * driver for SPE, perf's armv8 PMU driver for the counters. */
#include "cli/demo_driver.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "drv/drv_regs.h"
#include "drv/drv_s1.h"

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
    bool profiling; /* the buffer is programmed and PMSCR_EL1 enables sampling */
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

/* Read-modify-write of the named fields, as firmware that owns only some
 * fields of a register does. */
static uint64_t update(sys *s, const char *reg, uint64_t clear_mask, uint64_t set)
{
    const uint64_t v = (mrs(s, reg) & ~clear_mask) | set;
    msr(s, reg, v);
    return mrs(s, reg);
}

/* ---- EL3 firmware ---- */

static void firmware(sys *s)
{
    char err[128];
    drv_set_el(&s->cpu, 3);
    /* MDCR_EL3.NSPB 0b11, NSPBE 0: the Profiling Buffer belongs to
     * Non-secure state, its registers usable at EL2 and EL1 (D17.7.1).
     * EnPMSS 1: PMSSCR_EL1 and the saved-value registers are not trapped to
     * EL3; PMSSE 0b11: Capture events are allowed in every Security state
     * (D13.9). EnPM2 1: PMICNTR_EL0 and PMICFILTR_EL0 (the instruction
     * counter) and PMECR_EL1 are not trapped to EL3, and PMCNTENSET_EL0.F0
     * is not RAZ/WI. The other fields are left as reset. */
    const uint64_t mdcr3 =
        update(s, "MDCR_EL3",
               drv_fld_mask("MDCR_EL3", "NSPB") | drv_fld_mask("MDCR_EL3", "NSPBE") |
                   drv_fld_mask("MDCR_EL3", "PMSSE"),
               fld("MDCR_EL3", "NSPB", 3) | fld("MDCR_EL3", "EnPMSS", 1) |
                   fld("MDCR_EL3", "PMSSE", 3) | fld("MDCR_EL3", "EnPM2", 1));
    /* SCR_EL3: NS 1, RW 1 (EL2 is AArch64), FGTEn and FGTEn2 so that EL2's
     * fine-grained trap registers take effect (and EL2 can open PMSSCR_EL1
     * to EL1), HCE for the kernel's hypervisor calls. */
    const uint64_t scr =
        update(s, "SCR_EL3", 0,
               fld("SCR_EL3", "NS", 1) | fld("SCR_EL3", "RW", 1) | fld("SCR_EL3", "FGTEn", 1) |
                   fld("SCR_EL3", "FGTEn2", 1) | fld("SCR_EL3", "HCE", 1));
    say(s,
        "EL3 firmware:  MDCR_EL3 = 0x%016llx  NSPB 0b11 (buffer owned by Non-secure), "
        "EnPMSS 1, PMSSE 0b11, EnPM2 1\n",
        (unsigned long long)mdcr3);
    say(s, "               SCR_EL3  = 0x%016llx  NS, RW, HCE, FGTEn, FGTEn2\n",
        (unsigned long long)scr);
    if (!armprof_set_security_state(s->cpu.pe, ARMPROF_SS_NONSECURE, err, sizeof err)) abort();
}

/* ---- EL2 hypervisor ---- */

static void hypervisor(sys *s)
{
    drv_set_el(&s->cpu, 2);
    /* MDCR_EL2.E2PB 0b11: the buffer belongs to EL1 and EL1's accesses to
     * it are not trapped; HPMN = PMCR_EL0.N: every event counter belongs
     * to EL1 and EL0; TPM, TPMCR, TPMS 0: no PMU or SPE traps. */
    const unsigned n = (unsigned)drv_get_fld("PMCR_EL0", "N", mrs(s, "PMCR_EL0"));
    const uint64_t mdcr2 =
        update(s, "MDCR_EL2",
               drv_fld_mask("MDCR_EL2", "E2PB") | drv_fld_mask("MDCR_EL2", "HPMN") |
                   drv_fld_mask("MDCR_EL2", "TPM") | drv_fld_mask("MDCR_EL2", "TPMCR") |
                   drv_fld_mask("MDCR_EL2", "TPMS"),
               fld("MDCR_EL2", "E2PB", 3) | fld("MDCR_EL2", "HPMN", n));
    /* HCR_EL2.RW: EL1 is AArch64; TGE and E2H 0: a guest-less host kernel
     * at EL1 (the nVHE layout). */
    msr(s, "HCR_EL2", fld("HCR_EL2", "RW", 1));
    /* HDFGRTR2_EL2/HDFGWTR2_EL2: nPMSSCR_EL1 and nPMSSDATA 1 let EL1 use
     * the snapshot control and read the saved values, nPMICNTR_EL0 and
     * nPMICFILTR_EL0 the instruction counter (FEAT_FGT2 traps them while
     * the bits are 0, their reset value). */
    msr(s, "HDFGRTR2_EL2",
        fld("HDFGRTR2_EL2", "nPMSSCR_EL1", 1) | fld("HDFGRTR2_EL2", "nPMSSDATA", 1) |
            fld("HDFGRTR2_EL2", "nPMICNTR_EL0", 1) | fld("HDFGRTR2_EL2", "nPMICFILTR_EL0", 1));
    msr(s, "HDFGWTR2_EL2",
        fld("HDFGWTR2_EL2", "nPMSSCR_EL1", 1) | fld("HDFGWTR2_EL2", "nPMICNTR_EL0", 1) |
            fld("HDFGWTR2_EL2", "nPMICFILTR_EL0", 1));
    /* PMSCR_EL2.PA: EL1 may ask for physical addresses in the records (the
     * Effective PMSCR_EL1.PA is 0 otherwise). CX 0: CONTEXTIDR_EL2 is not
     * recorded (CollectContextIDR2()); the host kernel's tasks are named
     * by CONTEXTIDR_EL1, and perf takes a record's TID from its last
     * Context packet (docs/perf.md). */
    msr(s, "PMSCR_EL2", fld("PMSCR_EL2", "PA", 1));
    say(s, "EL2 hypervisor: MDCR_EL2 = 0x%016llx  E2PB 0b11 (buffer owned by EL1), HPMN %u\n",
        (unsigned long long)mdcr2, n);
    say(s, "               HDFGRTR2_EL2/HDFGWTR2_EL2 open PMSSCR_EL1, the saved values and "
           "the instruction counter to EL1; PMSCR_EL2 PA\n");
}

/* ---- EL1 kernel: the PMU ---- */

static void pmu_start(sys *s)
{
    /* The OS Lock is locked at Cold reset; the kernel unlocks it at boot.
     * While locked, Capture events are prohibited. */
    /* (MSR OSLAR_EL1, XZR; the model has the lock as PE state.) */
    armprof_set_os_lock(s->cpu.pe, false);
    for (unsigned i = 0; i < DEMO_COUNTERS; i++) {
        char reg[32];
        snprintf(reg, sizeof reg, "PMEVTYPER%u_EL0", i);
        /* evtCount, and filter bits 0: count at EL0 and EL1 (and not at
         * EL2, NSH 0) */
        msr(s, reg, counters[i].number);
        s->r->counter_name[i] = counters[i].name;
    }
    msr(s, "PMCCFILTR_EL0", 0);
    msr(s, "PMICFILTR_EL0", 0);
    /* P0..P5, C (bit 31) and F0 (bit 32, the instruction counter) */
    msr(s, "PMCNTENSET_EL0", ((1ull << DEMO_COUNTERS) - 1) | 1ull << 31 | 1ull << 32);
    /* E, with P and C resetting the counters; LC: a 64-bit cycle counter */
    msr(s, "PMCR_EL0",
        fld("PMCR_EL0", "E", 1) | fld("PMCR_EL0", "P", 1) | fld("PMCR_EL0", "C", 1) |
            fld("PMCR_EL0", "LC", 1));
    say(s, "EL1 kernel:    PMU: cycle counter, instruction counter and");
    for (unsigned i = 0; i < DEMO_COUNTERS; i++)
        say(s, "%s %s", i ? "," : "", counters[i].name);
    say(s, "\n");
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

/* ---- EL1 kernel: SPE, as drivers/perf/arm_spe_pmu.c ---- */

static void buffer_map(sys *s)
{
    /* vmalloc'd pages: in VA order, but scattered in PA */
    for (unsigned i = 0; i < BUF_PAGES; i++)
        s->page_pa[i] = 0x50000000ull + (uint64_t)((i * 7) % BUF_PAGES) * 0x2000;
    drv_s1_map_pages(s->mem, TABLE_PA, BUF_VA, s->page_pa, BUF_PAGES);
    drv_s1_kernel_mmu_on(&s->cpu, TABLE_PA);
}

/* arm_spe_pmu_dev_init(): the probe. */
static bool spe_probe(sys *s, char *err, size_t errlen)
{
    static const unsigned intervals[] = {256, 512, 768, 1024, 1536, 2048, 3072, 4096};
    const uint64_t idr = mrs(s, "PMBIDR_EL1");
    const uint64_t sidr = mrs(s, "PMSIDR_EL1");
    demo_result *r = s->r;
    r->align_log2 = (unsigned)drv_get_fld("PMBIDR_EL1", "Align", idr);
    r->max_size_log2 = (unsigned)drv_get_fld("PMSIDR_EL1", "MaxSize", sidr);
    const unsigned icode = (unsigned)drv_get_fld("PMSIDR_EL1", "Interval", sidr);
    /* PMBIDR_EL1.P 1: the buffer is owned by a higher EL; the driver gives
     * up, as Linux does. */
    if (drv_get_fld("PMBIDR_EL1", "P", idr)) {
        snprintf(err, errlen, "PMBIDR_EL1.P is 1: the Profiling Buffer is not usable at EL1");
        return false;
    }
    r->interval = icode < 8 ? intervals[icode] : 4096;
    say(s,
        "               SPE probe: PMBIDR_EL1 = 0x%llx (Align %u: %u-byte records), "
        "PMSIDR_EL1 = 0x%llx (MaxSize %u, minimum interval %u)\n",
        (unsigned long long)idr, r->align_log2, 1u << r->align_log2, (unsigned long long)sidr,
        r->max_size_log2, r->interval);
    return true;
}

static void buffer_program(sys *s)
{
    /* PMBPTR_EL1 first, then PMBLIMITR_EL1 with E (D17.7.2) */
    msr(s, "PMBPTR_EL1", BUF_VA);
    msr(s, "PMBLIMITR_EL1", (BUF_VA + BUF_PAGES * 4096ull) | fld("PMBLIMITR_EL1", "E", 1));
}

/* arm_spe_pmu_start() */
static void spe_start(sys *s)
{
    buffer_program(s);
    /* no filtering: every sampled operation is recorded */
    msr(s, "PMSFCR_EL1", 0);
    msr(s, "PMSEVFR_EL1", 0);
    msr(s, "PMSLATFR_EL1", 0);
    /* the recommended minimum interval, RND 1: a random perturbation keeps
     * the samples from locking onto the loops' periods (D17.2) */
    msr(s, "PMSIRR_EL1",
        fld("PMSIRR_EL1", "INTERVAL", s->r->interval >> 8) | fld("PMSIRR_EL1", "RND", 1));
    /* ISB, then PMSICR_EL1 = 0: the counters start from the new interval */
    msr(s, "PMSICR_EL1", 0);
    /* PMSCR_EL1 last: E0SPE and E1SPE enable sampling; TS timestamps, PA
     * physical addresses, CX CONTEXTIDR_EL1 in each record */
    msr(s, "PMSCR_EL1",
        fld("PMSCR_EL1", "E0SPE", 1) | fld("PMSCR_EL1", "E1SPE", 1) | fld("PMSCR_EL1", "TS", 1) |
            fld("PMSCR_EL1", "PA", 1) | fld("PMSCR_EL1", "CX", 1));
    s->profiling = true;
    say(s,
        "               SPE: %u KB buffer at VA 0x%llx (%u scattered pages), interval %u "
        "with RND, PMSCR_EL1 E0SPE E1SPE TS PA CX\n",
        BUF_PAGES * 4, (unsigned long long)BUF_VA, BUF_PAGES, s->r->interval);
}

/* The kernel reads its buffer through its own mapping: from BUF_VA up to
 * ptr, page by page. */
static void copy_out(sys *s, uint64_t ptr)
{
    uint8_t page[4096];
    for (uint64_t va = BUF_VA; va < ptr;) {
        const unsigned i = (unsigned)((va - BUF_VA) >> 12);
        const uint64_t end = va + 4096 - (va & 0xfff);
        const size_t n = (size_t)((ptr < end ? ptr : end) - va);
        armprof_mem_read(s->mem, ARMPROF_PAS_NONSECURE, s->page_pa[i] + (va & 0xfff), page, n);
        append(&s->out, page, n);
        va += n;
    }
}

/* arm_spe_pmu_irq_handler(): PMBIRQ is taken to EL1. */
static void pmbirq_handler(sys *s)
{
    armprof_pe *pe = s->cpu.pe;
    const unsigned el = armprof_current_el(pe);
    demo_result *r = s->r;
    drv_set_el(&s->cpu, 1);
    r->irqs++;
    /* PSB CSYNC, DSB: every record the unit holds is in memory and PMBPTR
     * and PMBSR show it (D17.9) */
    armprof_psb_csync(pe);
    const uint64_t sr = mrs(s, "PMBSR_EL1");
    if (drv_get_fld("PMBSR_EL1", "DL", sr)) r->truncated++;
    const bool full = drv_get_fld("PMBSR_EL1", "EC", sr) == 0 && (sr & 0x3f) == 1 &&
                      !drv_get_fld("PMBSR_EL1", "EA", sr);
    copy_out(s, mrs(s, "PMBPTR_EL1"));
    if (full) {
        /* Buffer full (D17.8.2): the data is out; start again at the base.
         * PMBSR_EL1 = 0 last, which lets the unit write again. */
        r->buffer_full++;
        buffer_program(s);
        msr(s, "PMBSR_EL1", 0);
        if (r->buffer_full <= 3)
            say(s,
                "  PMBIRQ #%llu: buffer full, PMBSR_EL1 = 0x%llx, %zu bytes copied out, "
                "buffer restarted\n",
                (unsigned long long)r->irqs, (unsigned long long)sr, s->out.n);
    } else {
        /* a fault, or anything else: stop profiling, as the driver does */
        r->faults++;
        msr(s, "PMSCR_EL1", 0);
        msr(s, "PMBLIMITR_EL1", 0);
        msr(s, "PMBSR_EL1", 0);
        s->profiling = false;
        say(s, "  PMBIRQ #%llu: PMBSR_EL1 = 0x%llx is not buffer full: profiling stopped\n",
            (unsigned long long)r->irqs, (unsigned long long)sr);
    }
    drv_set_el(&s->cpu, el);
}

/* arm_spe_pmu_stop(): PMSCR_EL1 = 0, ISB, PSB CSYNC, DSB, the last data
 * out, then the buffer disabled. */
static void spe_stop(sys *s)
{
    msr(s, "PMSCR_EL1", 0);
    armprof_psb_csync(s->cpu.pe);
    if (s->profiling) copy_out(s, mrs(s, "PMBPTR_EL1"));
    msr(s, "PMBLIMITR_EL1", 0);
    s->profiling = false;
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
    const uint64_t irqs = s->r->irqs;
    /* the context switch to the phase's task */
    msr(s, "CONTEXTIDR_EL1", DEMO_PID(phase));
    drv_set_el(&s->cpu, 0);
    demo_workload_set_phase(w, phase);
    for (uint64_t i = 0; i < ops; i++) {
        /* the system counter, at a quarter of the core clock */
        armprof_set_physical_count(pe, 1000000 + w->cycles / 4);
        demo_workload_step(w, pe);
        if (armprof_pmbirq(pe)) {
            pmbirq_handler(s);
            if (armprof_pmbirq(pe)) s->r->irq_stuck++;
        }
        if (i % PCSR_PERIOD == 0) pcsr_read(s);
    }
    s->r->phase_ops[phase] = ops;
    drv_set_el(&s->cpu, 1);
    const bool ok = snapshot(s, &s->r->snapshot[phase + 1]);
    say(s, "phase %u %-13s %9llu instructions, %3llu PMBIRQs serviced, PMU snapshot %s\n",
        phase + 1, demo_phase_name(phase), (unsigned long long)ops,
        (unsigned long long)(s->r->irqs - irqs), ok ? "taken" : "FAILED");
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

    firmware(&s);
    hypervisor(&s);
    drv_set_el(&s.cpu, 1);
    buffer_map(&s);
    pmu_start(&s);
    bool ok = spe_probe(&s, err, errlen);
    if (ok) {
        spe_start(&s);
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
        spe_stop(&s);
    }
    r->stats = armprof_spe_get_stats(pe);
    r->data = s.out.p;
    r->size = s.out.n;
    r->sink_data = s.sink.p;
    r->sink_size = s.sink.n;
    r->traps = s.cpu.traps;
    r->failures = s.cpu.failures;
    memcpy(r->failure, s.cpu.failure, sizeof r->failure);
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
