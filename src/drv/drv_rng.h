/* SPDX-License-Identifier: BSD-3-Clause */
/* A deterministic pseudo-random generator (xorshift64) for workloads and
 * randomized tests: the same seed gives the same run on every machine. */
#ifndef ARMPROF_DRV_RNG_H
#define ARMPROF_DRV_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s; /* never 0 */
} rng;

static inline uint64_t rnd(rng *r)
{
    uint64_t x = r->s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    r->s = x;
    return x;
}

/* 0 .. n-1 */
static inline unsigned below(rng *r, unsigned n)
{
    return (unsigned)(rnd(r) % n);
}

/* true once in one_in draws, on average */
static inline bool chance(rng *r, unsigned one_in)
{
    return below(r, one_in) == 0;
}

#endif
