/* SPDX-License-Identifier: BSD-3-Clause */
/* The register engine's part of the PE instance, and its interface to the
 * layers above: MRS/MSR dispatch through the catalog the façade built, reads
 * and writes through a register's hooks, reset. */
#ifndef ARMPROF_SYSREG_SYSREG_H
#define ARMPROF_SYSREG_SYSREG_H

#include "core/pe.h"
#include "sysreg/external.h"
#include "sysreg/sysreg_table.h"

/* The external (memory-mapped) interface's state (sysreg/external.c). */
typedef struct pe_external {
    bool pmlsr_slk;       /* PMLSR.SLK: the PMU Software Lock is locked */
    bool edlsr_slk;       /* EDLSR.SLK: the external debug Software Lock is locked */
    bool edprcr_corepurq; /* EDPRCR.COREPURQ (Debug power domain) */
    uint8_t claim;        /* the claim tag bits (EDCLAIMSET, EDCLAIMCLR) */
    uint16_t edprsr;      /* EDPRSR's sticky bits (EDPRSR_STICKY), at their positions */
    /* For each block and 4-byte word of it, the lowest id of an entry with
     * an instance there, in any configuration (EXT_NO_ENTRY: none): an
     * access looks from there, not through the whole catalog (a PC
     * sampler reads PMPCSR thousands of times a second). */
    uint8_t first_entry[EXT_COMPONENTS][EXT_BLOCK_BYTES / 4];
} pe_external;

/* Room for the PE's registers (sysreg_level.info). */
#define SYSREG_MAX_REGS 128

/* The registers the embedder owns (armprof_set_reg_provider()): for each,
 * what a pull needs and nothing else (its storage slot, its RES0/RES1 bits,
 * what a change of it makes stale), side by side, so that a pull touches
 * this and the slots alone. A link to the embedder, like after_change: a
 * checkpoint keeps the PE's own. */
typedef struct sysreg_provided {
    uint64_t res0, res1;
    uint16_t slot;
    uint8_t changes; /* SR_CONTEXT: pe_recompute(); else, unless SR_STATE, the controls */
} sysreg_provided;
typedef struct sysreg_provider {
    armprof_reg_provider_fn fn;
    void *ctx;
    unsigned count;
    sysreg_provided reg[ARMPROF_MAX_PROVIDED_REGS];
} sysreg_provider;

/* The PE instance as far as the engine knows it: the core, then the
 * engine's own state. The units' states follow it, side by side
 * (sysreg/units.h). */
typedef struct sysreg_level {
    armprof_pe core;
    const sysreg_catalog *catalog;
    const sysreg_desc *desc; /* catalog->regs, one load nearer for MRS/MSR */
    const ext_catalog *ext_catalog;
    pe_external ext;
    /* What the configuration makes of each register (catalog->count
     * entries; the façade checks its registers fit, pe/instance.h). */
    sysreg_pe_info info[SYSREG_MAX_REGS];
    const uint16_t *enc_map; /* catalog->enc_map */
    /* Called after an access or entry point of a lower layer that can change
     * the PE's outputs (the façade's interrupt callbacks); NULL when no one
     * listens. */
    void (*after_change)(struct armprof_pe *pe);
    sysreg_provider provider;
} sysreg_level;

/* The engine's part of pe (a const pe gives access for reading only). */
#define SYSREG_LEVEL(pe) ((sysreg_level *)(pe))

static inline const sysreg_desc *sysreg_desc_of(const armprof_pe *pe, unsigned reg)
{
    return &SYSREG_LEVEL(pe)->desc[reg];
}
static inline const sysreg_pe_info *sysreg_info(const armprof_pe *pe, unsigned reg)
{
    return &SYSREG_LEVEL(pe)->info[reg];
}
/* The storage of instance m of register reg. */
static inline uint64_t *sysreg_slot(armprof_pe *pe, unsigned reg, unsigned m)
{
    return &pe->regs[sysreg_desc_of(pe, reg)->storage + m];
}
static inline const ext_catalog *ext_catalog_of(const armprof_pe *pe)
{
    return SYSREG_LEVEL(pe)->ext_catalog;
}
/* The stored value with the configuration's RES0/RES1 applied. */
static inline uint64_t sysreg_stored_value(const armprof_pe *pe, unsigned reg, unsigned m)
{
    const sysreg_pe_info *in = sysreg_info(pe, reg);
    return (pe->regs[sysreg_desc_of(pe, reg)->storage + m] & ~in->res0) | in->res1;
}
/* PMLSR.SLK, the PMU Software Lock (PMLAR writes it). */
static inline bool ext_pmlsr_slk(const armprof_pe *pe)
{
    return SYSREG_LEVEL(pe)->ext.pmlsr_slk;
}
static inline void ext_set_pmlsr_slk(armprof_pe *pe, bool locked)
{
    SYSREG_LEVEL(pe)->ext.pmlsr_slk = locked;
}

/* The outputs may have changed: tell the façade, if it listens. */
static inline void sysreg_notify(armprof_pe *pe)
{
    if (SYSREG_LEVEL(pe)->after_change) SYSREG_LEVEL(pe)->after_change(pe);
}

/* The provider's registers made current (armprof_set_reg_provider()). */
void sysreg_pull_provided(armprof_pe *pe);
/* What a pull of instance m of reg needs (armprof_set_reg_provider()). */
sysreg_provided sysreg_provided_of(const armprof_pe *pe, unsigned reg, unsigned m);
static inline void sysreg_pull(armprof_pe *pe)
{
    if (SYSREG_LEVEL(pe)->provider.fn) sysreg_pull_provided(pe);
}

/* Fills info[] and the encoding map for the PE's configuration. */
void sysreg_configure(armprof_pe *pe);
void sysreg_reset(armprof_pe *pe, bool cold);
/* Read and write through a register's hooks (what MRS/MSR do once allowed);
 * ext is the external access they are part of, NULL for MRS/MSR. */
uint64_t sysreg_read(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m);
void sysreg_write(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                  uint64_t value);
/* The value an MSR of value would leave (RW/WO fields written, RES0/RES1). */
uint64_t sysreg_merge_write(const armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);
/* Stores a value as is, recomputing Effective values for SR_CONTEXT registers. */
void sysreg_store(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value);

#endif
