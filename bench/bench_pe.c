/* SPDX-License-Identifier: BSD-3-Clause */
/* PE creation and destruction: armprof_pe_create() from the armv9.4-all
 * preset (configuration check, register tables, reset) and
 * armprof_pe_destroy(), in a loop, as a fuzzer or a many-core simulator does.
 * Prints PEs per second. Usage: bench_pe [PES] (default 20000) */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"
#include "bench_common.h"

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 20000L;
    if (n <= 0) {
        fprintf(stderr, "usage: bench_pe [PES]\n");
        return 2;
    }
    armprof_config c;
    armprof_config_preset(&c, "armv9.4-all");
    char err[256];
    uint64_t sum = 0;
    const double t0 = bench_now();
    for (long i = 0; i < n; i++) {
        armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
        if (!pe) {
            fprintf(stderr, "bench_pe: %s\n", err);
            return 2;
        }
        sum += armprof_current_el(pe);
        armprof_pe_destroy(pe);
    }
    const double t = bench_now() - t0;
    printf("bench_pe: %ld PEs created and destroyed in %.3f s: %.0f PEs per second (checksum %llu)\n",
           n, t, (double)n / t, (unsigned long long)sum);
    return 0;
}
