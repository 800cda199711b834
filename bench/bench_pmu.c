/* SPDX-License-Identifier: BSD-3-Clause */
/* PMU counting throughput: an Armv9.4 PE with 8 event counters counting
 * CPU_CYCLES, INST_RETIRED, BR_RETIRED, BR_MIS_PRED_RETIRED, LD_RETIRED,
 * ST_RETIRED, MEM_ACCESS and L1D_CACHE_REFILL at EL1, plus the cycle and
 * instruction counters. Each operation of a fixed mix retires and ends one
 * cycle, as a simulator that calls the model once per instruction would.
 * Prints operations per second. Usage: bench_pmu [OPERATIONS] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 100000000L;
    armprof_config cfg;
    armprof_config_preset(&cfg, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "bench_pmu: %s\n", err);
        return 2;
    }
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    const char *events[8] = {"CPU_CYCLES", "INST_RETIRED", "BR_RETIRED", "BR_MIS_PRED_RETIRED",
                             "LD_RETIRED", "ST_RETIRED",   "MEM_ACCESS", "L1D_CACHE_REFILL"};
    char name[32];
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "PMEVTYPER%d_EL0", i);
        bench_set(pe, name, (uint64_t)armprof_pmu_event_number(events[i]));
    }
    bench_set(pe, "MDCR_EL2", 8); /* HPMN = 8: every counter in the first range */
    bench_set(pe, "PMCR_EL0", 1); /* E */
    bench_set(pe, "PMCNTENSET_EL0", 0x1800000ffull); /* P0..P7, C, F0 */
    armprof_set_el(pe, 1, err, sizeof err);

    armprof_op mix[8] = {{0}};
    mix[1].op_class = ARMPROF_OP_LOAD;
    mix[1].l1d_access = true;
    mix[3].op_class = ARMPROF_OP_STORE;
    mix[5].op_class = ARMPROF_OP_BRANCH;
    mix[6].op_class = ARMPROF_OP_LOAD;
    mix[6].l1d_access = mix[6].l1d_refill = true;
    mix[7].op_class = ARMPROF_OP_BRANCH;
    mix[7].mispredicted = true;

    const double t0 = bench_now();
    for (long i = 0; i < n; i++) {
        armprof_retire(pe, &mix[i & 7]);
        armprof_cycles(pe, 1);
    }
    const double t = bench_now() - t0;
    unsigned idx;
    const uint64_t cycles = armprof_reg_get(pe, armprof_reg_lookup("PMCCNTR_EL0", &idx), 0);
    const uint64_t insts = armprof_reg_get(pe, armprof_reg_lookup("PMEVCNTR1_EL0", &idx), 1);
    printf("bench_pmu: %ld operations in %.3f s: %.1f million operations per second "
           "(PMCCNTR_EL0 %llu, INST_RETIRED %llu)\n",
           n, t, (double)n / t / 1e6, (unsigned long long)cycles, (unsigned long long)insts);
    armprof_pe_destroy(pe);
    return 0;
}
