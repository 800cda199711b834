/* SPDX-License-Identifier: BSD-3-Clause */
/* The vCPU's external debug block and PMU block in the armprof
 * qemu-system-aarch64 (docs/qemu-system.md, "External debug and PMU
 * blocks"): a bare-metal program (baremetal.h) on one vCPU at EL1, and at
 * EL2 with virtualization=on, loads and stores to its own blocks at
 * 0x0b000000 (debug) and 0x0b001000 (PMU), preset armv9.4-all. Each
 * expected value comes from the manual:
 *   - PMCIDR0 (PMU block 0xFF0): 'Reads as 0x0D' (PMCIDR0.external.md);
 *   - the OS Lock is locked after a Cold reset (OSLSR_EL1.OSLK); while it is
 *     locked, 'accesses to [PMPCSR] generate an error response'
 *     (PMPCSR.external.md, OSLockStatus()): the guest takes a synchronous
 *     External abort on its load, a Data Abort from the current Exception
 *     level (ESR EC 0x25) with DFSC 0b010000;
 *   - FEAT_PCSRv8p9 with PMPCSCTL.IMP 1 (the model's pcsr_pmpcsctl_imp):
 *     PC sampling starts suspended (PMPCSCTL.EN 0); a read of PMPCSR
 *     activates it and has no sample: PMPCSR[31:0] 0xFFFFFFFF (Read_PMPCSR(),
 *     H7.1.1.1);
 *   - a read of PMPCSR samples the PC of an instruction the PE executes:
 *     the vCPU's own load of PMPCSR is the one it executes then, so
 *     PMPCSR.PC is that load's address, PMPCSR.EL [62:61] the Exception
 *     level it runs at, PMPCSR.NS [63] 1 (Non-secure: no EL3), NSE [59] 0;
 *   - PMPCSCTL (0xE50): EN [0] is 1 once a read activated sampling;
 *   - PMU snapshots through the PMU block (D13.9, PMSSCR_EL1.external):
 *     with PMECR_EL1.SSE 0b11 (and at EL2 MDCR_EL2.PMSSE 0b11), the OS
 *     Lock unlocked and no EL3 control against it (MDCR_EL3 absent: AllowExternalPMSSAccess()),
 *     PMSSCR_EL1.NC [32] resets to 1; with the PMU Software Lock (PMLAR,
 *     PMLSR) unlocked by the key 0xC5ACCE55,
 *     an external write of 1 to PMSSCR.SS (offset 0xE30) requests a
 *     Capture event, which saves PMEVCNTR0_EL0 in PMEVCNTSVR0_EL1 (offset
 *     0x600) and sets PMSSCR_EL1.{NC,SS} to {0,0}; counter 0 counts
 *     SW_INCR (event 0x00), whose count the program decides (PMEVTYPER0.NSH
 *     1: counting at EL2 too);
 *   - bad input (docs/qemu-system.md): a 1-byte load, and a 64-bit load of
 *     a 32-bit register, are accesses the external interface does not
 *     define: with armprof-ext-bad-access=error (the default) an error
 *     response, the same External abort; with =ignore, no abort and zero; an
 *     unaligned 32-bit load takes an Alignment fault first (Device memory); a write to PMCIDR0, a
 *     read-only register, is ignored (it still reads 0x0D); a reserved
 *     offset of the PMU block reads as zero (RES0); a load past the last
 *     vCPU's blocks, where nothing is mapped, is a decode error (External
 *     abort); an external debug
 *     register the model does not implement (DBGBVR0 at 0x400) reads as
 *     zero with no abort. */
#include <stdbool.h>
#include <stdint.h>

#include "baremetal.h"

#define DEBUG_BLOCK 0x0b000000ul
#define PMU_BLOCK   0x0b001000ul

/* x0 = PMU_BLOCK, for SYNDROME()'s instructions */
#define PMU_X0 "movz x0, #0x0b00, lsl #16\n movk x0, #0x1000\n"

#define PMSSCR_EL1      "S3_0_C9_C13_3"
#define PMECR_EL1       "S3_0_C9_C14_5"
#define PMEVCNTSVR0_EL1 "S2_0_C14_C8_0"

static uint32_t read32(uint64_t addr)
{
    return *(volatile uint32_t *)addr;
}

static uint64_t read64(uint64_t addr)
{
    return *(volatile uint64_t *)addr;
}

static void write32(uint64_t addr, uint32_t v)
{
    *(volatile uint32_t *)addr = v;
}

static void write64(uint64_t addr, uint64_t v)
{
    *(volatile uint64_t *)addr = v;
}

/* An External abort on a load: Data Abort from the current level (EC 0x25),
 * DFSC 0b010000 (synchronous External abort, not on a translation walk). */
static uint64_t external_abort(uint64_t esr)
{
    return esr != NO_EXCEPTION && (esr >> 26) == 0x25 && (esr & 0x3f) == 0x10;
}

/* A load of PMPCSR whose own address is the PC to expect: x0 the address
 * read from, x1 the value, x2 the load's PC. */
static uint64_t sample_self(uint64_t *load_pc)
{
    register uint64_t x0 __asm__("x0") = PMU_BLOCK + 0x200;
    register uint64_t x1 __asm__("x1");
    register uint64_t x2 __asm__("x2");
    __asm__ volatile("adr x2, 1f\n"
                     "1: ldr x1, [x0]\n"
                     : "=r"(x1), "=r"(x2)
                     : "r"(x0)
                     : "memory");
    *load_pc = x2;
    return x1;
}

/* The CoreSight identification of the debug block: EDCIDR0-3 0x0D, 0x90,
 * 0x05, 0xB1 (component class 9, CoreSight); EDDEVARCH ARCHITECT 0x23B
 * (Arm), PRESENT 1, ARCHID 0x?A15 whose ARCHVER is the debug architecture's
 * version, ID_AA64DFR0_EL1.DebugVer [3:0] as the PE reads it; EDDEVTYPE
 * 0x15 (processor debug); EDDEVAFF0 MPIDR_EL1[31:0]. */
static void identification(void)
{
    const uint32_t cidr = read32(DEBUG_BLOCK + 0xFF0) | read32(DEBUG_BLOCK + 0xFF4) << 8 |
                          read32(DEBUG_BLOCK + 0xFF8) << 16 | read32(DEBUG_BLOCK + 0xFFC) << 24;
    check("EDCIDR0-3", cidr, 0xB105900D);
    const uint64_t debugver = MRS("id_aa64dfr0_el1") & 0xf;
    check("EDDEVARCH", read32(DEBUG_BLOCK + 0xFBC), 0x47700A15u | debugver << 12);
    check("EDDEVTYPE", read32(DEBUG_BLOCK + 0xFCC), 0x15);
    check("EDDEVAFF0 is MPIDR_EL1[31:0]", read32(DEBUG_BLOCK + 0xFA8),
          MRS("mpidr_el1") & 0xffffffffu);
}

static void pc_sampling(void)
{
    const unsigned el = (unsigned)(MRS("CurrentEL") >> 2) & 3;
    check("PMCIDR0 reads 0x0D", read32(PMU_BLOCK + 0xFF0), 0x0D);

    /* OS Lock locked after the Cold reset: an error response */
    check("OSLSR_EL1.OSLK after reset", (MRS("oslsr_el1") >> 1) & 1, 1);
    check("PMPCSR with the OS Lock locked: External abort",
          external_abort(SYNDROME(PMU_X0 " ldr x2, [x0, #0x200]")), 1);
    MSR("oslar_el1", 0);

    uint64_t pc;
    const uint64_t first = sample_self(&pc);
    check("PMPCSR[31:0] of the activating read", first & 0xffffffffu, 0xffffffffu);
    check("PMPCSCTL.EN after it", read64(PMU_BLOCK + 0xE50) & 1, 1);
    const uint64_t v = sample_self(&pc);
    check("PMPCSR.PC is the load's own address", v & ((1ull << 56) - 1), pc);
    check("PMPCSR.EL is the current Exception level", (v >> 61) & 3, el);
    check("PMPCSR.NS 1, NSE 0", ((v >> 63) << 1) | ((v >> 59) & 1), 2);

    /* the OS Lock set again through MSR: the error again */
    MSR("oslar_el1", 1);
    check("PMPCSR with the OS Lock locked again: External abort",
          external_abort(SYNDROME(PMU_X0 " ldr x2, [x0, #0x200]")), 1);
    MSR("oslar_el1", 0);
}

static void snapshot(void)
{
    MSR("pmevtyper0_el0", 1u << 27); /* SW_INCR; NSH: at EL2 too */
    MSR("pmcntenset_el0", 1);
    MSR("pmcr_el0", 1);
    MSR(PMECR_EL1, 3u << 3); /* PMECR_EL1.SSE [4:3] 0b11 */
    if ((MRS("CurrentEL") >> 2 & 3) == 2) {
        /* MDCR_EL2.PMSSE [31:30] 0b11 (it comes first at EL2), HPMN 6 */
        MSR("mdcr_el2", 3ull << 30 | 6);
    }
    for (int i = 0; i < 5; i++)
        MSR("pmswinc_el0", 1);
    /* the OPTIONAL PMU Software Lock, if implemented, makes PMSSCR.SS
     * read-only to memory-mapped writes until PMLAR is written the key */
    write32(PMU_BLOCK + 0xFB0, 0xC5ACCE55);
    write64(PMU_BLOCK + 0xE30, 1); /* PMSSCR.SS */
    const uint64_t pmsscr = MRS(PMSSCR_EL1);
    check("PMSSCR_EL1.{NC,SS} after the external request", (pmsscr >> 32 & 1) << 1 | (pmsscr & 1),
          0);
    check("PMEVCNTSVR0_EL1 (MRS) saved counter 0", MRS(PMEVCNTSVR0_EL1), 5);
    for (int i = 0; i < 2; i++)
        MSR("pmswinc_el0", 1);
    check("PMEVCNTR0_EL0 counts on", MRS("pmevcntr0_el0"), 7);
    check("PMEVCNTSVR0_EL1 (PMU block 0x600) keeps the snapshot", read64(PMU_BLOCK + 0x600), 5);
    MSR("pmcntenclr_el0", 1);
}

static void bad_input(void)
{
    /* with the MMU off every data access is to Device-nGnRnE memory, where
     * an unaligned access generates an Alignment fault (DFSC 0b100001)
     * before any transaction: the block never sees it */
    const uint64_t esr = SYNDROME(PMU_X0 " add x0, x0, #0x202\n ldr w2, [x0]");
    check("unaligned 32-bit load: Alignment fault", (esr >> 26) == 0x25 && (esr & 0x3f) == 0x21, 1);
    /* sizes the interface does not define: a 1-byte load, a 64-bit load
     * of a 32-bit register; armprof-ext-bad-access=ignore (on the
     * semihosting command line when the runner gives it) reads them as 0 */
    const bool ignore = cmdline_has("armprof-ext-bad-access=ignore");
    const uint64_t byte = SYNDROME(PMU_X0 " ldrb w2, [x0, #0xff0]");
    const uint64_t wide = SYNDROME(PMU_X0 " ldr x2, [x0, #0xff0]");
    if (ignore) {
        check("1-byte load, ignore: no abort", byte, NO_EXCEPTION);
        check("64-bit load of PMCIDR0, ignore: no abort", wide, NO_EXCEPTION);
        check("1-byte load, ignore: reads as zero", *(volatile uint8_t *)(PMU_BLOCK + 0xFF0), 0);
    } else {
        check("1-byte load: External abort", external_abort(byte), 1);
        check("64-bit load of PMCIDR0 (32-bit): External abort", external_abort(wide), 1);
    }
    write32(PMU_BLOCK + 0xFF0, 0x55);
    check("PMCIDR0 after a write (read-only)", read32(PMU_BLOCK + 0xFF0), 0x0D);
    check("a reserved PMU block offset (0xD00) reads as zero", read32(PMU_BLOCK + 0xD00), 0);
    /* past the blocks of the machine's one vCPU: nothing is mapped there
     * (vCPU 1's debug block would be at 0x0b002000), a decode error, which
     * the guest takes as a synchronous External abort */
    check("a load where no vCPU's block is: External abort",
          external_abort(SYNDROME("movz x0, #0x0b00, lsl #16\n movk x0, #0x2000\n ldr w2, [x0]")),
          1);
    const uint64_t before = exceptions;
    check("DBGBVR0 (not modelled) reads as zero", read32(DEBUG_BLOCK + 0x400), 0);
    check("... without an abort", exceptions - before, 0);
}

void baremetal_main(void)
{
    identification();
    pc_sampling();
    snapshot();
    bad_input();
    finish("ext_blocks");
}
