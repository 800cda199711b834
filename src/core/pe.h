/* SPDX-License-Identifier: BSD-3-Clause */
/* The core of the PE instance: configuration, context, the Effective values
 * derived from them, and the register file. The engine's state follows it
 * (sysreg/sysreg.h), then each unit's at its declared place
 * (sysreg/units.h), the façade's pe_instance (pe/instance.h) holding them
 * all in one object, so that a layer or unit reaches its state at a constant
 * offset from the armprof_pe pointer and knows nothing of the layers above
 * it or of its sibling units' layouts (docs/architecture.md). Internal to
 * the library. */
#ifndef ARMPROF_CORE_PE_H
#define ARMPROF_CORE_PE_H

#include <stddef.h>

#include "armprof/armprof.h"
#include "core/regs.h"

/* A function of the per-operation path starts on a cache line (gcc and
 * clang), so that its speed does not depend on where the linker happens to
 * put it: a change elsewhere in the library moved pmu_retire_events() by 16
 * bytes and bench_pmu's per-operation line lost 5% (issue 41, part 6). */
#define PER_OPERATION __attribute__((aligned(64)))

/* Whether an armprof_op carries a field added after the first version: its
 * .size covers it (armprof.h, "Versioned by size"; .size 0 is the first
 * version). */
#define OP_HAS(op, field) ((op)->size >= offsetof(armprof_op, field) + sizeof((op)->field))

/* Room for every register instance of the PE (armprof_pe.regs). */
#define PE_REG_SLOTS 256

/* Exception levels as the pseudocode's bits(2). */
enum { EL0 = 0, EL1 = 1, EL2 = 2, EL3 = 3 };

typedef struct pe_context {
    uint8_t el;          /* PSTATE.EL */
    bool pstate_pm;      /* PSTATE.PM (FEAT_EBEP): masks SPE Profiling exceptions */
    bool nrw;            /* PSTATE.nRW of EL0: EL0 uses AArch32 when EL1 uses AArch64 */
    bool halted;         /* Halted(): in Debug state */
    bool edscr_sdd;      /* EDSCR.SDD, latched on entry to Debug state */
    bool core_powered;   /* Core power domain on */
    bool os_lock;        /* OSLSR_EL1.OSLK */
    bool os_double_lock; /* OSDLR_EL1.DLK (DBGPRCR_EL1.CORENPDRQ is taken as 0) */
    bool signal[ARMPROF_SIG_COUNT];
} pe_context;

/* Effective values derived from the context and the registers, recomputed
 * when either changes (docs/design.md rule 4; pe_recompute()). */
typedef struct pe_effective {
    bool aarch32[4];         /* ELUsingAArch32(el) */
    bool el2_enabled;        /* EL2Enabled() */
    bool secure_el2_enabled; /* IsSecureEL2Enabled() */
    uint8_t nvx;             /* EffectiveHCR_EL2_NVx(): NV2:NV1:NV */
    uint8_t e2h;             /* EffectiveHCR_EL2_E2H() */
    bool el2_in_host;        /* ELIsInHost(EL2) */
    bool el0_in_host;        /* ELIsInHost(EL0) */
    uint8_t ss;              /* CurrentSecurityState() */
    bool sdd_undef;          /* EL3SDDUndef() */
    bool sdd_undef_priority; /* EL3SDDUndefPriority() */
    bool nspb_trap;          /* CheckMDCR_EL3_NSPBTrap() */
} pe_effective;

struct armprof_pe {
    armprof_config cfg;
    pe_context ctx;
    pe_effective eff;
    /* Bumped whenever a register or the context changes: a unit whose cache
     * was computed at another generation recomputes it before using it
     * (docs/design.md rule 4). */
    uint32_t controls_gen;
    /* The register file: one slot per register instance of every owner
     * (core/regdecl.h). The core cannot know how many slots the owners above
     * it declare; it reserves room, and the façade checks at compile time
     * that the PE's slots fit (pe/instance.h). An array here, not a pointer:
     * REG() is then a constant offset from pe on every per-operation path. */
    uint64_t regs[PE_REG_SLOTS];
};

/* IsFeatureImplemented(): the one spelling for a PE's features
 * (armprof_config_has() is for code that has only a configuration). */
#define IsFeatureImplemented(pe, feat) armprof_config_has(&(pe)->cfg, ARMPROF_FEAT_##feat)
#define OPTION_VALUE(pe, opt)          ((pe)->cfg.options[ARMPROF_OPT_##opt])

/* A register or the context changed: every cache derived from them is
 * recomputed before it is next used (docs/design.md rule 4). */
static inline void pe_controls_changed(armprof_pe *pe)
{
    pe->controls_gen++;
}
/* Whether a cache computed at generation seen is out of date. */
static inline bool pe_controls_stale(const armprof_pe *pe, uint32_t seen)
{
    return seen != pe->controls_gen;
}

/* Recomputes pe->eff after a context change or a write to a register that
 * feeds it. */
void pe_recompute(armprof_pe *pe);
/* EDSCR.SDD as latched on entry to Debug state. */
bool pe_sdd_on_debug_entry(const armprof_pe *pe);

#endif
