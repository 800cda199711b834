/* SPDX-License-Identifier: BSD-3-Clause */
/* A kernel's stage 1 tables for its buffer pages (drv_s1.h). */
#include "drv/drv_s1.h"

static unsigned level_index(uint64_t va, unsigned shift)
{
    return (unsigned)((va >> shift) & 0x1ff);
}

void drv_s1_map_pages(armprof_mem *mem, uint64_t table_pa, uint64_t va_base,
                      const uint64_t *page_pa, unsigned npages)
{
    const uint64_t l0 = table_pa, l1 = table_pa + 0x1000, l2 = table_pa + 0x2000,
                   l3 = table_pa + 0x3000;
    /* Table descriptors: next-level address | 0b11. */
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, l0 + 8 * level_index(va_base, 39), l1 | 3);
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, l1 + 8 * level_index(va_base, 30), l2 | 3);
    armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, l2 + 8 * level_index(va_base, 21), l3 | 3);
    /* Page descriptors: OA | AF (bit 10) | SH Inner (9:8 = 0b11) | AP 0b00
     * (EL1 read/write, 7:6) | AttrIndx 0 (4:2) | 0b11. The buffer is written
     * with the privileges of the owning EL (D17.7.4), so EL0 needs none. */
    const unsigned i3 = level_index(va_base, 12);
    for (unsigned i = 0; i < npages; i++)
        armprof_mem_write64(mem, ARMPROF_PAS_NONSECURE, l3 + 8 * (i3 + i),
                            page_pa[i] | 1u << 10 | 3u << 8 | 0u << 6 | 0u << 2 | 3);
}

void drv_s1_kernel_mmu_on(drv_cpu *c, uint64_t table_pa)
{
    drv_msr(c, "MAIR_EL1", 0xFF); /* Attr0: Normal Write-Back */
    /* T0SZ 16, EPD0 1, T1SZ 16, TG1 4KB (0b10), SH1 Inner, IRGN1/ORGN1 WB,
     * IPS 48 bits (0b101). */
    const uint64_t tcr = 16ull | 1ull << 7 | 16ull << 16 | 1ull << 24 | 1ull << 26 | 3ull << 28 |
                         2ull << 30 | 5ull << 32;
    drv_msr(c, "TCR_EL1", tcr);
    drv_msr(c, "TTBR1_EL1", table_pa);
    drv_msr(c, "SCTLR_EL1", drv_mrs(c, "SCTLR_EL1") | drv_fld("SCTLR_EL1", "M", 1));
}
