/* SPDX-License-Identifier: BSD-3-Clause */
/* The units' places in the PE, declared below the units (docs/architecture.md,
 * "The PE instance"): each unit (pcsr, pmu, spe) numbers its registers and
 * reaches its state from what is here, knowing no sibling's layout. The
 * façade lays the instance out (pe/instance.h) and checks every figure here
 * at compile time, so a unit that outgrows its place stops the build with a
 * message naming the line to change. */
#ifndef ARMPROF_SYSREG_UNITS_H
#define ARMPROF_SYSREG_UNITS_H

#include "sysreg/sysreg.h"

/* ---- Register ids and storage slots: one numbering for the PE ----
 * The core's registers first (core/regs.h), then the PMU's, then SPE's (PC
 * sampling has external registers only). A unit after the first starts
 * where the one before it ends, so the counts of every unit but the last are
 * declared here; each unit's registers header checks its own. */
#define PMU_REG_COUNT  33  /* SR_ ids in pmu/regs/list.def */
#define PMU_SLOT_COUNT 120 /* STO_ slots in pmu/regs/list.def */

#define SR_PMU_FIRST  SR_CORE_END
#define STO_PMU_FIRST STO_CORE_END
#define SR_SPE_FIRST  (SR_PMU_FIRST + PMU_REG_COUNT)
#define STO_SPE_FIRST (STO_PMU_FIRST + PMU_SLOT_COUNT)

/* ---- The units' state: after the engine's, one room each ----
 * A room is at least its unit's state (the façade checks it); its size is
 * declared so that the next unit's offset is a constant every unit can
 * compute. The rooms are the states' sizes, so that the layout is the one
 * the per-operation path was tuned with; a unit that grows takes the room it
 * needs here. In memory: PC sampling, the PMU, SPE (sampling and the
 * Profiling Buffer); the order the units are visited in is the façade's
 * (pe/units.h). */
#define PCSR_ROOM 136
#define PMU_ROOM  768
#define SPE_ROOM  3160

#define PCSR_OFFSET sizeof(sysreg_level)
#define PMU_OFFSET  (PCSR_OFFSET + PCSR_ROOM)
#define SPE_OFFSET  (PMU_OFFSET + PMU_ROOM)
/* The end of the units' rooms: where the façade's own state starts. */
#define UNITS_END (SPE_OFFSET + SPE_ROOM)

/* A unit's state: its type at its offset from the PE (each unit's own state
 * macro, as the PMU's, is this with its type and place). */
#define UNIT_STATE(pe, type, offset) ((type *)((char *)(pe) + (offset)))

#endif
