/* SPDX-License-Identifier: BSD-3-Clause */
/* Parsing an operation from a statement's words (op_words.c). */
#ifndef ARMPROF_SCENARIO_OP_WORDS_H
#define ARMPROF_SCENARIO_OP_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/armprof.h"

/* w[0] is the class (other, branch, load, store), the rest its attributes;
 * *repeat is the xN count (1 if none). false with a message in err if a
 * word is unknown or does not apply to the class. */
bool scenario_parse_op(char *const *w, int n, armprof_op *op, uint64_t *repeat, char *err,
                       size_t len);

#endif
