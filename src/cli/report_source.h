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

/* A perf.data file's AUX data grouped by CPU: the CPUs in the order they
 * first appear, each one's chunks in file order. Built by sorting, so that
 * a file of many CPUs costs n log n, not a scan of the chunks per CPU. */
typedef struct perf_cpu_index {
    size_t ncpus;
    uint32_t *cpu;   /* ncpus of them */
    uint64_t *bytes; /* the AUX data of each */
    size_t *start;   /* ncpus + 1: CPU i's chunks are chunk[start[i] .. start[i + 1]) */
    size_t *chunk;   /* indices into info->chunks, nchunks of them */
} perf_cpu_index;

/* False if out of memory; then nothing needs freeing. */
bool perf_cpu_index_build(perf_cpu_index *ix, const armprof_perf_file_info *info);
void perf_cpu_index_free(perf_cpu_index *ix);

/* record_source_perf()'s cpu for the AUX data of every CPU, one CPU after
 * another. */
#define RECORD_SOURCE_ALL_CPUS SIZE_MAX

typedef struct report_progress report_progress; /* report_progress.h */

typedef struct record_source {
    FILE *file;          /* read to its end when not NULL */
    const uint8_t *data; /* otherwise the whole stream */
    size_t size;
    /* or the AUX data in a perf.data file: ix->chunk[at .. end), the
     * chunks of one CPU or of every CPU, each read from its start */
    armprof_perf_file *perf;
    const perf_cpu_index *ix;
    size_t at, end;
    uint64_t chunk_pos;
    uint64_t chunks_visited; /* the work of finding the next chunk (a test checks it is linear) */
    size_t bytes;            /* fed to the decoder so far */
    int read_errno;          /* the reason of a read error, 0 if none */
    uint8_t *block;          /* RECORD_SOURCE_BLOCK bytes, for a file */
    /* bytes already read from the file (its first, to tell its format
     * when it cannot be read again: a pipe), fed before the rest */
    uint8_t head[8];
    size_t head_size;
    report_progress *progress; /* told of each block read, or NULL */
} record_source;

/* False if out of memory for the block. */
bool record_source_file(record_source *src, FILE *file);
/* The same for a file whose first head_size (at most 8) bytes were read
 * already: they come first. */
bool record_source_file_after(record_source *src, FILE *file, const uint8_t *head,
                              size_t head_size);
void record_source_bytes(record_source *src, const uint8_t *data, size_t size);
/* The AUX data of CPU cpu_i of ix (or RECORD_SOURCE_ALL_CPUS, in ix's
 * order) in f; false if out of memory for the block. */
bool record_source_perf(record_source *src, armprof_perf_file *f, const perf_cpu_index *ix,
                        size_t cpu_i);
void record_source_free(record_source *src);
/* For a decoder that answered ARMPROF_SPE_DECODE_MORE: feeds it the next
 * block, or finishes its stream at the end. False on a read error
 * (read_errno says why); the stream is then finished, so that the decoder
 * reports what was left open. */
bool record_source_refill(record_source *src, armprof_spe_stream *s);

#endif
