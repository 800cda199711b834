/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the perf.data reader (include/armprof/perfdata.h) on
 * arbitrary bytes, opened from memory (fmemopen). Besides no crash, hang or
 * leak, it asserts the reader's promises: a refused file has a message; an
 * accepted one has arm_spe metadata of version 1 or 2, every AUX chunk lies
 * inside the file, the chunks add up to aux_bytes, and each reads back
 * whole, a block at a time.
 *
 * Also built without libFuzzer (FUZZ_PERFDATA_MAIN) as a ctest: a file the
 * writer made, then the same file with bytes changed, runs of bytes
 * overwritten and its end cut, pseudo-randomly. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_perfdata: %s:%d: %s\n", __FILE__, __LINE__, #cond);              \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0; /* fmemopen() wants a buffer */
    FILE *m = fmemopen((void *)data, size, "rb");
    if (!m) return 0;
    char err[512] = "";
    armprof_perf_file *f = armprof_perf_open_stream(m, "input", err, sizeof err);
    if (!f) {
        REQUIRE(strncmp(err, "input: ", 7) == 0 && strlen(err) > 7);
        fclose(m);
        return 0;
    }
    const armprof_perf_file_info *i = armprof_perf_info(f);
    REQUIRE(i->metadata_version == 1 || i->metadata_version == 2);
    REQUIRE(i->metadata_version == 1 || i->ncpus == 0 || (i->midr && i->cpu_number));
    uint64_t total = 0;
    static uint8_t block[4096];
    for (size_t k = 0; k < i->nchunks; k++) {
        const armprof_perf_aux_chunk *c = &i->chunks[k];
        REQUIRE(c->file_offset <= size && c->size <= size - c->file_offset);
        total += c->size;
        uint64_t got = 0;
        for (size_t n; (n = armprof_perf_read_aux(f, c, got, block, sizeof block)) > 0;)
            got += n;
        REQUIRE(got == c->size);
    }
    REQUIRE(total == i->aux_bytes);
    armprof_perf_close(f);
    fclose(m);
    return 0;
}

#ifdef FUZZ_PERFDATA_MAIN
static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

int main(void)
{
    /* a file of two CPUs, both metadata versions */
    uint8_t aux[300];
    for (size_t i = 0; i < sizeof aux; i++)
        aux[i] = (uint8_t)next();
    const char *path = "fuzz_perfdata.data";
    unsigned inputs = 0;
    for (unsigned v = 1; v <= 2; v++) {
        armprof_perf_writer_config c;
        armprof_perf_writer_config_init(&c);
        c.metadata = v == 1 ? ARMPROF_PERF_SPE_METADATA_V1 : ARMPROF_PERF_SPE_METADATA_V2;
        c.ncpus = 2;
        char err[256];
        armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, sizeof err);
        REQUIRE(w != NULL);
        REQUIRE(armprof_perf_write_comm(w, 7, 7, "task", 1));
        REQUIRE(armprof_perf_write_mmap2(w, 7, 7, 0x400000, 0x1000, 0, "/bin/x", 1));
        REQUIRE(armprof_perf_write_aux(w, 0, aux, 100));
        REQUIRE(armprof_perf_write_aux(w, 1, aux + 100, 200));
        REQUIRE(armprof_perf_writer_finish(w, err, sizeof err));
        FILE *f = fopen(path, "rb");
        REQUIRE(f != NULL);
        static uint8_t good[8192], bad[8192];
        const size_t n = fread(good, 1, sizeof good, f);
        fclose(f);
        remove(path);
        REQUIRE(n > 0 && n < sizeof good);
        LLVMFuzzerTestOneInput(good, n);
        for (unsigned run = 0; run < 3000; run++) {
            memcpy(bad, good, n);
            size_t len = n;
            const unsigned what = (unsigned)(next() % 3);
            if (what == 0) {
                for (unsigned k = 1 + (unsigned)(next() % 4); k--;)
                    bad[next() % n] = (uint8_t)next();
            } else if (what == 1) {
                const size_t at = (size_t)(next() % n);
                const size_t run_len = (size_t)(next() % 16);
                for (size_t k = at; k < at + run_len && k < n; k++)
                    bad[k] = (next() & 1) ? 0xff : 0x00;
            } else {
                len = (size_t)(next() % n);
            }
            LLVMFuzzerTestOneInput(bad, len);
            inputs++;
        }
    }
    printf("fuzz_perfdata: %u inputs\n", inputs + 2);
    return 0;
}
#endif
