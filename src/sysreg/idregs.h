/* The ID registers read back the configuration. */
#ifndef ARMPROF_SYSREG_IDREGS_H
#define ARMPROF_SYSREG_IDREGS_H

#include "core/pe.h"

/* Fills the ID registers' storage from the PE's configuration (after reset). */
void idregs_init(armprof_pe *pe);

#endif
