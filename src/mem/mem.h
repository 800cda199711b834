/* SPDX-License-Identifier: BSD-3-Clause */
/* Sparse physical memory (the mem layer): the model's side of
 * include/armprof/memory.h, and the accesses the translation table walker
 * and the Profiling Buffer writer make. */
#ifndef ARMPROF_MEM_MEM_H
#define ARMPROF_MEM_MEM_H

#include "armprof/armprof.h"

/* The outcome of a checked access, PhysMemRetStatus with the Granule
 * Protection Check folded in. */
typedef enum mem_status {
    MEM_OK,
    MEM_SYNC_EXTERNAL,  /* Fault_SyncExternal */
    MEM_ASYNC_EXTERNAL, /* Fault_AsyncExternal */
    MEM_GPF,            /* Granule Protection Fault: the GPI forbids the PAS */
    MEM_GPT_WALK,       /* GPC fault other than a GPF */
} mem_status;

/* The Granule Protection Check and the region's fault for an access to
 * [pa, pa + size) in pas; is_walk for a translation table access. A GPC
 * applies only with FEAT_RME (gpc). */
mem_status mem_check(const armprof_mem *mem, int pas, uint64_t pa, size_t size, bool is_walk,
                     bool gpc);
/* Checked accesses: the data moves only when the status is MEM_OK (and, for
 * writes, MEM_ASYNC_EXTERNAL: the write is made, the abort comes later). */
mem_status mem_read64(const armprof_mem *mem, int pas, uint64_t pa, bool gpc, uint64_t *value);
mem_status mem_write64_walk(armprof_mem *mem, int pas, uint64_t pa, bool gpc, uint64_t value);
mem_status mem_write(armprof_mem *mem, int pas, uint64_t pa, const uint8_t *data, size_t size,
                     bool gpc, const armprof_mem_attrs *attrs);

/* Checkpoints of the memory's contents (regions and pages): the bytes they
 * take, writing them, and replacing the contents with them (false when the
 * bytes are not a checkpoint of this size). */
size_t mem_checkpoint_size(const armprof_mem *mem);
void mem_checkpoint_save(const armprof_mem *mem, uint8_t *out);
bool mem_checkpoint_restore(armprof_mem *mem, const uint8_t *in, size_t len);

#endif
