/* SPDX-License-Identifier: BSD-3-Clause */
/* What Linux's arm_pmuv3 driver should find in the model's PMU in the
 * armprof qemu-system-aarch64 (tests/qemu-system/pmu_stat.sh): the PE the
 * glue makes on the virt machine's default CPU (virt_pe.h). One line a
 * common event the PE counts,
 * from PMCEID0_EL0 and PMCEID1_EL0 (registers/PMCEID0_EL0.md: ID<n> is
 * event n, IDhi<n> event 0x4000 + n; PMCEID1_EL0.md: event 0x20 + n and
 * 0x4020 + n), as the driver's sysfs files say it: event=0xNNNN; then
 * ID_AA64DFR0_EL1.PMUVer:
 *   pmu_caps [PRESET] */
#include <stdio.h>
#include <stdlib.h>

#include "armprof/armprof.h"
#include "virt_pe.h"

static uint64_t reg(armprof_pe *pe, const char *name)
{
    const int id = armprof_reg_lookup(name, NULL);
    if (id < 0 || !armprof_reg_present(pe, id)) {
        fprintf(stderr, "pmu_caps: no %s\n", name);
        exit(1);
    }
    return armprof_reg_get(pe, id, 0);
}

int main(int argc, char **argv)
{
    armprof_pe *pe = virt_pe_create("pmu_caps", argc > 1 ? argv[1] : "armv9.4-all");
    if (!pe) return 1;
    const uint64_t pmceid[2] = {reg(pe, "PMCEID0_EL0"), reg(pe, "PMCEID1_EL0")};
    for (unsigned r = 0; r < 2; r++)
        for (unsigned bit = 0; bit < 64; bit++)
            if (pmceid[r] >> bit & 1)
                printf("event=0x%04x\n", (bit < 32 ? 0u : 0x4000u) + 0x20u * r + (bit & 31));
    printf("pmuver %u\n", (unsigned)(reg(pe, "ID_AA64DFR0_EL1") >> 8 & 15));
    armprof_pe_destroy(pe);
    return 0;
}
