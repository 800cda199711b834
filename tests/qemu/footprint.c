/* SPDX-License-Identifier: BSD-3-Clause */
/* A footprint read in a loop (tests/qemu/memory.sh): FOOTPRINT bytes,
 * written once, then read a 64-byte line at a time, PASSES times. Every
 * load of a pass is to a line the previous pass read FOOTPRINT bytes ago:
 * an LRU level holds it if FOOTPRINT fits in it, and never otherwise (a
 * cyclic walk larger than a set-associative LRU cache misses every time).
 *
 *   footprint FOOTPRINT PASSES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: footprint FOOTPRINT PASSES\n", stderr);
        return 2;
    }
    const size_t bytes = strtoull(argv[1], NULL, 0);
    const unsigned passes = (unsigned)strtoul(argv[2], NULL, 0);
    char *a = aligned_alloc(4096, bytes);
    if (!a) {
        fputs("footprint: out of memory\n", stderr);
        return 2;
    }
    memset(a, 1, bytes);
    uint64_t s = 0;
    for (unsigned p = 0; p < passes; p++)
        for (size_t i = 0; i < bytes; i += 64)
            s += *(volatile uint64_t *)(a + i);
    return (int)(s & 1);
}
