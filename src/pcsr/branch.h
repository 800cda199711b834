/* SPDX-License-Identifier: BSD-3-Clause */
/* A branch retires (PC Sample-based Profiling): CreatePCSample() of its
 * target, inline because it runs for every branch a simulator retires; the
 * context part of the sample is cached (pcsr_refresh()). */
#ifndef ARMPROF_PCSR_BRANCH_H
#define ARMPROF_PCSR_BRANCH_H

#include "pcsr/pcsr.h"

/* CreatePCSample(target), then the "no branch since" states reset. */
static inline void pcsr_branch_retired(armprof_pe *pe, uint64_t target)
{
    if (!IsFeatureImplemented(pe, PCSRv8) && !IsFeatureImplemented(pe, PCSRv8p2)) return;
    pcsr_state *p = PCSR_STATE(pe);
    if (pe_controls_stale(pe, p->seen_gen)) pcsr_refresh(pe);
    if (p->tmpl_suspended) {
        /* Leaving suspended state needs a branch before samples are known */
        p->branch_retired = false;
        return;
    }
    const uint16_t vmid = p->sample.vmid; /* kept when EL2 is not enabled */
    p->sample = p->tmpl;
    if (!p->sample.has_el2) p->sample.vmid = vmid;
    p->sample.pc = target;
    p->sampled = true;
    p->branch_retired = p->sample.valid;
    if (p->sample.valid) p->branch_since_read = true;
}

#endif
