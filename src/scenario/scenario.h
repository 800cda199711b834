/* SPDX-License-Identifier: BSD-3-Clause */
/* The scenario language (docs/scenario-language.md): a line-oriented text
 * format that configures a PE, sets its context, makes MRS/MSR accesses and
 * checks their outcomes. */
#ifndef ARMPROF_SCENARIO_H
#define ARMPROF_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct scenario_options {
    bool json;  /* one JSON object per outcome instead of the human form */
    bool quiet; /* print only failures, errors and the summary */
    FILE *out;  /* outcomes and the summary */
    FILE *err;  /* errors and failed expectations */
    /* Operations a run may retire in all (`retire ... xN` counts N); a run
     * that would exceed it stops with an error. 0: no limit. The fuzzer
     * sets one so that `x8000_0000` ends in time. */
    uint64_t max_operations;
} scenario_options;

/* Status of a run. */
enum { SCENARIO_PASSED = 0, SCENARIO_FAILED = 1, SCENARIO_ERROR = 2 };

/* Runs a scenario file. Returns SCENARIO_PASSED when every expectation held,
 * SCENARIO_FAILED when one did not, SCENARIO_ERROR when the run stopped on an
 * error (its message names the file and line). */
int scenario_run_file(const char *path, const scenario_options *opts);
/* Runs a scenario held in memory; name is used in messages. */
int scenario_run_text(const char *name, const char *text, const scenario_options *opts);

#endif
