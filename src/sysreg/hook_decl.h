/* SPDX-License-Identifier: BSD-3-Clause */
/* Declares the read and write hooks the lists that follow name in their
 * columns (NOHOOK declares a placeholder that is never defined or used):
 * define SYSREG_HOOK_READS or SYSREG_HOOK_WRITES, include this, then an
 * owner's list.def, then core/regdecl_end.h and #undef NOHOOK. The hook
 * prototypes come from the declarations, so a hook the table names and the
 * owner's definition cannot disagree. */
#if defined(SYSREG_HOOK_READS)
#define NOHOOK sysreg_nohook_read_
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    uint64_t rd(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m);
#undef SYSREG_HOOK_READS
#elif defined(SYSREG_HOOK_WRITES)
#define NOHOOK sysreg_nohook_write_
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    void wr(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,          \
            uint64_t value);
#undef SYSREG_HOOK_WRITES
#endif
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#include "core/regdecl_begin.h"
