/* SPDX-License-Identifier: BSD-3-Clause */
/* Sample records constructed and written to the Profiling Buffer per second:
 * every operation is selected (PMSICR_EL1.COUNT set to 1 before each, as the
 * shortest interval taken to its limit), with every packet a load can have
 * on: timestamp, context (CONTEXTIDR_EL1 and _EL2), PC, data virtual and
 * physical address, events, counters (total, issue, translation latency)
 * and data source. The buffer is reset by the PMBIRQ handler whenever it
 * fills. Prints records per second. PMSICR_EL1 is a state register
 * (SR_STATE), so setting it leaves every unit's cached controls current.
 * Usage: bench_records [RECORDS] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 2000000L;
    if (n <= 0) {
        fprintf(stderr, "usage: bench_records [RECORDS]\n");
        return 2;
    }
    uint64_t buffer, buffer_size;
    armprof_pe *pe = bench_spe_pe("bench_records", &buffer, &buffer_size);
    unsigned idx = 0;
    const int icr = armprof_reg_lookup("PMSICR_EL1", &idx);
    armprof_op op = ARMPROF_OP_INIT;
    op.op_class = ARMPROF_OP_LOAD;
    op.l1d_access = true;
    op.total_latency = 40;
    op.issue_latency = 7;
    op.translation_latency = 3;
    op.data_source_valid = true;
    op.data_source = 3;
    op.events = ARMPROF_SPE_EV_TLB_ACCESS;
    uint64_t interrupts = 0;
    const double t0 = bench_now();
    for (long i = 0; i < n; i++) {
        if ((i & 63) == 0) {
            armprof_set_physical_count(pe, (uint64_t)i);
            if (armprof_pmbirq(pe)) {
                armprof_psb_csync(pe);
                bench_set(pe, "PMBPTR_EL1", buffer);
                bench_set(pe, "PMBSR_EL1", 0);
                interrupts++;
            }
        }
        armprof_reg_set(pe, icr, 0, 1); /* this operation is selected */
        op.pc = 0x400000 + 4 * (uint64_t)(i & 0xffff);
        op.vaddr = 0x7f0000000000ull + 8 * (uint64_t)(i & 0xfffff);
        op.paddr = 0x80000000ull + 8 * (uint64_t)(i & 0xfffff);
        armprof_retire(pe, &op);
    }
    const double t = bench_now() - t0;
    const armprof_spe_stats s = armprof_spe_get_stats(pe);
    printf("bench_records: %llu records (%.1f bytes each) in %.3f s: %.2f million records per "
           "second written to the Profiling Buffer (%llu written, %llu lost, %llu buffer full "
           "interrupts)\n",
           (unsigned long long)s.records, s.records ? (double)s.bytes / (double)s.records : 0.0, t,
           (double)s.records / t / 1e6, (unsigned long long)s.written, (unsigned long long)s.lost,
           (unsigned long long)interrupts);
    armprof_pe_destroy(pe);
    return 0;
}
