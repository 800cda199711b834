/* SPDX-License-Identifier: BSD-3-Clause */
/* The PE's units, side by side (docs/architecture.md): PE_UNITS(X) applies
 * X(name, state, place) to each, in the order one operation visits them
 * (retire.c): Statistical Profiling first (the operation is a member of the
 * sample population, and a sampled one completes its record), then the
 * PMU's events, then PC sampling of the next PC. A reset visits them in the
 * same order (pe.c).
 *   name   the unit's folder, src/<name>/ (its registers in src/<name>/regs/),
 *          and the prefix of its hooks: <name>_reset(pe, cold), and the
 *          per-operation ones in its <name>_retire.h, inline so that going through
 *          the table costs no call:
 *            <name>_make_current(pe)      its cache brought current
 *            <name>_lean(pe)              armprof_retire()'s lean path does
 *                                         its part of a plain operation
 *            <name>_retire(pe, op)        an operation retires (general path)
 *            <name>_retire_plain(pe, op, is_branch)   a plain one, cache current
 *            <name>_retire_run(pe, run)   a run of plain operations
 *            <name>_retire_misspeculated(pe, op), <name>_retire_not_arch_executed(pe, op)
 *            <name>_ops_until_event(pe)   plain operations before it needs one
 *                                         to take the full path
 *   state  the type of its state, private to it
 *   place  its tag in sysreg/units.h: <place>_OFFSET and <place>_ROOM, where
 *          its state lies in the instance (pe/instance.h checks both)
 * The test layering_siblings (tests/layering_siblings.cmake) reads the names
 * here: no unit includes a sibling's header. */
#ifndef ARMPROF_PE_UNITS_H
#define ARMPROF_PE_UNITS_H

#define PE_UNITS(X)                                                                                \
    X(spe, spe_unit, SPE)                                                                          \
    X(pmu, pmu_state, PMU)                                                                         \
    X(pcsr, pcsr_state, PCSR)

#endif
