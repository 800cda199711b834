/* SPDX-License-Identifier: BSD-3-Clause */
/* Feeding a streaming decoder from a file or from memory (report_source.h). */
#include "cli/report_source.h"
#include "cli/report_progress.h"

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

typedef struct cpu_chunk {
    uint32_t cpu;
    size_t chunk;
} cpu_chunk;

static int by_cpu_then_chunk(const void *pa, const void *pb)
{
    const cpu_chunk *a = pa, *b = pb;
    if (a->cpu != b->cpu) return a->cpu < b->cpu ? -1 : 1;
    return (a->chunk > b->chunk) - (a->chunk < b->chunk);
}

/* A CPU's run of the sorted chunks: its first chunk in file order tells
 * where it comes among the CPUs. */
typedef struct cpu_run {
    size_t first, from, to;
} cpu_run;

static int by_first(const void *pa, const void *pb)
{
    const cpu_run *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

void perf_cpu_index_free(perf_cpu_index *ix)
{
    free(ix->cpu);
    free(ix->bytes);
    free(ix->start);
    free(ix->chunk);
    memset(ix, 0, sizeof *ix);
}

bool perf_cpu_index_build(perf_cpu_index *ix, const armprof_perf_file_info *info)
{
    memset(ix, 0, sizeof *ix);
    const size_t n = info->nchunks;
    cpu_chunk *pairs = malloc((n ? n : 1) * sizeof *pairs);
    cpu_run *runs = malloc((n ? n : 1) * sizeof *runs);
    ix->chunk = malloc((n ? n : 1) * sizeof *ix->chunk);
    if (!pairs || !runs || !ix->chunk) goto fail;
    for (size_t i = 0; i < n; i++)
        pairs[i] = (cpu_chunk){info->chunks[i].cpu, i};
    qsort(pairs, n, sizeof *pairs, by_cpu_then_chunk);
    size_t nruns = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || pairs[i].cpu != pairs[i - 1].cpu) {
            if (nruns) runs[nruns - 1].to = i;
            runs[nruns++] = (cpu_run){pairs[i].chunk, i, n};
        }
    qsort(runs, nruns, sizeof *runs, by_first);
    ix->cpu = malloc((nruns ? nruns : 1) * sizeof *ix->cpu);
    ix->bytes = calloc(nruns ? nruns : 1, sizeof *ix->bytes);
    ix->start = malloc((nruns + 1) * sizeof *ix->start);
    if (!ix->cpu || !ix->bytes || !ix->start) goto fail;
    size_t at = 0;
    for (size_t r = 0; r < nruns; r++) {
        ix->cpu[r] = pairs[runs[r].from].cpu;
        ix->start[r] = at;
        for (size_t i = runs[r].from; i < runs[r].to; i++) {
            ix->chunk[at++] = pairs[i].chunk;
            ix->bytes[r] += info->chunks[pairs[i].chunk].size;
        }
    }
    ix->start[nruns] = at;
    ix->ncpus = nruns;
    free(pairs);
    free(runs);
    return true;
fail:
    free(pairs);
    free(runs);
    perf_cpu_index_free(ix);
    return false;
}

bool record_source_perf(record_source *src, armprof_perf_file *f, const perf_cpu_index *ix,
                        size_t cpu_i)
{
    const bool all = cpu_i == RECORD_SOURCE_ALL_CPUS;
    *src = (record_source){.perf = f,
                           .ix = ix,
                           .at = ix->start[all ? 0 : cpu_i],
                           .end = ix->start[all ? ix->ncpus : cpu_i + 1],
                           .block = malloc(RECORD_SOURCE_BLOCK)};
    return src->block != NULL;
}

/* The next bytes of a perf.data file's AUX data: the rest of the current
 * chunk, up to a block; then the CPU's next chunk; then (all CPUs) the
 * next CPU's first. 0 at the end or on a read error. */
static size_t perf_refill(record_source *src)
{
    const armprof_perf_file_info *info = armprof_perf_info(src->perf);
    const perf_cpu_index *ix = src->ix;
    for (; src->at < src->end; src->at++, src->chunk_pos = 0) {
        src->chunks_visited++;
        const armprof_perf_aux_chunk *c = &info->chunks[ix->chunk[src->at]];
        if (src->chunk_pos >= c->size) continue;
        const size_t n =
            armprof_perf_read_aux(src->perf, c, src->chunk_pos, src->block, RECORD_SOURCE_BLOCK);
        if (n == 0) {
            src->read_errno = EIO;
            return 0;
        }
        src->chunk_pos += n;
        if (src->chunk_pos >= c->size) { /* on to the next chunk: one step a chunk */
            src->at++;
            src->chunk_pos = 0;
        }
        return n;
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
    report_progress_add(src->progress, n);
    return true;
}
