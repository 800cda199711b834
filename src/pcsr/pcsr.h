/* SPDX-License-Identifier: BSD-3-Clause */
/* PC Sample-based Profiling (H7.1; FEAT_PCSRv8, FEAT_PCSRv8p2, FEAT_PCSRv8p9):
 * PC sample creation, the suspended and active states, and the reads of the
 * PC sample registers. The registers are external registers; their values
 * live in pcsr_state and the external register table (sysreg/external.c)
 * reads and writes them through the functions below. */
#ifndef ARMPROF_PCSR_PCSR_H
#define ARMPROF_PCSR_PCSR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/siblings.h"
#include "sysreg/units.h"

/* PCSample: the pseudocode's pc_sample variable. */
typedef struct pc_sample {
    bool valid;
    uint64_t pc;
    uint8_t el;
    uint8_t rw; /* 1: AArch64 */
    uint8_t ss; /* armprof_security_state */
    bool has_el2;
    uint32_t contextidr;
    uint32_t contextidr_el2;
    bool el0h;
    uint16_t vmid;
} pc_sample;

/* Which of pcsr_state.pending an operation sets. */
enum { PCSR_MARK_NONE, PCSR_MARK_OTHER, PCSR_MARK_BRANCH };

typedef struct pcsr_state {
    pc_sample sample;    /* the latest CreatePCSample() */
    bool sampled;        /* a PC has been sampled (sample holds one) since the Cold reset */
    bool branch_retired; /* a branch retired since leaving Debug, suspended or prohibited state */
    bool branch_since_read; /* a branch retired since the last read of PMPCSR[31:0] */
    bool suspended;         /* PCSRSuspended() when PMPCSCTL.IMP is 0 */
    bool was_allowed;       /* PC sampling was allowed at the last sample */
    /* Cached (docs/design.md rule 4): PCSRSuspended() and the context part of a
     * sample, recomputed after an MSR, a context change or a PMPCSCTL write. */
    uint32_t seen_gen; /* armprof_pe.controls_gen the cache was computed at */
    bool tmpl_suspended;
    /* The samples of retired operations not yet made (pcsr_settle()): they
     * all take tmpl, so only the last PC and whether a branch was among
     * them matter. tmpl is not recomputed while one is pending. The
     * per-operation path (pcsr_retire_plain()) stores without reading
     * them first, so that one operation does not wait for the last one's
     * store: pending[PCSR_MARK_OTHER] and [PCSR_MARK_BRANCH] say that an
     * operation other than a branch, or a branch, is among them, and
     * pending_pc[1] holds the last PC; an operation that is not sampled
     * stores into pending[PCSR_MARK_NONE] and pending_pc[0]. (pending is
     * in what was padding, so that the state keeps its size and the units
     * after it their places.) */
    bool pending[3];
    pc_sample tmpl;
    uint64_t pending_pc[2];
    /* The PC sample registers (FEAT_PCSRv8p2) */
    uint64_t pmpcsr;
    uint32_t pmcid1sr, pmcid2sr; /* FEAT_PMUv3_EXT32; with EXT64 they form PMCCIDSR */
    uint32_t pmvidsr;            /* VMID [15:0] */
    uint32_t pmpcsctl;           /* FEAT_PCSRv8p9: SS [4], IMP [1] (RO), EN [0] */
    /* The external debug PC sample registers (FEAT_PCSRv8) */
    uint32_t edpcsrhi, edcidsr, edvidsr;
    bool edscr_sc2; /* EDSCR.SC2 (FEAT_PCSRv8 with FEAT_VHE): what EDPCSRhi and EDVIDSR hold */
    /* pcsr_plain_mark() of a plain operation, by whether it is a branch, as
     * of the controls generation armprof_retire() last made every unit's
     * cache current at (pcsr_make_current()). In what was padding. */
    uint8_t plain_mark[2];
} pcsr_state;

/* The unit's state, private to pcsr/ (other units use the functions below,
 * through core/siblings.h), at its place in the PE (sysreg/units.h). */
#define PCSR_STATE(pe) UNIT_STATE(pe, pcsr_state, PCSR_OFFSET)

/* Makes the pending samples (pcsr_state.pending): what CreatePCSample() of
 * each would have left. Every reader of the sample state calls it first. */
void pcsr_settle(struct armprof_pe *pe);
/* CreatePCSample(): the PE executes a sampleable instruction at pc (for a
 * branch, the branch target is what is sampled). */
void CreatePCSample(struct armprof_pe *pe, uint64_t pc);
/* The context part of CreatePCSample(): pcsr.tmpl and pcsr.tmpl_suspended. */
void pcsr_refresh(struct armprof_pe *pe);
/* CreatePCSample() of an exception entry's or return's target, at the
 * Exception level it goes to. */
void pcsr_branch_retired_at(struct armprof_pe *pe, uint64_t target, unsigned el);
/* PCSRSuspended() */
bool PCSRSuspended(const struct armprof_pe *pe);
/* Whether PC sampling is allowed now (H7.1.1) */
bool pcsr_allowed(const struct armprof_pe *pe);

/* Read_PMPCSR(memory_mapped): the read of PMPCSR[31:0] or [63:0], with its
 * side effects (capture of the context registers, activation). Returns the
 * 64-bit value. */
uint64_t Read_PMPCSR(struct armprof_pe *pe, bool memory_mapped);
/* Read_EDPCSRlo(memory_mapped) (FEAT_PCSRv8) */
uint32_t Read_EDPCSRlo(struct armprof_pe *pe, bool memory_mapped);

/* A write of PMPCSCTL: EN when IMP is 1, SS with FEAT_PMUv3_SS; IMP is
 * read-only. Entering suspended state and setting SS make later samples
 * UNKNOWN until a branch retires. */
void pcsr_write_pmpcsctl(struct armprof_pe *pe, uint32_t value);

/* Whether EDVIDSR is implemented: the present column of its entry
 * (external_debug.def; option pcsr_edvidsr without EL2 and EL3). */
bool pcsr_edvidsr_implemented(const armprof_config *c);

/* Cold and Warm reset of the unit. */
void pcsr_reset(struct armprof_pe *pe, bool cold);
/* The PE entered Debug state, or a state where sampling is prohibited or
 * suspended: samples are UNKNOWN until a branch retires. */
void pcsr_left_sampling(struct armprof_pe *pe);

#endif
