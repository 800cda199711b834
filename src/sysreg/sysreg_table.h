/* SPDX-License-Identifier: BSD-3-Clause */
/* The register engine's table format: what the engine knows of each
 * register (sysreg_desc), what a configuration makes of it (sysreg_pe_info),
 * and what an access check decides (sysreg_route). The declarations the
 * table is built from are the owners' (core/regdecl.h describes the format);
 * the façade instantiates the one table of a PE's registers from all of them
 * (sysreg/catalog_gen.h) and hands it to the engine (sysreg_catalog). */
#ifndef ARMPROF_SYSREG_TABLE_H
#define ARMPROF_SYSREG_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "core/regdecl.h"

struct armprof_pe;
struct sysreg_desc;

enum sysreg_flags {
    SR_RO = 1u << 0,
    SR_WO = 1u << 1,
    SR_CONTEXT = 1u << 2,
    SR_ALIAS = 1u << 3,
    /* State the per-operation path reads and writes directly (an interval
     * counter, a buffer pointer): no cached value derives from it, so a write
     * leaves every unit's cache current. */
    SR_STATE = 1u << 4,
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
    bool present; /* the MRS/MSR encoding exists (the page's leading UNDEFINED test) */
    /* The register's state exists: present, or, on a PE without AArch64, its
     * present-condition holds with FEAT_AA64 taken as implemented (the state
     * an AArch32 or external view of it reaches: PMCCNTR_EL0 for PMCCNTR). */
    bool state;
    uint64_t res0;                  /* RES0 bits, FC fields absent in this configuration included */
    uint64_t res1;                  /* RES1 bits */
    uint64_t wmask;                 /* bits an MSR writes (RW and WO fields present) */
    uint64_t unk;                   /* bits that read UNKNOWN */
    uint64_t warm_mask, warm_value; /* bits a Warm reset sets, and their values */
    uint64_t cold_mask, cold_value; /* bits only a Cold reset sets */
} sysreg_pe_info;

/* A fine-grained trap bit (FEAT_FGT, FEAT_FGT2) of a register's page: the
 * trap register's slot and the bit's position. kind says how the bit
 * traps: FGT, '1' traps (with SCR_EL3.FGTEn); FGTN, an 'n' bit of a FEAT_FGT
 * register, '0' traps; FGT2, a FEAT_FGT2 register's bit, '0' traps (with
 * SCR_EL3.FGTEn2). */
enum sysreg_fgt_kind { SR_FGT_NONE, SR_FGT_FGT, SR_FGT_FGTN, SR_FGT_FGT2 };
typedef struct sysreg_fgt {
    uint16_t slot;
    uint8_t lo;
    uint8_t kind; /* enum sysreg_fgt_kind */
} sysreg_fgt;

/* The facts of a register's page that are data, not an ordering of checks
 * (declared with FGT_R/FGT_W/FGT_RW, NVMEM and EL2_HOST after its SYSREG
 * line): its fine-grained trap bits for MRS and MSR, its NVMem offset under
 * FEAT_NV2, and the register an EL2 access reaches when ELIsInHost(EL2). */
typedef struct sysreg_facts {
    sysreg_fgt fgt_read, fgt_write;
    uint16_t nv2_offset;  /* 0: the page has no NVMem branch */
    uint16_t host_target; /* register id + 1; 0: none */
} sysreg_facts;

struct sysreg_desc;
/* The access check of a register's page: d is the register's declaration,
 * m the instance for SYSREG_ARRAY registers (0 otherwise). Several
 * registers whose pages differ only in their facts share one. */
typedef sysreg_route (*sysreg_access_fn)(const struct armprof_pe *pe, const struct sysreg_desc *d,
                                         unsigned m, bool is_read);
/* A register's read and write hooks. ext is the external (memory-mapped)
 * access the read or write is part of (a view of the register in the PMU
 * block), NULL for MRS and MSR: where the external pages give other rules
 * than the current Exception level's (the PMU's counter masks), the hook
 * passes it on. */
typedef uint64_t (*sysreg_read_fn)(struct armprof_pe *pe, const armprof_ext_access *ext,
                                   unsigned reg, unsigned m);
typedef void (*sysreg_write_fn)(struct armprof_pe *pe, const armprof_ext_access *ext, unsigned reg,
                                unsigned m, uint64_t value);

typedef struct sysreg_desc {
    uint16_t id;      /* SR_<id> */
    const char *name; /* for arrays: "PMEVCNTSVR<n>_EL1" */
    const char *prefix, *suffix;
    uint16_t enc;
    uint16_t count;   /* instances (1 for SYSREG, 0 for an alias) */
    uint16_t storage; /* index of instance 0 in armprof_pe.regs */
    uint16_t flags;
    bool (*present)(const armprof_config *c);
    sysreg_access_fn access; /* the access column */
    uint16_t alias_of;       /* an EL12 alias: the register it names, id + 1; 0 otherwise */
    const sysreg_facts *facts;
    sysreg_read_fn read;
    sysreg_write_fn write;
    const sysreg_field *fields; /* every bit range, RES0/RES1/UNK included */
    uint8_t nfields;
} sysreg_desc;

/* The one table of a PE's registers, built by the façade from every owner's
 * declarations (sysreg/catalog_gen.h). */
typedef struct sysreg_catalog {
    const sysreg_desc *regs;
    unsigned count;
    /* What a configuration makes of each register: info[count]. */
    void (*configure)(const armprof_config *c, sysreg_pe_info *info);
    /* Encoding (16 bits) to register id + 1; 0 where nothing is declared.
     * The same for every configuration and every PE. */
    const uint16_t *enc_map;
} sysreg_catalog;

/* Field lookup by name within a register; NULL when absent. */
const sysreg_field *sysreg_find_field(const sysreg_desc *d, const char *name);
/* Register lookup by name: "PMSCR_EL1", "PMEVCNTSVR3_EL1" or "S3_0_C9_C9_0".
 * Returns the id (or -1) and sets *m to the instance. */
int sysreg_lookup_name(const sysreg_catalog *cat, const char *name, unsigned *m);
/* Name of one instance into buf. */
const char *sysreg_instance_name(const sysreg_desc *d, unsigned m, char *buf, unsigned len);

#endif
