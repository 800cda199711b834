/* SPDX-License-Identifier: BSD-3-Clause */
/* PMU counting throughput: an Armv9.4 PE with 8 event counters counting
 * CPU_CYCLES, INST_RETIRED, BR_RETIRED, BR_MIS_PRED_RETIRED, LD_RETIRED,
 * ST_RETIRED, MEM_ACCESS and L1D_CACHE_REFILL at EL1, plus the cycle and
 * instruction counters. Each operation of a fixed mix retires and ends one
 * cycle, as a simulator that calls the model once per instruction would.
 * Prints operations per second. A second PE counts the same operations
 * through the batch interface: runs of 64 operations (armprof_retire_run(),
 * as long as armprof_ops_until_event() allows) and armprof_cycles(64), and
 * must end with the same counts. Usage: bench_pmu [OPERATIONS] */
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
    armprof_pe *pe2 = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe2) {
        fprintf(stderr, "bench_pmu: %s\n", err);
        return 2;
    }
    armprof_set_security_state(pe2, ARMPROF_SS_NONSECURE, err, sizeof err);
    for (int i = 0; i < 8; i++) {
        snprintf(name, sizeof name, "PMEVTYPER%d_EL0", i);
        bench_set(pe2, name, (uint64_t)armprof_pmu_event_number(events[i]));
    }
    bench_set(pe2, "MDCR_EL2", 8);
    bench_set(pe2, "PMCR_EL0", 1);
    bench_set(pe2, "PMCNTENSET_EL0", 0x1800000ffull);
    armprof_set_el(pe2, 1, err, sizeof err);

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

    /* The batch pass: 64 operations of the mix (8 times each of its 8) per
     * run: 16 branches (8 mispredicted), 16 loads, 8 stores; 16 L1D
     * accesses, 8 refills; the last operation is a branch, not taken. */
    armprof_op_run block = ARMPROF_OP_RUN_INIT;
    block.ops = 64;
    block.branches = 16;
    block.mispredicted = 8;
    block.loads = 16;
    block.stores = 8;
    block.l1d_access = 16;
    block.l1d_refill = 8;
    block.last_is_branch = true;
    block.last_branch_next = 4;
    const double t1 = bench_now();
    long done = 0;
    while (done + 64 <= n) {
        if (armprof_ops_until_event(pe2) < 64 || !armprof_retire_run(pe2, &block)) {
            for (int k = 0; k < 64; k++)
                armprof_retire(pe2, &mix[k & 7]);
        }
        armprof_cycles(pe2, 64);
        done += 64;
    }
    for (; done < n; done++) {
        armprof_retire(pe2, &mix[done & 7]);
        armprof_cycles(pe2, 1);
    }
    const double t_batch = bench_now() - t1;
    unsigned idx;
    const uint64_t cycles = armprof_reg_get(pe, armprof_reg_lookup("PMCCNTR_EL0", &idx), 0);
    const uint64_t insts = armprof_reg_get(pe, armprof_reg_lookup("PMEVCNTR1_EL0", &idx), 1);
    printf("bench_pmu: %ld operations in %.3f s: %.1f million operations per second "
           "(PMCCNTR_EL0 %llu, INST_RETIRED %llu)\n",
           n, t, (double)n / t / 1e6, (unsigned long long)cycles, (unsigned long long)insts);
    bool same = true;
    char reg[32];
    for (int i = 0; i < 8; i++) {
        snprintf(reg, sizeof reg, "PMEVCNTR%d_EL0", i);
        const int r = armprof_reg_lookup(reg, &idx);
        same = same && armprof_reg_get(pe, r, idx) == armprof_reg_get(pe2, r, idx);
    }
    const int icntr = armprof_reg_lookup("PMICNTR_EL0", &idx);
    same = same && armprof_reg_get(pe, icntr, 0) == armprof_reg_get(pe2, icntr, 0);
    printf("bench_pmu: batch interface (runs of 64, cycles of 64): %.3f s, %.1f million "
           "operations per second; counts %s\n",
           t_batch, (double)n / t_batch / 1e6, same ? "identical" : "DIFFERENT");
    armprof_pe_destroy(pe2);
    armprof_pe_destroy(pe);
    return 0;
}
