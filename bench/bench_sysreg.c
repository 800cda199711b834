/* SPDX-License-Identifier: BSD-3-Clause */
/* MRS/MSR throughput through the full access check: a mix of reads and
 * writes of the profiling controls from EL1 and EL2 on an Armv9.4 PE with the
 * EL3 and EL2 controls set so that most accesses complete, and some that are
 * UNDEFINED or trap. The PE changes EL every 64 accesses, as a kernel or
 * hypervisor does far less often; the time of those changes is included.
 * Prints accesses per second. Usage: bench_sysreg [ACCESSES] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "armprof/armprof.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int reg(const char *name)
{
    unsigned idx;
    const int r = armprof_reg_lookup(name, &idx);
    if (r < 0) {
        fprintf(stderr, "bench_sysreg: no register %s\n", name);
        exit(2);
    }
    return r;
}

static void set_field(armprof_pe *pe, const char *name, const char *field, uint64_t v)
{
    const int r = reg(name);
    unsigned hi, lo;
    if (!armprof_reg_field(r, field, &hi, &lo)) {
        fprintf(stderr, "bench_sysreg: no field %s.%s\n", name, field);
        exit(2);
    }
    armprof_reg_set(pe, r, 0, armprof_reg_get(pe, r, 0) | v << lo);
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 50000000L;
    armprof_config cfg;
    armprof_config_preset(&cfg, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "bench_sysreg: %s\n", err);
        return 2;
    }
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    set_field(pe, "SCR_EL3", "FGTEn", 1);
    set_field(pe, "SCR_EL3", "FGTEn2", 1);
    set_field(pe, "MDCR_EL3", "EnPMSS", 1);
    set_field(pe, "MDCR_EL3", "NSPB", 3);
    set_field(pe, "HDFGRTR2_EL2", "nPMSSCR_EL1", 1);
    set_field(pe, "HDFGWTR2_EL2", "nPMSSCR_EL1", 1);

    const struct {
        unsigned el;
        const char *name;
        int is_read;
    } mix[] = {
        {1, "PMSSCR_EL1", 1}, {1, "PMSCR_EL1", 0},      {1, "PMSCR_EL1", 1},
        {1, "PMSCR_EL2", 1},  {1, "PMECR_EL1", 1},      {1, "PMSSCR_EL1", 0},
        {1, "PMBPTR_EL1", 1}, {1, "CONTEXTIDR_EL1", 0}, {2, "PMSCR_EL2", 0},
        {2, "PMSCR_EL1", 1},  {2, "PMSCR_EL2", 1},      {2, "MDCR_EL2", 1},
        {2, "PMSSCR_EL1", 1}, {2, "PMBLIMITR_EL1", 1},  {2, "HCR_EL2", 1},
        {2, "PMBSR_EL1", 0},
    };
    /* the loop below takes k = 0..7 at EL1 and 8..15 at EL2 */
    _Static_assert(sizeof mix / sizeof mix[0] == 16, "the mix has two halves of 8");
    enum { MIX = sizeof mix / sizeof mix[0] };
    uint32_t enc[MIX];
    for (int i = 0; i < MIX; i++)
        enc[i] = armprof_reg_encoding(reg(mix[i].name), 0);

    uint64_t sink = 0;
    unsigned kinds[5] = {0};
    const double t0 = now();
    for (long i = 0; i < n; i++) {
        /* 64 accesses at EL1, then 64 at EL2: each half of the mix 8 times */
        const int k = (int)((i % 8) + ((i >> 6) & 1) * 8);
        if (armprof_current_el(pe) != mix[k].el) armprof_set_el(pe, mix[k].el, NULL, 0);
        const armprof_outcome o = mix[k].is_read ? armprof_mrs(pe, enc[k], 1)
                                                 : armprof_msr(pe, enc[k], 1, (uint64_t)i & 3);
        sink += o.value + o.iss;
        kinds[o.kind]++;
    }
    const double t = now() - t0;
    printf("bench_sysreg: %ld accesses in %.3f s: %.1f million MRS/MSR per second "
           "(done %u, undefined %u, trap %u, nvmem %u, unmodelled %u; checksum %llu)\n",
           n, t, (double)n / t / 1e6, kinds[ARMPROF_DONE], kinds[ARMPROF_UNDEFINED],
           kinds[ARMPROF_TRAP], kinds[ARMPROF_NVMEM], kinds[ARMPROF_UNMODELLED],
           (unsigned long long)sink);
    armprof_pe_destroy(pe);
    return 0;
}
