/* The sysreg layer's internal interface, for the other layers and the hooks. */
#ifndef ARMPROF_SYSREG_SYSREG_H
#define ARMPROF_SYSREG_SYSREG_H

#include "core/pe.h"

void sysreg_build_map(armprof_pe *pe);
void sysreg_reset(armprof_pe *pe, bool cold);
/* Read and write through a register's hooks (what MRS/MSR do once allowed). */
uint64_t sysreg_read(armprof_pe *pe, unsigned reg, unsigned m);
void sysreg_write(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
/* The value an MSR of value would leave (RW/WO fields written, RES0/RES1). */
uint64_t sysreg_merge_write(const armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
/* Stores a value as is, recomputing Effective values for SR_CONTEXT registers. */
void sysreg_store(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);

#endif
