/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: any byte string given to the scenario interpreter ends
 * in a result or an error message, never a crash, a hang or a leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    if (!sink) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0; /* the interpreter reads up to the first NUL */
    scenario_options o = {
        .json = size & 1, .quiet = false, .out = sink, .err = sink, .max_operations = 100000};
    scenario_run_text("fuzz", text, &o);
    free(text);
    return 0;
}
