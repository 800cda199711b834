/* SPDX-License-Identifier: BSD-3-Clause */
/* SPE record files into one perf.data file, with the side-band perf needs
 * to name tasks and symbols: `armprof perf-data` and `armprof demo
 * --perf-data`. Each input is one CPU's Profiling Buffer data. */
#ifndef ARMPROF_CLI_PERF_EXPORT_H
#define ARMPROF_CLI_PERF_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/perfdata.h"

typedef struct perf_export_input {
    const char *path;    /* a file, or a name for data */
    const uint8_t *data; /* the bytes, when not read from path */
    size_t size;
} perf_export_input;

typedef struct perf_export_elf {
    const char *path;
    uint64_t load; /* added to the segments' addresses */
} perf_export_elf;

typedef struct perf_export_comm {
    uint32_t pid;
    const char *name;
} perf_export_comm;

typedef struct perf_export_options {
    const char *out;
    armprof_perf_writer_config config; /* ncpus is set from the inputs */
    const perf_export_elf *elfs;
    size_t nelfs;
    const perf_export_comm *comms;
    size_t ncomms;
} perf_export_options;

/* What the export wrote, for the caller's summary. */
typedef struct perf_export_result {
    uint64_t records, bytes, aux_events;
    size_t tasks; /* the threads perf will see (the records' last Context packets) */
} perf_export_result;

/* 0 done; 1 an input is malformed (nothing is written); 2 a file or usage
 * error. Messages go to err, prefixed with prog. */
int perf_export(const perf_export_options *o, const perf_export_input *in, size_t nin,
                perf_export_result *res, const char *prog, FILE *err);

/* "6.1", "7.3.4": the arm_spe metadata that perf version reads. */
bool perf_export_metadata_for(const char *version, armprof_perf_spe_metadata *m);

#endif
