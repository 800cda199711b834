/* SPDX-License-Identifier: BSD-3-Clause */
/* A progress line on standard error while `armprof decode` and `armprof
 * report` read a large file, as perf report shows one: only when standard
 * error is a terminal, redrawn at most a few times a second, and erased at
 * the end so that what the command prints is the same with or without it. */
#ifndef ARMPROF_CLI_REPORT_PROGRESS_H
#define ARMPROF_CLI_REPORT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct report_progress {
    FILE *tty; /* NULL: shows nothing */
    const char *prog, *name;
    uint64_t total; /* bytes to read, 0 if unknown (a pipe) */
    uint64_t done;
    uint64_t next_ns; /* the monotonic time of the next redraw */
    bool shown;       /* a line is on the terminal */
} report_progress;

/* A progress on err when it is a terminal (and nothing otherwise). */
void report_progress_init(report_progress *p, FILE *err, const char *prog, const char *name,
                          uint64_t total);
/* n more bytes read; p may be NULL. */
void report_progress_add(report_progress *p, uint64_t n);
/* Erases the line, before the command's own messages. */
void report_progress_end(report_progress *p);

#endif
