/* SPDX-License-Identifier: BSD-3-Clause */
/* FEAT_NV2 and the model's registers (issue 40, part 5), bare metal at EL2
 * (tests/qemu-system/baremetal.h; at EL1 there is nothing to check). A
 * guest hypervisor runs at EL1 with HCR_EL2.NV 1 and, with NV2 1, the
 * registers whose pages give an NVMem offset are not accessed: their MRS
 * reads and their MSR writes 64 bits of memory at VNCR_EL2 + offset
 * (registers/VNCR_EL2.md; each page's Accessing: "elsif EffectiveHCR_EL2_
 * NVx() IN {'1x1'} then X[t, 64] = NVMem[offset]" for PMBLIMITR_EL1
 * (0x800), PMBPTR_EL1 (0x810) and PMBSR_EL1 (0x820); "== '111'" for
 * PMSCR_EL1 (0x828), whose NV1 0 case reaches the register). The MSRs and
 * MRSs run at EL1 (run_lower()) with MDCR_EL2.TPMS 0 and E2PB 0b11, so no
 * trap to EL2 comes first; EL2 then reads the page and the registers
 * themselves. PMSCR_EL2 at EL1 with NV 1 has no NVMem: the EL2 register
 * traps to EL2 (EC 0x18). */
#include "baremetal.h"

#define VNCR_EL2      "S3_4_C2_C2_0"
#define PMSCR_EL1     "S3_0_C9_C9_0"
#define PMSCR_EL2     "S3_4_C9_C9_0"
#define PMBLIMITR_EL1 "S3_0_C9_C10_0"
#define PMBPTR_EL1    "S3_0_C9_C10_1"
#define PMBSR_EL1     "S3_0_C9_C10_3"

/* VNCR_EL2.BADDR is 4KB aligned */
static volatile uint64_t page[512] __attribute__((aligned(4096)));
enum { OFF_PMBLIMITR = 0x800, OFF_PMBPTR = 0x810, OFF_PMBSR = 0x820, OFF_PMSCR = 0x828 };
#define AT(off) page[(off) / 8]

/* what EL1 read, and the syndrome of its PMSCR_EL2 access */
static volatile uint64_t seen_pmscr, seen_pmblimitr, seen_pmbptr, seen_pmbsr, pmscr_el2_esr,
    pmscr_el2_el;

static void el1_accesses(void)
{
    seen_pmscr = MRS(PMSCR_EL1);
    seen_pmblimitr = MRS(PMBLIMITR_EL1);
    seen_pmbptr = MRS(PMBPTR_EL1);
    seen_pmbsr = MRS(PMBSR_EL1);
    MSR(PMSCR_EL1, 0x21); /* TS and E0SPE */
    MSR(PMBLIMITR_EL1, 0x11110000);
    MSR(PMBPTR_EL1, 0x22220000);
    MSR(PMBSR_EL1, 0x33);
    pmscr_el2_esr = SYNDROME("mrs x2, " PMSCR_EL2);
    pmscr_el2_el = exception_el;
}

/* EL2's own values of the registers, and the page's */
static void set_registers_and_page(void)
{
    MSR(PMSCR_EL1, 0x1);            /* E0SPE: sampling stays off, the buffer being disabled */
    MSR(PMBLIMITR_EL1, 0x77770000); /* E 0 */
    MSR(PMBPTR_EL1, 0x55550000);
    MSR(PMBSR_EL1, 0);
    AT(OFF_PMSCR) = 0xa1;
    AT(OFF_PMBLIMITR) = 0xa2000;
    AT(OFF_PMBPTR) = 0xa3000;
    AT(OFF_PMBSR) = 0xa4;
}

static void registers_unchanged(const char *when, bool pmscr_written)
{
    put_str(when);
    check("  PMSCR_EL1 itself", MRS(PMSCR_EL1), pmscr_written ? 0x21 : 0x1);
    check("  PMBLIMITR_EL1 itself", MRS(PMBLIMITR_EL1), 0x77770000);
    check("  PMBPTR_EL1 itself", MRS(PMBPTR_EL1), 0x55550000);
    check("  PMBSR_EL1 itself", MRS(PMBSR_EL1), 0);
}

void baremetal_main(void)
{
    const unsigned el = (unsigned)(MRS("CurrentEL") >> 2 & 3);
    const unsigned nv = (unsigned)(MRS("id_aa64mmfr2_el1") >> 24 & 15);
    const unsigned n = (unsigned)(MRS("pmcr_el0") >> 11 & 31);
    put_str("nv2: at EL");
    put_dec(el);
    put_str(", ID_AA64MMFR2_EL1.NV ");
    put_dec(nv);
    put_str("\n");
    if (el != 2) finish("nv2");
    check("ID_AA64MMFR2_EL1.NV: FEAT_NV2 (0b0010)", nv, 2);
    MSR(VNCR_EL2, (uint64_t)(uintptr_t)page);
    /* E2PB 0b11 (bits [13:12]), TPMS 0, HPMN the counters there are */
    MSR("mdcr_el2", 3ul << 12 | n);

    /* HCR_EL2 RW, NV, NV1, NV2: NVx 0b111 */
    set_registers_and_page();
    MSR("hcr_el2", 1ul << 31 | 1ul << 42 | 1ul << 43 | 1ul << 45);
    run_lower(el1_accesses);
    MSR("hcr_el2", 1ul << 31);
    put_str("HCR_EL2.{NV2,NV1,NV} 0b111:\n");
    check("  EL1 MRS PMSCR_EL1 read NVMem[0x828]", seen_pmscr, 0xa1);
    check("  EL1 MRS PMBLIMITR_EL1 read NVMem[0x800]", seen_pmblimitr, 0xa2000);
    check("  EL1 MRS PMBPTR_EL1 read NVMem[0x810]", seen_pmbptr, 0xa3000);
    check("  EL1 MRS PMBSR_EL1 read NVMem[0x820]", seen_pmbsr, 0xa4);
    check("  EL1 MSR PMSCR_EL1 wrote NVMem[0x828]", AT(OFF_PMSCR), 0x21);
    check("  EL1 MSR PMBLIMITR_EL1 wrote NVMem[0x800]", AT(OFF_PMBLIMITR), 0x11110000);
    check("  EL1 MSR PMBPTR_EL1 wrote NVMem[0x810]", AT(OFF_PMBPTR), 0x22220000);
    check("  EL1 MSR PMBSR_EL1 wrote NVMem[0x820]", AT(OFF_PMBSR), 0x33);
    check("  EL1 MRS PMSCR_EL2 trapped: ESR_EL2.EC", pmscr_el2_esr >> 26, 0x18);
    check("  ... to EL2", pmscr_el2_el, 2);
    registers_unchanged("the registers after (EL2's view):\n", false);

    /* HCR_EL2 RW, NV, NV2 (NV1 0): NVx 0b101, PMSCR_EL1's page wants 0b111 */
    set_registers_and_page();
    MSR("hcr_el2", 1ul << 31 | 1ul << 42 | 1ul << 45);
    run_lower(el1_accesses);
    MSR("hcr_el2", 1ul << 31);
    put_str("HCR_EL2.{NV2,NV1,NV} 0b101:\n");
    check("  EL1 MRS PMSCR_EL1 read the register", seen_pmscr, 0x1);
    check("  EL1 MRS PMBLIMITR_EL1 read NVMem[0x800]", seen_pmblimitr, 0xa2000);
    check("  EL1 MSR PMSCR_EL1 left NVMem[0x828]", AT(OFF_PMSCR), 0xa1);
    check("  EL1 MSR PMBSR_EL1 wrote NVMem[0x820]", AT(OFF_PMBSR), 0x33);
    registers_unchanged("the registers after (EL2's view; PMSCR_EL1 written by EL1):\n", true);
    MSR(PMSCR_EL1, 0);
    finish("nv2");
}
