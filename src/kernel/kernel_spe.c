/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel's SPE driver, as drivers/perf/arm_spe_pmu.c programs
 * the unit: probe, start, the PMBIRQ handler, stop (kernel.h). */
#include <stdio.h>

#include "kernel/kernel_internal.h"

static uint64_t fld(const char *reg, const char *field, uint64_t v)
{
    return drv_fld(reg, field, v);
}

/* arm_spe_pmu_dev_init(): the probe. */
bool kernel_spe_probe(armprof_kernel *k, char *err, size_t errlen)
{
    /* PMSIDR_EL1.Interval: the recommended minimum interval */
    static const uint32_t intervals[] = {256, 512, 768, 1024, 1536, 2048, 3072, 4096};
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
    const uint32_t minimum = icode < 8 ? intervals[icode] : 4096;
    /* Linux raises a shorter period to the minimum (arm_spe_event_to_pmsirr()) */
    s->interval = k->p.interval > minimum ? k->p.interval : minimum;
    return true;
}

static void buffer_program(armprof_kernel *k)
{
    /* PMBPTR_EL1 first, then PMBLIMITR_EL1 with E (D17.7.2) */
    drv_msr(&k->cpu, "PMBPTR_EL1", k->p.buffer_va);
    drv_msr(&k->cpu, "PMBLIMITR_EL1",
            (k->p.buffer_va + k->p.buffer_pages * 4096ull) | fld("PMBLIMITR_EL1", "E", 1));
}

/* arm_spe_pmu_start() */
void kernel_spe_start(armprof_kernel *k)
{
    drv_cpu *c = &k->cpu;
    const armprof_kernel_params *p = &k->p;
    buffer_program(k);
    drv_msr(c, "PMSFCR_EL1", p->pmsfcr);
    drv_msr(c, "PMSEVFR_EL1", p->pmsevfr);
    drv_msr(c, "PMSLATFR_EL1", p->pmslatfr);
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
                fld("PMSCR_EL1", "CX", p->context_id));
    k->status.profiling = true;
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
