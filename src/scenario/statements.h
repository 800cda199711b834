/* SPDX-License-Identifier: BSD-3-Clause */
/* The scenario language's statement table (statements.def), as the
 * interpreter holds it: what a program other than the interpreter may ask
 * of it (the test that keeps docs/scenario-language.md in step). */
#ifndef ARMPROF_SCENARIO_STATEMENTS_H
#define ARMPROF_SCENARIO_STATEMENTS_H

#include <stddef.h>

/* What may follow `=>` on a statement's line. */
typedef enum scenario_expects {
    SCENARIO_EXPECTS_NOTHING, /* no `=>` */
    SCENARIO_EXPECTS_OUTCOME, /* the outcome of an access: done, trap el2, ok, ... */
    SCENARIO_EXPECTS_VERDICT, /* the configuration check's verdict: ok, error "text" */
} scenario_expects;

typedef struct scenario_statement_info {
    const char *name;
    scenario_expects expects;
    const char *synopsis; /* the arguments, "" for none */
    const char *doc;      /* what it does, one line */
} scenario_statement_info;

/* The i-th statement in name order, or NULL past the last. */
const scenario_statement_info *scenario_statement_at(size_t i);
/* The statement named name, or NULL. */
const scenario_statement_info *scenario_statement_find(const char *name);
/* The statements `=>` can follow, as an error message and the document
 * name them: those of an access outcome, then those of a verdict
 * ("mrs, msr, ... and validate"). Returns buf. */
const char *scenario_expectation_statements(char *buf, size_t len);

#endif
