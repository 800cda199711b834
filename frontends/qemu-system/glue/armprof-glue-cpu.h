/* SPDX-License-Identifier: BSD-3-Clause */
/* The glue's per-vCPU state, shared by armprof-glue.c (registers,
 * interrupts, the plugin's interface) and armprof-external.c (the external
 * debug and PMU blocks). Internal to the glue. */
#ifndef TARGET_ARM_ARMPROF_GLUE_CPU_H
#define TARGET_ARM_ARMPROF_GLUE_CPU_H

#include "qemu/thread.h"
#include "exec/memory.h"
#include "armprof/armprof.h"
#include "armprof-system.h"

/* The registers QEMU owns and the model reads (its access checks, whether
 * profiling is allowed, the context in the records): the PE pulls them
 * from QEMU's CPU state (armprof_set_reg_provider()), nothing is copied
 * when they change. */
typedef enum {
    OWNED_SCR_EL3,
    OWNED_HCR_EL2,
    OWNED_MDCR_EL2,
    OWNED_MDCR_EL3,
    OWNED_HDFGRTR_EL2,
    OWNED_HDFGWTR_EL2,
    OWNED_CONTEXTIDR_EL1,
    OWNED_CONTEXTIDR_EL2,
    /* the Generic Timer's offsets and control, which GetTimestamp() applies
     * to the count armprof_system_enter() gives (QEMU's physical count) */
    OWNED_CNTVOFF_EL2,
    OWNED_CNTPOFF_EL2,
    OWNED_CNTHCTL_EL2,
    OWNED_COUNT
} owned_reg;

/* One of a vCPU's external blocks in the memory map. */
typedef struct ArmprofExtBlock {
    struct ArmprofCPU *cpu;
    armprof_ext_component block;
    MemoryRegion mr;
} ArmprofExtBlock;

struct ArmprofCPU {
    ARMCPU *cpu;
    armprof_pe *pe;
    /* which of owned_names[] this PE has, in the order provide() gives */
    owned_reg owned[OWNED_COUNT];
    unsigned owned_count;
    bool pmbirq;            /* the level last given to the GIC */
    bool pmuirq;            /* ... and PMUIRQ's, when the PMU is the model's */
    /* PMINTENSET_EL1 is not 0 (as of the last write or reset): PMUIRQ can
     * be asserted only then, so only then is it asked at each visit */
    bool pmu_interrupts;
    int pmintenset;
    /* FEAT_PMUv3_SS: MSR PMSSCR_EL1 (0, no register's, without snapshots) */
    uint32_t pmsscr_encoding;
    /* the plugin's, before the guest reads or writes one of the model's
     * registers */
    void (*access_fn)(unsigned vcpu, uint64_t pc, void *ctx);
    void *access_ctx;
    /* the plugin's, before an Exception level change */
    void (*el_fn)(unsigned vcpu, const armprof_system_el_change *change, void *ctx);
    void *el_ctx;
    /* the plugin's, after the guest writes one of the model's registers */
    void (*control_fn)(unsigned vcpu, void *ctx);
    void *control_ctx;
    /* The PE is used by the vCPU's thread (its registers, the plugin's
     * visits) and by external agents on any thread (the external debug
     * and PMU blocks): one at a time. Recursive: a register access calls
     * the plugin, which enters again. Taken after the BQL, never before
     * it: PMBIRQ and PMUIRQ, which want the BQL, change when the
     * outermost holder lets go (outputs_due). One path is left: a
     * Profiling Buffer write to an MMIO region (a guest that points its
     * buffer at a device, another vCPU's block) takes the BQL with the PE
     * locked, and could deadlock against that vCPU; no sane guest does. */
    QemuRecMutex lock;
    unsigned depth;    /* of the lock, by its holder */
    bool outputs_due;  /* update_outputs() waits for the lock's release */
    /* the PMU block and the external debug block (armprof-external.c),
     * indexed by armprof_ext_component */
    ArmprofExtBlock blocks[2];
    /* FEAT_NV2: the access check said the MRS or MSR is a memory access at
     * VNCR_EL2 + nv2_offset, which the read or write function that follows
     * on this vCPU does (armprof-glue.c) */
    bool nv2_pending;
    unsigned nv2_offset;
};

/* The PE for the caller's use (armprof-glue.c): lock and release. The
 * release applies the output levels that changed meanwhile. */
void armprof_glue_lock(struct ArmprofCPU *a);
void armprof_glue_unlock(struct ArmprofCPU *a);
/* The PE at QEMU's Exception level, the registers QEMU owns pulled. */
void armprof_glue_sync_context(struct ArmprofCPU *a);
/* PMBIRQ's and PMUIRQ's levels to the GIC (now, or at the release). */
void armprof_glue_update_outputs(struct ArmprofCPU *a);
/* After a write to the model's registers (or a reset): whether PMUIRQ
 * can be asserted, the outputs, and the plugin's hook. */
void armprof_glue_after_write(struct ArmprofCPU *a);
/* The plugin's hook after a change of the profiling controls, on the
 * vCPU's own thread. */
void armprof_glue_control_changed(struct ArmprofCPU *a);

#endif
