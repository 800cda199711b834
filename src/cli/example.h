/* SPDX-License-Identifier: BSD-3-Clause */
/* The built-in example scenario that `armprof example` runs: a tour of who
 * may access the profiling controls. */
#ifndef ARMPROF_CLI_EXAMPLE_H
#define ARMPROF_CLI_EXAMPLE_H

extern const char armprof_example_scenario[];

#endif
