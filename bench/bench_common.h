/* SPDX-License-Identifier: BSD-3-Clause */
/* What the benchmarks share: a clock and a register set by name. */
#ifndef ARMPROF_BENCH_COMMON_H
#define ARMPROF_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"

/* The process's CPU time: the benchmarks run one thread, and on a machine
 * shared with other work the wall time also counts their time slices (a
 * pass of 0.1 s preempted once is 20% slower, and a ratio of two passes
 * moved by a third). On an idle machine the two agree. */
static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A replayed stream is read far faster than a PE's inner loop reads its
 * operations; without a prefetch a long call per operation leaves the
 * hardware prefetcher behind, and the benchmark measures memory latency
 * rather than the model. Every pass prefetches alike, 32 operations ahead. */
#define bench_prefetch_stream(p) __builtin_prefetch((p) + 32)

/* Makes the compiler store *p: the object is used by something it cannot
 * see, as an armprof_op passed to the library is. */
static inline void bench_keep(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* Debugger-style write of a register by name; exits if the name is unknown. */
static inline void bench_set(armprof_pe *pe, const char *name, uint64_t value)
{
    unsigned idx;
    const int r = armprof_reg_lookup(name, &idx);
    if (r < 0) {
        fprintf(stderr, "bench: no register %s\n", name);
        exit(2);
    }
    armprof_reg_set(pe, r, idx, value);
}

/* An armv9.4-all PE at Non-secure EL1 sampling one operation in 1024 + 1
 * into a 1MB Profiling Buffer at PA 0x8000_0000 (stage 1 off: SCTLR_EL1.M
 * resets to 0), with timestamps, physical addresses and context IDs. Exits
 * with a message naming prog if the PE cannot be made. */
static inline armprof_pe *bench_spe_pe(const char *prog, uint64_t *buffer, uint64_t *buffer_size)
{
    armprof_config cfg;
    armprof_config_preset(&cfg, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "%s: %s\n", prog, err);
        exit(2);
    }
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    bench_set(pe, "MDCR_EL3", 3ull << 12); /* NSPB = 0b11: Non-secure owns the buffer */
    bench_set(pe, "MDCR_EL2", 2ull << 12); /* E2PB = 0b10: owned by EL1 */
    bench_set(pe, "HCR_EL2", 1ull << 31);  /* RW */
    bench_set(pe, "PMBSR_EL1", 0);
    *buffer = 0x80000000u;
    *buffer_size = 1u << 20;
    bench_set(pe, "PMBPTR_EL1", *buffer);
    bench_set(pe, "PMBLIMITR_EL1", (*buffer + *buffer_size) | 1); /* LIMIT, E */
    bench_set(pe, "PMSCR_EL2", 0x38);                             /* TS, PA, CX */
    bench_set(pe, "PMSCR_EL1", 0x3b);                             /* TS, PA, CX, E1SPE, E0SPE */
    bench_set(pe, "PMSFCR_EL1", 0);
    bench_set(pe, "PMSIRR_EL1", 0x400); /* INTERVAL 4: one sample every 1024 + 1 operations */
    bench_set(pe, "PMSICR_EL1", 0);
    if (!armprof_set_el(pe, 1, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        exit(2);
    }
    return pe;
}

#endif
