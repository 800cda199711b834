/* The PE instance. Everything the model knows about one PE lives here
 * (DESIGN principle 5). Internal to the library. */
#ifndef ARMPROF_CORE_PE_H
#define ARMPROF_CORE_PE_H

#include "armprof/armprof.h"
#include "pcsr/pcsr.h"
#include "pmu/pmu.h"
#include "spe/buffer.h"
#include "spe/sample.h"
#include "sysreg/sysreg_table.h"

/* Exception levels as the pseudocode's bits(2). */
enum { EL0 = 0, EL1 = 1, EL2 = 2, EL3 = 3 };

typedef struct pe_context {
    uint8_t el;          /* PSTATE.EL */
    bool pstate_pm;      /* PSTATE.PM (FEAT_EBEP): masks SPE Profiling exceptions */
    bool aarch32[4];     /* ELUsingAArch32(el) */
    bool halted;         /* Halted(): in Debug state */
    bool edscr_sdd;      /* EDSCR.SDD, latched on entry to Debug state */
    bool core_powered;   /* Core power domain on */
    bool os_lock;        /* OSLSR_EL1.OSLK */
    bool os_double_lock; /* OSDLR_EL1.DLK (DBGPRCR_EL1.CORENPDRQ is taken as 0) */
    bool signal[ARMPROF_SIG_COUNT];
} pe_context;

/* The external (memory-mapped) PMU interface (sysreg/external.c). */
typedef struct pe_external {
    /* The external access being carried out, NULL outside one: the hooks and
     * PMU functions shared with MRS/MSR consult it (EXTERNAL_ACCESS()) where
     * the external pages give other rules than the current EL's. */
    const armprof_ext_access *access;
    bool pmlsr_slk; /* PMLSR.SLK: the PMU Software Lock is locked */
} pe_external;

/* Effective values derived from the context and the registers, recomputed
 * when either changes (DESIGN principle 4; pe_recompute()). */
typedef struct pe_effective {
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
    pmu_state pmu;
    pcsr_state pcsr;
    spe_state spe;
    spe_buffer_state buf;
    pe_external ext;
    uint64_t regs[STO_COUNT];
    sysreg_pe_info info[SR_COUNT];
    /* Encoding (16 bits) to register id + 1; 0 where nothing is declared. */
    uint16_t enc_map[1u << 16];
};

#define IMPLEMENTED(pe, feat) armprof_config_has(&(pe)->cfg, ARMPROF_FEAT_##feat)
#define OPTION_VALUE(pe, opt) ((pe)->cfg.options[ARMPROF_OPT_##opt])

/* Register storage by name: REG(pe, SCR_EL3), and one field of it:
 * FIELD(pe, SCR_EL3, NS). */
#define REG(pe, id)           ((pe)->regs[STO_##id])
#define FIELD_OF(v, id, name) (((v) >> id##_##name##_LO) & (~0ull >> (64 - id##_##name##_W)))
#define FIELD(pe, id, name)   FIELD_OF(REG(pe, id), id, name)

/* True while an external (memory-mapped) access is being carried out. */
#define EXTERNAL_ACCESS(pe) ((pe)->ext.access != NULL)

/* A register or the context changed: every cache derived from them is
 * recomputed before it is next used (DESIGN principle 4). */
static inline void pe_controls_changed(armprof_pe *pe)
{
    pe->pmu.dirty = true;
    pe->spe.dirty = true;
    pe->pcsr.dirty = true;
}

/* Recomputes pe->eff after a context change or a write to a register that
 * feeds it. */
void pe_recompute(armprof_pe *pe);
/* EDSCR.SDD as latched on entry to Debug state. */
bool pe_sdd_on_debug_entry(const armprof_pe *pe);

#endif
