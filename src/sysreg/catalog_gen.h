/* SPDX-License-Identifier: BSD-3-Clause */
/* The register table of a PE, generated from every owner's declarations:
 * included once, by the façade (pe/catalog.c), after it defines
 * SYSREG_LISTS (the name of a file that includes each owner's list.def) and
 * SR_COUNT, and declares every access_<id> and hook the lists name. Defines
 * sysreg_table[SR_COUNT] and the catalog sysreg_catalog_all the engine uses.
 * Not a header to include anywhere else: it defines objects. */
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

/* Each register's bit ranges, one array per register. A register's array is
 * opened by its SYSREG line and closed by the next one. */
#define SR_FIELD(reg, nm, h, l, acc, cond)                                                         \
    {.name = nm, .hi = (h), .lo = (l), .access = (acc), .conditional = (cond), .owner = SR_##reg},
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    {                                                                                              \
        NULL, 0, 0, 0, 0, 0, 0, 0                                                                  \
    }                                                                                              \
    }                                                                                              \
    ;                                                                                              \
    static const sysreg_field fields_##id[] = {
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond, acc, target)    SYSREG(id, enc, cond, acc, 0, 0, 0)
#define F(reg, name, hi, lo, acc, rst)              SR_FIELD(reg, #name, hi, lo, FA_##acc, 0)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_FIELD(reg, #name, hi, lo, FA_##acc, 1)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_FIELD(reg, #name, hi, lo, FA_##acc, 1)
#define RES0(reg, hi, lo)                           SR_FIELD(reg, "RES0", hi, lo, FA_RES0, 0)
#define RES1(reg, hi, lo)                           SR_FIELD(reg, "RES1", hi, lo, FA_RES1, 0)
#define UNK(reg, hi, lo)                            SR_FIELD(reg, "UNKNOWN", hi, lo, FA_UNK, 0)
/* The opening of the generated sequence: holds nothing. */
__attribute__((unused)) static const sysreg_field fields_prelude_[] = {
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
    {NULL, 0, 0, 0, 0, 0, 0, 0}};

#define NFIELDS(id) ((uint8_t)(sizeof(fields_##id) / sizeof(fields_##id[0]) - 1))

/* Each register's facts (sysreg_facts), one object per register, opened by
 * its SYSREG line and closed by the next one. */
#define SR_FACTS_OPEN(id)                                                                          \
    }                                                                                              \
    ;                                                                                              \
    static const sysreg_facts facts_##id = {
#define SYSREG(id, enc, cond, acc, rd, wr, flags)            SR_FACTS_OPEN(id)
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags) SR_FACTS_OPEN(p##s)
#define SYSREG_ALIAS(id, enc, cond, acc, target)             SR_FACTS_OPEN(id)
#define FGT_R(reg, kind, fgtreg, field)                                                            \
    .fgt_read = {STO_##fgtreg, fgtreg##_##field##_LO, SR_FGT_##kind},
#define FGT_W(reg, kind, fgtreg, field)                                                            \
    .fgt_write = {STO_##fgtreg, fgtreg##_##field##_LO, SR_FGT_##kind},
#define FGT_RW(reg, kind, rdreg, wrreg, field)                                                     \
    FGT_R(reg, kind, rdreg, field) FGT_W(reg, kind, wrreg, field)
#define NVMEM(reg, offset)    .nv2_offset = (offset),
#define EL2_HOST(reg, target) .host_target = SR_##target + 1,
/* The opening of the generated sequence: holds nothing. */
__attribute__((unused)) static const sysreg_facts facts_prelude_ = {
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
};

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
                  .facts = &facts_##rid,                                                           \
                  .read = rd,                                                                      \
                  .write = wr,                                                                     \
                  .fields = fields_##rid,                                                          \
                  .nfields = NFIELDS(rid)},
const sysreg_desc sysreg_table[SR_COUNT] = {
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    SR_DESC(id, #id, NULL, NULL, enc, 1, STO_##id, flags, acc, 0, rd, wr)
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SR_DESC(p##s, #p "<n>" #s, #p, #s, enc, n, STO_##p##s, flags, acc, 0, rd, wr)
#define SYSREG_ALIAS(id, enc, cond, acc, target)                                                   \
    SR_DESC(id, #id, NULL, NULL, enc, 0, 0, SR_ALIAS, acc, SR_##target + 1, NULL, NULL)
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
};

/* What a configuration makes of each register's ranges. A register's body is
 * opened by its SYSREG line and closed by the next one. */
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

#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    }                                                                                              \
    static void configure_##id(const armprof_config *c, const armprof_config *c64,                  \
                               sysreg_pe_info *o)                                                  \
    {                                                                                              \
        const uint64_t fill = c->options[ARMPROF_OPT_UNKNOWN_FILL];                                \
        (void)fill;                                                                                \
        o->present = present_##id(c);                                                              \
        o->state = o->present || present_##id(c64);
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond, acc, target) SYSREG(id, enc, cond, acc, 0, 0, 0)
#define F(reg, name, hi, lo, acc, rst)           apply_range(o, BITS_MASK(hi, lo), FA_##acc, rst, true, fill);
#define FC(reg, name, hi, lo, acc, rst, cond)                                                      \
    apply_range(o, BITS_MASK(hi, lo), FA_##acc, rst, (cond), fill);
#define FX(reg, name, hi, lo, acc, rst, cond, res1)                                                \
    apply_range(o, BITS_MASK(hi, lo), FA_##acc, rst, (cond), fill);                                \
    if ((cond) && (res1)) make_res1(o, BITS_MASK(hi, lo));
#define RES0(reg, hi, lo) o->res0 |= BITS_MASK(hi, lo);
#define RES1(reg, hi, lo) o->res1 |= BITS_MASK(hi, lo);
#define UNK(reg, hi, lo)  o->unk |= BITS_MASK(hi, lo);
/* The opening of the generated sequence: does nothing. */
__attribute__((unused)) static void configure_prelude_(const armprof_config *c, sysreg_pe_info *o)
{
    (void)c;
    (void)o;
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
}

static void sysreg_configure_all(const armprof_config *c, sysreg_pe_info *info)
{
    memset(info, 0, sizeof(sysreg_pe_info) * SR_COUNT);
    /* The configuration with FEAT_AA64: which registers' state a PE without
     * AArch64 has (sysreg_pe_info.state). */
    armprof_config c64 = *c;
    armprof_config_set_feature(&c64, ARMPROF_FEAT_AA64, true);
#define SYSREG(id, enc, cond, acc, rd, wr, flags) configure_##id(c, &c64, &info[SR_##id]);
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    configure_##p##s(c, &c64, &info[SR_##p##s]);
#define SYSREG_ALIAS(id, enc, cond, acc, target) configure_##id(c, &c64, &info[SR_##id]);
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
}

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
    SR_ENC_AT(id, enc, n, 2) SR_ENC_AT(id, enc, n, 3) SR_ENC_AT(id, enc, n, 4)                     \
        SR_ENC_AT(id, enc, n, 5) SR_ENC_AT(id, enc, n, 6) SR_ENC_AT(id, enc, n, 7)                 \
            SR_ENC_AT(id, enc, n, 8) SR_ENC_AT(id, enc, n, 9) SR_ENC_AT(id, enc, n, 10)            \
                SR_ENC_AT(id, enc, n, 11) SR_ENC_AT(id, enc, n, 12) SR_ENC_AT(id, enc, n, 13)      \
                    SR_ENC_AT(id, enc, n, 14) SR_ENC_AT(id, enc, n, 15) SR_ENC_AT(id, enc, n, 16)  \
                        SR_ENC_AT(id, enc, n, 17) SR_ENC_AT(id, enc, n, 18)                        \
                            SR_ENC_AT(id, enc, n, 19) SR_ENC_AT(id, enc, n, 20)                    \
                                SR_ENC_AT(id, enc, n, 21) SR_ENC_AT(id, enc, n, 22)                \
                                    SR_ENC_AT(id, enc, n, 23) SR_ENC_AT(id, enc, n, 24)            \
                                        SR_ENC_AT(id, enc, n, 25) SR_ENC_AT(id, enc, n, 26)        \
                                            SR_ENC_AT(id, enc, n, 27) SR_ENC_AT(id, enc, n, 28)    \
                                                SR_ENC_AT(id, enc, n, 29)                          \
                                                    SR_ENC_AT(id, enc, n, 30)                      \
                                                        SR_ENC_AT(id, enc, n, 31)
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winitializer-overrides"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
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

const sysreg_catalog sysreg_catalog_all = {sysreg_table, SR_COUNT, sysreg_configure_all,
                                           sysreg_enc_map};

/* ---- Compile-time check of the register declarations: every one of a register's
 * 64 bits belongs to exactly one range (a field, RES0, RES1 or UNK).
 *
 * For each register two array types are declared whose size is negative when
 * the check fails, so the build stops with an error naming the register:
 *   sr_bits_not_covered_<reg>  some bit is in no range
 *   sr_bits_overlap_<reg>      the ranges' widths add up to more than 64
 * (Covering all 64 bits with widths adding up to exactly 64 means no overlap.)
 * An expression is opened by a register's SYSREG line and closed by the next
 * register's, or by the end of the table. Aliases have no bits of their own. */
#define SR_RANGE(hi, lo) | BITS_MASK(hi, lo)
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    )) ? 1 : -1];                                                                                  \
    typedef char sr_bits_not_covered_##id[(~0ull == (0ull
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond, acc, target) )) ? 1 : -1]; typedef char sr_alias_##id[((1
#define F(reg, name, hi, lo, acc, rst)              SR_RANGE(hi, lo)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_RANGE(hi, lo)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_RANGE(hi, lo)
#define RES0(reg, hi, lo)                           SR_RANGE(hi, lo)
#define RES1(reg, hi, lo)                           SR_RANGE(hi, lo)
#define UNK(reg, hi, lo)                            SR_RANGE(hi, lo)
typedef char sr_bits_prelude_[((1
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
                                ))
                                  ? 1
                                  : -1];

#define SR_WIDTH(hi, lo) +((hi) - (lo) + 1)
#define SYSREG(id, enc, cond, acc, rd, wr, flags)                                                  \
    )) ? 1 : -1];                                                                                  \
    typedef char sr_bits_overlap_##id[(64 == (0
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    SYSREG(p##s, enc, cond, acc, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond, acc, target) )) ? 1 : -1]; typedef char sr_alias_width_##id[((1
#define F(reg, name, hi, lo, acc, rst)              SR_WIDTH(hi, lo)
#define FC(reg, name, hi, lo, acc, rst, cond)       SR_WIDTH(hi, lo)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) SR_WIDTH(hi, lo)
#define RES0(reg, hi, lo)                           SR_WIDTH(hi, lo)
#define RES1(reg, hi, lo)                           SR_WIDTH(hi, lo)
#define UNK(reg, hi, lo)                            SR_WIDTH(hi, lo)
typedef char sr_width_prelude_[((1
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
                                 ))
                                   ? 1
                                   : -1];

/* An SYSREG_ARRAY's instance 0 must have CRm<1:0> = op2 = 0 so that instance n
 * is encoding + n. */
#define SYSREG_ARRAY(p, s, n, enc, cond, acc, rd, wr, flags)                                       \
    typedef char sr_array_base_##p##s[((enc)&0x1f) == 0 && (n) <= 32 ? 1 : -1];
#include "core/regdecl_begin.h"
#include SYSREG_LISTS
#include "core/regdecl_end.h"
