/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU and NUMA topology of a perf.data file: written as perf record
 * writes it on arm64 (HEADER_CPU_TOPOLOGY without dies, HEADER_NUMA_TOPOLOGY,
 * HEADER_TOTAL_MEM), and read back from the features' bytes. */
#ifndef ARMPROF_PERFDATA_TOPOLOGY_H
#define ARMPROF_PERFDATA_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/perfdata.h"
#include "perfdata/feature.h"

typedef struct perf_topology {
    uint32_t ncpus, nnodes;
    armprof_perf_cpu_topology *cpu; /* ncpus of them */
    uint64_t *node_memory;          /* nnodes of them, bytes */
} perf_topology;

/* The configuration's topology, or the default (one node, one cluster,
 * CPU n core n), copied into t. false with a message naming path, the CPU
 * and the field when it is not one perf can read. */
bool perf_topology_init(perf_topology *t, const armprof_perf_writer_config *c, const char *path,
                        char *err, size_t errlen);
void perf_topology_free(perf_topology *t);
/* The contents of feature bit (HEADER_TOTAL_MEM, HEADER_CPU_TOPOLOGY or
 * HEADER_NUMA_TOPOLOGY). */
void perf_topology_feature(const perf_topology *t, unsigned bit, perf_feature *f);

/* Reading: t->ncpus is HEADER_NRCPUS's nr_cpus_avail and t->cpu ncpus
 * entries, each field UINT32_MAX until a feature says it. */
bool perf_topology_read_start(perf_topology *t, uint32_t ncpus);
/* The feature's bytes (p, n) into t; false with a message naming the
 * feature and the field that is wrong. */
bool perf_topology_read_cpu(perf_topology *t, const uint8_t *p, size_t n, char *err, size_t errlen);
bool perf_topology_read_numa(perf_topology *t, const uint8_t *p, size_t n, char *err,
                             size_t errlen);

#endif
