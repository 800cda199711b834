/* The System register table: one declaration per register (DESIGN principle 3).
 *
 * Every register is declared once in one of the src/sysreg/regs/ *.def files,
 * with the macros below. From that declaration come: the register id, its
 * storage, the encoding map, presence in a configuration, RES0/RES1 masks,
 * reset values, field printing, and a compile-time check that each of the 64
 * bits is accounted for exactly once (see sysreg_check.c).
 *
 *   SYSREG(id, ENC(op0, op1, CRn, CRm, op2), present-condition, read-hook, write-hook, flags)
 *   SYSREG_ARRAY(prefix, suffix, count, ENC(...of instance 0...), present-condition,
 *                read-hook, write-hook, flags)
 *       Instance n has the encoding of instance 0 plus n (CRm<1:0>:op2 = n),
 *       so instance 0 must have CRm<1:0> = op2 = 0. Named prefix<n>suffix,
 *       id prefix##suffix.
 *   SYSREG_ALIAS(id, ENC(...), present-condition)
 *       An encoding with no storage of its own (the EL12 and EL02 names); its
 *       access function routes to the register it names.
 * followed by the register's bit ranges, each naming the register, from bit 63 down:
 *   F(reg, name, hi, lo, access, reset)        a field present in every configuration
 *   FC(reg, name, hi, lo, access, reset, cond) a field present when cond holds, RES0 otherwise
 *   FX(reg, name, hi, lo, access, reset, cond, res1)
 *                                   as FC, and RES1 (RAO/WI) when res1 holds
 *   RES0(reg, hi, lo)  RES1(reg, hi, lo)       reserved bits
 *   UNK(reg, hi, lo)                           bits that read as an UNKNOWN value
 * access: RW, RO, WO.
 * reset: WARM(v), WARM_UNK, COLD(v), COLD_UNK, NORESET, or RESET_IF(cond, a, b)
 * choosing between two of those by configuration (a Cold reset performs the
 * Warm reset too; UNKNOWN takes the bits of option unknown_fill).
 * cond and present-condition are C expressions over IMPL(FEATURE) and
 * OPT(OPTION), evaluated once when a PE is created. The leading "feature not
 * implemented: UNDEFINED" test of every Accessing page is the present-condition.
 * Each register has an access check `access_<id>` (sysreg_access.h), the
 * transliteration of its 'Accessing' pseudocode. read-hook and write-hook are
 * NOHOOK for plain storage, or functions declared in sysreg_hooks.h.
 * flags: SR_RO (no MSR form: MSR is UNDEFINED), SR_WO (no MRS form),
 *        SR_CONTEXT (a write recomputes the cached Effective values).
 *
 * The build fails (sysreg_check.c) when a register's ranges leave a bit
 * unaccounted for or overlap; a unit test checks each range names its register. */
#ifndef ARMPROF_SYSREG_TABLE_H
#define ARMPROF_SYSREG_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/config.h"

struct armprof_pe;
struct sysreg_desc;

#define ENC(op0, op1, crn, crm, op2)                                                               \
    ((uint16_t)(((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2)))
#define ENC_OP0(e) (((e) >> 14) & 3u)
#define ENC_OP1(e) (((e) >> 11) & 7u)
#define ENC_CRN(e) (((e) >> 7) & 15u)
#define ENC_CRM(e) (((e) >> 3) & 15u)
#define ENC_OP2(e) ((e)&7u)

#define BITS_MASK(hi, lo) ((~0ull >> (63 - (hi))) & (~0ull << (lo)))

enum sysreg_flags {
    SR_RO = 1u << 0,
    SR_WO = 1u << 1,
    SR_CONTEXT = 1u << 2,
    SR_ALIAS = 1u << 3,
};

enum field_access { FA_RW, FA_RO, FA_WO, FA_RES0, FA_RES1, FA_UNK };
enum reset_kind { RST_NONE, RST_WARM, RST_WARM_UNK, RST_COLD, RST_COLD_UNK };

typedef struct sysreg_field {
    const char *name;
    uint8_t hi, lo;
    uint8_t access;     /* enum field_access */
    uint8_t reset_kind; /* enum reset_kind */
    uint8_t conditional;
    uint16_t owner; /* the register the range was declared for */
    uint64_t reset_value;
} sysreg_field;

/* What an access check decided: the pseudocode's UNDEFINED,
 * AArch64.SystemAccessTrap(el, ec), NVMem[offset], X[t] <-> a register, or
 * RAZ/WI (an MRS branch 'X[t, 64] = Zeros(64)', an MSR branch 'return'). */
enum route_kind { ROUTE_REG, ROUTE_UNDEFINED, ROUTE_TRAP, ROUTE_NVMEM, ROUTE_RAZWI };
typedef struct sysreg_route {
    uint8_t kind;
    uint8_t el;     /* ROUTE_TRAP: target Exception level */
    uint8_t ec;     /* ROUTE_TRAP: exception class */
    uint16_t reg;   /* ROUTE_REG, ROUTE_RAZWI: register id accessed */
    uint16_t index; /* ROUTE_REG, ROUTE_RAZWI: instance; ROUTE_NVMEM: offset */
} sysreg_route;

static inline sysreg_route route_reg(unsigned reg, unsigned index)
{
    sysreg_route r = {ROUTE_REG, 0, 0, (uint16_t)reg, (uint16_t)index};
    return r;
}
static inline sysreg_route route_undefined(void)
{
    sysreg_route r = {ROUTE_UNDEFINED, 0, 0, 0, 0};
    return r;
}
/* AArch64.SystemAccessTrap(el, ec) */
static inline sysreg_route route_trap(unsigned el, unsigned ec)
{
    sysreg_route r = {ROUTE_TRAP, (uint8_t)el, (uint8_t)ec, 0, 0};
    return r;
}
/* RAZ/WI: the access completes, an MRS reads zero and an MSR changes
 * nothing. reg and index name the register the access would otherwise reach
 * (reported in the outcome). */
static inline sysreg_route route_razwi(unsigned reg, unsigned index)
{
    sysreg_route r = {ROUTE_RAZWI, 0, 0, (uint16_t)reg, (uint16_t)index};
    return r;
}
/* NVMem[offset]: FEAT_NV2 turns the access into a memory access at VNCR_EL2 + offset */
static inline sysreg_route route_nvmem(unsigned offset)
{
    sysreg_route r = {ROUTE_NVMEM, 0, 0, 0, (uint16_t)offset};
    return r;
}

/* What a PE's configuration makes of one register (filled by the generated
 * sysreg_configure(), used by reset and by MSR). */
typedef struct sysreg_pe_info {
    bool present;
    uint64_t res0;                  /* RES0 bits, FC fields absent in this configuration included */
    uint64_t res1;                  /* RES1 bits */
    uint64_t wmask;                 /* bits an MSR writes (RW and WO fields present) */
    uint64_t unk;                   /* bits that read UNKNOWN */
    uint64_t warm_mask, warm_value; /* bits a Warm reset sets, and their values */
    uint64_t cold_mask, cold_value; /* bits only a Cold reset sets */
} sysreg_pe_info;

/* m is the instance for SYSREG_ARRAY registers (0 otherwise). */
typedef sysreg_route (*sysreg_access_fn)(const struct armprof_pe *pe, unsigned m, bool is_read);
typedef uint64_t (*sysreg_read_fn)(struct armprof_pe *pe, unsigned reg, unsigned m);
typedef void (*sysreg_write_fn)(struct armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);

typedef struct sysreg_desc {
    const char *name; /* for arrays: "PMEVCNTSVR<n>_EL1" */
    const char *prefix, *suffix;
    uint16_t enc;
    uint16_t count;   /* instances (1 for SYSREG, 0 for an alias) */
    uint16_t storage; /* index of instance 0 in armprof_pe.regs */
    uint16_t flags;
    bool (*present)(const armprof_config *c);
    sysreg_access_fn access; /* access_<id> */
    sysreg_read_fn read;
    sysreg_write_fn write;
    const sysreg_field *fields; /* every bit range, RES0/RES1/UNK included */
    uint8_t nfields;
} sysreg_desc;

/* Register ids: SR_<name>, in declaration order. */
enum sysreg_id {
#define SYSREG(id, enc, cond, rd, wr, flags)            SR_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags) SR_##p##s,
#define SYSREG_ALIAS(id, enc, cond)                     SR_##id,
#include "sysreg/regs/all.def"
    SR_COUNT
};

/* Storage slots: one per instance. */
enum sysreg_storage {
#define SYSREG(id, enc, cond, rd, wr, flags) STO_##id,
#define SYSREG_ARRAY(p, s, n, enc, cond, rd, wr, flags)                                            \
    STO_##p##s, STO_##p##s##_last = STO_##p##s + (n)-1,
#include "sysreg/regs/all.def"
    STO_COUNT
};

/* Field positions: <reg>_<field>_LO and <reg>_<field>_W (width). */
enum sysreg_field_pos {
#define F(reg, name, hi, lo, acc, rst)              reg##_##name##_LO = (lo), reg##_##name##_W = (hi) - (lo) + 1,
#define FC(reg, name, hi, lo, acc, rst, cond)       F(reg, name, hi, lo, acc, rst)
#define FX(reg, name, hi, lo, acc, rst, cond, res1) F(reg, name, hi, lo, acc, rst)
#include "sysreg/regs/all.def"
    SYSREG_FIELD_POS_END
};

extern const sysreg_desc sysreg_table[SR_COUNT];

void sysreg_configure(const armprof_config *c, sysreg_pe_info info[SR_COUNT]);

/* Field lookup by name within a register; NULL when absent. */
const sysreg_field *sysreg_find_field(const sysreg_desc *d, const char *name);
/* Register lookup by name: "PMSCR_EL1", "PMEVCNTSVR3_EL1" or "S3_0_C9_C9_0".
 * Returns the id (or -1) and sets *m to the instance. */
int sysreg_lookup_name(const char *name, unsigned *m);
/* Name of one instance into buf. */
const char *sysreg_instance_name(const sysreg_desc *d, unsigned m, char *buf, unsigned len);

#endif
