/* SPDX-License-Identifier: BSD-3-Clause */
/* Where `armprof decode` and `armprof report` get their records: a file
 * read a block at a time into a streaming decoder, so that memory stays the
 * same whatever the file's size, or bytes already in memory (the demo's
 * buffer, the tests). */
#ifndef ARMPROF_CLI_REPORT_SOURCE_H
#define ARMPROF_CLI_REPORT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"

#define RECORD_SOURCE_BLOCK (64u * 1024)

/* record_source_perf()'s cpu for the AUX data of every CPU, one CPU after
 * another. */
#define RECORD_SOURCE_ALL_CPUS UINT32_MAX

typedef struct record_source {
    FILE *file;          /* read to its end when not NULL */
    const uint8_t *data; /* otherwise the whole stream */
    size_t size;
    /* or the AUX data in a perf.data file: its chunks of cpu (or of every
     * CPU, in the order of cpus[]), each read from its start */
    armprof_perf_file *perf;
    uint32_t cpu;
    const uint32_t *cpus;
    size_t ncpus, cpu_i, chunk_i;
    uint64_t chunk_pos;
    size_t bytes;   /* fed to the decoder so far */
    int read_errno; /* the reason of a read error, 0 if none */
    uint8_t *block; /* RECORD_SOURCE_BLOCK bytes, for a file */
    /* bytes already read from the file (its first, to tell its format
     * when it cannot be read again: a pipe), fed before the rest */
    uint8_t head[8];
    size_t head_size;
} record_source;

/* False if out of memory for the block. */
bool record_source_file(record_source *src, FILE *file);
/* The same for a file whose first head_size (at most 8) bytes were read
 * already: they come first. */
bool record_source_file_after(record_source *src, FILE *file, const uint8_t *head,
                              size_t head_size);
void record_source_bytes(record_source *src, const uint8_t *data, size_t size);
/* The CPUs of a perf.data file's AUX data, in the order they first appear
 * (cpus must hold info->nchunks entries); the count. */
size_t record_source_perf_cpus(const armprof_perf_file_info *info, uint32_t *cpus);
/* The AUX data of cpu (or RECORD_SOURCE_ALL_CPUS, in the order of cpus[])
 * in f; false if out of memory for the block. */
bool record_source_perf(record_source *src, armprof_perf_file *f, uint32_t cpu,
                        const uint32_t *cpus, size_t ncpus);
void record_source_free(record_source *src);
/* For a decoder that answered ARMPROF_SPE_DECODE_MORE: feeds it the next
 * block, or finishes its stream at the end. False on a read error
 * (read_errno says why); the stream is then finished, so that the decoder
 * reports what was left open. */
bool record_source_refill(record_source *src, armprof_spe_stream *s);

#endif
