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
