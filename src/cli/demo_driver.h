/* SPDX-License-Identifier: BSD-3-Clause */
/* `armprof demo`'s system software: EL3 firmware, an EL2 hypervisor and an
 * EL1 kernel programming the PMU, PMU snapshots, PC sampling and the
 * Statistical Profiling Extension of an Armv9.4 PE, then running the
 * synthetic workload at EL0 while servicing Profiling Buffer interrupts. */
#ifndef ARMPROF_CLI_DEMO_DRIVER_H
#define ARMPROF_CLI_DEMO_DRIVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/armprof.h"
#include "cli/demo_workload.h"

enum { DEMO_COUNTERS = 6 };

typedef struct demo_params {
    uint64_t ops; /* instructions the workload retires, split among the phases */
    FILE *log;    /* the narrative of what the software does; NULL: silent */
} demo_params;

/* The saved values of one successful Capture event. */
typedef struct demo_snapshot {
    uint64_t cycles;       /* PMCCNTSVR_EL1 */
    uint64_t instructions; /* PMICNTSVR_EL1 */
    uint64_t counter[DEMO_COUNTERS];
} demo_snapshot;

typedef struct demo_result {
    /* The Profiling Buffer's contents, each time the kernel emptied it, in
     * order: the records as the unit wrote them, padding included. */
    uint8_t *data;
    size_t size;
    /* The records the unit constructed, as its sink saw them. */
    uint8_t *sink_data;
    size_t sink_size;
    uint64_t sink_records;
    armprof_spe_stats stats;
    uint64_t irqs;        /* PMBIRQ handler invocations */
    uint64_t buffer_full; /* ... that found a buffer full event */
    uint64_t faults;      /* ... that found anything else (profiling stopped) */
    uint64_t truncated;   /* PMBSR_EL1.DL seen */
    uint64_t irq_stuck;   /* PMBIRQ still high after the handler */
    unsigned align_log2, max_size_log2, interval;
    /* snapshot[0] before the first phase, snapshot[p + 1] after phase p */
    demo_snapshot snapshot[DEMO_PHASES + 1];
    unsigned snapshots;      /* successful Capture events */
    unsigned snapshot_polls; /* PMSSCR_EL1 reads waiting for SS to clear */
    const char *counter_name[DEMO_COUNTERS];
    uint64_t phase_ops[DEMO_PHASES];
    /* PC sampling: PMPCSR reads, those with a sample, by phase code range */
    uint64_t pc_reads, pc_samples, pc_in_phase[DEMO_PHASES + 1];
    unsigned traps;    /* EL1 register accesses the hypervisor emulated */
    unsigned failures; /* register accesses that did not complete */
    char failure[160];
} demo_result;

/* Runs the demo. false with a message in err when the PE cannot be built;
 * otherwise *r holds the outcome (free it with demo_result_free()). */
bool demo_run(const demo_params *p, demo_result *r, char *err, size_t errlen);
void demo_result_free(demo_result *r);

#endif
