/* SPDX-License-Identifier: BSD-3-Clause */
/* Feeding a streaming decoder from a file or from memory (report_source.h). */
#include "cli/report_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool record_source_file(record_source *src, FILE *file)
{
    *src = (record_source){.file = file, .block = malloc(RECORD_SOURCE_BLOCK)};
    return src->block != NULL;
}

bool record_source_file_after(record_source *src, FILE *file, const uint8_t *head, size_t head_size)
{
    if (!record_source_file(src, file)) return false;
    src->head_size = head_size < sizeof src->head ? head_size : sizeof src->head;
    memcpy(src->head, head, src->head_size);
    return true;
}

void record_source_bytes(record_source *src, const uint8_t *data, size_t size)
{
    *src = (record_source){.data = data, .size = data ? size : 0};
}

size_t record_source_perf_cpus(const armprof_perf_file_info *info, uint32_t *cpus)
{
    size_t n = 0;
    for (size_t i = 0; i < info->nchunks; i++) {
        size_t k = 0;
        while (k < n && cpus[k] != info->chunks[i].cpu)
            k++;
        if (k == n) cpus[n++] = info->chunks[i].cpu;
    }
    return n;
}

bool record_source_perf(record_source *src, armprof_perf_file *f, uint32_t cpu,
                        const uint32_t *cpus, size_t ncpus)
{
    *src = (record_source){
        .perf = f, .cpu = cpu, .cpus = cpus, .ncpus = ncpus, .block = malloc(RECORD_SOURCE_BLOCK)};
    return src->block != NULL;
}

/* The next bytes of a perf.data file's AUX data: the rest of the current
 * chunk, up to a block; then the next chunk of the same CPU; then (all
 * CPUs) the next CPU's first. 0 at the end or on a read error. */
static size_t perf_refill(record_source *src)
{
    const armprof_perf_file_info *info = armprof_perf_info(src->perf);
    while (src->cpu_i < (src->cpu == RECORD_SOURCE_ALL_CPUS ? src->ncpus : 1)) {
        const uint32_t cpu = src->cpu == RECORD_SOURCE_ALL_CPUS ? src->cpus[src->cpu_i] : src->cpu;
        for (; src->chunk_i < info->nchunks; src->chunk_i++, src->chunk_pos = 0) {
            const armprof_perf_aux_chunk *c = &info->chunks[src->chunk_i];
            if (c->cpu != cpu || src->chunk_pos >= c->size) continue;
            const size_t n = armprof_perf_read_aux(src->perf, c, src->chunk_pos, src->block,
                                                   RECORD_SOURCE_BLOCK);
            if (n == 0) {
                src->read_errno = EIO;
                return 0;
            }
            src->chunk_pos += n;
            return n;
        }
        src->cpu_i++;
        src->chunk_i = 0;
        src->chunk_pos = 0;
    }
    return 0;
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
    if (src->perf) {
        n = perf_refill(src);
    } else if (!src->file) {
        from = src->data;
        n = src->bytes == 0 ? src->size : 0;
    } else if (src->head_size || (!feof(src->file) && !ferror(src->file))) {
        errno = 0;
        memcpy(src->block, src->head, src->head_size);
        n = src->head_size;
        src->head_size = 0;
        if (!feof(src->file) && !ferror(src->file))
            n += fread(src->block + n, 1, RECORD_SOURCE_BLOCK - n, src->file);
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
