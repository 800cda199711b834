/* Read and write hooks: registers whose access has side effects or whose
 * fields depend on other registers. Named read_<id> and write_<id>. */
#ifndef ARMPROF_SYSREG_HOOKS_H
#define ARMPROF_SYSREG_HOOKS_H

#include "core/pe.h"

void write_PMSSCR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMSCR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMSCR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMSCR_EL2(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMSCR_EL2(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);

/* ---- PMU control registers ---- */
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
/* ---- end PMU control registers ---- */

/* ---- PMU counter registers ---- */
uint64_t read_PMEVCNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMEVCNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMEVTYPER_EL0(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMEVTYPER_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMCCNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMCCFILTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMICNTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMICFILTR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
void write_PMZR_EL0(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
/* ---- end PMU counter registers ---- */

/* ---- Debug registers ---- */
uint64_t read_DBGAUTHSTATUS_EL1(armprof_pe *pe, unsigned reg, unsigned m);
/* ---- end Debug registers ---- */

/* ---- Profiling Buffer ---- */
uint64_t read_PMBIDR_EL1(armprof_pe *pe, unsigned reg, unsigned m);

/* ---- SPE filter registers ---- */
uint64_t read_PMSEVFR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
uint64_t read_PMSNEVFR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
uint64_t read_PMSLATFR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMSLATFR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
/* ---- end SPE filter registers ---- */

#endif
