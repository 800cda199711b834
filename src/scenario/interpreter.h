/* SPDX-License-Identifier: BSD-3-Clause */
/* The scenario interpreter's state and what its statement handlers share
 * (scenario.c runs the lines; each handler file runs some statements). */
#ifndef ARMPROF_SCENARIO_INTERPRETER_H
#define ARMPROF_SCENARIO_INTERPRETER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/armprof.h"
#include "scenario/memory_words.h"
#include "scenario/scenario.h"
#include "scenario/statements.h"

#define MAX_WORDS 64

typedef struct run_state {
    const scenario_options *opts;
    uint64_t operations; /* retired so far, against opts->max_operations */
    armprof_config cfg;
    bool cfg_started; /* a preset, feature or option statement was seen */
    armprof_pe *pe;
    unsigned passed, failed;
    int depth;
    /* Sample records the PE made and `expect record` has not yet checked,
     * oldest first, each a length byte pair then the bytes. */
    uint8_t *records;
    size_t records_len, records_cap;
    unsigned records_pending;
    bool records_overflow;
    /* Operations given to `dispatch` and not yet retired, oldest first. */
    armprof_op dispatched[8];
    unsigned dispatched_n;
    scenario_tables tables; /* where `map` takes table pages from */
} run_state;

/* Where a statement is, for messages. */
typedef struct where {
    const char *file;
    unsigned line;
} where;

typedef struct line_words {
    char *w[MAX_WORDS];
    bool quoted[MAX_WORDS];
    int n;
    int arrow; /* index of the first word after "=>", or -1 */
} line_words;

typedef scenario_statement_info statement_info;

/* Runs a statement: lw->w[0] is self->name. Returns 0, or SCENARIO_ERROR
 * with the message printed. */
typedef int statement_fn(run_state *st, where at, line_words *lw, const statement_info *self);

/* The handlers statements.def names. */
#define STATEMENT(name, handler, expects, synopsis, doc) statement_fn handler;
#include "scenario/statements.def"
#undef STATEMENT

/* Prints "FILE:LINE: " and the message to the error stream; returns
 * SCENARIO_ERROR. */
int scenario_error_at(run_state *st, where at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The error of arguments that do not fit self: "usage: NAME SYNOPSIS". */
int scenario_usage(run_state *st, where at, const statement_info *self);
/* Creates the PE at the first statement that needs it; 0 or an error. */
int scenario_need_pe(run_state *st, where at);
/* Counts an expectation that held (ok) or not. */
void scenario_count(run_state *st, int ok);
/* text as a JSON string, always valid UTF-8. */
void scenario_json_string(FILE *f, const char *text);
/* The end of an outcome's line: whether its expectation held (check 1 or
 * 0; -1 none) and, if not, what was expected; in JSON, the end of the
 * object. */
void scenario_json_check(FILE *out, int check, const char *expected);
void scenario_text_check(FILE *out, int check, const char *expected);

#endif
