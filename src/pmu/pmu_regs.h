/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors' registers (pmu/regs/list.def): their ids,
 * slots and field positions, continuing the core's numbering from
 * SR_PMU_FIRST (sysreg/units.h, core/regdecl.h); their access checks
 * (access/) and hooks. */
#ifndef ARMPROF_PMU_PMU_REGS_H
#define ARMPROF_PMU_PMU_REGS_H

#include "sysreg/sysreg_access.h"
#include "sysreg/units.h"

#define REGDECL_OWNER      PMU
#define REGDECL_LIST       "pmu/regs/list.def"
#define REGDECL_FIRST_ID   SR_PMU_FIRST
#define REGDECL_FIRST_SLOT STO_PMU_FIRST
#include "core/regdecl_enums.h"
_Static_assert(SR_PMU_END - SR_PMU_FIRST == PMU_REG_COUNT,
               "PMU_REG_COUNT (sysreg/units.h) is not pmu/regs/list.def's register count");
_Static_assert(STO_PMU_END - STO_PMU_FIRST == PMU_SLOT_COUNT,
               "PMU_SLOT_COUNT (sysreg/units.h) is not pmu/regs/list.def's slot count");

#define SYSREG_OWNER_LIST "pmu/regs/list.def"
#include "sysreg/owner_decl.h"

/* The counter partitioning (partition.c): PMCCR.EPMN and MDCR_EL2.HPMN,
 * which the access checks of the counter registers read. */
/* EffectiveEPMN() */
unsigned EffectiveEPMN(const armprof_pe *pe);
/* EffectiveHPMN() */
unsigned EffectiveHPMN(const armprof_pe *pe);
/* GetNumEventCountersSelfHosted() */
unsigned GetNumEventCountersSelfHosted(const armprof_pe *pe);
/* GetNumEventCountersAccessible() */
unsigned GetNumEventCountersAccessible(const armprof_pe *pe);

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
