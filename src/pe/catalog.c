/* SPDX-License-Identifier: BSD-3-Clause */
/* The façade's tables: every register of the PE, generated from the owners'
 * declarations (the System registers through sysreg/catalog_gen.h, the
 * external registers below), and the public API's queries of them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/context.h"
#include "pcsr/external.h"
#include "pe/catalog.h"
#include "pmu/external.h"
#include "spe/spe_regs.h"
#include "sysreg/coresight.h"
#include "sysreg/debug_block.h"

/* ---- System registers ---- */

#define SYSREG_LISTS "pe/registers.def"
#include "sysreg/catalog_gen.h"

/* ---- External registers ---- */

#define IMPL(feat) armprof_config_has(c, ARMPROF_FEAT_##feat)
#define OPT(opt)   (c->options[ARMPROF_OPT_##opt])
#define NOHOOK     NULL
#define ALL        (~0ull)
#define LO32       0x00000000ffffffffull
#define HI32       0xffffffff00000000ull

/* The present column of each entry. */
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)                                   \
    static bool ext_present_##id(const armprof_config *c)                                          \
    {                                                                                              \
        (void)c;                                                                                   \
        return (cond);                                                                             \
    }
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl)                          \
    EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, 0, 0)
#include "pe/external_all.def"
#undef EXTREG
#undef EXTREG_ARRAY

/* The sysreg column, pasted onto EXT_SR_: SR_<id>, or -1 for NONE. */
enum {
    EXT_SR_NONE = -1,
#define SYSREG(id, enc, cond, acc, rd, wr, flags)            EXT_SR_##id = SR_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags) EXT_SR_##p##s = SR_##p##s,
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
};

/* The component of the entries being declared: EXT_COMPONENT (PMU, DEBUG),
 * which pe/external_all.def defines around each file, as an
 * armprof_ext_component. */
#define EXT_COMPONENT_ID_(c) ARMPROF_EXT_##c
#define EXT_COMPONENT_ID(c)  EXT_COMPONENT_ID_(c)
#define EXT_ENTRY(id, nm, off, st, n, w, sr, msk, pm, fl, rd, wr)                                  \
    [EXT_##id] = {.name = nm,                                                                      \
                  .offset = (off),                                                                 \
                  .stride = (st),                                                                  \
                  .count = (n),                                                                    \
                  .component = EXT_COMPONENT_ID(EXT_COMPONENT),                                    \
                  .width = (w),                                                                    \
                  .sysreg = EXT_SR_##sr,                                                           \
                  .flags = (fl),                                                                   \
                  .mask = (msk),                                                                   \
                  .perm = perm_##pm,                                                               \
                  .read = rd,                                                                      \
                  .write = wr,                                                                     \
                  .present = ext_present_##id},
/* pe_external.first_entry holds an id in a byte */
_Static_assert(EXT_COUNT < EXT_NO_ENTRY, "external entry ids fit the index");

const ext_desc ext_table[EXT_COUNT] = {
#define EXTREG(id, nm, off, w, cond, sr, mask, perm, fl, rd, wr)                                   \
    EXT_ENTRY(id, nm, off, 0, 1, w, sr, mask, perm, fl, rd, wr)
#define EXTREG_ARRAY(id, nm, off, stride, n, w, cond, sr, mask, perm, fl)                          \
    EXT_ENTRY(id, nm, off, stride, n, w, sr, mask, perm, fl, NOHOOK, NOHOOK)
#include "pe/external_all.def"
#undef EXTREG
#undef EXTREG_ARRAY
};

#undef IMPL
#undef OPT

const ext_catalog ext_catalog_all = {ext_table, EXT_COUNT};

/* ---- Register table queries for the public API ---- */
/* ---- Table queries for the public API ---- */
size_t armprof_reg_count(void)
{
    return SR_COUNT;
}

const char *armprof_reg_name(int reg)
{
    return reg >= 0 && reg < SR_COUNT ? sysreg_table[reg].name : NULL;
}

/* Whether index names an instance of register reg: an indexed register's
 * 0 .. count - 1, 0 for another (an alias has no storage: count 0). */
static bool reg_index_valid(int reg, unsigned index)
{
    if (reg < 0 || reg >= SR_COUNT) return false;
    const unsigned count = sysreg_table[reg].count;
    return index < (count ? count : 1);
}

const char *armprof_reg_instance_name(int reg, unsigned index, char *buf, size_t len)
{
    if (!reg_index_valid(reg, index)) return NULL;
    const sysreg_desc *d = &sysreg_table[reg];
    if (d->prefix && (!buf || len == 0)) return NULL;
    return sysreg_instance_name(d, index, buf, len > UINT_MAX ? UINT_MAX : (unsigned)len);
}

int armprof_reg_lookup(const char *name, unsigned *index)
{
    if (!name) return -1;
    unsigned m = 0;
    const int id = sysreg_lookup_name(&sysreg_catalog_all, name, &m);
    if (index) *index = m;
    return id;
}

uint32_t armprof_reg_encoding(int reg, unsigned index)
{
    return reg_index_valid(reg, index) ? (uint32_t)(sysreg_table[reg].enc + index) : 0;
}

unsigned armprof_reg_instances(int reg)
{
    return reg >= 0 && reg < SR_COUNT ? sysreg_table[reg].count : 0;
}

bool armprof_reg_field(int reg, const char *field, unsigned *hi, unsigned *lo)
{
    if (reg < 0 || reg >= SR_COUNT || !field) return false;
    const sysreg_field *f = sysreg_find_field(&sysreg_table[reg], field);
    if (!f) return false;
    if (hi) *hi = f->hi;
    if (lo) *lo = f->lo;
    return true;
}

/* ---- External register table queries for the public API ---- */
size_t armprof_ext_reg_count(void)
{
    return EXT_COUNT;
}

armprof_ext_component armprof_ext_reg_component(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? (armprof_ext_component)ext_table[reg].component
                                       : ARMPROF_EXT_PMU;
}

const char *armprof_ext_reg_name(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].name : NULL;
}

uint32_t armprof_ext_reg_offset(int reg, unsigned index)
{
    if (reg < 0 || reg >= EXT_COUNT || index >= ext_table[reg].count) return UINT32_MAX;
    return ext_table[reg].offset + index * ext_table[reg].stride;
}

unsigned armprof_ext_reg_width(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].width : 0;
}

unsigned armprof_ext_reg_instances(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].count : 0;
}

int armprof_ext_reg_sysreg(int reg)
{
    return reg >= 0 && reg < EXT_COUNT ? ext_table[reg].sysreg : -1;
}
