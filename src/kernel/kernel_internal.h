/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel's state (include/armprof/kernel.h), shared by its
 * boot, PMU and SPE parts. */
#ifndef ARMPROF_KERNEL_INTERNAL_H
#define ARMPROF_KERNEL_INTERNAL_H

#include "armprof/kernel.h"
#include "drv/drv_regs.h"

struct armprof_kernel {
    drv_cpu cpu;
    armprof_mem *mem;
    armprof_kernel_params p;
    uint64_t page_pa[512];
    armprof_kernel_setup setup;
    armprof_kernel_status status;
};

/* The driver's parts, each run at EL1 by armprof_kernel_boot(). */
void kernel_pmu_start(armprof_kernel *k);
bool kernel_spe_probe(armprof_kernel *k, char *err, size_t errlen);
bool kernel_spe_start(armprof_kernel *k, char *err, size_t errlen);

#endif
