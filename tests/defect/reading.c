/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 44, parts 4 and 5: reading perf.data and record streams.
 *
 *   reading eio            an I/O error inside a perf.data is a "read
 *                          error" with the system's reason, never
 *                          "truncated" (nor "not a perf.data file")
 *   reading many_cpus      a perf.data of 4096 CPUs gives every CPU's bytes
 *                          back, in order, and finding each chunk costs one
 *                          step, not a scan of every chunk per CPU
 *   reading empty_aux      AUXTRACE events without data are counted, not
 *                          indexed: memory does not grow with them
 *   reading distinct_cap   the report's lists keep at most their cap of
 *                          values, and fold the rest into totals that
 *                          still add up to every sample
 *
 * The expected numbers come from what the test writes (the counts and
 * bytes it gives the writer), not from the reader. */
#define _GNU_SOURCE /* fopencookie() */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "cli/report_map.h"
#include "cli/report_source.h"
#include "../unit/check.h"
#include "../unit/slurp.h"

static char dir[64];

static const char *tmp(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

/* A file in memory whose reads fail with EIO from byte fail_at on: the
 * reader sees what a failing disk gives it. */
typedef struct failing {
    const uint8_t *data;
    size_t size, pos, fail_at;
} failing;

static ssize_t failing_read(void *cookie, char *buf, size_t n)
{
    failing *f = cookie;
    if (f->pos >= f->fail_at) {
        errno = EIO;
        return -1;
    }
    size_t left = (f->fail_at < f->size ? f->fail_at : f->size) - f->pos;
    if (n > left) n = left;
    memcpy(buf, f->data + f->pos, n);
    f->pos += n;
    return (ssize_t)n;
}

static int failing_seek(void *cookie, off64_t *offset, int whence)
{
    failing *f = cookie;
    const off64_t base = whence == SEEK_SET   ? 0
                         : whence == SEEK_CUR ? (off64_t)f->pos
                                              : (off64_t)f->size;
    if (base + *offset < 0) return -1;
    f->pos = (size_t)(base + *offset);
    *offset = (off64_t)f->pos;
    return 0;
}

static bool write_perf(const char *path, uint32_t ncpus, unsigned rounds, unsigned empty)
{
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    c.ncpus = ncpus;
    c.metadata = ARMPROF_PERF_SPE_METADATA_V1; /* version 2 of 4096 CPUs passes an event's 64 KB */
    char err[256];
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, sizeof err);
    CHECK(w != NULL, "create: %s", err);
    if (!w) return false;
    for (unsigned r = 0; r < rounds; r++)
        for (uint32_t cpu = 0; cpu < ncpus; cpu++) {
            /* 8 bytes that say which CPU and round they are */
            const uint8_t b[8] = {(uint8_t)cpu, (uint8_t)(cpu >> 8), (uint8_t)r, 0xa5};
            armprof_perf_write_aux(w, cpu, b, sizeof b);
        }
    for (unsigned i = 0; i < empty; i++)
        armprof_perf_write_aux(w, 0, NULL, 0);
    const bool ok = armprof_perf_writer_finish(w, err, sizeof err);
    CHECK(ok, "finish: %s", err);
    return ok;
}

static void check_eio(void)
{
    char path[128];
    if (!write_perf(tmp("eio.data", path, sizeof path), 2, 3, 0)) return;
    size_t size;
    uint8_t *b = slurp(path, &size);
    if (!b) return;
    /* In the magic, in the header, in the data section's events, and in
     * the last event (the file's end is the feature section): each must
     * be a read error, at or past the failing byte. */
    const size_t data_at = (size_t)(b[40] | b[41] << 8 | b[42] << 16);
    const size_t at[] = {0, 4, 50, data_at + 4, data_at + 200, size - 40};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        failing f = {b, size, 0, at[i]};
        FILE *s = fopencookie(&f, "rb",
                              (cookie_io_functions_t){.read = failing_read, .seek = failing_seek});
        char err[512] = "";
        armprof_perf_file *p = armprof_perf_open_stream(s, "disk.data", err, sizeof err);
        if (p) {
            /* The index did not need the failing byte: reading the AUX
             * data must then meet it (or it lies past the data). */
            const armprof_perf_file_info *info = armprof_perf_info(p);
            bool failed = false;
            for (size_t k = 0; k < info->nchunks && !failed; k++) {
                uint8_t buf[64];
                failed = armprof_perf_read_aux(p, &info->chunks[k], 0, buf, sizeof buf) !=
                         info->chunks[k].size;
            }
            if (failed) snprintf(err, sizeof err, "%s", armprof_perf_error(p));
            armprof_perf_close(p);
            if (!failed) {
                fclose(s);
                continue;
            }
        }
        CHECK(strstr(err, "read error") && strstr(err, strerror(EIO)) && strstr(err, "disk.data") &&
                  !strstr(err, "truncated") && !strstr(err, "not a perf.data"),
              "EIO from byte %zu: '%s'", at[i], err);
        fclose(s);
    }
    free(b);
    remove(path);
}

static void check_many_cpus(void)
{
    enum { CPUS = 4096, ROUNDS = 2 };
    char path[128];
    if (!write_perf(tmp("cpus.data", path, sizeof path), CPUS, ROUNDS, 0)) return;
    char err[512];
    armprof_perf_file *f = armprof_perf_open(path, err, sizeof err);
    CHECK(f != NULL, "open: %s", err);
    if (!f) return;
    const armprof_perf_file_info *info = armprof_perf_info(f);
    CHECK(info->nchunks == CPUS * ROUNDS, "%zu chunks", info->nchunks);
    perf_cpu_index ix;
    CHECK(perf_cpu_index_build(&ix, info), "index");
    CHECK(ix.ncpus == CPUS, "%zu CPUs", ix.ncpus);
    bool order = true;
    for (size_t i = 0; i < ix.ncpus && order; i++)
        order =
            ix.cpu[i] == i && ix.start[i + 1] - ix.start[i] == ROUNDS && ix.bytes[i] == 8 * ROUNDS;
    CHECK(order, "CPUs in order of first appearance, each with its two chunks");
    /* Every CPU's records one CPU after another: CPU 0's two rounds, then
     * CPU 1's, ... */
    record_source src;
    CHECK(record_source_perf(&src, f, &ix, RECORD_SOURCE_ALL_CPUS), "source");
    armprof_spe_stream s;
    armprof_spe_stream_init(&s);
    size_t expect = 0;
    bool same = true;
    while (record_source_refill(&src, &s) && s.chunk_size) {
        for (size_t k = 0; k < s.chunk_size && same; k++, expect++) {
            const size_t cpu = expect / (8 * ROUNDS), round = expect / 8 % ROUNDS, at = expect % 8;
            const uint8_t want = at == 0   ? (uint8_t)cpu
                                 : at == 1 ? (uint8_t)(cpu >> 8)
                                 : at == 2 ? (uint8_t)round
                                 : at == 3 ? 0xa5
                                           : 0;
            same = s.chunk[k] == want;
        }
        armprof_spe_stream_init(&s);
    }
    CHECK(same && expect == (size_t)CPUS * ROUNDS * 8 && src.read_errno == 0,
          "all %zu bytes back in order", expect);
    /* Linear: one step per chunk (the old reader looked at every chunk for
     * every CPU, CPUS * CPUS * ROUNDS steps). */
    CHECK(src.chunks_visited <= info->nchunks, "%llu steps for %zu chunks",
          (unsigned long long)src.chunks_visited, info->nchunks);
    record_source_free(&src);
    /* One CPU alone: its chunks only. */
    CHECK(record_source_perf(&src, f, &ix, 100), "source of one CPU");
    armprof_spe_stream_init(&s);
    size_t n = 0;
    while (record_source_refill(&src, &s) && s.chunk_size) {
        n += s.chunk_size;
        armprof_spe_stream_init(&s);
    }
    CHECK(n == 8 * ROUNDS && src.chunks_visited <= ROUNDS, "CPU 100: %zu bytes in %llu steps", n,
          (unsigned long long)src.chunks_visited);
    record_source_free(&src);
    perf_cpu_index_free(&ix);
    armprof_perf_close(f);
    remove(path);
}

static void check_empty_aux(void)
{
    enum { EMPTY = 100000 };
    char path[128];
    if (!write_perf(tmp("empty.data", path, sizeof path), 1, 1, EMPTY)) return;
    char err[512];
    armprof_perf_file *f = armprof_perf_open(path, err, sizeof err);
    CHECK(f != NULL, "open: %s", err);
    if (!f) return;
    const armprof_perf_file_info *info = armprof_perf_info(f);
    CHECK(info->nchunks == 1 && info->aux_empty == EMPTY && info->aux_bytes == 8,
          "%zu chunks indexed, %zu empty counted", info->nchunks, info->aux_empty);
    armprof_perf_close(f);
    remove(path);
}

static void check_distinct_cap(void)
{
    enum { LIMIT = 100, KEYS = 100000 };
    report_map m = {.limit = LIMIT};
    uint64_t added = 0;
    bool ok = true;
    size_t most = 0;
    for (uint64_t k = 0; k < KEYS && ok; k++) {
        /* key 7 is hot: every tenth sample */
        ok = report_map_add(&m, k % 10 ? 1000 + k : 7);
        added++;
        if (m.used > most) most = m.used;
    }
    CHECK(ok, "out of memory");
    CHECK(most <= LIMIT && m.cap <= 4 * LIMIT, "kept at most %zu (%zu), table of %zu", most,
          (size_t)LIMIT, m.cap);
    report_count *list = NULL;
    CHECK(report_map_sorted(&m, &list), "sorted");
    uint64_t kept = 0;
    for (size_t i = 0; list && i < m.used; i++)
        kept += list[i].count;
    CHECK(kept + m.folded_samples == added, "%llu kept + %llu folded == %llu samples",
          (unsigned long long)kept, (unsigned long long)m.folded_samples,
          (unsigned long long)added);
    CHECK(list && list[0].key == 7 && list[0].count == KEYS / 10,
          "the hot key kept with its count");
    CHECK(m.folded_keys >= KEYS - KEYS / 10 - LIMIT, "%llu folded",
          (unsigned long long)m.folded_keys);
    free(list);
    report_map_free(&m);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: reading eio|many_cpus|empty_aux|distinct_cap\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "/tmp/armprof-reading-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    if (!strcmp(argv[1], "eio"))
        check_eio();
    else if (!strcmp(argv[1], "many_cpus"))
        check_many_cpus();
    else if (!strcmp(argv[1], "empty_aux"))
        check_empty_aux();
    else if (!strcmp(argv[1], "distinct_cap"))
        check_distinct_cap();
    else
        CHECK(false, "unknown case '%s'", argv[1]);
    rmdir(dir);
    return check_summary();
}
