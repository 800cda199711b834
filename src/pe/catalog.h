/* SPDX-License-Identifier: BSD-3-Clause */
/* The façade's tables of every register (catalog.c): the System register
 * table and the external register table, with their ids. The unit tests
 * read them too. */
#ifndef ARMPROF_PE_CATALOG_H
#define ARMPROF_PE_CATALOG_H

#include "pe/instance.h"

extern const sysreg_desc sysreg_table[SR_COUNT];

enum ext_id {
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)          EXT_##id,
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl) EXT_##id,
#include "pe/external_all.def"
#undef EXTREG
#undef EXTREG_ARRAY
    EXT_COUNT
};

extern const ext_desc ext_table[EXT_COUNT];

#endif
