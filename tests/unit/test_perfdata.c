/* SPDX-License-Identifier: BSD-3-Clause */
/* The perf.data writer and reader (include/armprof/perfdata.h).
 *
 * The layout checks read the written file with the offsets and numbers of
 * perf's format documentation (tools/perf/Documentation/
 * perf.data-file-format.txt: the 104-byte header "PERFILE2", size,
 * attr_size, the attrs, data and event_types sections, the feature
 * bitmap), of the kernel's ABI (include/uapi/linux/perf_event.h:
 * perf_event_header, PERF_RECORD_COMM 3 and MMAP2 10, the sample_id
 * fields of sample_id_all in sample_type order), of perf's own records
 * (AUXTRACE_INFO 70, AUXTRACE 71 with its 48-byte header, TIME_CONV 79,
 * FINISHED_ROUND 68; auxtrace type 4 for arm_spe) and of perf's arm_spe
 * metadata (tools/perf/util/arm-spe.h: version 1 [PMU type, per-CPU
 * mmaps]; version 2 [version 2, header size 4, PMU type, CPUs] then per
 * CPU [magic 0x1010101010101010, CPU, parameter count, MIDR, PMU type,
 * minimum interval, event filter]). The numbers are written out here, not
 * taken from the writer's own header.
 *
 * Then the reader on the writer's files (every AUX byte back), and on
 * files damaged in each way the reader must name. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/perfdata.h"
#include "check.h"
#include "slurp.h"

static char dir[64];
static char path_buf[128];
static const char *tmp(const char *name)
{
    snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
    return path_buf;
}

/* Two CPUs of made-up record bytes: what the reader must give back. */
static uint8_t aux0[1000], aux1[24];

static bool write_file(const char *path, armprof_perf_spe_metadata m)
{
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    c.metadata = m;
    c.ncpus = 2;
    c.pmu_type = 9;
    c.midr = 0x410fd490;
    c.min_interval = 1024;
    c.event_filter = 0x7f;
    char err[256];
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, sizeof err);
    CHECK(w != NULL, "create: %s", err);
    if (!w) return false;
    CHECK(armprof_perf_write_comm(w, 1000, 1001, "a-very-long-command-name", 5), "comm");
    CHECK(armprof_perf_write_mmap2(w, 1000, 1001, 0x400000, 0x4000, 0x1000, "/bin/app", 5),
          "mmap2");
    CHECK(armprof_perf_write_aux(w, 0, aux0, 600), "aux 0a");
    CHECK(armprof_perf_write_aux(w, 1, aux1, sizeof aux1), "aux 1");
    CHECK(armprof_perf_write_aux(w, 0, aux0 + 600, 400), "aux 0b");
    const bool ok = armprof_perf_writer_finish(w, err, sizeof err);
    CHECK(ok, "finish: %s", err);
    return ok;
}

/* The events of the data section, by type, in order. */
typedef struct event_at {
    uint32_t type;
    size_t at, size;
} event_at;

static size_t events_of(const uint8_t *b, size_t data_at, size_t data_size, event_at *ev,
                        size_t max)
{
    size_t n = 0, pos = data_at;
    while (pos + 8 <= data_at + data_size && n < max) {
        ev[n].type = (uint32_t)le(b + pos, 4);
        ev[n].at = pos;
        ev[n].size = (size_t)le(b + pos + 6, 2);
        if (ev[n].size < 8) break;
        pos += ev[n].size;
        if (ev[n].type == 71) pos += (size_t)le(b + ev[n].at + 8, 8); /* AUXTRACE data */
        n++;
    }
    return n;
}

static void check_layout(const char *path, armprof_perf_spe_metadata m)
{
    size_t size;
    uint8_t *b = slurp(path, &size);
    CHECK(b != NULL && size > 104, "read back %s", path);
    if (!b || size <= 104) return;
    CHECK(memcmp(b, "PERFILE2", 8) == 0, "magic");
    CHECK(le(b + 8, 8) == 104, "header size %llu", (unsigned long long)le(b + 8, 8));
    CHECK(le(b + 16, 8) == 128 + 16, "attr_size: perf_event_attr (VER7) and its ids section");
    const size_t attrs_at = (size_t)le(b + 24, 8), attrs_size = (size_t)le(b + 32, 8);
    const size_t data_at = (size_t)le(b + 40, 8), data_size = (size_t)le(b + 48, 8);
    CHECK(attrs_size == 144 && attrs_at + attrs_size <= size, "one attribute");
    CHECK(data_at + data_size <= size, "data section inside the file");
    /* the attribute: type = the PMU type, size 128, sample_type
     * IP|TID|TIME|CPU|IDENTIFIER (0x10087), sample_id_all (flag bit 18) */
    const uint8_t *a = b + attrs_at;
    CHECK(le(a, 4) == 9 && le(a + 4, 4) == 128, "attr type %llu size %llu",
          (unsigned long long)le(a, 4), (unsigned long long)le(a + 4, 4));
    CHECK(le(a + 24, 8) == 0x10087, "sample_type 0x%llx", (unsigned long long)le(a + 24, 8));
    CHECK(le(a + 40, 8) >> 18 & 1, "sample_id_all");
    const size_t ids_at = (size_t)le(a + 128, 8), ids_size = (size_t)le(a + 136, 8);
    CHECK(ids_size == 8 && ids_at + 8 <= size, "one id");
    const uint64_t id = ids_size == 8 && ids_at + 8 <= size ? le(b + ids_at, 8) : 0;
    /* the features: hostname, osrelease, version, arch, nrcpus, cpuid,
     * total_mem, event_desc, cpu_topology, numa_topology, pmu_mappings
     * (bits 3-7, 9, 10, 12, 13, 14 and 16) */
    const uint64_t feat = le(b + 72, 8);
    CHECK(feat == (1u << 3 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7 | 1u << 9 | 1u << 10 | 1u << 12 |
                   1u << 13 | 1u << 14 | 1u << 16),
          "feature bits 0x%llx", (unsigned long long)feat);
    /* the section table follows the data section; ARCH (the 4th) says
     * aarch64, NRCPUS (the 5th) 2 and 2 */
    const uint8_t *sect = b + data_at + data_size;
    const size_t arch_at = (size_t)le(sect + 3 * 16, 8);
    CHECK(le(b + arch_at, 4) == 64 && strcmp((const char *)b + arch_at + 4, "aarch64") == 0,
          "arch string");
    const size_t nr_at = (size_t)le(sect + 4 * 16, 8);
    CHECK(le(b + nr_at, 4) == 2 && le(b + nr_at + 4, 4) == 2, "nrcpus");
    const size_t cpuid_at = (size_t)le(sect + 5 * 16, 8);
    CHECK(strcmp((const char *)b + cpuid_at + 4, "0x00000000410fd490") == 0, "cpuid %s",
          (const char *)b + cpuid_at + 4);

    event_at ev[16];
    const size_t n = events_of(b, data_at, data_size, ev, 16);
    /* TIME_CONV, AUXTRACE_INFO, COMM, MMAP2, 3 AUXTRACE, FINISHED_ROUND */
    const uint32_t want[] = {79, 70, 3, 10, 71, 71, 71, 68};
    CHECK(n == 8, "%zu events", n);
    for (size_t i = 0; i < n && i < 8; i++)
        CHECK(ev[i].type == want[i], "event %zu type %u, want %u", i, ev[i].type, want[i]);
    if (n != 8) {
        free(b);
        return;
    }
    /* TIME_CONV: shift 0, mult 1, zero 0 */
    CHECK(le(b + ev[0].at + 8, 8) == 0 && le(b + ev[0].at + 16, 8) == 1 &&
              le(b + ev[0].at + 24, 8) == 0,
          "time conversion is the identity");
    /* AUXTRACE_INFO */
    const uint8_t *info = b + ev[1].at;
    CHECK(le(info + 8, 4) == 4, "auxtrace type arm_spe");
    const uint8_t *priv = info + 16;
    if (m == ARMPROF_PERF_SPE_METADATA_V1) {
        CHECK(ev[1].size == 16 + 2 * 8, "version 1: two words");
        CHECK(le(priv, 8) == 9 && le(priv + 8, 8) == 1, "PMU type, per-CPU mmaps");
    } else {
        CHECK(ev[1].size == 16 + (4 + 2 * 7) * 8, "version 2: 4 + 2 x 7 words");
        CHECK(le(priv, 8) == 2 && le(priv + 8, 8) == 4 && le(priv + 16, 8) == 9 &&
                  le(priv + 24, 8) == 2,
              "version 2 header");
        for (unsigned cpu = 0; cpu < 2; cpu++) {
            const uint8_t *p = priv + 32 + cpu * 56;
            CHECK(le(p, 8) == 0x1010101010101010ull && le(p + 8, 8) == cpu && le(p + 16, 8) == 4 &&
                      le(p + 24, 8) == 0x410fd490 && le(p + 32, 8) == 9 && le(p + 40, 8) == 1024 &&
                      le(p + 48, 8) == 0x7f,
                  "CPU %u metadata", cpu);
        }
    }
    /* COMM: pid 1000, tid 1001, the name cut to 15 bytes and padded to 8,
     * then pid, tid, time 5, cpu 0, the attribute's id */
    const uint8_t *comm = b + ev[2].at;
    CHECK(ev[2].size == 8 + 8 + 16 + 32, "COMM size %zu", ev[2].size);
    CHECK(le(comm + 8, 4) == 1000 && le(comm + 12, 4) == 1001, "COMM pid, tid");
    CHECK(memcmp(comm + 16, "a-very-long-com\0", 16) == 0, "COMM name");
    CHECK(le(comm + 32, 4) == 1000 && le(comm + 36, 4) == 1001 && le(comm + 40, 8) == 5 &&
              le(comm + 48, 4) == 0 && le(comm + 56, 8) == id,
          "COMM sample id");
    /* MMAP2: addr, len, pgoff, prot/flags, the file name padded to 8 */
    const uint8_t *mm = b + ev[3].at;
    CHECK(le(mm + 6, 2) == ev[3].size && (le(mm + 4, 2) & 7) == 2, "MMAP2 misc user");
    CHECK(le(mm + 16, 8) == 0x400000 && le(mm + 24, 8) == 0x4000 && le(mm + 32, 8) == 0x1000,
          "MMAP2 addr, len, pgoff");
    CHECK(strcmp((const char *)mm + 72, "/bin/app") == 0, "MMAP2 file name");
    /* AUXTRACE: size (padded to 8), offset in the CPU's AUX area, idx,
     * tid -1, cpu */
    const struct {
        uint64_t size, offset;
        uint32_t cpu;
    } aux_want[3] = {{600, 0, 0}, {24, 0, 1}, {400, 600, 0}};
    for (unsigned i = 0; i < 3; i++) {
        const uint8_t *e = b + ev[4 + i].at;
        CHECK(ev[4 + i].size == 48 && le(e + 8, 8) == aux_want[i].size &&
                  le(e + 16, 8) == aux_want[i].offset && le(e + 32, 4) == aux_want[i].cpu &&
                  le(e + 36, 4) == 0xffffffffu && le(e + 40, 4) == aux_want[i].cpu,
              "AUXTRACE %u", i);
    }
    CHECK(memcmp(b + ev[4].at + 48, aux0, 600) == 0, "AUX bytes in place");
    free(b);
}

static void check_read_back(const char *path, armprof_perf_spe_metadata m)
{
    char err[512];
    armprof_perf_file *f = armprof_perf_open(path, err, sizeof err);
    CHECK(f != NULL, "open: %s", err);
    if (!f) return;
    const armprof_perf_file_info *i = armprof_perf_info(f);
    CHECK(i->metadata_version == (m == ARMPROF_PERF_SPE_METADATA_V1 ? 1u : 2u), "version %u",
          i->metadata_version);
    CHECK(i->pmu_type == 9, "pmu type %u", i->pmu_type);
    CHECK(i->nchunks == 3 && i->aux_bytes == 1024 && i->ncomm == 1 && i->nmmap == 1,
          "chunks %zu, bytes %llu", i->nchunks, (unsigned long long)i->aux_bytes);
    if (m == ARMPROF_PERF_SPE_METADATA_V2)
        CHECK(i->ncpus == 2 && i->midr[1] == 0x410fd490 && i->cpu_number[1] == 1, "per CPU");
    /* every CPU's bytes, read back in small pieces */
    uint8_t got0[1000], got1[24];
    size_t n0 = 0, n1 = 0;
    for (size_t k = 0; k < i->nchunks; k++) {
        const armprof_perf_aux_chunk *c = &i->chunks[k];
        for (uint64_t off = 0; off < c->size;) {
            uint8_t piece[7];
            const size_t n = armprof_perf_read_aux(f, c, off, piece, sizeof piece);
            CHECK(n > 0, "read chunk %zu at %llu: %s", k, (unsigned long long)off,
                  armprof_perf_error(f));
            if (!n) break;
            for (size_t j = 0; j < n; j++) {
                if (c->cpu == 0 && n0 < sizeof got0)
                    got0[n0++] = piece[j];
                else if (c->cpu == 1 && n1 < sizeof got1)
                    got1[n1++] = piece[j];
            }
            off += n;
        }
    }
    CHECK(n0 == sizeof aux0 && memcmp(got0, aux0, sizeof aux0) == 0, "CPU 0 bytes back");
    CHECK(n1 == sizeof aux1 && memcmp(got1, aux1, sizeof aux1) == 0, "CPU 1 bytes back");
    armprof_perf_close(f);
}

/* path opened must fail with a message holding want */
static void expect_error(const char *path, const char *want)
{
    char err[512] = "";
    armprof_perf_file *f = armprof_perf_open(path, err, sizeof err);
    CHECK(f == NULL && strstr(err, want) && strstr(err, path), "'%s' wanted, got '%s'", want, err);
    armprof_perf_close(f);
}

static void check_damaged(const char *good)
{
    size_t size;
    uint8_t *b = slurp(good, &size);
    if (!b) return;
    uint8_t *c = malloc(size);
    const char *p = tmp("damaged.data");

    spill(p, (const uint8_t *)"hello, world", 12);
    expect_error(p, "not a perf.data file");
    spill(p, (const uint8_t *)"PERF", 4);
    expect_error(p, "not a perf.data file");
    memcpy(c, b, size);
    memcpy(c, "PERFILE1", 8);
    spill(p, c, size);
    expect_error(p, "PERFILE1 is not supported");
    memcpy(c, "2ELIFREP", 8);
    spill(p, c, size);
    expect_error(p, "big-endian");
    /* the pipe-mode header: magic and size 16 */
    memcpy(c, b, 8);
    c[8] = 16;
    spill(p, c, 24);
    expect_error(p, "pipe-mode");
    spill(p, b, 60);
    expect_error(p, "header truncated");
    /* the file cut inside the data section */
    const size_t data_at = (size_t)le(b + 40, 8);
    spill(p, b, data_at + 100);
    expect_error(p, "passes the end of the file");
    /* an event of size 4 (TIME_CONV, the first) */
    memcpy(c, b, size);
    c[data_at + 6] = 4;
    c[data_at + 7] = 0;
    spill(p, c, size);
    expect_error(p, "with size 4");
    /* AUX data of another kind: Intel PT (1) */
    event_at ev[16];
    const size_t n = events_of(b, data_at, (size_t)le(b + 48, 8), ev, 16);
    if (n >= 5) {
        memcpy(c, b, size);
        c[ev[1].at + 8] = 1;
        spill(p, c, size);
        expect_error(p, "Intel PT");
        /* no AUXTRACE_INFO: its type changed to an unknown one */
        memcpy(c, b, size);
        c[ev[1].at] = 99;
        spill(p, c, size);
        expect_error(p, "no SPE data");
        /* metadata version 3 */
        memcpy(c, b, size);
        c[ev[1].at + 16] = 3;
        spill(p, c, size);
        expect_error(p, "metadata version 3");
        /* a CPU entry without its magic */
        memcpy(c, b, size);
        c[ev[1].at + 16 + 32] ^= 0xff;
        spill(p, c, size);
        expect_error(p, "magic");
        /* a compressed event (81) */
        memcpy(c, b, size);
        c[ev[2].at] = 81;
        spill(p, c, size);
        expect_error(p, "compressed");
        /* AUXTRACE data longer than the data section */
        memcpy(c, b, size);
        c[ev[4].at + 8 + 5] = 0x7f;
        spill(p, c, size);
        expect_error(p, "AUXTRACE data truncated");
    }
    expect_error(tmp("no-such-file.data"), "No such file");
    free(c);
    free(b);
}

/* Issue 44, part 3: what is at the path stays, byte for byte, until the
 * file is complete: a writer that fails or is abandoned leaves it (and no
 * file beside it), and a path that is one of the inputs is refused. */
static void check_existing_output_kept(armprof_perf_writer_config *c)
{
    static const char old[] = "not yet replaced\n";
    char err[256];
    FILE *f = fopen(tmp("keep.data"), "wb");
    CHECK(f && fwrite(old, 1, sizeof old - 1, f) == sizeof old - 1 && fclose(f) == 0,
          "writing keep.data");
    size_t size;
    armprof_perf_writer *w = armprof_perf_writer_create(tmp("keep.data"), c, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    armprof_perf_write_aux(w, 1, aux0, 8);
    CHECK(!armprof_perf_writer_finish(w, err, sizeof err), "finish after a failed call");
    uint8_t *back = slurp(tmp("keep.data"), &size);
    CHECK(back && size == sizeof old - 1 && !memcmp(back, old, size), "a failed writer kept it");
    free(back);
    armprof_perf_writer_abandon(armprof_perf_writer_create(tmp("keep.data"), c, err, sizeof err));
    back = slurp(tmp("keep.data"), &size);
    CHECK(back && size == sizeof old - 1 && !memcmp(back, old, size), "abandon kept it");
    free(back);
    char other[128], keep[128];
    snprintf(other, sizeof other, "%s", tmp("other.spe"));
    snprintf(keep, sizeof keep, "%s", tmp("keep.data"));
    const char *inputs[] = {other, keep};
    armprof_perf_writer_config in = *c;
    in.inputs = inputs;
    in.ninputs = 2;
    CHECK(!armprof_perf_writer_create(keep, &in, err, sizeof err) &&
              strstr(err, "the output is an input"),
          "an input as the output: %s", err);
    /* the folder holds keep.data and nothing beside it */
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s | grep keep.data | grep -vx keep.data)\"", dir);
    CHECK(system(cmd) == 0, "a temporary file was left beside keep.data");
    remove(tmp("keep.data"));
}

static void check_writer_errors(void)
{
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    char err[256];
    c.ncpus = 0;
    CHECK(!armprof_perf_writer_create(tmp("x.data"), &c, err, sizeof err) && strstr(err, "CPUs"),
          "0 CPUs: %s", err);
    armprof_perf_writer_config_init(&c);
    c.metadata = (armprof_perf_spe_metadata)7;
    CHECK(!armprof_perf_writer_create(tmp("x.data"), &c, err, sizeof err) &&
              strstr(err, "metadata version 7"),
          "version 7: %s", err);
    armprof_perf_writer_config_init(&c);
    CHECK(!armprof_perf_writer_create(tmp("no-dir/x.data"), &c, err, sizeof err) &&
              strstr(err, "no-dir/x.data"),
          "a file that cannot be made: %s", err);
    /* AUX data for a CPU the file does not have: the writer fails from
     * then on, and finishing removes the file */
    armprof_perf_writer *w = armprof_perf_writer_create(tmp("y.data"), &c, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    if (!w) return;
    CHECK(!armprof_perf_write_aux(w, 1, aux0, 8), "CPU 1 of 1");
    CHECK(strstr(armprof_perf_writer_error(w), "CPU 1 of a file with 1"), "error: %s",
          armprof_perf_writer_error(w));
    CHECK(!armprof_perf_write_comm(w, 1, 1, "x", 0), "later calls fail too");
    CHECK(!armprof_perf_writer_finish(w, err, sizeof err) && strstr(err, "CPU 1"), "finish: %s",
          err);
    CHECK(access(tmp("y.data"), F_OK) != 0, "the failed file is removed");
    w = armprof_perf_writer_create(tmp("z.data"), &c, err, sizeof err);
    armprof_perf_writer_abandon(w);
    CHECK(access(tmp("z.data"), F_OK) != 0, "an abandoned file is removed");
    check_existing_output_kept(&c);
    CHECK(armprof_perf_is_perf_data("PERFILE2", 8) && !armprof_perf_is_perf_data("PERFILE2", 7) &&
              !armprof_perf_is_perf_data("PERFILE1", 8),
          "magic test");
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/armprof-perfdata-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    for (size_t i = 0; i < sizeof aux0; i++)
        aux0[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof aux1; i++)
        aux1[i] = (uint8_t)(0xa0 + i);
    const armprof_perf_spe_metadata versions[] = {ARMPROF_PERF_SPE_METADATA_V1,
                                                  ARMPROF_PERF_SPE_METADATA_V2};
    for (unsigned v = 0; v < 2; v++) {
        char name[32];
        snprintf(name, sizeof name, "v%u.data", v + 1);
        char path[128];
        snprintf(path, sizeof path, "%s", tmp(name));
        if (write_file(path, versions[v])) {
            check_layout(path, versions[v]);
            check_read_back(path, versions[v]);
            if (v == 1) check_damaged(path);
        }
        remove(path);
    }
    check_writer_errors();
    remove(tmp("damaged.data"));
    rmdir(dir);
    return check_summary();
}
