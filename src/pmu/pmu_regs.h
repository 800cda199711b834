/* The Performance Monitors' registers (pmu/regs/list.def): their ids,
 * slots and field positions, continuing the core's numbering
 * (core/regdecl.h); their access checks (access/) and hooks. */
#ifndef ARMPROF_PMU_PMU_REGS_H
#define ARMPROF_PMU_PMU_REGS_H

#include "sysreg/sysreg_access.h"

#define REGDECL_OWNER      PMU
#define REGDECL_LIST       "pmu/regs/list.def"
#define REGDECL_FIRST_ID   SR_CORE_END
#define REGDECL_FIRST_SLOT STO_CORE_END
#include "core/regdecl_enums.h"

#include "sysreg/access_decl.h"
#include "pmu/regs/list.def"
#include "core/regdecl_end.h"

/* The access checks several PMU registers share (their access column names
 * them). */
sysreg_route access_brbe_control(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read);
sysreg_route access_pmu_el0_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                     bool is_read);
sysreg_route access_pmu_el1_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                     bool is_read);
sysreg_route access_pmceid(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read);
sysreg_route access_snapshot_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                      bool is_read);
sysreg_route access_icntr_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                   bool is_read);

/* Read and write hooks: registers whose access has side effects or whose
 * fields depend on other registers (declared from the list's hook columns). */
#define SYSREG_HOOK_READS
#include "sysreg/hook_decl.h"
#include "pmu/regs/list.def"
#include "core/regdecl_end.h"
#undef NOHOOK
#define SYSREG_HOOK_WRITES
#include "sysreg/hook_decl.h"
#include "pmu/regs/list.def"
#include "core/regdecl_end.h"
#undef NOHOOK

/* PMUACR_EL1[n], as the counter pages index it: bit n of PMUACR_EL1 (P<n> for
 * n < 31, C for 31, F0 for 32). */
static inline unsigned PMUACR_EL1_bit(const armprof_pe *pe, unsigned n)
{
    return (unsigned)(REG(pe, PMUACR_EL1) >> n) & 1u;
}

/* PMCEID0_EL0, PMCEID1_EL0, PMMIR_EL1 and PMCR_EL0's ID fields from the
 * configuration (idregs.c). */
void pmu_idregs_init(armprof_pe *pe);

#endif
