/* SPDX-License-Identifier: BSD-3-Clause */
/* `retire CLASS xN`: N copies of one operation, retired in runs
 * (retire_repeat.c). */
#ifndef ARMPROF_SCENARIO_RETIRE_REPEAT_H
#define ARMPROF_SCENARIO_RETIRE_REPEAT_H

#include <stdint.h>

#include "armprof/armprof.h"

/* Leaves pe as n calls of armprof_retire(pe, op) would: runs of plain
 * copies as long as armprof_ops_until_event() allows, one copy at a time
 * where something happens (a sample selection, the instruction counter's
 * overflow) and for an operation that is not plain (misspeculated, not
 * Architecturally executed, dispatched, an exception entry or return). Returns the number of
 * armprof_retire() calls it made. */
uint64_t scenario_retire_repeat(armprof_pe *pe, const armprof_op *op, uint64_t n);

#endif
