/* The PE-context registers' layer: the access checks of the registers the
 * core owns (core/regs/list.def: EL2 and EL3 controls, fine-grained traps,
 * ID, debug, timer and translation registers), their hooks, and their ID
 * values. The registers are declared in the core because its pseudocode
 * helpers read them; their access checks need the register engine, so they
 * live one layer up, here. */
#ifndef ARMPROF_CONTEXT_CONTEXT_H
#define ARMPROF_CONTEXT_CONTEXT_H

#include "sysreg/sysreg_access.h"

#include "sysreg/access_decl.h"
#include "core/regs/list.def"
#include "core/regdecl_end.h"

/* The shapes the core's registers share (their access column names them). */
sysreg_route access_el1_vm_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                    bool is_read);
sysreg_route access_id_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read);
sysreg_route access_fgt_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read);
sysreg_route access_fgt2_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                  bool is_read);

/* Read and write hooks: registers whose access has side effects or whose
 * fields depend on other registers (declared from the list's hook columns). */
#define SYSREG_HOOK_READS
#include "sysreg/hook_decl.h"
#include "core/regs/list.def"
#include "core/regdecl_end.h"
#undef NOHOOK
#define SYSREG_HOOK_WRITES
#include "sysreg/hook_decl.h"
#include "core/regs/list.def"
#include "core/regdecl_end.h"
#undef NOHOOK

/* Fills the ID registers from the configuration (idregs.c). */
void context_idregs_init(armprof_pe *pe);

#endif
