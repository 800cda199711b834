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

#define RECORD_SOURCE_BLOCK (64u * 1024)

typedef struct record_source {
    FILE *file;          /* read to its end when not NULL */
    const uint8_t *data; /* otherwise the whole stream */
    size_t size;
    size_t bytes;   /* fed to the decoder so far */
    int read_errno; /* the reason of a read error, 0 if none */
    uint8_t *block; /* RECORD_SOURCE_BLOCK bytes, for a file */
} record_source;

/* False if out of memory for the block. */
bool record_source_file(record_source *src, FILE *file);
void record_source_bytes(record_source *src, const uint8_t *data, size_t size);
void record_source_free(record_source *src);
/* For a decoder that answered ARMPROF_SPE_DECODE_MORE: feeds it the next
 * block, or finishes its stream at the end. False on a read error
 * (read_errno says why); the stream is then finished, so that the decoder
 * reports what was left open. */
bool record_source_refill(record_source *src, armprof_spe_stream *s);

#endif
