/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel's SPE driver, as drivers/perf/arm_spe_pmu.c programs
 * the unit: probe, start, the PMBIRQ handler, stop (kernel.h). */
#include <stdio.h>

#include "kernel/kernel_internal.h"

static uint64_t fld(const char *reg, const char *field, uint64_t v)
{
    return drv_fld(reg, field, v);
}

/* arm_spe_pmu_event_init(): a filter the unit lacks (PMSIDR_EL1) refuses
 * the event (EOPNOTSUPP) rather than sampling without it. */
static bool filters_supported(const armprof_kernel *k, uint64_t sidr, char *err, size_t errlen)
{
    const armprof_kernel_params *p = &k->p;
    static const struct {
        const char *fcr, *idr, *what;
    } need[] = {
        {"FT", "FT", "type filtering (branch_filter, load_filter, store_filter)"},
        {"FE", "FE", "event filtering (event_filter)"},
        {"FL", "FL", "latency filtering (min_latency)"},
        {"FnE", "FnE", "inverted event filtering (inv_event_filter)"},
        {"FDS", "FDS", "data source filtering (inv_data_src_filter)"},
        {"SIMD", "EFT", "SIMD and floating-point filtering, and the filter masks (FEAT_SPE_EFT)"},
        {"FP", "EFT", NULL},
        {"Bm", "EFT", NULL},
        {"LDm", "EFT", NULL},
        {"STm", "EFT", NULL},
        {"SIMDm", "EFT", NULL},
        {"FPm", "EFT", NULL},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        if (!drv_get_fld("PMSFCR_EL1", need[i].fcr, p->pmsfcr) ||
            drv_get_fld("PMSIDR_EL1", need[i].idr, sidr))
            continue;
        snprintf(err, errlen, "PMSIDR_EL1.%s is 0: the unit has no %s", need[i].idr,
                 need[i].what ? need[i].what : need[5].what);
        return false;
    }
    if (p->pmsnevfr && !drv_get_fld("PMSIDR_EL1", "FnE", sidr)) {
        snprintf(err, errlen, "PMSIDR_EL1.FnE is 0: the unit has no %s", need[3].what);
        return false;
    }
    return true;
}

/* arm_spe_pmu_dev_init(): the probe. */
bool kernel_spe_probe(armprof_kernel *k, char *err, size_t errlen)
{
    /* PMSIDR_EL1.Interval: the recommended minimum interval, by its code
     * (0b0001 is reserved; Linux warns of an unknown code and takes 4096) */
    static const uint32_t intervals[] = {256, 4096, 512, 768, 1024, 1536, 2048, 3072, 4096};
    const uint64_t idr = drv_mrs(&k->cpu, "PMBIDR_EL1");
    const uint64_t sidr = drv_mrs(&k->cpu, "PMSIDR_EL1");
    armprof_kernel_setup *s = &k->setup;
    s->pmbidr = idr;
    s->pmsidr = sidr;
    s->align_log2 = (unsigned)drv_get_fld("PMBIDR_EL1", "Align", idr);
    s->max_size_log2 = (unsigned)drv_get_fld("PMSIDR_EL1", "MaxSize", sidr);
    /* PMBIDR_EL1.P 1: the buffer is owned by a higher EL; the driver gives
     * up, as Linux does. */
    if (drv_get_fld("PMBIDR_EL1", "P", idr)) {
        snprintf(err, errlen, "PMBIDR_EL1.P is 1: the Profiling Buffer is not usable at EL1");
        return false;
    }
    const unsigned icode = (unsigned)drv_get_fld("PMSIDR_EL1", "Interval", sidr);
    const uint32_t minimum =
        icode < sizeof intervals / sizeof intervals[0] ? intervals[icode] : 4096;
    /* Linux raises a shorter period to the minimum (arm_spe_event_to_pmsirr()) */
    s->interval = k->p.interval > minimum ? k->p.interval : minimum;
    return filters_supported(k, sidr, err, errlen);
}

static void buffer_program(armprof_kernel *k)
{
    /* PMBPTR_EL1 first, then PMBLIMITR_EL1 with E (D17.7.2) */
    drv_msr(&k->cpu, "PMBPTR_EL1", k->p.buffer_va);
    drv_msr(&k->cpu, "PMBLIMITR_EL1",
            (k->p.buffer_va + k->p.buffer_pages * 4096ull) | fld("PMBLIMITR_EL1", "E", 1));
}

/* arm_spe_pmu_start() */
bool kernel_spe_start(armprof_kernel *k, char *err, size_t errlen)
{
    drv_cpu *c = &k->cpu;
    const armprof_kernel_params *p = &k->p;
    buffer_program(k);
    drv_msr(c, "PMSFCR_EL1", p->pmsfcr);
    drv_msr(c, "PMSEVFR_EL1", p->pmsevfr);
    drv_msr(c, "PMSLATFR_EL1", p->pmslatfr);
    /* the registers of FEAT_SPE_FnE and FEAT_SPE_FDS only when the unit has
     * them (the probe refused a filter it lacks) */
    const uint64_t sidr = k->setup.pmsidr;
    if (drv_get_fld("PMSIDR_EL1", "FnE", sidr)) drv_msr(c, "PMSNEVFR_EL1", p->pmsnevfr);
    if (drv_get_fld("PMSIDR_EL1", "FDS", sidr)) drv_msr(c, "PMSDSFR_EL1", p->pmsdsfr);
    /* the driver refuses events the unit does not implement (the RES0 bits
     * of PMSEVFR_EL1 and PMSNEVFR_EL1 for its version): read back */
    static const struct {
        const char *reg, *attr;
    } ev[] = {{"PMSEVFR_EL1", "event_filter"}, {"PMSNEVFR_EL1", "inv_event_filter"}};
    const uint64_t want[] = {p->pmsevfr, p->pmsnevfr};
    for (unsigned i = 0; i < 2; i++) {
        const uint64_t got = want[i] ? drv_mrs(c, ev[i].reg) : 0;
        if (got == want[i]) continue;
        snprintf(err, errlen, "%s=0x%llx: events 0x%llx are not implemented (%s RES0)", ev[i].attr,
                 (unsigned long long)want[i], (unsigned long long)(want[i] & ~got), ev[i].reg);
        return false;
    }
    /* RND: a random perturbation keeps the samples from locking onto a
     * loop's period (D17.2) */
    drv_msr(c, "PMSIRR_EL1",
            fld("PMSIRR_EL1", "INTERVAL", k->setup.interval >> 8) |
                fld("PMSIRR_EL1", "RND", p->random));
    /* ISB, then PMSICR_EL1 = 0: the counters start from the new interval */
    drv_msr(c, "PMSICR_EL1", 0);
    /* PMSCR_EL1 last: sampling enabled at the chosen levels */
    drv_msr(c, "PMSCR_EL1",
            fld("PMSCR_EL1", "E0SPE", p->el0) | fld("PMSCR_EL1", "E1SPE", p->el1) |
                fld("PMSCR_EL1", "TS", p->timestamps) | fld("PMSCR_EL1", "PA", p->physical_addr) |
                fld("PMSCR_EL1", "CX", p->context_id) |
                fld("PMSCR_EL1", "PCT", p->physical_time ? 1 : 0));
    k->status.profiling = true;
    return true;
}

/* The kernel reads its buffer through its own mapping, from the base up to
 * ptr, page by page, and hands each page's part to the data callback. */
static size_t copy_out(armprof_kernel *k, uint64_t ptr)
{
    uint8_t page[4096];
    size_t total = 0;
    const uint64_t base = k->p.buffer_va;
    const uint64_t limit = base + k->p.buffer_pages * 4096ull;
    if (ptr > limit) ptr = limit; /* a PMBPTR_EL1 past the limit: never beyond the mapping */
    for (uint64_t va = base; va < ptr;) {
        const unsigned i = (unsigned)((va - base) >> 12);
        const uint64_t end = va + 4096 - (va & 0xfff);
        const size_t n = (size_t)((ptr < end ? ptr : end) - va);
        armprof_mem_read(k->mem, ARMPROF_PAS_NONSECURE, k->page_pa[i] + (va & 0xfff), page, n);
        if (k->p.data) k->p.data(k->p.data_ctx, page, n);
        total += n;
        va += n;
    }
    k->status.bytes += total;
    return total;
}

/* arm_spe_pmu_irq_handler(): PMBIRQ is taken to EL1. */
bool armprof_kernel_service(armprof_kernel *k)
{
    armprof_pe *pe = k->cpu.pe;
    if (!armprof_pmbirq(pe)) return false;
    const unsigned el = armprof_current_el(pe);
    armprof_kernel_status *st = &k->status;
    drv_set_el(&k->cpu, 1);
    armprof_kernel_irq irq = {.number = ++st->irqs};
    /* PSB CSYNC, DSB: every record the unit holds is in memory, and PMBPTR
     * and PMBSR show it (D17.9) */
    armprof_psb_csync(pe);
    irq.pmbsr = drv_mrs(&k->cpu, "PMBSR_EL1");
    irq.truncated = drv_get_fld("PMBSR_EL1", "DL", irq.pmbsr) != 0;
    if (irq.truncated) st->truncated++;
    /* EC 0 (buffer management event), BSC 1 (buffer full), not EA */
    irq.buffer_full = drv_get_fld("PMBSR_EL1", "EC", irq.pmbsr) == 0 && (irq.pmbsr & 0x3f) == 1 &&
                      !drv_get_fld("PMBSR_EL1", "EA", irq.pmbsr);
    irq.bytes = copy_out(k, drv_mrs(&k->cpu, "PMBPTR_EL1"));
    if (irq.buffer_full) {
        /* Buffer full (D17.8.2): the data is out; start again at the base.
         * PMBSR_EL1 = 0 last, which lets the unit write again. */
        st->buffer_full++;
        buffer_program(k);
        drv_msr(&k->cpu, "PMBSR_EL1", 0);
    } else {
        /* a fault, or anything else: stop profiling, as the driver does */
        st->faults++;
        drv_msr(&k->cpu, "PMSCR_EL1", 0);
        drv_msr(&k->cpu, "PMBLIMITR_EL1", 0);
        drv_msr(&k->cpu, "PMBSR_EL1", 0);
        st->profiling = false;
    }
    if (armprof_pmbirq(pe)) st->irq_stuck++;
    if (k->p.irq) k->p.irq(k->p.irq_ctx, &irq);
    drv_set_el(&k->cpu, el);
    return true;
}

/* arm_spe_pmu_stop(): PMSCR_EL1 = 0, ISB, PSB CSYNC, DSB, the last data
 * out, then the buffer disabled. */
void armprof_kernel_stop(armprof_kernel *k)
{
    if (!k->p.spe || !k->status.profiling) return;
    const unsigned el = armprof_current_el(k->cpu.pe);
    drv_set_el(&k->cpu, 1);
    drv_msr(&k->cpu, "PMSCR_EL1", 0);
    armprof_psb_csync(k->cpu.pe);
    /* A PMBIRQ the flush raised is serviced first; a fault leaves nothing
     * more to copy. */
    if (!armprof_kernel_service(k) || k->status.profiling)
        copy_out(k, drv_mrs(&k->cpu, "PMBPTR_EL1"));
    drv_msr(&k->cpu, "PMBLIMITR_EL1", 0);
    k->status.profiling = false;
    drv_set_el(&k->cpu, el);
}
