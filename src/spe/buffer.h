/* SPDX-License-Identifier: BSD-3-Clause */
/* The Profiling Buffer (D17.7 to D17.9): writing records to memory through
 * the owning translation regime, the buffer management events and their
 * syndromes, PMBIRQ and the SPE Profiling exception, and synchronization.
 *
 * buffer.c transliterates SPEWriteToBuffer(), SPEBufferIsFull(),
 * DebugWriteFault(), DebugWriteExternalAbort(), OtherSPEManagementEvent(),
 * ReportSPEEvent(), SPEInterruptEnabled() and CheckForSPEException();
 * translate.c builds the translation of a write from the registers. */
#ifndef ARMPROF_SPE_BUFFER_H
#define ARMPROF_SPE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "mmu/walk.h"

#define SPE_MAX_HELD 64

/* What SPEWriteToBuffer() derives from the registers before it writes a
 * byte, computed once per controls generation (docs/design.md rule 4): a
 * record at the minimum interval must not walk the ownership and
 * translation rules again. A write that ends in a management event changes
 * PMBSR_ELx, which starts a new generation. */
typedef struct spe_write_context {
    uint32_t seen_gen;
    bool valid;
    bool enabled; /* ProfilingBufferEnabled() */
    bool stopped; /* SPEProfilingStopped() */
    /* RVCYWL: SCR_EL3.{NSE,NS} name another Security state than the owner's
     * (with EL3), and the PAS those bits give. */
    bool ss_mismatch;
    int scr_pas;
    /* The write's owner, regime, nVM, PAS, ASID and VMID, and the MECID for
     * a pointer with bit 55 clear and set (the EL2&0 regime's halves). */
    armprof_buffer_write identity;
    uint16_t mecid_by_va55[2];
    mmu_walk_config walk; /* spe_walk_config() for identity.pas */
    /* The last translation that read no memory (stage 1 and stage 2
     * disabled): it holds for its 4KB page until the controls change. */
    mmu_page_cache page;
} spe_write_context;

typedef struct spe_buffer_state {
    armprof_mem *mem; /* the PE's physical memory */
    armprof_buffer_hook hook;
    void *hook_ctx;
    /* Records held inside the unit (option spe_held_records), oldest
     * first, awaiting SPEWriteToBuffer(). */
    uint8_t *held;
    size_t held_bytes;
    unsigned held_count;
    uint16_t held_size[SPE_MAX_HELD];
    size_t held_capacity;
    spe_write_context wctx;
} spe_buffer_state;

struct armprof_pe;

/* Allocates and frees what the state needs for the configuration. */
bool spe_buffer_init(struct armprof_pe *pe);
void spe_buffer_free(struct armprof_pe *pe);
/* A reset: held records are lost. */
void spe_buffer_reset(struct armprof_pe *pe);
/* The tail of SPECompleteSample() for a record in SPE_STATE(pe)->record:
 * SPEWriteToBuffer() (or holding it), then SPEBufferIsFull() and the buffer
 * full event. */
void spe_buffer_complete_record(struct armprof_pe *pe);
/* ProfilingSynchronizationBarrier() */
void ProfilingSynchronizationBarrier(struct armprof_pe *pe);
/* ReportSPEEvent(ec_bits, fsc_bits) */
unsigned ReportSPEEvent(const struct armprof_pe *pe, unsigned ec_bits, unsigned fsc_bits);
/* SPEInterruptEnabled() */
bool SPEInterruptEnabled(const struct armprof_pe *pe);

/* translate.c: the translation of an SPU write at va in the owning
 * translation regime. pas is the physical address space stage 1 starts in
 * (normally the owning Security state's). */
void spe_walk_config(const struct armprof_pe *pe, int pas, mmu_walk_config *cfg);
/* The ASID, VMID and MECID a write carries (armprof_buffer_write). */
void spe_write_identity(const struct armprof_pe *pe, armprof_buffer_write *w);

#endif
