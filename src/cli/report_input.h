/* SPDX-License-Identifier: BSD-3-Clause */
/* The input of `armprof decode` and `armprof report`: a file, or standard
 * input for "-", told apart by its first bytes as an SPE record stream or a
 * perf.data file. Every read is checked: a file that cannot be read (a
 * directory, an I/O error) is an error naming it, never an empty input. */
#ifndef ARMPROF_CLI_REPORT_INPUT_H
#define ARMPROF_CLI_REPORT_INPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/perfdata.h"
#include "cli/report_progress.h"
#include "cli/report_progress_stream.h"
#include "cli/report_source.h"

typedef struct report_input {
    const char *name; /* for messages: the path, or "standard input" */
    /* for the check that an output is not the input: the path, or for
     * standard input /dev/stdin, which names the file it is */
    const char *same_file;
    FILE *file; /* the file, or a copy of a perf.data on a pipe */
    bool owns_file;
    uint8_t head[8]; /* a record stream's first bytes, read to tell its format */
    size_t head_size;
    armprof_perf_file *perf; /* a perf.data file, NULL for a record stream */
    perf_cpu_index ix;       /* its AUX data by CPU */
    /* on a terminal: the reader reads through it, which shows the progress
     * of its first pass over the events (scan) */
    report_progress_stream *counted;
    report_progress scan;
    uint64_t size; /* the bytes the decoder will read; 0 if unknown (a pipe) */
} report_input;

/* Opens path ("-" for standard input). 0, or 2 with a message on err that
 * starts with prog and names the file. A perf.data file on standard input
 * is read from it when it is a file (perf's reader seeks), and copied to
 * a temporary file first when it is a pipe. */
int report_input_open(report_input *in, const char *path, const char *prog, FILE *err);
/* Its source of records: the stream, or the AUX data of CPU cpu_i of
 * in->ix (RECORD_SOURCE_ALL_CPUS: every CPU's, one after another). False
 * if out of memory. */
bool report_input_source(report_input *in, record_source *src, size_t cpu_i);
void report_input_close(report_input *in);

#endif
