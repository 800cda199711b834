/* SPDX-License-Identifier: BSD-3-Clause */
/* Declares the access column's function of each register of the lists that
 * follow (a function several registers share is declared once for each,
 * which C allows): include this, then an owner's list.def, then
 * core/regdecl_end.h. */
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    sysreg_route acc(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read);
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond, acc, target) SYSREG(id, enc, cond, acc, 0, 0, 0)
#include "core/regdecl_begin.h"
