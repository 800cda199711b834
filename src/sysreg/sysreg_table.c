/* Builds the register table and the per-configuration register information
 * from the declarations in regs/ (sysreg_table.h). */
#include "sysreg/sysreg_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysreg/sysreg_access.h"
#include "sysreg/sysreg_hooks.h"

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
#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    static bool present_##id(const armprof_config *c)                                              \
    {                                                                                              \
        (void)c;                                                                                   \
        return (cond);                                                                             \
    }
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond)                     SYSREG(id, enc, cond, 0, 0, 0)
#include "sysreg/regs/all.def"

/* Each register's bit ranges, one array per register. A register's array is
 * opened by its SYSREG line and closed by the next one. */
#define SR_FIELD(reg, nm, h, l, acc, cond)                                                         \
    {.name = nm, .hi = (h), .lo = (l), .access = (acc), .conditional = (cond), .owner = SR_##reg},
#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    {                                                                                              \
        NULL, 0, 0, 0, 0, 0, 0, 0                                                                  \
    }                                                                                              \
    }                                                                                              \
    ;                                                                                              \
    static const sysreg_field fields_##id[] = {
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond)                     SYSREG(id, enc, cond, 0, 0, 0)
#define F(reg, name, hi, lo, acc, rst)                  SR_FIELD(reg, #name, hi, lo, FA_##acc, 0)
#define FC(reg, name, hi, lo, acc, rst, cond)           SR_FIELD(reg, #name, hi, lo, FA_##acc, 1)
#define FX(reg, name, hi, lo, acc, rst, cond, res1)     SR_FIELD(reg, #name, hi, lo, FA_##acc, 1)
#define RES0(reg, hi, lo)                               SR_FIELD(reg, "RES0", hi, lo, FA_RES0, 0)
#define RES1(reg, hi, lo)                               SR_FIELD(reg, "RES1", hi, lo, FA_RES1, 0)
#define UNK(reg, hi, lo)                                SR_FIELD(reg, "UNKNOWN", hi, lo, FA_UNK, 0)
/* The opening of the generated sequence: holds nothing. */
__attribute__((unused)) static const sysreg_field fields_prelude_[] = {
#include "sysreg/regs/all.def"
    {NULL, 0, 0, 0, 0, 0, 0, 0}};

#define NFIELDS(id) ((uint8_t)(sizeof(fields_##id) / sizeof(fields_##id[0]) - 1))

#define SR_DESC(id, nm, pre, suf, e, n, sto, fl, rd, wr)                                           \
    [SR_##id] = {.name = nm,                                                                       \
                 .prefix = pre,                                                                    \
                 .suffix = suf,                                                                    \
                 .enc = (e),                                                                       \
                 .count = (n),                                                                     \
                 .storage = (sto),                                                                 \
                 .flags = (fl),                                                                    \
                 .present = present_##id,                                                          \
                 .access = access_##id,                                                            \
                 .read = rd,                                                                       \
                 .write = wr,                                                                      \
                 .fields = fields_##id,                                                            \
                 .nfields = NFIELDS(id)},
const sysreg_desc sysreg_table[SR_COUNT] = {
#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    SR_DESC(id, #id, NULL, NULL, enc, 1, STO_##id, flags, rd, wr)
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags)                                            \
    SR_DESC(p##s, #p "<n>" #s, #p, #s, enc, n, STO_##p##s, flags, rd, wr)
#define SYSREG_ALIAS(id, enc, cond) SR_DESC(id, #id, NULL, NULL, enc, 0, 0, SR_ALIAS, NULL, NULL)
#include "sysreg/regs/all.def"
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

#define SYSREG(id, enc, cond, rd, wr, flags)                                                       \
    }                                                                                              \
    static void configure_##id(const armprof_config *c, sysreg_pe_info *o)                         \
    {                                                                                              \
        const uint64_t fill = c->options[ARMPROF_OPT_UNKNOWN_FILL];                                \
        (void)fill;                                                                                \
        o->present = present_##id(c);
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SYSREG(p##s, enc, cond, rd, wr, flags)
#define SYSREG_ALIAS(id, enc, cond)                     SYSREG(id, enc, cond, 0, 0, 0)
#define F(reg, name, hi, lo, acc, rst)                  apply_range(o, BITS_MASK(hi, lo), FA_##acc, rst, true, fill);
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
#include "sysreg/regs/all.def"
}

void sysreg_configure(const armprof_config *c, sysreg_pe_info info[SR_COUNT])
{
    memset(info, 0, sizeof(sysreg_pe_info) * SR_COUNT);
#define SYSREG(id, enc, cond, rd, wr, flags)            configure_##id(c, &info[SR_##id]);
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) configure_##p##s(c, &info[SR_##p##s]);
#define SYSREG_ALIAS(id, enc, cond)                     configure_##id(c, &info[SR_##id]);
#include "sysreg/regs/all.def"
}

const sysreg_field *sysreg_find_field(const sysreg_desc *d, const char *name)
{
    for (unsigned i = 0; i < d->nfields; i++)
        if (d->fields[i].access < FA_RES0 && strcmp(d->fields[i].name, name) == 0)
            return &d->fields[i];
    return NULL;
}

const char *sysreg_instance_name(const sysreg_desc *d, unsigned m, char *buf, unsigned len)
{
    if (d->prefix == NULL) return d->name;
    snprintf(buf, len, "%s%u%s", d->prefix, m, d->suffix);
    return buf;
}

/* "S<op0>_<op1>_C<n>_C<m>_<op2>", the generic System register name. */
static int lookup_generic(const char *name, unsigned *m)
{
    unsigned op0, op1, crn, crm, op2;
    char tail;
    if (sscanf(name, "S%u_%u_C%u_C%u_%u%c", &op0, &op1, &crn, &crm, &op2, &tail) != 5) return -1;
    if (op0 > 3 || op1 > 7 || crn > 15 || crm > 15 || op2 > 7) return -1;
    const unsigned enc = ENC(op0, op1, crn, crm, op2);
    for (unsigned i = 0; i < SR_COUNT; i++) {
        const sysreg_desc *d = &sysreg_table[i];
        unsigned n = d->count ? d->count : 1;
        if (enc >= d->enc && enc < d->enc + n) {
            *m = enc - d->enc;
            return (int)i;
        }
    }
    return -1;
}

int sysreg_lookup_name(const char *name, unsigned *m)
{
    *m = 0;
    for (unsigned i = 0; i < SR_COUNT; i++) {
        const sysreg_desc *d = &sysreg_table[i];
        if (d->prefix == NULL) {
            if (strcmp(name, d->name) == 0) return (int)i;
            continue;
        }
        size_t pl = strlen(d->prefix);
        if (strncmp(name, d->prefix, pl) != 0) continue;
        const char *p = name + pl;
        char *end;
        if (*p < '0' || *p > '9') continue;
        unsigned long n = strtoul(p, &end, 10);
        if (end - p > 1 && *p == '0') continue;
        if (strcmp(end, d->suffix) != 0 || n >= d->count) continue;
        *m = (unsigned)n;
        return (int)i;
    }
    return lookup_generic(name, m);
}
