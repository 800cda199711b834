/* SPDX-License-Identifier: BSD-3-Clause */
/* A kernel's stage 1 translation for a Profiling Buffer: 4KB-granule
 * tables mapping pages of the TTBR1_EL1 half of the address space, and the
 * EL1 translation registers that turn the MMU on (D8 VMSAv8-64). */
#ifndef ARMPROF_DRV_S1_H
#define ARMPROF_DRV_S1_H

#include <stdint.h>

#include "armprof/armprof.h"
#include "drv/drv_regs.h"

/* Writes Non-secure tables at table_pa (four 4KB tables: levels 0 to 3)
 * mapping the npages pages from va_base to page_pa[i], Normal Write-Back,
 * Inner Shareable, EL1 read/write. The pages must lie in one level 3 table
 * (not cross a 2MB boundary). */
void drv_s1_map_pages(armprof_mem *mem, uint64_t table_pa, uint64_t va_base,
                      const uint64_t *page_pa, unsigned npages);

/* MAIR_EL1 Attr0 Normal Write-Back, TCR_EL1 with T1SZ 16 and a 4KB TTBR1
 * granule (TTBR0 walks disabled), TTBR1_EL1 = table_pa, SCTLR_EL1.M 1. */
void drv_s1_kernel_mmu_on(drv_cpu *c, uint64_t table_pa);

#endif
