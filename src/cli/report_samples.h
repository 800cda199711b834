/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report of a perf.data file of samples (the QEMU plugin's PC
 * samples, PREFIX.pcsr.perf.data; perf record of an event such as
 * cpu-clock): the samples by symbol, or folded stacks for flame graphs
 * (docs/report.md, docs/pc-sampling.md). */
#ifndef ARMPROF_CLI_REPORT_SAMPLES_H
#define ARMPROF_CLI_REPORT_SAMPLES_H

#include <stdbool.h>
#include <stdio.h>

typedef struct report_samples_options {
    const char *kallsyms; /* the kernel's symbols (a copy of /proc/kallsyms), or NULL */
    unsigned top;         /* rows of the histogram */
    bool folded;          /* "COMM;SYMBOL COUNT" lines instead */
} report_samples_options;

typedef struct report_samples report_samples;

/* path read: 0 with *out, which report_samples_write() writes; 2 with a
 * message on err (prog: ...) when a file cannot be read; -1 when path is
 * a file of AUX data (SPE), which the caller reports as such. */
int report_samples_read(const char *path, const report_samples_options *o, const char *prog,
                        FILE *err, report_samples **out);
/* The report to out: 0, or 2 (said on err) if out of memory. */
int report_samples_write(FILE *out, report_samples *s, FILE *err);
void report_samples_free(report_samples *s);

#endif
