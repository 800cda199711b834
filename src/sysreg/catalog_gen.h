/* SPDX-License-Identifier: BSD-3-Clause */
/* The register table of a PE, generated from every owner's declarations:
 * included once, by the façade (pe/catalog.c), after it defines
 * SYSREG_LISTS (the name of a file that includes each owner's list.def) and
 * SR_COUNT, and declares every access_<id> and hook the lists name. Defines
 * sysreg_table[SR_COUNT] and the catalog sysreg_catalog_all the engine uses.
 * Not a header to include anywhere else: it defines objects.
 *
 * Each pass below defines the declaration macros, includes the lists, and
 * each macro's expansion is whole in itself: an initializer, an enumerator,
 * a statement or a typedef, naming its register (SR_<reg>); none opens
 * something the next register's closes. */
#include <stdlib.h>
#include <string.h>

#include "sysreg/sysreg_table.h"

#define IMPL(feat) armprof_config_has(c, ARMPROF_FEAT_##feat)
#define OPT(opt)   (c->options[ARMPROF_OPT_##opt])
#define NOHOOK     NULL

typedef struct reset_spec {
    uint8_t kind;
    uint64_t value;
} reset_spec;
static inline reset_spec reset_of(unsigned kind, uint64_t value)
{
    reset_spec r = {(uint8_t)kind, value};
    return r;
}
#define WARM(v)              reset_of(RST_WARM, (v))
#define WARM_UNK             reset_of(RST_WARM_UNK, 0)
#define COLD(v)              reset_of(RST_COLD, (v))
#define COLD_UNK             reset_of(RST_COLD_UNK, 0)
#define NORESET              reset_of(RST_NONE, 0)
#define RESET_IF(cond, a, b) ((cond) ? (a) : (b))

/* Presence of each register in a configuration. */
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    static bool present_##id(const armprof_config *c)                                              \
    {                                                                                              \
        (void)c;                                                                                   \
        return (cond);                                                                             \
    }
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond, acc, target) SYSREG(id, enc, cond, acc, 0, 0, 0)
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"

/* Where each register's ranges start in sysreg_fields: SRF_<id>, the
 * index its first range gets (the enumerator after it repeats the value,
 * so that the range takes it), then SRF_<reg>_<field> (SRF_<reg>_RES0_<hi>_<lo>
 * for a reserved range), one a range, in declaration order. */
#define SRF_REG(id)                                          SRF_##id, SRF_##id##_first_ = SRF_##id - 1,
#define SYSREG(id, enc, cond, acc, rd, wr, flags)            SRF_REG(id)
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags) SRF_REG(p##s)
#define SYSREG_ALIAS(id, enc, cond, acc, target)             SRF_REG(id)
#define F(reg, name, hi, lo, acc, rst)                       SRF_##reg##_##name,
#define FC(reg, name, hi, lo, acc, rst, cond)                SRF_##reg##_##name,
#define FX(reg, name, hi, lo, acc, rst, cond, res1)          SRF_##reg##_##name,
#define RES0(reg, hi, lo)                                    SRF_##reg##_RES0_##hi##_##lo,
#define RES1(reg, hi, lo)                                    SRF_##reg##_RES1_##hi##_##lo,
#define UNK(reg, hi, lo)                                     SRF_##reg##_UNK_##hi##_##lo,
enum sysreg_field_index {
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
    SRF_END_
};

/* Every register's bit ranges, one entry a range, in declaration order:
 * register <id>'s are the sysreg_desc.nfields entries from SRF_<id> on
 * (sysreg_desc.fields). */
#define SR_FIELD(reg, nm, h, l, acc, cond)                                                         \
    {.name = nm, .hi = (h), .lo = (l), .access = (acc), .conditional = (cond), .owner = SR_##reg},
#define F(reg, name, hi, lo, acc, rst)              SR_FIELD(reg, #name, hi, lo, FA_##acc, 0)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_FIELD(reg, #name, hi, lo, FA_##acc, 1)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_FIELD(reg, #name, hi, lo, FA_##acc, 1)
#define RES0(reg, hi, lo)                           SR_FIELD(reg, "RES0", hi, lo, FA_RES0, 0)
#define RES1(reg, hi, lo)                           SR_FIELD(reg, "RES1", hi, lo, FA_RES1, 0)
#define UNK(reg, hi, lo)                            SR_FIELD(reg, "UNKNOWN", hi, lo, FA_UNK, 0)
static const sysreg_field sysreg_fields[SRF_END_ + 1] = {
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
    /* the end, which a register with no ranges (an alias) declared last
     * points at */
    {NULL, 0, 0, 0, 0, 0, 0, 0}};

/* Each register's facts (sysreg_facts), each line of them one member. */
#define FGT_R(reg, kind, fgtreg, field)                                                            \
    [SR_##reg].fgt_read = {STO_##fgtreg, fgtreg##_##field##_LO, SR_FGT_##kind},
#define FGT_W(reg, kind, fgtreg, field)                                                            \
    [SR_##reg].fgt_write = {STO_##fgtreg, fgtreg##_##field##_LO, SR_FGT_##kind},
#define FGT_RW(reg, kind, rdreg, wrreg, field)                                                     \
    FGT_R(reg, kind, rdreg, field) FGT_W(reg, kind, wrreg, field)
#define NVMEM(reg, offset)    [SR_##reg].nv2_offset = (offset),
#define EL2_HOST(reg, target) [SR_##reg].host_target = SR_##target + 1,
static const sysreg_facts sysreg_facts_of[SR_COUNT] = {
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
};

/* A register's count of ranges: each of its ranges sets it to its own rank
 * + 1, and the last one's stands (C11 6.7.9p19: a later initializer of a
 * member overrides an earlier one). The encoding map's instances past an
 * array's count override likewise. */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
#define SR_DESC(rid, nm, pre, suf, e, n, sto, fl, acc, alias, rd, wr)                              \
    [SR_##rid] = {.id = SR_##rid,                                                                  \
                  .name = nm,                                                                      \
                  .prefix = pre,                                                                   \
                  .suffix = suf,                                                                   \
                  .enc = (e),                                                                      \
                  .count = (n),                                                                    \
                  .storage = (sto),                                                                \
                  .flags = (fl),                                                                   \
                  .present = present_##rid,                                                        \
                  .access = acc,                                                                   \
                  .alias_of = (alias),                                                             \
                  .facts = &sysreg_facts_of[SR_##rid],                                             \
                  .read = rd,                                                                      \
                  .write = wr,                                                                     \
                  .fields = &sysreg_fields[SRF_##rid],                                             \
                  .nfields = 0},
#define SR_RANK(reg, range) [SR_##reg].nfields = (uint8_t)(range - SRF_##reg + 1),
const sysreg_desc sysreg_table[SR_COUNT] = {
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    SR_DESC(id, #id, NULL, NULL, enc, 1, STO_##id, flags, acc, 0, rd, wr)
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SR_DESC(p##s, #p "<n>" #s, #p, #s, enc, n, STO_##p##s, flags, acc, 0, rd, wr)
#define SYSREG_ALIAS(id, enc, cond, acc, target)                                                   \
    SR_DESC(id, #id, NULL, NULL, enc, 0, 0, SR_ALIAS, acc, SR_##target + 1, NULL, NULL)
#define F(reg, name, hi, lo, acc, rst)              SR_RANK(reg, SRF_##reg##_##name)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_RANK(reg, SRF_##reg##_##name)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_RANK(reg, SRF_##reg##_##name)
#define RES0(reg, hi, lo)                           SR_RANK(reg, SRF_##reg##_RES0_##hi##_##lo)
#define RES1(reg, hi, lo)                           SR_RANK(reg, SRF_##reg##_RES1_##hi##_##lo)
#define UNK(reg, hi, lo)                            SR_RANK(reg, SRF_##reg##_UNK_##hi##_##lo)
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
};
/* Encoding to register id + 1 (0: nothing declared there), the same for
 * every configuration (presence is the info's), so one map serves every PE.
 * Instance k of an array is at its encoding + k; the initializers for
 * k >= count repeat instance 0's, which the compiler would warn about as an
 * override. */
#define SR_ENC_AT(id, enc, n, k)                                                                   \
    [(uint16_t)((enc) + ((k) < (n) ? (k) : 0))] = (uint16_t)(SR_##id + 1),
#define SR_ENC_ALL(id, enc, n)                                                                     \
    SR_ENC_AT(id, enc, n, 0)                                                                       \
    SR_ENC_AT(id, enc, n, 1)                                                                       \
    SR_ENC_AT(id, enc, n, 2)                                                                       \
    SR_ENC_AT(id, enc, n, 3)                                                                       \
    SR_ENC_AT(id, enc, n, 4)                                                                       \
    SR_ENC_AT(id, enc, n, 5) SR_ENC_AT(id, enc, n, 6) SR_ENC_AT(id, enc, n, 7)                     \
        SR_ENC_AT(id, enc, n, 8) SR_ENC_AT(id, enc, n, 9) SR_ENC_AT(id, enc, n, 10)                \
            SR_ENC_AT(id, enc, n, 11) SR_ENC_AT(id, enc, n, 12) SR_ENC_AT(id, enc, n, 13)          \
                SR_ENC_AT(id, enc, n, 14) SR_ENC_AT(id, enc, n, 15) SR_ENC_AT(id, enc, n, 16)      \
                    SR_ENC_AT(id, enc, n, 17) SR_ENC_AT(id, enc, n, 18) SR_ENC_AT(id, enc, n, 19)  \
                        SR_ENC_AT(id, enc, n, 20) SR_ENC_AT(id, enc, n, 21)                        \
                            SR_ENC_AT(id, enc, n, 22) SR_ENC_AT(id, enc, n, 23)                    \
                                SR_ENC_AT(id, enc, n, 24) SR_ENC_AT(id, enc, n, 25)                \
                                    SR_ENC_AT(id, enc, n, 26) SR_ENC_AT(id, enc, n, 27)            \
                                        SR_ENC_AT(id, enc, n, 28) SR_ENC_AT(id, enc, n, 29)        \
                                            SR_ENC_AT(id, enc, n, 30) SR_ENC_AT(id, enc, n, 31)
static const uint16_t sysreg_enc_map[1u << 16] = {
#define SYSREG(id, enc, cond, acc, rd, wr, flags)            SR_ENC_ALL(id, enc, 1)
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags) SR_ENC_ALL(p##s, enc, n)
#define SYSREG_ALIAS(id, enc, cond, acc, target)             SR_ENC_ALL(id, enc, 1)
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
    /* ENC_NONE is no encoding: the registers declared with it are reached by
     * name only. */
    [ENC_NONE] = 0,
};

#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* What a configuration makes of each register's ranges. */
static void apply_range(sysreg_pe_info *o, uint64_t m, unsigned acc, reset_spec r, bool present,
                        uint64_t fill)
{
    if (!present) {
        o->res0 |= m;
        return;
    }
    if (acc == FA_RW || acc == FA_WO) o->wmask |= m;
    switch (r.kind) {
    case RST_WARM:
        o->warm_mask |= m;
        o->warm_value |= (r.value << __builtin_ctzll(m)) & m;
        break;
    case RST_WARM_UNK:
        o->warm_mask |= m;
        o->warm_value |= fill & m;
        break;
    case RST_COLD:
        o->cold_mask |= m;
        o->cold_value |= (r.value << __builtin_ctzll(m)) & m;
        break;
    case RST_COLD_UNK:
        o->cold_mask |= m;
        o->cold_value |= fill & m;
        break;
    default:
        break;
    }
}

/* A field that is RES1 in this configuration: reads 1, ignores writes. */
static void make_res1(sysreg_pe_info *o, uint64_t m)
{
    o->res1 |= m;
    o->wmask &= ~m;
}

/* Whether the register is present, and whether a PE without AArch64 has its
 * state (sysreg_pe_info.state: present with FEAT_AA64). */
static void set_presence(sysreg_pe_info *o, bool present, bool present_aa64)
{
    o->present = present;
    o->state = present || present_aa64;
}

static void sysreg_configure_all(const armprof_config *c, sysreg_pe_info *info)
{
    memset(info, 0, sizeof(sysreg_pe_info) * SR_COUNT);
    const uint64_t fill = c->options[ARMPROF_OPT_UNKNOWN_FILL];
    armprof_config c64 = *c;
    armprof_config_set_feature(&c64, ARMPROF_FEAT_AA64, true);
#define SR_PRESENCE(id)                                      set_presence(&info[SR_##id], present_##id(c), present_##id(&c64));
#define SYSREG(id, enc, cond, acc, rd, wr, flags)            SR_PRESENCE(id)
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags) SR_PRESENCE(p##s)
#define SYSREG_ALIAS(id, enc, cond, acc, target)             SR_PRESENCE(id)
#define F(reg, name, hi, lo, acc, rst)                                                             \
    apply_range(&info[SR_##reg], BITS_MASK(hi, lo), FA_##acc, rst, true, fill);
#define FC(reg, name, hi, lo, acc, rst, cond)                                                      \
    apply_range(&info[SR_##reg], BITS_MASK(hi, lo), FA_##acc, rst, (cond), fill);
#define FX(reg, name, hi, lo, acc, rst, cond, res1)                                                \
    apply_range(&info[SR_##reg], BITS_MASK(hi, lo), FA_##acc, rst, (cond), fill);                  \
    if ((cond) && (res1)) make_res1(&info[SR_##reg], BITS_MASK(hi, lo));
#define RES0(reg, hi, lo) info[SR_##reg].res0 |= BITS_MASK(hi, lo);
#define RES1(reg, hi, lo) info[SR_##reg].res1 |= BITS_MASK(hi, lo);
#define UNK(reg, hi, lo)  info[SR_##reg].unk |= BITS_MASK(hi, lo);
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
}

const sysreg_catalog sysreg_catalog_all = {sysreg_table, SR_COUNT, sysreg_configure_all,
                                           sysreg_enc_map};

/* ---- Compile-time check of each range: within the 64 bits, hi >= lo; an
 * array type of negative size stops the build, naming the range
 * (sr_range_<reg>_<field>). That the ranges of a register cover its 64 bits
 * once each is the table test's (tests/unit/test_table.c). */
#define SR_RANGE_OK(name, hi, lo)                   typedef char sr_range_##name[(hi) <= 63 && (lo) <= (hi) ? 1 : -1];
#define F(reg, name, hi, lo, acc, rst)              SR_RANGE_OK(reg##_##name, hi, lo)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_RANGE_OK(reg##_##name, hi, lo)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_RANGE_OK(reg##_##name, hi, lo)
#define RES0(reg, hi, lo)                           SR_RANGE_OK(reg##_RES0_##hi##_##lo, hi, lo)
#define RES1(reg, hi, lo)                           SR_RANGE_OK(reg##_RES1_##hi##_##lo, hi, lo)
#define UNK(reg, hi, lo)                            SR_RANGE_OK(reg##_UNK_##hi##_##lo, hi, lo)
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"

/* An SYSREG_ARRAY's instance 0 must have CRm<1:0> = op2 = 0 so that instance n
 * is encoding + n. */
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    typedef char sr_array_base_##p##s[((enc)&0x1f) == 0 && (n) <= 32 ? 1 : -1];
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
