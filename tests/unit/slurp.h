/* SPDX-License-Identifier: BSD-3-Clause */
/* A file's bytes, read whole, for the tests that damage or replay one,
 * written back, and little-endian numbers in them. */
#ifndef ARMPROF_TEST_SLURP_H
#define ARMPROF_TEST_SLURP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes of path (*size of them, the caller's to free), or NULL. */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    rewind(f);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return b;
}

/* path made to hold the n bytes at b (aborts if it cannot) */
static inline void spill(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (n && fwrite(b, 1, n, f) != n) abort();
    fclose(f);
}

/* The little-endian number of n bytes at p. */
static inline uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n--)
        v = v << 8 | p[n];
    return v;
}

#endif
