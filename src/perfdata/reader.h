/* SPDX-License-Identifier: BSD-3-Clause */
/* What reader.c lends events.c: a file opened and its header checked, and
 * reads at an offset that name a read error. */
#ifndef ARMPROF_PERFDATA_READER_H
#define ARMPROF_PERFDATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/perfdata.h"

typedef struct perf_file_sections {
    uint64_t data_at, data_size;   /* the data section */
    uint64_t attrs_at, attrs_size; /* the attributes: perf_file_attr entries... */
    uint64_t attr_size;            /* ... of this size each */
    uint64_t file_size;
} perf_file_sections;

/* path opened, its header checked (armprof_perf_open()'s messages), the
 * events not read; close with armprof_perf_close(). */
armprof_perf_file *perf_file_open_header(const char *path, perf_file_sections *sec, char *err,
                                         size_t errlen);
/* Exactly n bytes at offset; false past the end of the file (the caller
 * says what was truncated) or on a read error, which sets the file's
 * message (armprof_perf_error()). */
bool perf_file_read_at(armprof_perf_file *f, uint64_t offset, void *buf, size_t n);
/* The file's message buffer, for the caller's own messages. */
char *perf_file_error_buffer(armprof_perf_file *f, size_t *size);
const char *perf_file_path(const armprof_perf_file *f);

#endif
