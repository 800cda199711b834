/* SPDX-License-Identifier: BSD-3-Clause */
/* Interrupts between a block and the block it branches back into
 * (docs/spec-notes.md, "An interrupt inside the block that ran"): a
 * bare-metal program (baremetal.h) that runs a loop at the level below its
 * own (EL0 from EL1 on virt, EL1 from EL2 with virtualization=on) while the
 * physical timer interrupts it every few microseconds, and checks that a
 * PMU counter counted exactly the instructions the loop's text retires.
 *
 * The loop's outer block holds the outer MOV and the inner loop's first
 * pass: its taken B.NE goes to `2:`, an address inside that same block, so
 * the next block starts there. TCG takes an interrupt between blocks; one
 * that comes while that block runs is taken with the preferred return
 * address `2:`, inside a block that ran whole. The plugin took that address
 * for an exception's cut and gave back the block's tail: two instructions
 * short each time (3000 for 3003 in a KVM guest, once in CI). The timer's
 * interrupts land anywhere in the loop; about a third of the block
 * boundaries are that one.
 *
 * PMEVCNTR0_EL0 counts INST_RETIRED at the level below only (PMEVTYPER0_EL0
 * P or U, NSH 0: none of the handler's instructions). The timer is
 * CNTP (INTID 30 through the GICv2), its handler at this level (IRQs from
 * EL1 go to EL2 with HCR_EL2.IMO) re-arms it and counts. The loop
 * (loop_below) retires, read off its text: MSR DAIFClr, MOVZ, MOVK; N times
 * the outer MOV, SUBS, B.NE (taken), SUBS, B.NE (not taken), SUBS, B.NE;
 * RET; and run_lower()'s SVC or HVC, which completes: 7N + 5 a run; it
 * runs until the timer has interrupted it MIN_IRQS times. */
#include <stdbool.h>
#include <stdint.h>

#define BAREMETAL_IRQ_LOWER /* irq_lower is below */
#include "baremetal.h"

/* N, and as the loop's text writes it */
#define N      1000000ul
#define N_TEXT "1000000"
/* the loop runs until MIN_IRQS interrupts came, MAX_RUNS times at most */
#define MIN_IRQS 50
#define MAX_RUNS 200

#define GICD        0x08000000ul /* the virt machine's GIC distributor */
#define GICC        0x08010000ul /* ... and CPU interface (GICv2) */
#define TIMER_INTID 30u          /* the EL1 physical timer's PPI on virt */

#define PMEVTYPER_P   (1ul << 31) /* not at EL1 */
#define PMEVTYPER_U   (1ul << 30) /* not at EL0 */
#define INST_RETIRED  0x08ul
#define HCR_EL2_IMO   (1ul << 4)  /* IRQs to EL2 */
#define HCR_EL2_RW    (1ul << 31) /* EL1 is AArch64 */
#define SCTLR_EL1_UMA (1ul << 9)  /* EL0 may write DAIF */

volatile uint64_t irqs;
/* the timer's interval in its ticks (CNTP_TVAL_EL0) */
volatile uint64_t tval;

void loop_below(void);
__asm__(".text\n"
        ".global loop_below\n"
        "loop_below:\n"
        "    msr daifclr, #2\n"
        "    movz x0, #(" N_TEXT " & 0xffff)\n"
        "    movk x0, #(" N_TEXT " >> 16), lsl #16\n"
        "1:  mov x1, #2\n"
        "2:  subs x1, x1, #1\n"
        "    b.ne 2b\n"
        "    subs x0, x0, #1\n"
        "    b.ne 1b\n"
        "    ret\n"
        /* the timer from below: acknowledge, re-arm (which takes the
         * timer's condition away), end the interrupt, count it */
        ".global irq_lower\n"
        "irq_lower:\n"
        "    stp x9, x10, [sp, #-32]!\n"
        "    str x11, [sp, #16]\n"
        "    ldr x9, =0x08010000\n"
        "    ldr w10, [x9, #0x0c]\n" /* GICC_IAR */
        "    ldr x11, =tval\n"
        "    ldr x11, [x11]\n"
        "    msr cntp_tval_el0, x11\n"
        "    isb\n"
        "    str w10, [x9, #0x10]\n" /* GICC_EOIR */
        "    ldr x9, =irqs\n"
        "    ldr x11, [x9]\n"
        "    add x11, x11, #1\n"
        "    str x11, [x9]\n"
        "    ldr x11, [sp, #16]\n"
        "    ldp x9, x10, [sp], #32\n"
        "    eret\n"
        ".ltorg\n");

static void w32(uint64_t a, uint32_t v)
{
    *(volatile uint32_t *)a = v;
}

static void w8(uint64_t a, uint8_t v)
{
    *(volatile uint8_t *)a = v;
}

void baremetal_main(void)
{
    const unsigned el = (unsigned)(MRS("CurrentEL") >> 2 & 3);
    put_str("irq_reentry: a loop at EL");
    put_dec(el - 1);
    put_str(", the timer's interrupts taken at EL");
    put_dec(el);
    put_str("\n");
    /* GICD_PIDR2.ArchRev, bits [7:4]: 2 for the GICv2 programmed here */
    const uint32_t arch = *(volatile uint32_t *)(GICD + 0xfe8) >> 4 & 15;
    check("the GIC is a GICv2 (GICD_PIDR2.ArchRev)", arch, 2);
    if (arch != 2) finish("irq_reentry");
    w32(GICD + 0x000, 1);                 /* GICD_CTLR: forward */
    w8(GICD + 0x400 + TIMER_INTID, 0x80); /* GICD_IPRIORITYR<30> */
    w32(GICD + 0x100, 1u << TIMER_INTID); /* GICD_ISENABLER0 */
    w32(GICC + 0x004, 0xff);              /* GICC_PMR: every priority */
    w32(GICC + 0x000, 1);                 /* GICC_CTLR: signal */
    if (el == 2)
        MSR("hcr_el2", MRS("hcr_el2") | HCR_EL2_RW | HCR_EL2_IMO);
    else
        MSR("sctlr_el1", MRS("sctlr_el1") | SCTLR_EL1_UMA);
    /* the level below only: at EL0 P (not EL1), at EL1 U (not EL0); NSH 0
     * (not EL2) either way */
    MSR("pmcr_el0", 1ul << 1); /* P: event counters to 0; E 0 */
    MSR("pmevtyper0_el0", INST_RETIRED | (el == 2 ? PMEVTYPER_U : PMEVTYPER_P));
    MSR("pmcntenset_el0", 1);
    /* every 10 us of the timer (CNTFRQ_EL0 ticks a second) */
    tval = MRS("cntfrq_el0") / 100000;
    MSR("cntp_tval_el0", tval);
    MSR("cntp_ctl_el0", 1); /* ENABLE, IMASK 0 */
    MSR("pmcr_el0", 1);     /* E */
    /* the timer runs on the host's clock, which a loaded host's emulator
     * may serve late: the loop again until enough interrupts came */
    uint64_t runs = 0;
    while (runs < MAX_RUNS && irqs < MIN_IRQS) {
        run_lower(loop_below);
        runs++;
    }
    MSR("pmcr_el0", 0);
    MSR("cntp_ctl_el0", 0);
    MSR("pmcntenclr_el0", 1);
    const uint64_t taken = irqs;
    put_str("loop runs: ");
    put_dec(runs);
    put_str(", timer interrupts taken: ");
    put_dec(taken);
    put_str("\n");
    check("PMEVCNTR0_EL0: the loops' instructions, runs x (7N + 5)", MRS("pmevcntr0_el0"),
          runs * (7 * N + 5));
    check("the timer interrupted the loops (at least MIN_IRQS times)", taken >= MIN_IRQS, 1);
    finish("irq_reentry");
}
