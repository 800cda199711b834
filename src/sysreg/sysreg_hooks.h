/* Read and write hooks: registers whose access has side effects or whose
 * fields depend on other registers. Named read_<id> and write_<id>. */
#ifndef ARMPROF_SYSREG_HOOKS_H
#define ARMPROF_SYSREG_HOOKS_H

#include "core/pe.h"

uint64_t read_PMSCR_EL1(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMSCR_EL1(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
uint64_t read_PMSCR_EL2(armprof_pe *pe, unsigned reg, unsigned m);
void write_PMSCR_EL2(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);

#endif
