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

/* Read and write hooks: registers whose access has side effects or whose
 * fields depend on other registers. */
void write_PMSSCR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMCR_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMCR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMCNTENSET_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMCNTENSET_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMCNTENCLR_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMCNTENCLR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMOVSSET_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMOVSSET_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMOVSCLR_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMOVSCLR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMINTENSET_EL1(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMINTENSET_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMINTENCLR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMINTENCLR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMSWINC_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMUACR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMUACR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMEVCNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMEVCNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMEVTYPER_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMEVTYPER_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMCCNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMCCFILTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMICNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMICFILTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMZR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);

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
