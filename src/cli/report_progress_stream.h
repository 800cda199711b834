/* SPDX-License-Identifier: BSD-3-Clause */
/* A stream that reads through another and tells a progress line how far
 * into the file the reads have gone: the perf.data reader's first pass,
 * which indexes the events, seeks and reads through the library's own
 * calls, so the command sees its progress only from the stream under it. */
#ifndef ARMPROF_CLI_REPORT_PROGRESS_STREAM_H
#define ARMPROF_CLI_REPORT_PROGRESS_STREAM_H

#include <stdio.h>

#include "cli/report_progress.h"

typedef struct report_progress_stream report_progress_stream;

/* A stream over inner (which it does not close) telling p of the furthest
 * offset read; NULL when out of memory (the caller reads inner itself). */
report_progress_stream *report_progress_stream_open(FILE *inner, report_progress *p);
FILE *report_progress_stream_file(const report_progress_stream *s);
/* From now on the reads are not told to p. */
void report_progress_stream_quiet(report_progress_stream *s);
void report_progress_stream_close(report_progress_stream *s);

#endif
