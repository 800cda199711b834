/* What the benchmarks share: a monotonic clock and a register set by name. */
#ifndef ARMPROF_BENCH_COMMON_H
#define ARMPROF_BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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

#endif
