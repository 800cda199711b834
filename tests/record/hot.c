/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof record's test program (tests/record/record.sh): hot_loop, where
 * nearly every instruction runs, reads and writes an array (loads and
 * stores for the filters); then with an argument N it exits with status N,
 * with "segv" it stores to address 0 (SIGSEGV, no handler). */
#include <stdlib.h>
#include <string.h>

static long data[4096];

__attribute__((noinline)) long hot_loop(int rounds)
{
    long s = 0;
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < 4096; i++) {
            s += data[i];
            data[i] = s;
        }
    return s;
}

int main(int argc, char **argv)
{
    hot_loop(200);
    /* a store to address 0 in assembly: a null store in C is one the
     * compiler may drop */
    if (argc > 1 && !strcmp(argv[1], "segv"))
        __asm__ volatile("mov x0, #0\n\tstr x0, [x0]" ::: "x0", "memory");
    return argc > 1 ? atoi(argv[1]) : 0;
}
