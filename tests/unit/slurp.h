/* SPDX-License-Identifier: BSD-3-Clause */
/* A file's bytes, read whole, for the tests that damage or replay one. */
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

#endif
