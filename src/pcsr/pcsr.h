/* PC Sample-based Profiling (H7.1): the interface the PMU snapshot unit uses.
 * The PC sampling unit itself is issue 4; until it exists the hook below does
 * nothing, so a Capture event leaves the PC sample registers unchanged. */
#ifndef ARMPROF_PCSR_PCSR_H
#define ARMPROF_PCSR_PCSR_H

#include <stdbool.h>

struct armprof_pe;

/* The PC sampling part of PMUCaptureEvent(): when FEAT_PCSRv8p9 is
 * implemented and PMPCSCTL.SS is 1, write a PC sample (SetPCSRActive(),
 * SetPCSample()) or PMPCSR<31:0> = Ones(32). Called before PMSSCR_EL1.{NC,SS}
 * is set to {0, 0}. */
void pcsr_on_capture(struct armprof_pe *pe, bool debug_state);

#endif
