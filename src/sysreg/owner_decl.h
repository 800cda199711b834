/* SPDX-License-Identifier: BSD-3-Clause */
/* Declares what an owner's register list names: each register's access
 * check (the access column) and its read and write hooks. Define
 * SYSREG_OWNER_LIST as the owner's list.def (a string) and include this;
 * a function several registers share is declared once for each, which C
 * allows. The prototypes come from the declarations, so a function and the
 * table that names it cannot disagree. */
#include "sysreg/access_decl.h"
#include SYSREG_OWNER_LIST
#include "core/regdecl_end.h"
#define SYSREG_HOOK_READS
#include "sysreg/hook_decl.h"
#include SYSREG_OWNER_LIST
#include "core/regdecl_end.h"
#undef NOHOOK
#define SYSREG_HOOK_WRITES
#include "sysreg/hook_decl.h"
#include SYSREG_OWNER_LIST
#include "core/regdecl_end.h"
#undef NOHOOK
#undef SYSREG_OWNER_LIST
