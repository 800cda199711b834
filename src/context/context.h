/* SPDX-License-Identifier: BSD-3-Clause */
/* The PE-context registers' layer: the access checks of the registers the
 * core owns (core/regs/list.def: EL2 and EL3 controls, fine-grained traps,
 * ID, debug, timer and translation registers), their hooks, and their ID
 * values. The registers are declared in the core because its pseudocode
 * helpers read them; their access checks need the register engine, so they
 * live one layer up, here. */
#ifndef ARMPROF_CONTEXT_CONTEXT_H
#define ARMPROF_CONTEXT_CONTEXT_H

#include "sysreg/sysreg_access.h"

#define SYSREG_OWNER_LIST "core/regs/list.def"
#include "sysreg/owner_decl.h"

/* Fills the ID registers from the configuration (idregs.c). */
void context_idregs_init(armprof_pe *pe);

#endif
