/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof in QEMU's Arm CPU (armprof-glue.h). QEMU keeps what it owns (the
 * Exception level, SCR_EL3, HCR_EL2, MDCR_EL2/EL3, the fine-grained traps,
 * CONTEXTIDR_ELx, the translation regimes, guest memory); the PE pulls the
 * registers from QEMU's CPU state when it needs them, and its Profiling
 * Buffer writes through QEMU's translation into guest memory. */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "cpu.h"
#include "internals.h"
#include "cpregs.h"
#include "exec/helper-proto.h"
#include "exec/exec-all.h"
#ifndef CONFIG_USER_ONLY
#include "hw/irq.h"
#include "qemu/main-loop.h"
#include "hw/core/cpu.h"
#endif
#include "armprof-glue.h"
#include "armprof-glue-cpu.h"
#include "armprof-system.h"
#include "armprof/armprof.h"
#include "armprof/memory.h"


static const char *const owned_names[OWNED_COUNT] = {
    [OWNED_SCR_EL3] = "SCR_EL3",
    [OWNED_HCR_EL2] = "HCR_EL2",
    [OWNED_MDCR_EL2] = "MDCR_EL2",
    [OWNED_MDCR_EL3] = "MDCR_EL3",
    [OWNED_HDFGRTR_EL2] = "HDFGRTR_EL2",
    [OWNED_HDFGWTR_EL2] = "HDFGWTR_EL2",
    [OWNED_CONTEXTIDR_EL1] = "CONTEXTIDR_EL1",
    [OWNED_CONTEXTIDR_EL2] = "CONTEXTIDR_EL2",
    [OWNED_CNTVOFF_EL2] = "CNTVOFF_EL2",
    [OWNED_CNTPOFF_EL2] = "CNTPOFF_EL2",
    [OWNED_CNTHCTL_EL2] = "CNTHCTL_EL2",
};



void armprof_glue_control_changed(struct ArmprofCPU *a)
{
    if (a->control_fn) {
        a->control_fn(CPU(a->cpu)->cpu_index, a->control_ctx);
    }
}

static uint64_t owned_value(CPUARMState *env, owned_reg r)
{
    switch (r) {
    case OWNED_SCR_EL3:
        return env->cp15.scr_el3;
    case OWNED_HCR_EL2:
        return env->cp15.hcr_el2;
    case OWNED_MDCR_EL2:
        return env->cp15.mdcr_el2;
    case OWNED_MDCR_EL3:
        return env->cp15.mdcr_el3;
    case OWNED_HDFGRTR_EL2:
        return env->cp15.fgt_read[FGTREG_HDFGRTR];
    case OWNED_HDFGWTR_EL2:
        return env->cp15.fgt_write[FGTREG_HDFGWTR];
    case OWNED_CONTEXTIDR_EL1:
        return env->cp15.contextidr_el[1];
    case OWNED_CONTEXTIDR_EL2:
        return env->cp15.contextidr_el[2];
    case OWNED_CNTVOFF_EL2:
        return env->cp15.cntvoff_el2;
    case OWNED_CNTPOFF_EL2:
        return env->cp15.cntpoff_el2;
    case OWNED_CNTHCTL_EL2:
        return env->cp15.cnthctl_el2;
    default:
        return 0;
    }
}

/* The PE's register provider: QEMU's values, read where QEMU keeps them. */
static void provide(void *ctx, uint64_t *values)
{
    struct ArmprofCPU *a = ctx;
    for (unsigned i = 0; i < a->owned_count; i++) {
        values[i] = owned_value(&a->cpu->env, a->owned[i]);
    }
}

/* The PE at QEMU's Exception level; setting it pulls QEMU's registers
 * (SCR_EL3 decides the Security state below EL3). */
void armprof_glue_sync_context(struct ArmprofCPU *a)
{
    char err[128];
    const int el = arm_current_el(&a->cpu->env);
    if (!armprof_set_el(a->pe, el, err, sizeof err)) {
        warn_report_once("armprof: EL%d: %s", el, err);
    }
}

static bool pmuirq_level(struct ArmprofCPU *a)
{
    return a->pmu_interrupts && armprof_pmuirq(a->pe);
}

/* Whether PMBIRQ's or PMUIRQ's level differs from what the GIC was last
 * given (with the PE locked; a->pmbirq and a->pmuirq change under the BQL
 * only, so a stale look at them only sends us to the BQL for nothing). */
static bool levels_changed(struct ArmprofCPU *a)
{
    return armprof_pmbirq(a->pe) != a->pmbirq || pmuirq_level(a) != a->pmuirq;
}

/* PMBIRQ and, when the PMU is the model's, PMUIRQ to the GIC where a level
 * changed (the virt machine wires them to PPIs 21 and 23, level-sensitive),
 * with the BQL held, which the GIC wants, and the PE locked: the levels
 * are the PE's now, so that two threads that each changed the PE give the
 * GIC the later state whichever of them comes last. */
static void set_levels(struct ArmprofCPU *a)
{
#ifndef CONFIG_USER_ONLY
    const bool pmb = armprof_pmbirq(a->pe);
    const bool pmu = pmuirq_level(a);
    if (pmb != a->pmbirq) {
        a->pmbirq = pmb;
        qemu_set_irq(a->cpu->spe_interrupt, pmb);
    }
    if (pmu != a->pmuirq) {
        a->pmuirq = pmu;
        qemu_set_irq(a->cpu->pmu_interrupt, pmu);
    }
#endif
}

/* With the PE locked. A plugin callback does not hold the BQL: taking it
 * with the PE locked could deadlock against a vCPU that holds the BQL and
 * waits for this PE (an access to its external blocks), so the levels wait
 * for the lock's release, and only when one changed (the BQL at every
 * visit would serialize the vCPUs). */
void armprof_glue_update_outputs(struct ArmprofCPU *a)
{
#ifndef CONFIG_USER_ONLY
    if (!bql_locked()) {
        a->outputs_due = true;
        return;
    }
    set_levels(a);
#endif
}

void armprof_glue_lock(struct ArmprofCPU *a)
{
    qemu_rec_mutex_lock(&a->lock);
    a->depth++;
}

void armprof_glue_unlock(struct ArmprofCPU *a)
{
    bool apply = false;
    if (a->depth == 1 && a->outputs_due) {
        a->outputs_due = false;
        apply = levels_changed(a);
    }
    a->depth--;
    qemu_rec_mutex_unlock(&a->lock);
#ifndef CONFIG_USER_ONLY
    if (apply) {
        /* the BQL first, then the PE (the order every path takes) */
        const bool locked = bql_locked();
        if (!locked) {
            bql_lock();
        }
        qemu_rec_mutex_lock(&a->lock);
        set_levels(a);
        qemu_rec_mutex_unlock(&a->lock);
        if (!locked) {
            bql_unlock();
        }
    }
#endif
}

void armprof_glue_after_write(struct ArmprofCPU *a)
{
    a->pmu_interrupts = a->cpu->armprof_pmu && a->pmintenset >= 0 &&
                        armprof_reg_present(a->pe, a->pmintenset) &&
                        armprof_reg_get(a->pe, a->pmintenset, 0) != 0;
    armprof_glue_update_outputs(a);
    armprof_glue_control_changed(a);
}

static uint32_t encoding_of(const ARMCPRegInfo *ri)
{
    return armprof_sysreg_encoding(ri->opc0, ri->opc1, ri->crn, ri->crm, ri->opc2);
}

/* The model's access check, as QEMU's accessfn answers it: QEMU makes the
 * syndrome (EC 0x18, the same ISS AArch64.SystemAccessTrapSyndrome()
 * gives) and takes the exception. */
static CPAccessResult armprof_cp_access(CPUARMState *env, const ARMCPRegInfo *ri, bool isread)
{
    struct ArmprofCPU *a = env_archcpu(env)->armprof_state;
    armprof_glue_lock(a);
    /* the operations before this one count first (QEMU has set env->pc to
     * this instruction's, as it does before any accessfn) */
    if (a->access_fn) {
        a->access_fn(CPU(a->cpu)->cpu_index, env->pc, a->access_ctx);
    }
    armprof_glue_sync_context(a);
    const armprof_outcome o = armprof_sysreg_check(a->pe, encoding_of(ri), 0, isread);
    a->nv2_pending = o.kind == ARMPROF_NVMEM;
    a->nv2_offset = o.nv_offset;
    armprof_glue_unlock(a);
    switch (o.kind) {
    case ARMPROF_DONE:
        return CP_ACCESS_OK;
    case ARMPROF_TRAP:
        if (o.ec == 0x18 && o.target_el >= 1 && o.target_el <= 3) {
            return CP_ACCESS_TRAP_BIT | o.target_el;
        }
        warn_report_once("armprof: %s: a trap with EC 0x%x, taken as UNDEFINED", ri->name, o.ec);
        return CP_ACCESS_UNDEFINED;
    case ARMPROF_NVMEM:
        /* FEAT_NV2 (the register page's "X[t, 64] = NVMem[offset]" or
         * "NVMem[offset] = X[t, 64]"): the read or write function makes
         * the access, QEMU's redirection (nv2_redirect_offset) being for
         * its own registers */
        return CP_ACCESS_OK;
    default:
        return CP_ACCESS_UNDEFINED;
    }
}

#ifndef CONFIG_USER_ONLY
/* NVMem[offset] (FEAT_NV2): 64 bits at VNCR_EL2 + offset, through the EL2
 * translation regime, or EL2&0's when HCR_EL2.E2H is 1, in the endianness
 * of SCTLR_EL2.EE, as if PSTATE.PAN were 0 (what QEMU's own redirection
 * does). A fault on that page is taken at this MRS or MSR (QEMU synced the
 * PC before the access check), with the syndrome of a data abort QEMU
 * makes without the instruction's (the VNCR bit is not set: a helper
 * cannot give QEMU the return address it would need). */
static void nv2_regime_idx(CPUARMState *env, int *mmu_idx, bool *be)
{
    *mmu_idx = arm_to_core_mmu_idx((arm_hcr_el2_eff(env) & HCR_E2H) ? ARMMMUIdx_E20_2 : ARMMMUIdx_E2);
    *be = (env->cp15.sctlr_el[2] & SCTLR_EE) != 0;
}

static uint64_t nv2_load(CPUARMState *env, unsigned offset)
{
    int idx;
    bool be;
    nv2_regime_idx(env, &idx, &be);
    const uint64_t va = env->cp15.vncr_el2 + offset;
    return be ? cpu_ldq_be_mmuidx_ra(env, va, idx, 0) : cpu_ldq_le_mmuidx_ra(env, va, idx, 0);
}

static void nv2_store(CPUARMState *env, unsigned offset, uint64_t value)
{
    int idx;
    bool be;
    nv2_regime_idx(env, &idx, &be);
    const uint64_t va = env->cp15.vncr_el2 + offset;
    if (be) {
        cpu_stq_be_mmuidx_ra(env, va, value, idx, 0);
    } else {
        cpu_stq_le_mmuidx_ra(env, va, value, idx, 0);
    }
}

/* Whether the access check that came before said NVMem[offset] */
static bool take_nv2(struct ArmprofCPU *a, unsigned *offset)
{
    armprof_glue_lock(a);
    const bool pending = a->nv2_pending;
    a->nv2_pending = false;
    *offset = a->nv2_offset;
    armprof_glue_unlock(a);
    return pending;
}
#endif

static uint64_t armprof_cp_read(CPUARMState *env, const ARMCPRegInfo *ri)
{
    struct ArmprofCPU *a = env_archcpu(env)->armprof_state;
#ifndef CONFIG_USER_ONLY
    unsigned offset;
    if (take_nv2(a, &offset)) {
        return nv2_load(env, offset);
    }
#endif
    armprof_glue_lock(a);
    const armprof_outcome o = armprof_mrs(a->pe, encoding_of(ri), 0);
    armprof_glue_unlock(a);
    return o.kind == ARMPROF_DONE ? o.value : 0;
}

/* The OS Lock is QEMU's (OSLAR_EL1); a Capture event (PMUCaptureEvent())
 * is not allowed while it is locked (PMUCaptureEventAllowed()). A write of
 * 1 to PMSSCR_EL1.SS requests one, and with capture_delay_cycles 0 it
 * completes within the MSR: QEMU's lock is given to the model then. */
static void capture_request(struct ArmprofCPU *a, CPUARMState *env)
{
    armprof_set_os_lock(a->pe, env->cp15.oslsr_el1 & 2); /* OSLSR_EL1.OSLK */
}

static void armprof_cp_write(CPUARMState *env, const ARMCPRegInfo *ri, uint64_t value)
{
    struct ArmprofCPU *a = env_archcpu(env)->armprof_state;
    const uint32_t encoding = encoding_of(ri);
#ifndef CONFIG_USER_ONLY
    unsigned offset;
    if (take_nv2(a, &offset)) {
        nv2_store(env, offset, value);
        return;
    }
#endif
    armprof_glue_lock(a);
    if (encoding == a->pmsscr_encoding && (value & 1)) {
        capture_request(a, env);
    }
    armprof_msr(a->pe, encoding, 0, value);
    armprof_glue_after_write(a);
    armprof_glue_unlock(a);
}

/* The CPU's reset is the PE's Cold reset (every register's reset value,
 * the context): each of the model's registers asks it, and a second time
 * finds nothing to change. */
static void armprof_cp_reset(CPUARMState *env, const ARMCPRegInfo *ri)
{
    struct ArmprofCPU *a = env_archcpu(env)->armprof_state;
    armprof_glue_lock(a);
    armprof_reset(a->pe, ARMPROF_RESET_COLD);
    armprof_glue_after_write(a);
    armprof_glue_unlock(a);
}

#ifndef CONFIG_USER_ONLY
/* The translation regime that owns the buffer, as QEMU names it. */
static ARMMMUIdx owning_regime(const armprof_buffer_write *w)
{
    if (w->nvm) {
        return w->owning_el == 2 ? ARMMMUIdx_Phys_NS : ARMMMUIdx_Stage2;
    }
    if (w->owning_el == 2) {
        return w->regime == ARMPROF_SPE_REGIME_EL20 ? ARMMMUIdx_E20_2 : ARMMMUIdx_E2;
    }
    return ARMMMUIdx_E10_1;
}

/* The Profiling Buffer's bytes into guest memory, page by page, through
 * the owning regime's translation; a fault stops at its byte and is the
 * model's buffer management event (DebugWriteFault()). */
static armprof_buffer_result buffer_write(void *ctx, const armprof_buffer_write *w)
{
    struct ArmprofCPU *a = ctx;
    CPUARMState *env = &a->cpu->env;
    CPUState *cs = CPU(a->cpu);
    armprof_buffer_result r = {.outcome = ARMPROF_BUFFER_WRITTEN};
    while (r.written < w->size) {
        const uint64_t va = w->address + r.written;
        const size_t room = TARGET_PAGE_SIZE - (va & ~TARGET_PAGE_MASK);
        const size_t n = MIN(room, w->size - r.written);
        hwaddr pa;
        MemTxAttrs attrs;
        /* QEMU's TLB for the owning regime first: a hit spares the walk,
         * and the TLB is invalidated as the guest's TLBIs and context
         * changes say, as a walk's cached result may be (D8.16) */
        CPUTLBEntryFull *full;
        void *host;
        if (!w->nvm &&
            !(probe_access_full(env, va, n, MMU_DATA_STORE, arm_to_core_mmu_idx(owning_regime(w)),
                                true, &host, &full, 0) & TLB_INVALID_MASK)) {
            pa = full->phys_addr | (va & ~TARGET_PAGE_MASK);
            attrs = full->attrs;
        } else {
            /* a miss that does not translate: the walk says why */
            GetPhysAddrResult res = {};
            ARMMMUFaultInfo fi = {};
            if (get_phys_addr(env, va, MMU_DATA_STORE, 0, owning_regime(w), &res, &fi)) {
                r.outcome = ARMPROF_BUFFER_FAULT;
                r.ec = fi.stage2 ? 0x25 : 0x24;
                r.fsc = arm_fi_to_lfsc(&fi) & 0x3f;
                r.toplevel = false;
                return r;
            }
            pa = res.f.phys_addr;
            attrs = res.f.attrs;
        }
        const MemTxResult t =
            address_space_write(cpu_get_address_space(cs, arm_asidx_from_attrs(cs, attrs)), pa,
                                attrs, w->data + r.written, n);
        if (t != MEMTX_OK) {
            r.outcome = ARMPROF_BUFFER_EXTERNAL_ABORT;
            return r;
        }
        r.written += n;
    }
    return r;
}
#endif

#ifndef CONFIG_USER_ONLY
/* The first instruction that has not run when the Exception level is about
 * to change: for an exception, its preferred return address, past the
 * instruction when that instruction generated it (an abort, UNDEFINED, a
 * trap: *stopped, it did not complete); 0 for an exception return, which
 * ends its TB. */
static uint64_t stop_pc(ARMCPU *cpu, bool *stopped)
{
    CPUARMState *env = &cpu->env;
    *stopped = false;
    if (!is_a64(env)) {
        return 0;
    }
    switch (CPU(cpu)->exception_index) {
    case -1:
        return 0;
    case EXCP_IRQ:
    case EXCP_FIQ:
    case EXCP_VIRQ:
    case EXCP_VFIQ:
    case EXCP_VSERR:
    case EXCP_NMI:
    case EXCP_VINMI:
    case EXCP_VFNMI:
    case EXCP_PREFETCH_ABORT: /* the instruction was not fetched */
    case EXCP_SWI:            /* the return address is already past it */
    case EXCP_HVC:
    case EXCP_SMC:
        return env->pc;
    default:
        *stopped = true;
        return env->pc + 4;
    }
}

/* Before QEMU changes the vCPU's Exception level: the plugin's hook
 * (armprof_system_set_el_change_hook()). An AArch64 exception return
 * (exception_index -1, helper_exception_return()) goes to ELR_ELx at the
 * level SPSR_ELx.M[3:2] names; QEMU has checked that return by now. */
static void pre_el_change(ARMCPU *cpu, void *opaque)
{
    struct ArmprofCPU *a = opaque;
    if (!a->el_fn) {
        return;
    }
    CPUARMState *env = &cpu->env;
    armprof_system_el_change c = {0};
    c.stop_pc = stop_pc(cpu, &c.stopped);
    if (CPU(cpu)->exception_index == -1 && is_a64(env)) {
        const int el = arm_current_el(env);
        const uint32_t spsr = env->banked_spsr[aarch64_banked_spsr_index(el)];
        c.eret = true;
        c.eret_target = env->elr_el[el];
        c.eret_el = (spsr & PSTATE_nRW) ? 0 : (spsr >> 2) & 3;
    }
    armprof_glue_lock(a);
    a->el_fn(CPU(cpu)->cpu_index, &c, a->el_ctx);
    armprof_glue_unlock(a);
}
#endif

/* Field of the model's ID register reg into QEMU's copy *id (the same
 * register: the field sits at the same bits). */
static void take_id_field(armprof_pe *pe, const char *reg, const char *field, uint64_t *id)
{
    unsigned hi, lo;
    const int r = armprof_reg_lookup(reg, NULL);
    if (r < 0 || !armprof_reg_field(r, field, &hi, &lo)) {
        return;
    }
    const unsigned width = hi - lo + 1;
    *id = deposit64(*id, lo, width, extract64(armprof_reg_get(pe, r, 0), lo, width));
}

/* The identities armprof-debug-id names for the external debug block
 * (docs/qemu-system.md): the model's own, or a real core's debug block, for
 * software that knows only those (Linux's coresight-cpu-debug matches the
 * CoreSight peripheral ID). The option packs an IIDR: ProductID [31:20],
 * Implementer [11:0] (0x43B: Arm's JEP106 code 0x3B, continuation 4). */
static const struct {
    const char *name;
    uint64_t ed_iidr; /* 0: the library's default */
} debug_ids[] = {
    {"model", 0},
    {"cortex-a53", 0xD030043B},
    {"cortex-a57", 0xD070043B},
    {"cortex-a72", 0xD080043B},
    {"cortex-a73", 0xD090043B},
};

/* armprof-debug-id and armprof-options into the configuration. */
static bool configure_options(ARMCPU *cpu, armprof_config *c, Error **errp)
{
    char err[256];
    if (cpu->armprof_debug_id) {
        size_t i = 0;
        while (i < ARRAY_SIZE(debug_ids) && strcmp(debug_ids[i].name, cpu->armprof_debug_id)) {
            i++;
        }
        if (i == ARRAY_SIZE(debug_ids)) {
            error_setg(errp, "armprof-debug-id: no identity '%s' (model, cortex-a53, "
                       "cortex-a57, cortex-a72, cortex-a73)", cpu->armprof_debug_id);
            return false;
        }
        if (debug_ids[i].ed_iidr) {
            char value[32];
            snprintf(value, sizeof value, "0x%" PRIx64, debug_ids[i].ed_iidr);
            if (!armprof_config_set(c, "ed_iidr", value, err, sizeof err)) {
                error_setg(errp, "armprof-debug-id=%s: %s", cpu->armprof_debug_id, err);
                return false;
            }
        }
    }
    if (cpu->armprof_options) {
        /* NAME=VALUE:NAME=VALUE (a comma would end the -cpu property) */
        g_auto(GStrv) items = g_strsplit(cpu->armprof_options, ":", -1);
        for (char **item = items; *item; item++) {
            if (!**item) {
                continue;
            }
            char *eq = strchr(*item, '=');
            if (!eq) {
                error_setg(errp, "armprof-options: '%s' is not NAME=VALUE", *item);
                return false;
            }
            *eq = '\0';
            if (!armprof_config_set(c, *item, eq + 1, err, sizeof err)) {
                error_setg(errp, "armprof-options: %s", err);
                return false;
            }
        }
    }
    if (cpu->armprof_ext_bad_access && strcmp(cpu->armprof_ext_bad_access, "error") &&
        strcmp(cpu->armprof_ext_bad_access, "ignore")) {
        error_setg(errp, "armprof-ext-bad-access: '%s' is neither error nor ignore",
                   cpu->armprof_ext_bad_access);
        return false;
    }
    cpu->armprof_ext_bad_error =
        !cpu->armprof_ext_bad_access || !strcmp(cpu->armprof_ext_bad_access, "error");
    return true;
}

bool armprof_glue_realize(ARMCPU *cpu, Error **errp)
{
    CPUARMState *env = &cpu->env;
    const char *preset = cpu->armprof_preset ? cpu->armprof_preset : "armv9.4-all";
    armprof_config c;
    if (!armprof_config_preset(&c, preset)) {
        error_setg(errp, "armprof-preset: no preset '%s'", preset);
        return false;
    }
    if (!arm_feature(env, ARM_FEATURE_EL2)) {
        armprof_config_drop_feature(&c, ARMPROF_FEAT_EL2);
    }
    if (!arm_feature(env, ARM_FEATURE_EL3)) {
        armprof_config_drop_feature(&c, ARMPROF_FEAT_EL3);
    }
    /* The PMU the guest programs is the model's (armprof-pmu=on, the
     * default) when the CPU has one (pmu=on). */
    cpu->armprof_pmu = cpu->armprof_pmu && arm_feature(env, ARM_FEATURE_PMU);
    /* What QEMU's CPU lacks the model must lack too: the traps of
     * FEAT_FGT2 (no HDFGRTR2_EL2 here to clear them); PMU exceptions
     * (FEAT_EBEP: QEMU takes no PMU exception, and PMECR_EL1.{KPME,PMEE}
     * are then RES0); with QEMU's PMU, or with EL2, the instruction
     * counter; snapshots without a PMU to snapshot. */
    armprof_config_drop_feature(&c, ARMPROF_FEAT_EBEP);
    armprof_config_drop_feature(&c, ARMPROF_FEAT_FGT2);
    /* FEAT_PMUv3_EXTPMN makes direct reads of MDCR_EL2.HPMN return
     * PMCCR.EPMN (RMFYQC), but MDCR_EL2 is QEMU's, which reads back what
     * was written */
    armprof_config_drop_feature(&c, ARMPROF_FEAT_PMUv3_EXTPMN);
    if (!cpu->armprof_pmu || arm_feature(env, ARM_FEATURE_EL2)) {
        /* with EL2 the instruction counter's traps are FEAT_FGT2's
         * (HDFGRTR2_EL2.nPMICNTR_EL0, ...), which a hypervisor could not
         * clear */
        armprof_config_drop_feature(&c, ARMPROF_FEAT_PMUv3_ICNTR);
    }
    {
        /* The debug architecture is QEMU's (ID_AA64DFR0_EL1.DebugVer, its
         * debug registers): the model claims no later version, which the
         * external debug block's EDDEVARCH.ARCHVER would show. */
        static const struct {
            unsigned debugver; /* the first DebugVer with the feature */
            armprof_feature feature;
        } versions[] = {
            {0x7, ARMPROF_FEAT_Debugv8p1}, {0x8, ARMPROF_FEAT_Debugv8p2},
            {0x9, ARMPROF_FEAT_Debugv8p4}, {0xa, ARMPROF_FEAT_Debugv8p8},
            {0xb, ARMPROF_FEAT_Debugv8p9},
        };
        const unsigned debugver = FIELD_EX64(cpu->isar.id_aa64dfr0, ID_AA64DFR0, DEBUGVER);
        for (size_t i = 0; i < ARRAY_SIZE(versions); i++) {
            if (debugver < versions[i].debugver) {
                armprof_config_drop_feature(&c, versions[i].feature);
            }
        }
    }
    if (!cpu_isar_feature(aa64_fgt, cpu)) {
        armprof_config_drop_feature(&c, ARMPROF_FEAT_FGT);
    } else if (!armprof_config_has(&c, ARMPROF_FEAT_FGT)) {
        /* and the reverse: a preset without FEAT_FGT (armv8.2-spe) takes
         * QEMU's fine-grained traps away too, so that ID_AA64MMFR0_EL1.FGT
         * says what the PE does */
        cpu->isar.id_aa64mmfr0 = FIELD_DP64(cpu->isar.id_aa64mmfr0, ID_AA64MMFR0, FGT, 0);
    }
    if (!cpu->armprof_pmu) {
        /* a snapshot saves the model's counters: none to save with
         * QEMU's PMU (armprof-pmu=off) or none at all (pmu=off) */
        armprof_config_drop_feature(&c, ARMPROF_FEAT_PMUv3_SS);
    }
    if (arm_feature(env, ARM_FEATURE_PMU)) {
        /* As many event counters as QEMU's PMCR_EL0.N, to which QEMU
         * resets MDCR_EL2.HPMN (its register). A Capture event completes
         * within the MSR (the IMPLEMENTATION DEFINED capture_delay_cycles,
         * docs/configuration.md). */
        c.options[ARMPROF_OPT_NUM_EVENT_COUNTERS] = pmu_num_counters(env);
        c.options[ARMPROF_OPT_CAPTURE_DELAY] = 0;
    }
    if (!configure_options(cpu, &c, errp)) {
        return false;
    }
    {
        /* MPIDR_EL1 as QEMU reads it (mpidr_read_val()): the external
         * blocks' EDDEVAFF0/1 and PMDEVAFF show it */
        uint64_t mpidr = cpu->mp_affinity;
        if (arm_feature(env, ARM_FEATURE_V7MP)) {
            mpidr |= 1ull << 31 | (uint64_t)cpu->mp_is_up << 30;
        }
        char value[32], err[128];
        snprintf(value, sizeof value, "0x%" PRIx64, mpidr);
        if (!armprof_config_set(&c, "mpidr", value, err, sizeof err)) {
            error_setg(errp, "armprof: mpidr: %s", err);
            return false;
        }
    }
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    if (!pe) {
        error_setg(errp, "armprof-preset %s: %s", preset, err);
        return false;
    }
    struct ArmprofCPU *a = g_new0(struct ArmprofCPU, 1);
    a->cpu = cpu;
    qemu_rec_mutex_init(&a->lock);
    a->pe = pe;
    int ids[OWNED_COUNT];
    for (unsigned r = 0; r < OWNED_COUNT; r++) {
        const int id = armprof_reg_lookup(owned_names[r], NULL);
        if (id >= 0 && armprof_reg_present(pe, id)) {
            a->owned[a->owned_count] = r;
            ids[a->owned_count++] = id;
        }
    }
    if (!armprof_set_reg_provider(pe, ids, NULL, a->owned_count, provide, a, err, sizeof err)) {
        error_setg(errp, "armprof: %s", err);
        armprof_pe_destroy(pe);
        g_free(a);
        return false;
    }
    cpu->armprof_state = a;
    /* the authentication signals, which the PE keeps across resets */
    armprof_set_signal(pe, ARMPROF_SIG_DBGEN, cpu->armprof_dbgen);
    armprof_set_signal(pe, ARMPROF_SIG_NIDEN, cpu->armprof_niden);
    if (armprof_config_has(&c, ARMPROF_FEAT_PMUv3_SS)) {
        a->pmsscr_encoding = armprof_reg_encoding(armprof_reg_lookup("PMSSCR_EL1", NULL), 0);
    }
    a->pmintenset = armprof_reg_lookup("PMINTENSET_EL1", NULL);
#ifndef CONFIG_USER_ONLY
    armprof_spe_set_buffer_hook(pe, buffer_write, a);
    arm_register_pre_el_change_hook(cpu, pre_el_change, a);
#endif
    /* The ID fields of what the model implements: FEAT_SPE's version, the
     * snapshots' PMSS and, when the PMU is the model's, its version and
     * the instruction counter. */
    take_id_field(pe, "ID_AA64DFR0_EL1", "PMSVer", &cpu->isar.id_aa64dfr0);
    take_id_field(pe, "ID_AA64DFR0_EL1", "PMSS", &cpu->isar.id_aa64dfr0);
    if (cpu->armprof_pmu) {
        take_id_field(pe, "ID_AA64DFR0_EL1", "PMUVer", &cpu->isar.id_aa64dfr0);
        take_id_field(pe, "ID_AA64DFR0_EL1", "HPMN0", &cpu->isar.id_aa64dfr0);
        take_id_field(pe, "ID_AA64DFR1_EL1", "PMICNTR", &cpu->isar.id_aa64dfr1);
        take_id_field(pe, "ID_AA64DFR1_EL1", "EBEP", &cpu->isar.id_aa64dfr1);
    }
    return true;
}

/* The widest access QEMU lets a register of this op1 declare (op1 names
 * the lowest Exception level: 3 EL0, 4 and 5 EL2, 6 EL3, else EL1); the
 * model's own checks decide within it. */
static CPAccessRights access_of(unsigned op1)
{
    switch (op1) {
    case 3:
        return PL0_RW;
    case 4:
    case 5:
        return PL2_RW;
    case 6:
        return PL3_RW;
    default:
        return PL1_RW;
    }
}

/* The model's registers in QEMU's CPU: those of SPE (PMS* and PMB*) and of
 * PMU snapshots (PMSSCR_EL1 among the PMS*, PMECR_EL1 and the saved
 * values); with QEMU's PMU (armprof-pmu=off), except those QEMU has
 * defined itself (PMSELR_EL0 and PMSWINC_EL0 are its PMU's); with the
 * model's, every PM* register (the whole PMU). */
static bool is_models(const ARMCPU *cpu, const char *name)
{
    static const char *const prefixes[] = {"PMS", "PMB", "PMECR_EL1", "PMCCNTSVR_EL1",
                                           "PMEVCNTSVR"};
    if (cpu->armprof_pmu) {
        return strncmp(name, "PM", 2) == 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) {
            return true;
        }
    }
    return false;
}

/* With the model's PMU, QEMU's AArch64 PMU registers go: the model defines
 * those it has, and one it lacks is then UNDEFINED, as the model says.
 * QEMU's AArch32 views stay (an AArch32 EL0 reads QEMU's idle PMU, whose
 * PMUSERENR is 0: UNDEFINED there; docs/qemu-system.md). */
static void drop_qemu_pmu(ARMCPU *cpu)
{
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init(&it, cpu->cp_regs);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        const ARMCPRegInfo *ri = value;
        if (ri->state == ARM_CP_STATE_AA64 && strncmp(ri->name, "PM", 2) == 0) {
            g_hash_table_iter_remove(&it);
        }
    }
}

void armprof_glue_register_cpregs(ARMCPU *cpu)
{
    struct ArmprofCPU *a = cpu->armprof_state;
    if (!a) {
        return;
    }
    if (cpu->armprof_pmu) {
        drop_qemu_pmu(cpu);
    }
    for (size_t r = 0; r < armprof_reg_count(); r++) {
        if (!is_models(cpu, armprof_reg_name((int)r))) {
            continue;
        }
        if (!armprof_reg_present(a->pe, (int)r)) {
            continue;
        }
        const unsigned n = armprof_reg_instances((int)r);
        for (unsigned i = 0; i < (n ? n : 1); i++) {
            const uint32_t enc = armprof_reg_encoding((int)r, i);
            if (!enc) {
                continue;
            }
            const unsigned op0 = enc >> 14 & 3, op1 = enc >> 11 & 7, crn = enc >> 7 & 15,
                           crm = enc >> 3 & 15, op2 = enc & 7;
            if (get_arm_cp_reginfo(cpu->cp_regs,
                                   ENCODE_AA64_CP_REG(CP_REG_ARM64_SYSREG_CP, crn, crm, op0, op1,
                                                      op2))) {
                continue;
            }
            char buf[64];
            const ARMCPRegInfo ri = {
                .name = g_strdup(armprof_reg_instance_name((int)r, i, buf, sizeof buf)),
                .state = ARM_CP_STATE_AA64,
                .opc0 = op0, .opc1 = op1, .crn = crn, .crm = crm, .opc2 = op2,
                .access = access_of(op1),
                .type = ARM_CP_IO | ARM_CP_NO_RAW,
                .accessfn = armprof_cp_access,
                .readfn = armprof_cp_read,
                .writefn = armprof_cp_write,
                .resetfn = armprof_cp_reset,
            };
            define_one_arm_cp_reg(cpu, &ri);
        }
    }
}

/* ---- For the QEMU plugin in system mode (armprof-system.h) ---- */

/* From a plugin callback, the vCPU is the thread's own: no search of the
 * CPU list and no checked cast on the way. */
static struct ArmprofCPU *armprof_of(unsigned vcpu)
{
    CPUState *cs = current_cpu && current_cpu->cpu_index == (int)vcpu ? current_cpu
                                                                       : qemu_get_cpu((int)vcpu);
    return cs ? container_of(cs, ARMCPU, parent_obj)->armprof_state : NULL;
}

struct armprof_pe *armprof_system_pe(unsigned vcpu)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    return a ? a->pe : NULL;
}

void armprof_system_enter(unsigned vcpu)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (!a) {
        return;
    }
    armprof_glue_lock(a);
    armprof_glue_sync_context(a);
#ifndef CONFIG_USER_ONLY
    armprof_set_physical_count(a->pe, gt_get_countervalue(&a->cpu->env));
#endif
}

void armprof_system_leave(unsigned vcpu)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (a) {
        armprof_glue_update_outputs(a);
    }
}

void armprof_system_release(unsigned vcpu)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (a) {
        armprof_glue_unlock(a);
    }
}

bool armprof_system_translate(unsigned vcpu, uint64_t va, bool store, uint64_t *pa)
{
#ifndef CONFIG_USER_ONLY
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (!a) {
        return false;
    }
    CPUARMState *env = &a->cpu->env;
    const MMUAccessType type = store ? MMU_DATA_STORE : MMU_DATA_LOAD;
    /* the access has just been made: QEMU's TLB holds its page */
    CPUTLBEntryFull *full;
    void *host;
    if (!(probe_access_full(env, va, 0, type, arm_to_core_mmu_idx(arm_mmu_idx(env)), true, &host,
                            &full, 0) &
          TLB_INVALID_MASK)) {
        *pa = full->phys_addr | (va & ~TARGET_PAGE_MASK);
        return true;
    }
    GetPhysAddrResult res = {};
    ARMMMUFaultInfo fi = {};
    if (get_phys_addr(env, va, type, 0, arm_mmu_idx(env), &res, &fi)) {
        return false;
    }
    *pa = res.f.phys_addr;
    return true;
#else
    return false;
#endif
}

void armprof_system_set_el_change_hook(
    unsigned vcpu, void (*fn)(unsigned vcpu, const armprof_system_el_change *change, void *ctx),
    void *ctx)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (a) {
        a->el_ctx = ctx;
        a->el_fn = fn;
    }
}

void armprof_system_set_access_hook(unsigned vcpu, void (*fn)(unsigned vcpu, uint64_t pc, void *ctx),
                                    void *ctx)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (a) {
        a->access_ctx = ctx;
        a->access_fn = fn;
    }
}

void armprof_system_set_control_hook(unsigned vcpu, void (*fn)(unsigned vcpu, void *ctx), void *ctx)
{
    struct ArmprofCPU *a = armprof_of(vcpu);
    if (a) {
        a->control_ctx = ctx;
        a->control_fn = fn;
    }
}

/* PSB CSYNC (ProfilingSynchronizationBarrier()) */
void HELPER(armprof_psb_csync)(CPUARMState *env)
{
    struct ArmprofCPU *a = env_archcpu(env)->armprof_state;
    if (!a) {
        return;
    }
    armprof_glue_lock(a);
    armprof_glue_sync_context(a);
    armprof_psb_csync(a->pe);
    armprof_glue_update_outputs(a);
    armprof_glue_unlock(a);
}
