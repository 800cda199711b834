/* SPDX-License-Identifier: BSD-3-Clause */
/* A kernel's symbols from a copy of its /proc/kallsyms ("ADDRESS TYPE
 * NAME [MODULE]" a line), for armprof report of PC samples. */
#ifndef ARMPROF_CLI_REPORT_KALLSYMS_H
#define ARMPROF_CLI_REPORT_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct report_kallsyms report_kallsyms;

/* The text symbols (types t, T, w, W) of path; NULL with a message naming
 * the file (and the line of a malformed entry), or when it has none (a
 * copy read without the right to see addresses holds only zeros). */
report_kallsyms *report_kallsyms_open(const char *path, char *err, size_t errlen);
/* The symbol at or below addr, NULL below the first. The name lives as
 * long as k. */
const char *report_kallsyms_at(const report_kallsyms *k, uint64_t addr);
void report_kallsyms_close(report_kallsyms *k);

#endif
