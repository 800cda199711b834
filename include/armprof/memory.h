/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: the physical memory the Statistical Profiling Unit writes its
 * Profiling Buffer to, and the hook through which an embedding simulator can
 * supply its own translation and memory instead (D17.7). Included by
 * armprof.h, after the types it uses.
 *
 * Arguments: as armprof.h says. pe must not be NULL except where a comment
 * says what a NULL one does. A NULL mem is no memory: reads from it give
 * zeros (armprof_mem_region_at() NULL), and the other functions do
 * nothing, or report failure where they can. */
#ifndef ARMPROF_MEMORY_H
#define ARMPROF_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/export.h"
#include "armprof/types.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

/* ---- Physical memory ----
 * Sparse: every physical address of every physical address space exists and
 * reads as zero until written. Regions give a range attributes and faults;
 * outside every region memory is Normal, Write-Back cacheable, Inner
 * Shareable RAM that any physical address space may access. */
typedef struct armprof_mem armprof_mem;

/* NULL when out of memory. */
armprof_mem *armprof_mem_create(void);
/* NULL does nothing. Not for armprof_pe_memory(), which the PE owns. */
void armprof_mem_destroy(armprof_mem *mem);

/* The memory type of a region: what the location is in the system. The
 * attributes an access is made with come from translation (or PMBMAR_EL1);
 * the region's are what software should map it as, and a Device region is
 * where "written once" (D17.7.6) is observable. */
typedef enum armprof_memtype {
    ARMPROF_MEM_NORMAL,
    ARMPROF_MEM_DEVICE,
} armprof_memtype;

/* What a write to the region does, on top of storing the data. */
typedef enum armprof_mem_fault {
    ARMPROF_MEM_FAULT_NONE,
    ARMPROF_MEM_FAULT_SYNC_EXTERNAL,  /* synchronous External abort (Fault_SyncExternal) */
    ARMPROF_MEM_FAULT_ASYNC_EXTERNAL, /* asynchronous External abort: an SError */
    /* The region's Granule Protection Table entry cannot be fetched: a GPC
     * fault other than a GPF (GPT walk fault, FEAT_RME only). */
    ARMPROF_MEM_FAULT_GPT_WALK,
} armprof_mem_fault;

/* Bits of armprof_mem_region.gpi: the physical address spaces the Granule
 * Protection Information lets access the region (FEAT_RME). 0 = all. */
#define ARMPROF_GPI_NONSECURE (1u << 0)
#define ARMPROF_GPI_SECURE    (1u << 1)
#define ARMPROF_GPI_REALM     (1u << 2)
#define ARMPROF_GPI_ROOT      (1u << 3)

typedef struct armprof_mem_region {
    uint64_t base; /* physical address */
    uint64_t size; /* bytes; base + size must not wrap */
    int pas;       /* armprof_pas the region belongs to, or -1 (no armprof_pas) for every one */
    armprof_memtype type;
    uint8_t device;          /* Device type: 0 nGnRnE, 1 nGnRE, 2 nGRE, 3 GRE */
    uint8_t cacheability;    /* Normal: 0 Non-cacheable, 1 Write-Through, 2 Write-Back */
    uint8_t shareability;    /* SH encoding: 0 Non-shareable, 2 Outer, 3 Inner Shareable */
    armprof_mem_fault fault; /* on writes (and translation table reads) */
    unsigned gpi;            /* ARMPROF_GPI_* bits; 0: every PAS may access */
    bool fault_on_walk;      /* the fault also hits table walks reading here */
} armprof_mem_region;

/* Adds a region; later regions take precedence where they overlap. false
 * (with a message in err, unless err is NULL or errlen 0) if mem or region
 * is NULL, the region is malformed or the table (64 regions) is full.
 * Malformed: size 0, base + size wrapping, pas neither -1 nor an
 * armprof_pas, type or fault outside its enum, device above 3 or
 * cacheability above 2 (whatever the type), shareability 1 or above 3, gpi
 * with bits other than ARMPROF_GPI_*. */
bool armprof_mem_add_region(armprof_mem *mem, const armprof_mem_region *region, char *err,
                            size_t errlen);
void armprof_mem_clear_regions(armprof_mem *mem);
/* pas below: an armprof_pas. These functions took an int before; the
 * enum is passed as an int is (types.h), so a program built then calls
 * them unchanged, and a C program may still pass an int. A value that is
 * none of the enum's (a C program's -1 or 4) is no physical address
 * space. */

/* The region that decides address pa in physical address space pas; NULL
 * for plain RAM and for a pas that is not one. */
const armprof_mem_region *armprof_mem_region_at(const armprof_mem *mem, armprof_pas pas,
                                                uint64_t pa);

/* Direct (debugger) access: no faults, no observer. A pas that is not one
 * gives zeros to a read (armprof_mem_read64() 0) and a write to it does
 * nothing, so that it never reaches another space's memory. data may be
 * NULL when size is 0. */
void armprof_mem_write(armprof_mem *mem, armprof_pas pas, uint64_t pa, const void *data,
                       size_t size);
void armprof_mem_read(const armprof_mem *mem, armprof_pas pas, uint64_t pa, void *data,
                      size_t size);
uint64_t armprof_mem_read64(const armprof_mem *mem, armprof_pas pas, uint64_t pa);
void armprof_mem_write64(armprof_mem *mem, armprof_pas pas, uint64_t pa, uint64_t value);

/* The attributes a write was made with (from translation or PMBMAR_EL1). */
typedef struct armprof_mem_attrs {
    armprof_memtype type;
    uint8_t device;       /* as armprof_mem_region */
    uint8_t inner, outer; /* cacheability, as armprof_mem_region */
    uint8_t shareability;
    bool tagged;    /* false: a Tag Unchecked access (D17.7.6) */
    uint16_t mecid; /* the MECID the write carries (FEAT_MEC) */
} armprof_mem_attrs;

/* Every write the SPU makes to memory, after it is made: for tests and
 * tracing. fn NULL removes the observer. pas is an armprof_pas; it stays
 * an int here because the observer is the embedder's function: a
 * parameter of another type would make observers written for an int one
 * an incompatible pointer. */
typedef void (*armprof_mem_observer)(void *ctx, int pas, uint64_t pa, const uint8_t *data,
                                     size_t size, const armprof_mem_attrs *attrs);
void armprof_mem_set_observer(armprof_mem *mem, armprof_mem_observer fn, void *ctx);

/* ---- The Profiling Buffer's memory ---- */

/* The memory the PE's Statistical Profiling Unit writes to and translates
 * through (owned by the PE, created with it); NULL for a NULL pe. */
armprof_mem *armprof_pe_memory(armprof_pe *pe);

/* One write the SPU makes to its Profiling Buffer, as an embedder's hook
 * sees it: bytes that lie in one page of the smallest translation granule
 * (4KB), to be translated in the owning translation regime. The fields
 * that hold an enum's value are int, as they were: GCC gives an enum
 * without negative values an unsigned type, and a hook comparing the
 * field with its own int would meet -Wsign-compare. */
typedef struct armprof_buffer_write {
    uint64_t address;    /* PMBPTR_EL1 of the first byte: a VA, or with nvm an IPA or PA */
    const uint8_t *data; /* the bytes */
    size_t size;
    int owning_ss;      /* armprof_security_state */
    unsigned owning_el; /* 1 or 2 */
    int regime;         /* armprof_spe_regime */
    bool nvm;           /* Effective PMBLIMITR_EL1.nVM: stage 1 is disabled */
    int pas;            /* physical address space stage 1 starts in (armprof_pas) */
    uint16_t asid;      /* ASID of the regime's TTBR (EL1&0, EL2&0) */
    uint16_t vmid;      /* VMID, with stage 2 */
    uint16_t mecid;     /* MECID of the owning regime (FEAT_MEC) */
} armprof_buffer_write;

/* What happened to it. */
typedef enum armprof_buffer_outcome {
    ARMPROF_BUFFER_WRITTEN,       /* all bytes written */
    ARMPROF_BUFFER_FAULT,         /* an MMU or Alignment fault at byte `written` */
    ARMPROF_BUFFER_EXTERNAL_ABORT /* an External abort at byte `written` */
} armprof_buffer_outcome;

typedef struct armprof_buffer_result {
    armprof_buffer_outcome outcome;
    size_t written; /* bytes written before the fault */
    /* For a fault: the PMBSR_ELx syndrome parts (DebugWriteFault()). ec is
     * 0x24 stage 1, 0x25 stage 2, 0x1E GPC fault other than a GPF; fsc is
     * EncodeLDFSC(). */
    uint8_t ec, fsc;
    bool assuredonly, toplevel, overlay, dirtybit;
    /* For an External abort: on a translation table walk (ttw), and
     * asynchronous (async). */
    bool ttw, async;
} armprof_buffer_result;

/* The embedder translates and writes instead of the model's walker and
 * memory. NULL restores the model's. A result outside this contract is
 * taken as the nearest one inside it: `written` as at most the write's
 * size, an outcome outside armprof_buffer_outcome as
 * ARMPROF_BUFFER_EXTERNAL_ABORT at byte `written` (whether the bytes
 * arrived is not known), handled as PMBIDR_EL1.EA (option pmbidr_ea)
 * says; PMBPTR_EL1 never moves past the bytes the hook was given. */
typedef armprof_buffer_result (*armprof_buffer_hook)(void *ctx, const armprof_buffer_write *w);
void armprof_spe_set_buffer_hook(armprof_pe *pe, armprof_buffer_hook hook, void *ctx);

/* A TLB invalidation for the Profiling Buffer's writes: with option
 * spe_buffer_tlb 1 the unit keeps the translation of the last 4KB page it
 * walked, descriptors read from memory included, until the controls change
 * (a register write, a context change) or this call; software that
 * changes the buffer's translation tables in memory makes it after, as a
 * TLBI. Does nothing with the option 0 (every write walks). */
void armprof_spe_tlb_invalidate(armprof_pe *pe);

/* PSB CSYNC (ProfilingSynchronizationBarrier()): every record held inside
 * the unit is written, and PMBPTR_EL1 and PMBSR_ELx reflect them (D17.9). */
void armprof_psb_csync(armprof_pe *pe);
/* The PMBIRQ output level (SPEInterruptEnabled() and PMBSR_EL1.S). */
bool armprof_pmbirq(armprof_pe *pe);
/* CheckForSPEException() (FEAT_SPE_EXC): true if an SPE Profiling exception
 * is pending and unmasked now; *target_el receives where it is taken
 * (target_el may be NULL). */
bool armprof_spe_exception(armprof_pe *pe, unsigned *target_el);
/* A Profiling Buffer management event for an IMPLEMENTATION DEFINED reason
 * (D17.8.6): EC 0x1F with the given MSS. */
void armprof_spe_impdef_event(armprof_pe *pe, uint16_t mss);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif

#endif
