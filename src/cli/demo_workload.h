/* SPDX-License-Identifier: BSD-3-Clause */
/* The synthetic workload `armprof demo` profiles: a user program at EL0
 * with four phases, each its own loop in its own range of code addresses
 * so that the hottest PCs of a profile tell the phases apart. */
#ifndef ARMPROF_CLI_DEMO_WORKLOAD_H
#define ARMPROF_CLI_DEMO_WORKLOAD_H

#include <stdint.h>

#include "armprof/armprof.h"
#include "drv/drv_rng.h"

enum { DEMO_PHASES = 4, DEMO_LOOP_MAX = 24 };

/* Architectural PMU event numbers the workload generates itself, beyond
 * what armprof_retire() derives from each operation. */
enum {
    DEMO_EV_DTLB_WALK = 0x34,
    DEMO_EV_LL_CACHE_MISS_RD = 0x37,
};

typedef struct demo_workload {
    rng rng; /* the same seed, the same run */
    unsigned phase;
    /* one iteration of the current phase's loop, retired one at a time */
    armprof_op loop[DEMO_LOOP_MAX];
    unsigned cost[DEMO_LOOP_MAX]; /* cycles each operation takes */
    unsigned n, next;
    uint64_t stream_off;  /* copy: bytes copied so far */
    uint64_t chase_node;  /* pointer chase: the node being visited */
    uint64_t bytecode_pc; /* interpreter: its virtual program counter */
    uint64_t cycles;      /* cycles the workload has taken */
} demo_workload;

const char *demo_phase_name(unsigned phase);
/* [first, end) of the phase's code. */
uint64_t demo_phase_code_start(unsigned phase);
uint64_t demo_phase_code_end(unsigned phase);
/* The PID the kernel gives each phase's task: it writes it to CONTEXTIDR_EL1
 * when it switches to the task (as Linux does with PID_IN_CONTEXTIDR), so
 * each record's Context packet names the task it sampled. */
#define DEMO_PID(phase) (1000u + (phase))

/* Which phase's code pc is in; DEMO_PHASES if none. */
unsigned demo_phase_of_pc(uint64_t pc);

void demo_workload_init(demo_workload *w, uint64_t seed);
/* Starts phase (0 .. DEMO_PHASES-1) at the top of its loop. */
void demo_workload_set_phase(demo_workload *w, unsigned phase);
/* The PE retires the next instruction: armprof_retire(), the PMU events the
 * operation causes beyond those, and the cycles it takes. */
void demo_workload_step(demo_workload *w, armprof_pe *pe);

#endif
