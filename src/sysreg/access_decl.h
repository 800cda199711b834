/* Declares access_<id> for each register of the lists that follow: include
 * this, then an owner's list.def, then core/regdecl_end.h. */
#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    sysreg_route access_##id(const armprof_pe *pe, unsigned m, bool is_read);
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond)                     SYSREG(id, enc, cond, 0, 0, 0)
#include "core/regdecl_begin.h"
