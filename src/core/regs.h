/* SPDX-License-Identifier: BSD-3-Clause */
/* The core's registers (core/regs/list.def): ids, storage slots and field
 * positions, the first of the PE's one numbering (core/regdecl.h). */
#ifndef ARMPROF_CORE_REGS_H
#define ARMPROF_CORE_REGS_H

#include "core/regdecl.h"

#define REGDECL_OWNER      CORE
#define REGDECL_LIST       "core/regs/list.def"
#define REGDECL_FIRST_ID   0
#define REGDECL_FIRST_SLOT 0
#include "core/regdecl_enums.h"

#endif
