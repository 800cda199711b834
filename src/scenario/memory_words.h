/* SPDX-License-Identifier: BSD-3-Clause */
/* The scenario language's memory statements (docs/scenario-language.md,
 * "Memory and translation tables"): regions, writes and checks of physical
 * memory, and a builder of 4KB-granule stage 1 and stage 2 tables. */
#ifndef ARMPROF_SCENARIO_MEMORY_WORDS_H
#define ARMPROF_SCENARIO_MEMORY_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/armprof.h"

/* Where `map` takes new table pages from. */
typedef struct scenario_tables {
    uint64_t next; /* next free 4KB page, 0 until `pagetables` */
    uint64_t end;  /* end of the pool */
    int pas;
    uint64_t mapped; /* bytes all `map` statements of the run have mapped */
} scenario_tables;

/* The outcome of a statement that checks something. */
typedef struct memory_check {
    bool is_check;
    bool ok;
    char got[400];
} memory_check;

enum { MEMORY_HANDLED = 0, MEMORY_NOT_MINE = 1, MEMORY_ERROR = -1 };

/* Runs words[0..n) if it is a memory statement: `memory ...`, `expect
 * memory ...`, `pagetables ...` or `map ...`. pe is needed by every
 * statement but may be created on demand by the caller (need_pe) before;
 * errors go to err. */
int scenario_memory_statement(armprof_pe *pe, scenario_tables *tables, char **words, int n,
                              memory_check *check, char *err, size_t errlen);
/* Whether words[0..n) is a memory statement (so the caller can create the
 * PE first). */
bool scenario_is_memory_statement(char **words, int n);

#endif
