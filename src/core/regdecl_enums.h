/* SPDX-License-Identifier: BSD-3-Clause */
/* The enums of one owner's registers: ids SR_<id>, slots STO_<id>, field
 * positions <id>_<field>_LO/_W and named values <id>_<field>_<name>,
 * numbered on from the owner before it (core/regdecl.h). The includer defines
 *   REGDECL_OWNER       the owner's tag (CORE, PMU, SPE): the enums end with
 *                       SR_<tag>_END and STO_<tag>_END
 *   REGDECL_LIST        its list.def, as a string
 *   REGDECL_FIRST_ID    its first id: 0 for the core, a unit's SR_<tag>_FIRST
 *                       (sysreg/units.h)
 *   REGDECL_FIRST_SLOT  its first slot, likewise
 * and includes this file once; it undefines them. */
#define REGDECL_CAT_(a, b, c) a##b##c
#define REGDECL_CAT(a, b, c)  REGDECL_CAT_(a, b, c)

enum {
    REGDECL_CAT(SR_, REGDECL_OWNER, _BEFORE_) = (REGDECL_FIRST_ID)-1,
#define REGDECL_IDS
#include "core/regdecl_ids.h"
#include REGDECL_LIST
#include "core/regdecl_end.h"
    REGDECL_CAT(SR_, REGDECL_OWNER, _END)
};

enum {
    REGDECL_CAT(STO_, REGDECL_OWNER, _BEFORE_) = (REGDECL_FIRST_SLOT)-1,
#define REGDECL_SLOTS
#include "core/regdecl_ids.h"
#include REGDECL_LIST
#include "core/regdecl_end.h"
    REGDECL_CAT(STO_, REGDECL_OWNER, _END)
};

enum {
#define REGDECL_FIELDS
#include "core/regdecl_ids.h"
#include REGDECL_LIST
#include "core/regdecl_end.h"
    REGDECL_CAT(REGDECL_, REGDECL_OWNER, _FIELDS_END_)
};

#undef REGDECL_CAT_
#undef REGDECL_CAT
#undef REGDECL_OWNER
#undef REGDECL_LIST
#undef REGDECL_FIRST_ID
#undef REGDECL_FIRST_SLOT
