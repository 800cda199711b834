/* SPDX-License-Identifier: BSD-3-Clause */
/* The Branch Record Buffer Extension (FEAT_BRBE, D19): the parts other units
 * call. Only the freeze state is modelled so far: the branch records, their
 * filtering and BRBE's own PMU overflow freeze (ShouldBRBEFreeze()) are not. */
#ifndef ARMPROF_PMU_BRBE_H
#define ARMPROF_PMU_BRBE_H

#include <stdbool.h>

struct armprof_pe;

/* BranchRecordAllowed(el): TRUE if branch recording is allowed at el. */
bool BranchRecordAllowed(const struct armprof_pe *pe, unsigned el);
/* BRBEFreeze(): the BRBE freeze event, BRBFCR_EL1.PAUSED = '1'. */
void BRBEFreeze(struct armprof_pe *pe);
/* The BRBE step of PMUCaptureEvent(), on a successful Capture event (RLBQZR):
 *   if (IsFeatureImplemented(FEAT_BRBE) && BranchRecordAllowed(PSTATE.EL) &&
 *       BRBCR_EL1.FZPSS == '1' && (!HaveEL(EL2) || BRBCR_EL2.FZPSS == '1')) then
 *       BRBEFreeze();
 * Called after the counters and PC sample are captured and before
 * PMSSCR_EL1.{NC,SS} is set to {0, 0}. */
void brbe_on_capture(struct armprof_pe *pe);

#endif
