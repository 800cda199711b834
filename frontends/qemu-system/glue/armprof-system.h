/* SPDX-License-Identifier: BSD-3-Clause */
/* What the armprof qemu-system-aarch64 offers the QEMU plugin in system
 * mode (frontends/qemu, docs/qemu-system.md): the vCPU's PE, which the
 * emulator owns, and the moments around a visit to it. Exported from the
 * emulator (armprof-glue.symbols); the plugin finds them with dlsym(). A
 * plain C interface: the plugin sees no QEMU header. */
#ifndef ARMPROF_SYSTEM_H
#define ARMPROF_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"

struct armprof_pe;

/* The PE of vCPU vcpu (its cpu_index), NULL without -cpu ...,armprof=on. */
struct armprof_pe *armprof_system_pe(unsigned vcpu);
/* Before operations go to the PE: the PE is locked for the caller (the
 * vCPU's own thread; external agents use it from other threads, see
 * armprof_system_external_access()) until armprof_system_release(); the
 * Exception level, the registers QEMU owns and the system counter (for the
 * timestamps), as the vCPU has them. The count is the guest's physical
 * count (CNTPCT_EL0 before any offset); the model takes CNTVOFF_EL2 or
 * CNTPOFF_EL2 off it as the Timestamp packet's rules say (GetTimestamp()),
 * from QEMU's registers. The plugin must not set another count in system
 * mode. Each enter needs one release, at the end of the same callback. */
void armprof_system_enter(unsigned vcpu);
/* After: PMBIRQ's and PMUIRQ's levels to the interrupt controller (at the
 * release). */
void armprof_system_leave(unsigned vcpu);
/* The PE unlocked (the levels that changed meanwhile go to the interrupt
 * controller then). */
void armprof_system_release(unsigned vcpu);
/* The physical address of va for a load (or a store) at the vCPU's
 * current translation regime; false if it does not translate. */
bool armprof_system_translate(unsigned vcpu, uint64_t va, bool store, uint64_t *pa);
/* What changes the Exception level: an exception, or an exception return
 * (ERET), which QEMU is about to take. */
typedef struct armprof_system_el_change {
    /* The first instruction that has not run (an exception in the middle of
     * a TB: the rest of it did not run either), or 0 for an exception
     * return. */
    uint64_t stop_pc;
    /* The instruction before stop_pc generated the exception and did not
     * complete (an abort, a trap, an UNDEFINED instruction; not SVC, HVC or
     * SMC, which complete): it is not Architecturally executed. */
    bool stopped;
    /* An AArch64 exception return: where it goes (ELR_ELx of the level it
     * leaves) and the Exception level SPSR_ELx names. */
    bool eret;
    uint64_t eret_target;
    unsigned eret_el;
} armprof_system_el_change;
/* fn(vcpu, change, ctx) runs on the vCPU's thread just before its
 * Exception level changes, while QEMU still has the old one: the plugin
 * gives the PE the operations so far there. */
void armprof_system_set_el_change_hook(
    unsigned vcpu, void (*fn)(unsigned vcpu, const armprof_system_el_change *change, void *ctx),
    void *ctx);
/* fn(vcpu, pc, ctx) runs on the vCPU's thread just before the guest's
 * instruction at pc reads or writes one of the model's registers (its
 * access check): the plugin gives the PE the operations before it, so that
 * the counters it reads are up to date and a write changes what counts
 * from that instruction on. */
void armprof_system_set_access_hook(unsigned vcpu,
                                    void (*fn)(unsigned vcpu, uint64_t pc, void *ctx), void *ctx);
/* fn(vcpu, ctx) runs on the vCPU's thread after the guest writes one of
 * the model's registers (MSR), and after the vCPU's reset: the profiling
 * controls may have changed. */
void armprof_system_set_control_hook(unsigned vcpu, void (*fn)(unsigned vcpu, void *ctx),
                                     void *ctx);

/* An access by an external agent (a debugger or a trace probe on the
 * external debug interface, not memory-mapped: no Software Lock) to vCPU
 * vcpu's external debug block (block ARMPROF_EXT_DEBUG) or PMU block
 * (ARMPROF_EXT_PMU) at offset: the path the guest's loads and stores to
 * those blocks take (docs/qemu-system.md, "External debug and PMU
 * blocks"), with the same permissions and side effects. Before it the PE
 * is brought in step with the vCPU (its Exception level, the registers
 * QEMU owns, QEMU's OS Lock, whether the vCPU is powered) and, before a
 * read, told the vCPU's current PC (armprof_pcsr_observe()), so that a
 * read of PMPCSR or EDPCSR samples where the vCPU is now. Safe from any
 * thread, the vCPU's own included (the PE is locked meanwhile). size is
 * 4 or 8. A vcpu without a PE: kind ARMPROF_EXT_UNMODELLED, why "no PE". */
armprof_ext_outcome armprof_system_external_access(unsigned vcpu, armprof_ext_component block,
                                                   uint32_t offset, unsigned size, bool write,
                                                   uint64_t value);

#endif
