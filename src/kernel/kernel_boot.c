/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel's boot: EL3 firmware and the EL2 hypervisor hand the
 * PMU and the Profiling Buffer down to the EL1 kernel (kernel.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drv/drv_s1.h"
#include "kernel/kernel_internal.h"

void armprof_kernel_params_default(armprof_kernel_params *p)
{
    memset(p, 0, sizeof *p);
    p->size = (uint32_t)sizeof *p;
    p->spe = true;
    p->random = true;
    p->el0 = p->el1 = true;
    p->timestamps = p->physical_addr = p->context_id = true;
    p->pmsdsfr = ~0ull; /* every data source, should FDS be set */
    p->buffer_pages = 16;
    p->buffer_va = 0xffff000040000000ull;
    p->buffer_pa = 0x50000000ull;
    p->table_pa = 0x80000000ull;
    p->pmu_el1 = true;
}

static uint64_t fld(const char *reg, const char *field, uint64_t v)
{
    return drv_fld(reg, field, v);
}

static uint64_t mask(const char *reg, const char *field)
{
    return drv_fld_mask(reg, field);
}

/* Read-modify-write of the named fields, as firmware that owns only some
 * fields of a register does. */
static uint64_t update(armprof_kernel *k, const char *reg, uint64_t clear_mask, uint64_t set)
{
    drv_msr(&k->cpu, reg, (drv_mrs(&k->cpu, reg) & ~clear_mask) | set);
    return drv_mrs(&k->cpu, reg);
}

static bool present(const armprof_kernel *k, const char *reg)
{
    unsigned index = 0;
    const int r = armprof_reg_lookup(reg, &index);
    return r >= 0 && armprof_reg_present(k->cpu.pe, r);
}

/* ---- EL3 firmware ---- */

static bool firmware(armprof_kernel *k, char *err, size_t errlen)
{
    drv_set_el(&k->cpu, 3);
    /* MDCR_EL3.NSPB 0b11, NSPBE 0: the Profiling Buffer belongs to
     * Non-secure state, its registers usable at EL2 and EL1 (D17.7.1).
     * EnPMSS 1, PMSSE 0b11: PMU snapshots usable below EL3 and Capture
     * events allowed in every Security state (D13.9). EnPM2 1: the
     * instruction counter and PMECR_EL1 are not trapped to EL3. EnPMSN and
     * EnPMS3: PMSNEVFR_EL1 (FEAT_SPE_FnE) and PMSDSFR_EL1 (FEAT_SPE_FDS) not
     * trapped to EL3 either. The other fields are left as reset. */
    k->setup.mdcr_el3 =
        update(k, "MDCR_EL3",
               mask("MDCR_EL3", "NSPB") | mask("MDCR_EL3", "NSPBE") | mask("MDCR_EL3", "PMSSE"),
               fld("MDCR_EL3", "NSPB", 3) | fld("MDCR_EL3", "EnPMSS", 1) |
                   fld("MDCR_EL3", "PMSSE", 3) | fld("MDCR_EL3", "EnPM2", 1) |
                   fld("MDCR_EL3", "EnPMSN", 1) | fld("MDCR_EL3", "EnPMS3", 1));
    /* SCR_EL3: NS 1, RW 1 (EL2 is AArch64), FGTEn and FGTEn2 so that EL2's
     * fine-grained trap registers take effect, HCE for hypervisor calls. */
    k->setup.scr_el3 =
        update(k, "SCR_EL3", 0,
               fld("SCR_EL3", "NS", 1) | fld("SCR_EL3", "RW", 1) | fld("SCR_EL3", "FGTEn", 1) |
                   fld("SCR_EL3", "FGTEn2", 1) | fld("SCR_EL3", "HCE", 1));
    return armprof_set_security_state(k->cpu.pe, ARMPROF_SS_NONSECURE, err, errlen);
}

/* ---- EL2 hypervisor ---- */

static void hypervisor(armprof_kernel *k)
{
    drv_set_el(&k->cpu, 2);
    /* MDCR_EL2.E2PB 0b11: the buffer belongs to EL1 and EL1's accesses to
     * it are not trapped; HPMN = PMCR_EL0.N: every event counter belongs
     * to EL1 and EL0; TPM, TPMCR, TPMS 0: no PMU or SPE traps. */
    const unsigned n = (unsigned)drv_get_fld("PMCR_EL0", "N", drv_mrs(&k->cpu, "PMCR_EL0"));
    k->setup.counters = n;
    k->setup.mdcr_el2 =
        update(k, "MDCR_EL2",
               mask("MDCR_EL2", "E2PB") | mask("MDCR_EL2", "HPMN") | mask("MDCR_EL2", "TPM") |
                   mask("MDCR_EL2", "TPMCR") | mask("MDCR_EL2", "TPMS"),
               fld("MDCR_EL2", "E2PB", 3) | fld("MDCR_EL2", "HPMN", n));
    /* HCR_EL2.RW: EL1 is AArch64; TGE and E2H 0: a guest-less host kernel
     * at EL1 (the nVHE layout). */
    drv_msr(&k->cpu, "HCR_EL2", fld("HCR_EL2", "RW", 1));
    /* FEAT_FGT traps PMSNEVFR_EL1 while nPMSNEVFR_EL1 is 0 */
    if (present(k, "HDFGRTR_EL2")) {
        drv_msr(&k->cpu, "HDFGRTR_EL2", fld("HDFGRTR_EL2", "nPMSNEVFR_EL1", 1));
        drv_msr(&k->cpu, "HDFGWTR_EL2", fld("HDFGWTR_EL2", "nPMSNEVFR_EL1", 1));
    }
    /* FEAT_FGT2 traps PMSDSFR_EL1, PMSSCR_EL1, the saved values and the instruction
     * counter while these bits are 0, their reset value: open them to EL1. */
    if (present(k, "HDFGRTR2_EL2")) {
        drv_msr(&k->cpu, "HDFGRTR2_EL2",
                fld("HDFGRTR2_EL2", "nPMSSCR_EL1", 1) | fld("HDFGRTR2_EL2", "nPMSSDATA", 1) |
                    fld("HDFGRTR2_EL2", "nPMICNTR_EL0", 1) |
                    fld("HDFGRTR2_EL2", "nPMICFILTR_EL0", 1) |
                    fld("HDFGRTR2_EL2", "nPMSDSFR_EL1", 1));
        drv_msr(&k->cpu, "HDFGWTR2_EL2",
                fld("HDFGWTR2_EL2", "nPMSSCR_EL1", 1) | fld("HDFGWTR2_EL2", "nPMICNTR_EL0", 1) |
                    fld("HDFGWTR2_EL2", "nPMICFILTR_EL0", 1) |
                    fld("HDFGWTR2_EL2", "nPMSDSFR_EL1", 1));
    }
    /* PMSCR_EL2.PA: EL1 may ask for physical addresses (the Effective
     * PMSCR_EL1.PA is 0 otherwise). CX 0: CONTEXTIDR_EL2 is not recorded
     * (CollectContextIDR2()); the kernel's tasks are named by
     * CONTEXTIDR_EL1. */
    if (k->p.spe)
        drv_msr(&k->cpu, "PMSCR_EL2",
                fld("PMSCR_EL2", "PA", k->p.physical_addr) |
                    fld("PMSCR_EL2", "PCT", k->p.physical_time ? 1 : 0));
}

/* The sizes armprof_kernel_params has had: the interface only grows within
 * a major version (docs/embedding.md), so a caller built against the
 * header before pmsnevfr was added passes the smaller size, and the
 * fields it does not know take their defaults. */
static bool known_params_size(uint32_t size)
{
    return size == sizeof(armprof_kernel_params) ||
           size == offsetof(armprof_kernel_params, pmsnevfr);
}

/* *p at this header's size: the fields after a smaller caller's end take
 * their defaults. */
static armprof_kernel_params params_at_full_size(const armprof_kernel_params *p)
{
    armprof_kernel_params full;
    armprof_kernel_params_default(&full);
    memcpy(&full, p, p->size);
    full.size = sizeof full;
    return full;
}

/* p at its full size */
static bool check_params(const armprof_kernel_params *p, char *err, size_t errlen)
{
    if (p->events > ARMPROF_KERNEL_MAX_EVENTS) {
        snprintf(err, errlen, "events %u: at most %u event counters", p->events,
                 ARMPROF_KERNEL_MAX_EVENTS);
        return false;
    }
    if (!p->spe) return true;
    if (p->interval % 256 != 0 || p->interval > 0xffffff00u) {
        snprintf(err, errlen,
                 "interval %u: PMSIRR_EL1.INTERVAL counts in units of 256 operations (a multiple "
                 "of 256 up to 0xffffff00)",
                 (unsigned)p->interval);
        return false;
    }
    if (p->buffer_pages < 1 || p->buffer_pages > 512) {
        snprintf(err, errlen, "buffer_pages %u: 1 to 512 pages of 4KB", p->buffer_pages);
        return false;
    }
    /* drv_s1_map_pages(): one level 3 table holds the buffer */
    const uint64_t first = (p->buffer_va >> 12) & 0x1ff;
    if ((p->buffer_va & 0xfff) || first + p->buffer_pages > 512 || (p->buffer_va >> 48) != 0xffff) {
        snprintf(err, errlen,
                 "buffer_va 0x%llx: a 4KB-aligned address in the TTBR1_EL1 half whose %u pages "
                 "do not cross a 2MB boundary",
                 (unsigned long long)p->buffer_va, p->buffer_pages);
        return false;
    }
    if (!p->page_pa && (p->buffer_pa & 0xfff)) {
        snprintf(err, errlen, "buffer_pa 0x%llx is not 4KB-aligned",
                 (unsigned long long)p->buffer_pa);
        return false;
    }
    if (p->table_pa & 0xfff) {
        snprintf(err, errlen, "table_pa 0x%llx is not 4KB-aligned",
                 (unsigned long long)p->table_pa);
        return false;
    }
    return true;
}

armprof_kernel *armprof_kernel_boot(armprof_pe *pe, const armprof_kernel_params *p, char *err,
                                    size_t errlen)
{
    if (!err) errlen = 0; /* err NULL: no message, whatever errlen says */
    if (!pe || !p) {
        snprintf(err, errlen, "armprof_kernel_boot: the PE and the parameters are required");
        return NULL;
    }
    if (!known_params_size(p->size)) {
        snprintf(err, errlen,
                 "armprof_kernel_params.size is %u, not %zu: initialise it with "
                 "armprof_kernel_params_default()",
                 (unsigned)p->size, sizeof *p);
        return NULL;
    }
    const armprof_kernel_params params = params_at_full_size(p);
    p = &params;
    if (!check_params(p, err, errlen)) return NULL;
    const armprof_config *c = armprof_pe_config(pe);
    if (!armprof_config_has(c, ARMPROF_FEAT_EL2) || !armprof_config_has(c, ARMPROF_FEAT_EL3)) {
        snprintf(err, errlen, "the PE has no EL2 or no EL3: the virtual kernel needs both");
        return NULL;
    }
    if (p->spe && !armprof_config_has(c, ARMPROF_FEAT_SPE)) {
        snprintf(err, errlen, "the PE has no FEAT_SPE (set spe false for the PMU alone)");
        return NULL;
    }
    armprof_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    k->cpu.pe = pe;
    k->mem = armprof_pe_memory(pe);
    k->p = *p;
    for (unsigned i = 0; i < p->buffer_pages && p->spe; i++)
        k->page_pa[i] = p->page_pa ? p->page_pa[i] : p->buffer_pa + 4096ull * i;
    if (!firmware(k, err, errlen)) {
        free(k);
        return NULL;
    }
    hypervisor(k);
    drv_set_el(&k->cpu, 1);
    if (p->spe) {
        drv_s1_map_pages(k->mem, p->table_pa, p->buffer_va, k->page_pa, p->buffer_pages);
        drv_s1_kernel_mmu_on(&k->cpu, p->table_pa);
    }
    kernel_pmu_start(k);
    if (p->spe) {
        if (!kernel_spe_probe(k, err, errlen)) {
            free(k);
            return NULL;
        }
        if (!kernel_spe_start(k, err, errlen)) {
            free(k);
            return NULL;
        }
    }
    drv_set_el(&k->cpu, 0);
    return k;
}

void armprof_kernel_destroy(armprof_kernel *k)
{
    free(k);
}

void armprof_kernel_switch_context(armprof_kernel *k, uint32_t context_id)
{
    const unsigned el = armprof_current_el(k->cpu.pe);
    if (el != 1) drv_set_el(&k->cpu, 1);
    drv_msr(&k->cpu, "CONTEXTIDR_EL1", context_id);
    if (el != 1) drv_set_el(&k->cpu, el);
}

armprof_kernel_setup armprof_kernel_get_setup(const armprof_kernel *k)
{
    return k->setup;
}

armprof_kernel_status armprof_kernel_get_status(const armprof_kernel *k)
{
    armprof_kernel_status s = k->status;
    s.traps = k->cpu.traps;
    s.failures = k->cpu.failures;
    memcpy(s.failure, k->cpu.failure, sizeof s.failure);
    return s;
}
