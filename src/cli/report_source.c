/* SPDX-License-Identifier: BSD-3-Clause */
/* Feeding a streaming decoder from a file or from memory (report_source.h). */
#include "cli/report_source.h"

#include <errno.h>
#include <stdlib.h>

bool record_source_file(record_source *src, FILE *file)
{
    *src = (record_source){.file = file, .block = malloc(RECORD_SOURCE_BLOCK)};
    return src->block != NULL;
}

void record_source_bytes(record_source *src, const uint8_t *data, size_t size)
{
    *src = (record_source){.data = data, .size = data ? size : 0};
}

void record_source_free(record_source *src)
{
    free(src->block);
    src->block = NULL;
}

bool record_source_refill(record_source *src, armprof_spe_stream *s)
{
    size_t n = 0;
    const uint8_t *from = src->block;
    if (!src->file) {
        from = src->data;
        n = src->bytes == 0 ? src->size : 0;
    } else if (!feof(src->file) && !ferror(src->file)) {
        errno = 0;
        n = fread(src->block, 1, RECORD_SOURCE_BLOCK, src->file);
        if (ferror(src->file)) src->read_errno = errno ? errno : EIO;
    }
    if (n == 0) {
        armprof_spe_stream_finish(s);
        return src->read_errno == 0;
    }
    armprof_spe_stream_feed(s, from, n);
    src->bytes += n;
    return true;
}
