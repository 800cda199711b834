/* SPDX-License-Identifier: BSD-3-Clause */
/* Compiled by tests/regdecl.cmake with REGDECL_TEST_LIST naming one of the
 * .def files here: the declaration format's named values (FVAL) and other
 * layouts (FVIEW) become the constants core/regdecl.h describes. */
#include "core/regdecl.h"

#define REGDECL_OWNER      TEST
#define REGDECL_LIST       REGDECL_TEST_LIST
#define REGDECL_FIRST_ID   0
#define REGDECL_FIRST_SLOT 0
#include "core/regdecl_enums.h"

/* PMBLIMITR_EL1.FM's shape: bits [2:1], Discard 0b10. */
_Static_assert(TEST_REG_FM_LO == 1 && TEST_REG_FM_W == 2, "FM at [2:1]");
_Static_assert(TEST_REG_FM_FILL == 0 && TEST_REG_FM_DISCARD == 2, "FM's named values");
_Static_assert(TEST_REG_FM_TOP == 3, "the largest value a 2-bit field holds");
/* A 64-bit field takes a named value (no shift by 64). */
_Static_assert(TEST_WIDE_ALL_ONE == 1, "a 64-bit field's value");
/* TCR_EL2's !ELIsInHost(EL2) PS: bits [18:16], over the declared T1SZ. */
_Static_assert(TEST_REG_NOHOST_PS_LO == 16 && TEST_REG_NOHOST_PS_W == 3, "a view's field");
_Static_assert(TEST_REG_T1SZ_LO == 16 && TEST_REG_T1SZ_W == 6, "the declared field");
