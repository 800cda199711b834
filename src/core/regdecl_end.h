/* SPDX-License-Identifier: BSD-3-Clause */
/* Closes a pass over register declaration lists (core/regdecl_begin.h). */
#undef SYSREG
#undef SYSREG_ARRAY
#undef SYSREG_ALIAS
#undef F
#undef FC
#undef FX
#undef FVAL
#undef FVIEW
#undef RES0
#undef RES1
#undef UNK
#undef FGT_R
#undef FGT_W
#undef FGT_RW
#undef NVMEM
#undef EL2_HOST
