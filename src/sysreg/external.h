/* SPDX-License-Identifier: BSD-3-Clause */
/* The external (memory-mapped) register interfaces - the PMU block and the
 * external debug block: the entry format (described in
 * pmu/regs/external_pmu.def), the catalog of a PE's entries (built by the
 * façade from the owners' declarations, pe/catalog.c), the Accessing
 * bullets' helpers (J1.3.1) the owners' external-only registers use. */
#ifndef ARMPROF_SYSREG_EXTERNAL_H
#define ARMPROF_SYSREG_EXTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/pe.h"

/* Each block is 4KB (I5.2.1, H9.2); its two components are
 * armprof_ext_component's. */
#define EXT_BLOCK_BYTES 0x1000u
#define EXT_COMPONENTS  2u
/* pe_external.first_entry of a word no entry reaches */
#define EXT_NO_ENTRY UINT8_MAX

enum ext_flags {
    EXT_RO = 1u << 0,     /* the page's last bullet: 'accesses to this register are RO' */
    EXT_WO = 1u << 1,     /* ... 'are WO' (reads RAZ in the model) */
    EXT_W1 = 1u << 2,     /* a write acts on the bits written as 1 */
    EXT_CTR = 1u << 3,    /* instance n is event counter n (its perm function checks n) */
    EXT_SWLOCK = 1u << 4, /* the Software Lock bullet, in any interface's block */
};

/* What a page's Accessing bullets decide for one access. */
typedef enum ext_decision {
    EXT_ALLOW, /* the access the page's last bullet gives (RW, RO or WO) */
    EXT_ERROR, /* 'accesses to this register generate an error response' */
    EXT_RAZWI, /* 'accesses to this register are RAZ/WI' (or RES0) */
    EXT_WI,    /* writes ignored: 'RO' or 'WI' under SoftwareLockStatus() */
} ext_decision;

struct ext_desc;
/* A page's Accessing bullets (perm column). n is the instance; *why names
 * the condition that decided when it is not EXT_ALLOW. */
typedef ext_decision (*ext_perm_fn)(const armprof_pe *pe, const armprof_ext_access *a,
                                    const struct ext_desc *d, unsigned n, const char **why);
/* External-only registers (rd and wr columns). m is the instance; bits are
 * the bits of the location the access covers (a 4-byte access to a 64-bit
 * location covers one word). A read has its side effects only on the bits it
 * reads: bits is 0 when the value is only reported after a write (which does
 * not read the register; PMPCSR[31:0] must not take a sample then). A write
 * writes the bits in bits and leaves the others. */
typedef uint64_t (*ext_read_fn)(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                                uint64_t bits);
typedef void (*ext_write_fn)(armprof_pe *pe, const armprof_ext_access *a, unsigned m,
                             uint64_t value, uint64_t bits);

typedef struct ext_desc {
    const char *name; /* "PMEVCNTR<n>_EL0[31:0]" */
    uint16_t offset, stride, count;
    uint8_t component; /* armprof_ext_component: the block offset is relative to */
    uint8_t width;     /* 32 or 64 */
    int16_t sysreg;    /* SR_<id>, -1 for an external-only register */
    uint16_t flags;
    uint64_t mask; /* bits of the System register shown */
    ext_perm_fn perm;
    ext_read_fn read;
    ext_write_fn write;
    bool (*present)(const armprof_config *c); /* the present column */
} ext_desc;

/* A PE's external register entries, in declaration order (the ids of
 * armprof_ext_reg_*). */
typedef struct ext_catalog {
    const ext_desc *regs;
    unsigned count;
} ext_catalog;

/* Declarations and definitions of the perm, rd and wr columns' functions. */
#define EXT_PERM_FN(name)                                                                          \
    ext_decision name(const armprof_pe *pe, const armprof_ext_access *a, const ext_desc *d,        \
                      unsigned n, const char **why)
#define EXT_READ_FN(name)                                                                          \
    uint64_t name(armprof_pe *pe, const armprof_ext_access *a, unsigned m, uint64_t bits)
#define EXT_WRITE_FN(name)                                                                         \
    void name(armprof_pe *pe, const armprof_ext_access *a, unsigned m, uint64_t value,             \
              uint64_t bits)

/* The perm column's functions: each page's Accessing bullets. The engine's
 * are the external debug block's and the CoreSight registers'; the PMU's
 * pages are the PMU's (pmu/external.h), the PC sample registers' in the
 * block included. */
EXT_PERM_FN(perm_DOPD);
EXT_PERM_FN(perm_DBG);

EXT_PERM_FN(perm_CORE);
EXT_PERM_FN(perm_EDOSLAR);

/* The pseudocode helpers of J1.3.1 (external.c cites each). component is an
 * armprof_ext_component (GetAccessComponent()). */
bool IsCorePowered(const armprof_pe *pe);
bool DoubleLockStatus(const armprof_pe *pe);
bool HaveSoftwareLock(const armprof_pe *pe, unsigned component);
bool SoftwareLockStatus(const armprof_pe *pe, const armprof_ext_access *a, unsigned component);
bool AllowExternalDebugAccess(const armprof_pe *pe, const armprof_ext_access *a);
bool NonSecureOnlyImplementation(const armprof_pe *pe);
bool IsMostSecureAccess(const armprof_pe *pe, const armprof_ext_access *a);
/* AllowExternalPMUAccess() (pmu/external_access.c) and
 * AllowExternalDebugAccess() with MDCR_EL3's <ade,ad> bits of their block. */
bool allow_external_access(const armprof_pe *pe, const armprof_ext_access *a, unsigned ade,
                           unsigned ad);
/* A perm function's refusal: an error response, for the condition cond. */
static inline ext_decision ext_refuse(const char **why, const char *cond)
{
    *why = cond;
    return EXT_ERROR;
}
/* FEAT_PCSRv8p2 without the Performance Monitors Extension: the PC sample
 * registers alone in the area reserved for the PMU (H7.1.2, Table H7-1). */
bool PCSROnly(const armprof_pe *pe);

/* Whether entry id is present in the PE's configuration (its block, its
 * present column, and the System register it shows). */
bool ext_entry_present(const armprof_pe *pe, unsigned id);

/* Builds the index of where each entry's instances are (pe_external);
 * once the catalog is set. */
void external_configure(armprof_pe *pe);

/* Cold and Warm reset of the interface's own state (PMLSR.SLK, EDLSR.SLK,
 * EDPRCR.COREPURQ, the claim tags, EDPRSR's sticky bits). */
void external_reset(armprof_pe *pe, bool cold);

/* EDPRSR's sticky bits (EDPRSR.external-debug.md): SDR 'Set to 1 when the PE
 * exits Debug state', SPMAD and SDAD set by an access refused for
 * !AllowExternalPMUAccess() or !AllowExternalDebugAccess(), STAD (trace, never
 * set: the model has no trace unit registers), SR 'the non-debug logic of the
 * PE ... has been reset', SPD 'the state of the debug registers in the Core
 * power domain has been lost'. */
#define EDPRSR_SDR   (1u << 11)
#define EDPRSR_SPMAD (1u << 10)
#define EDPRSR_SDAD  (1u << 8)
#define EDPRSR_STAD  (1u << 13)
#define EDPRSR_SR    (1u << 3)
#define EDPRSR_SPD   (1u << 1)
#define EDPRSR_STICKY                                                                              \
    (EDPRSR_SDR | EDPRSR_SPMAD | EDPRSR_SDAD | EDPRSR_STAD | EDPRSR_SR | EDPRSR_SPD)
/* Sets sticky bits of EDPRSR (the PE's power-down, its exit from Debug
 * state). */
void ext_edprsr_set(armprof_pe *pe, unsigned bits);

#endif
