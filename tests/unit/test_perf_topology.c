/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU and NUMA topology a perf.data file carries for perf c2c and perf
 * mem (include/armprof/perfdata.h: armprof_perf_writer_config.topology).
 *
 * The bytes are checked against the layout of perf's header features
 * (tools/perf/util/header.c, write_cpu_topology() and
 * write_numa_topology(); tools/perf/Documentation/perf.data-file-format.txt):
 *   HEADER_TOTAL_MEM (10): u64 kB;
 *   HEADER_CPU_TOPOLOGY (13): u32 count, the package CPU lists; u32 count,
 *     the thread sibling lists; per CPU u32 core id, u32 socket id;
 *   HEADER_NUMA_TOPOLOGY (14): u32 count; per node u32 node, u64 total kB,
 *     u64 free kB, its CPU list;
 * each string a u32 length (with the NUL, padded to 64) and the bytes; a
 * CPU list as Linux's sysfs writes it ("0-1", "0,2"). The expected values
 * follow from the topology given: 4 CPUs, 2 clusters of 2 cores, cluster n
 * on node n with n + 1 GiB of memory.
 *
 * Then the reader gives the topology back, and names the feature and field
 * of each damage; the writer refuses topologies perf could not read. */
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

static const armprof_perf_cpu_topology four[4] = {
    {.core = 0, .cluster = 0, .node = 0},
    {.core = 1, .cluster = 0, .node = 0},
    {.core = 0, .cluster = 1, .node = 1},
    {.core = 1, .cluster = 1, .node = 1},
};
static const uint64_t memory[2] = {1ull << 30, 2ull << 30};

static bool write_with(const char *path, uint32_t ncpus, const armprof_perf_cpu_topology *t,
                       const uint64_t *mem, char *err, size_t errlen)
{
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    c.ncpus = ncpus;
    c.topology = t;
    c.node_memory = mem;
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, errlen);
    if (!w) return false;
    static const uint8_t aux[8]; /* Padding */
    for (uint32_t cpu = 0; cpu < ncpus; cpu++)
        armprof_perf_write_aux(w, cpu, aux, sizeof aux);
    return armprof_perf_writer_finish(w, err, errlen);
}

/* The contents of the feature with section index i (bits in order). */
static const uint8_t *feature(const uint8_t *b, size_t i, size_t *size)
{
    const size_t data_end = (size_t)(le(b + 40, 8) + le(b + 48, 8));
    *size = (size_t)le(b + data_end + 16 * i + 8, 8);
    return b + le(b + data_end + 16 * i, 8);
}

/* A perf string at p: its length (64, the padding) and its text. */
static bool string_is(const uint8_t *p, const char *want)
{
    return le(p, 4) == 64 && strcmp((const char *)p + 4, want) == 0;
}

static void check_layout(const char *path)
{
    size_t size, n;
    uint8_t *b = slurp(path, &size);
    CHECK(b != NULL, "read back %s", path);
    if (!b) return;
    /* bits 3-7, 9, 10, 12, 13, 14, 16: TOTAL_MEM is the 7th, CPU_TOPOLOGY
     * the 9th, NUMA_TOPOLOGY the 10th */
    CHECK(le(b + 72, 8) == 0x176f8, "feature bits 0x%llx", (unsigned long long)le(b + 72, 8));
    const uint8_t *p = feature(b, 6, &n);
    CHECK(n == 8 && le(p, 8) == 3u << 20, "TOTAL_MEM: 3 GiB = 3145728 kB, not %llu",
          (unsigned long long)le(p, 8));
    p = feature(b, 8, &n);
    /* 2 package lists, 4 thread lists, 4 (core, socket) pairs */
    CHECK(n == 4 + 2 * 68 + 4 + 4 * 68 + 4 * 8, "CPU_TOPOLOGY size %zu", n);
    if (n == 448) {
        CHECK(le(p, 4) == 2 && string_is(p + 4, "0-1") && string_is(p + 72, "2-3"),
              "package lists");
        const uint8_t *t = p + 140;
        CHECK(le(t, 4) == 4 && string_is(t + 4, "0") && string_is(t + 72, "1") &&
                  string_is(t + 140, "2") && string_is(t + 208, "3"),
              "thread sibling lists: one thread a core");
        const uint8_t *ids = t + 276;
        for (unsigned cpu = 0; cpu < 4; cpu++)
            CHECK(le(ids + 8 * cpu, 4) == four[cpu].core &&
                      le(ids + 8 * cpu + 4, 4) == four[cpu].cluster,
                  "CPU %u core and socket", cpu);
    }
    p = feature(b, 9, &n);
    CHECK(n == 4 + 2 * (4 + 8 + 8 + 68), "NUMA_TOPOLOGY size %zu", n);
    if (n == 180) {
        CHECK(le(p, 4) == 2, "2 nodes");
        for (unsigned node = 0; node < 2; node++) {
            const uint8_t *q = p + 4 + 88 * node;
            CHECK(le(q, 4) == node && le(q + 4, 8) == (node + 1) * 1048576ull &&
                      le(q + 12, 8) == 0 && string_is(q + 20, node ? "2-3" : "0-1"),
                  "node %u: number, memory in kB, free 0, CPU list", node);
        }
    }
    free(b);
}

static void check_read_back(const char *path)
{
    char err[512];
    armprof_perf_file *f = armprof_perf_open(path, err, sizeof err);
    CHECK(f != NULL, "open: %s", err);
    if (!f) return;
    const armprof_perf_file_info *i = armprof_perf_info(f);
    CHECK(i->nr_cpus_avail == 4 && i->nr_cpus_online == 4, "nrcpus %u %u", i->nr_cpus_avail,
          i->nr_cpus_online);
    CHECK(i->topology != NULL, "topology read");
    for (unsigned cpu = 0; i->topology && cpu < 4; cpu++)
        CHECK(i->topology[cpu].core == four[cpu].core &&
                  i->topology[cpu].cluster == four[cpu].cluster &&
                  i->topology[cpu].node == four[cpu].node,
              "CPU %u: core %u cluster %u node %u", cpu, i->topology[cpu].core,
              i->topology[cpu].cluster, i->topology[cpu].node);
    CHECK(i->nnodes == 2 && i->node_memory && i->node_memory[0] == memory[0] &&
              i->node_memory[1] == memory[1],
          "nodes and their memory");
    armprof_perf_close(f);
}

/* Lists that are not one range: CPUs 0 and 2 in cluster 0, 1 in 1. */
static void check_split_lists(const char *path)
{
    const armprof_perf_cpu_topology t[3] = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}};
    char err[256];
    CHECK(write_with(path, 3, t, NULL, err, sizeof err), "write: %s", err);
    size_t size, n;
    uint8_t *b = slurp(path, &size);
    if (!b) return;
    const uint8_t *p = feature(b, 8, &n);
    CHECK(le(p, 4) == 2 && string_is(p + 4, "0,2") && string_is(p + 72, "1"),
          "package lists 0,2 and 1");
    p = feature(b, 9, &n);
    CHECK(le(p, 4) == 1 && le(p + 8, 8) == 0 && string_is(p + 24, "0-2"),
          "one node, memory not said: 0 kB");
    free(b);
}

static void expect_write_error(const char *path, uint32_t ncpus, const armprof_perf_cpu_topology *t,
                               const char *want)
{
    char err[256] = "";
    CHECK(!write_with(path, ncpus, t, NULL, err, sizeof err), "written: want '%s'", want);
    CHECK(strstr(err, want) != NULL, "message '%s', want '%s'", err, want);
    CHECK(access(path, F_OK) != 0, "nothing left at %s", path);
}

/* The good file with the n bytes at the offset of feature index i plus at
 * replaced (or, with size_delta, its section's size changed), then read. */
static void expect_read_error(const char *good, const char *bad, size_t i, size_t at,
                              const char *bytes, size_t nbytes, int size_delta, const char *want)
{
    size_t size, n;
    uint8_t *b = slurp(good, &size);
    if (!b) return;
    uint8_t *p = (uint8_t *)feature(b, i, &n);
    memcpy(p + at, bytes, nbytes);
    if (size_delta) {
        const size_t data_end = (size_t)(le(b + 40, 8) + le(b + 48, 8));
        const uint64_t s = n + (uint64_t)(int64_t)size_delta;
        for (unsigned k = 0; k < 8; k++)
            b[data_end + 16 * i + 8 + k] = (uint8_t)(s >> (8 * k));
    }
    spill(bad, b, size);
    free(b);
    char err[512] = "";
    armprof_perf_file *f = armprof_perf_open(bad, err, sizeof err);
    CHECK(f == NULL, "opened: want '%s'", want);
    armprof_perf_close(f);
    CHECK(strstr(err, want) != NULL, "message '%s', want '%s'", err, want);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/armprof-topology-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    char good[128], bad[128];
    snprintf(good, sizeof good, "%s/good.data", dir);
    snprintf(bad, sizeof bad, "%s/bad.data", dir);
    char err[256];
    CHECK(write_with(good, 4, four, memory, err, sizeof err), "write: %s", err);
    check_layout(good);
    check_read_back(good);

    /* node 1's list text "2-3": node 1 at 4 + 88, its list's length after
     * 4 + 8 + 8 bytes, the text 4 bytes on */
    expect_read_error(good, bad, 9, 116, "2-9", 3, 0,
                      "HEADER_NUMA_TOPOLOGY: node 1's CPU list \"2-9\": a CPU beyond "
                      "HEADER_NRCPUS's available CPUs (CPU 4, of 4)");
    expect_read_error(good, bad, 9, 116, "2-x", 3, 0,
                      "HEADER_NUMA_TOPOLOGY: node 1's CPU list \"2-x\": not a CPU list");
    expect_read_error(good, bad, 9, 116, "1-3", 3, 0,
                      "node 1's CPU list \"1-3\": a CPU of another node too (CPU 1, of 4)");
    /* CPU 0 named too */
    expect_read_error(good, bad, 9, 116, "0-3", 3, 0,
                      "node 1's CPU list \"0-3\": a CPU of another node too (CPU 0, of 4)");
    expect_read_error(good, bad, 9, 0, "\377\377\377\377", 4, 0,
                      "HEADER_NUMA_TOPOLOGY: the count of nodes, 4294967295, does not fit");
    /* the last socket id cut off */
    expect_read_error(good, bad, 8, 0, "", 0, -4,
                      "HEADER_CPU_TOPOLOGY: CPU 3's socket id at byte 444: the feature's 444 "
                      "bytes end before it");
    /* a string length beyond the feature */
    expect_read_error(good, bad, 8, 4, "\377\377\0\0", 4, 0,
                      "HEADER_CPU_TOPOLOGY: package CPU list 0 at byte 8: the feature's 448 "
                      "bytes end before it");
    /* HEADER_NRCPUS saying more CPUs than the reader keeps */
    expect_read_error(good, bad, 4, 0, "\0\0\0\1", 4, 0,
                      "HEADER_NRCPUS: nr_cpus_avail is 16777216");

    remove(bad);
    const armprof_perf_cpu_topology gap[2] = {{0, 0, 0}, {1, 0, 2}};
    expect_write_error(bad, 2, gap, "topology: node 1 has no CPU");
    const armprof_perf_cpu_topology far[1] = {{0, 0, ARMPROF_PERF_MAX_NODES}};
    expect_write_error(bad, 1, far, "topology: CPU 0's node is 64");

    check_split_lists(bad);
    remove(bad);
    remove(good);
    rmdir(dir);
    return check_summary();
}
