/* SPDX-License-Identifier: BSD-3-Clause */
/* PMU snapshots (FEAT_PMUv3_SS) in the armprof qemu-system-aarch64: a
 * bare-metal program that runs on the virt machine (-kernel, no firmware),
 * as no Debian kernel drives these registers: at EL1 with no EL2 or EL3,
 * and at EL2 (virtualization=on), where MDCR_EL2.PMSSE comes first.
 * The PMU is the model's (armprof-pmu=on, the default), counting what the
 * armprof plugin gives it; its PMSSCR_EL1, PMECR_EL1 and saved-value
 * registers capture it. Each expected value comes from the manual:
 *   - ID_AA64DFR0_EL1.PMSS 0b0001: FEAT_PMUv3_SS implemented;
 *   - PMSSCR_EL1.NC resets to 1 (no Capture event has completed);
 *   - without EL2 and EL3, PMUCaptureEventEnabled() is PMECR_EL1.SSE<1> and
 *     PMUCaptureEventAllowed() is SSE == 0b11 with the OS Lock unlocked
 *     (RYWLFL, RTSYTY); the OS Lock is locked after a Cold reset; with
 *     EL2, MDCR_EL2.PMSSE decides unless it is 0b01, and then EL1 must be
 *     in AArch64 (HCR_EL2.RW) for PMECR_EL1.SSE to;
 *   - a write of 1 to PMSSCR_EL1.SS requests a Capture event; a write of 0
 *     is ignored; a request while Capture events are disabled generates
 *     none (RSCLCQ);
 *   - a successful Capture event (PMUCaptureEvent()) copies each
 *     PMEVCNTR<n>_EL0 to PMEVCNTSVR<n>_EL1 and PMCCNTR_EL0 to
 *     PMCCNTSVR_EL1 at one instant and sets PMSSCR_EL1.{NC,SS} to {0,0};
 *     an unsuccessful one (disallowed) sets them to {1,0} and saves
 *     nothing;
 *   - PMEVCNTSVR<n>_EL1 for n at or above PMCR_EL0.N is UNDEFINED, and
 *     the saved-value registers have no MSR form (UNDEFINED).
 *   - PMU_SNAPSHOT (0x8036) counts each successful Capture event, after
 *     the counters are saved (PMUCaptureEvent()), so a counter of it saves
 *     the count of the captures before;
 *   - INST_RETIRED, BR_RETIRED, LD_RETIRED, ST_RETIRED count each
 *     architecturally executed instruction, branch, load, store, and
 *     PMICNTR_EL0 (FEAT_PMUv3_ICNTR, ID_AA64DFR1_EL1.PMICNTR 0b0001)
 *     instructions: counted over a block of known instructions between
 *     two reads, each read counting what retired before it (the model is
 *     given every instruction before a register access);
 *   - EXC_TAKEN and EXC_RETURN count exceptions taken and returned from.
 * The snapshots' counter values come from PMSWINC_EL0 (event 0x00,
 * SW_INCR), the one event whose count the program itself decides.
 * Output on the PL011 UART; the exit status (semihosting SYS_EXIT) is the
 * number of failed checks. */
#include <stdbool.h>
#include <stdint.h>

#include "baremetal.h"

/* The registers the cross assembler may not know, by encoding */
#define PMSSCR_EL1      "S3_0_C9_C13_3"
#define PMECR_EL1       "S3_0_C9_C14_5"
#define PMCCNTSVR_EL1   "S2_0_C14_C11_7"
#define PMEVCNTSVR0_EL1 "S2_0_C14_C8_0"
#define PMEVCNTSVR5_EL1 "S2_0_C14_C8_5"
#define PMEVCNTSVR6_EL1 "S2_0_C14_C8_6"
#define PMICNTR_EL0     "S3_3_C9_C4_0"
#define PMICFILTR_EL0   "S3_3_C9_C6_0"

/* The events of counters 1 to 5 (D13's event numbers) */
#define EV_INST_RETIRED 0x08
#define EV_EXC_TAKEN    0x09
#define EV_EXC_RETURN   0x0a
#define EV_LD_RETIRED   0x06
#define EV_ST_RETIRED   0x07
#define EV_BR_RETIRED   0x21
#define EV_PMU_SNAPSHOT 0x8036
#define NSH             (1ul << 27) /* PMEVTYPER<n>_EL0.NSH: count at EL2 too */

static void sw_increment(unsigned n)
{
    while (n--)
        MSR("pmswinc_el0", 1);
}

static void set_sse(unsigned sse)
{
    MSR(PMECR_EL1, (uint64_t)sse << 3); /* PMECR_EL1.SSE, bits [4:3] */
}

static uint64_t nc_ss(void)
{
    const uint64_t v = MRS(PMSSCR_EL1);
    return (v >> 32 & 1) << 4 | (v & 1); /* 0xNS: NC, SS */
}

/* Counters 1-4 and PMICNTR_EL0 over a block of 9 instructions (3 loads,
 * 2 stores, 2 taken branches), read in one asm statement: PMICNTR_EL0 and
 * counters 1 to 4 before, 4 to 1 and PMICNTR_EL0 after. A read counts the
 * instructions before it, so counter n's difference also holds the reads
 * between its two: PMICNTR_EL0 5 + 4, INST_RETIRED (counter 1) 4 + 3.
 * Without FEAT_PMUv3_ICNTR (at EL2: it needs FEAT_FGT2, which QEMU lacks)
 * PMICNTR_EL0 is UNDEFINED: a MOV takes the place of each read. */
#define COUNT_BLOCK(first, last)                                                                   \
    __asm__ volatile(                                                                              \
        first "\n\t"                                                                               \
              "mrs %[i0], pmevcntr1_el0\n\t"                                                       \
              "mrs %[b0], pmevcntr2_el0\n\t"                                                       \
              "mrs %[l0], pmevcntr3_el0\n\t"                                                       \
              "mrs %[s0], pmevcntr4_el0\n\t"                                                       \
              "ldr x5, [%[buf]]\n\t"                                                               \
              "ldr x6, [%[buf], #8]\n\t"                                                           \
              "str x5, [%[buf], #16]\n\t"                                                          \
              "b 1f\n"                                                                             \
              "1:  add x5, x5, x6\n\t"                                                             \
              "cbz xzr, 2f\n"                                                                      \
              "2:  ldr x7, [%[buf]]\n\t"                                                           \
              "str x7, [%[buf], #24]\n\t"                                                          \
              "nop\n\t"                                                                            \
              "mrs %[s1], pmevcntr4_el0\n\t"                                                       \
              "mrs %[l1], pmevcntr3_el0\n\t"                                                       \
              "mrs %[b1], pmevcntr2_el0\n\t"                                                       \
              "mrs %[i1], pmevcntr1_el0\n\t" last                                                  \
        : [ic0] "=&r"(ic0), [i0] "=&r"(i0), [b0] "=&r"(b0), [l0] "=&r"(l0), [s0] "=&r"(s0),        \
          [ic1] "=&r"(ic1), [i1] "=&r"(i1), [b1] "=&r"(b1), [l1] "=&r"(l1), [s1] "=&r"(s1)         \
        : [buf] "r"(buf)                                                                           \
        : "x5", "x6", "x7", "memory")

static void count_block(bool icntr)
{
    static volatile uint64_t buf[4] = {1, 2, 3, 4};
    uint64_t ic0, i0, b0, l0, s0, ic1, i1, b1, l1, s1;
    if (icntr)
        COUNT_BLOCK("mrs %[ic0], " PMICNTR_EL0, "mrs %[ic1], " PMICNTR_EL0);
    else
        COUNT_BLOCK("mov %[ic0], xzr", "mov %[ic1], #18");
    check("PMICNTR_EL0 over the block: 9 + 9 reads", ic1 - ic0, 18);
    check("INST_RETIRED over the block: 9 + 7 reads", i1 - i0, 16);
    check("BR_RETIRED over the block", b1 - b0, 2);
    check("LD_RETIRED over the block", l1 - l0, 3);
    check("ST_RETIRED over the block", s1 - s0, 2);
}

/* At EL2 (the virt machine's virtualization=on): MDCR_EL2.PMSSE, which QEMU
 * keeps and the model pulls, decides before PMECR_EL1.SSE does (RYWLFL,
 * RTSYTY). Bits [31:30]; HPMN, bits [4:0], kept at PMCR_EL0.N. */
static void set_pmsse(unsigned pmsse)
{
    MSR("mdcr_el2", (uint64_t)pmsse << 30 | 6);
}

static void set_hcr_rw(unsigned rw)
{
    MSR("hcr_el2", (uint64_t)rw << 31); /* HCR_EL2.RW: EL1 is AArch64 */
}

/* A Capture event request after one control is set and SW_INCR counted:
 * PMSSCR_EL1.{NC,SS} and PMEVCNTSVR0_EL1 after it. The cases run in order,
 * each from where the last left the controls and the counter. */
typedef struct {
    const char *what;
    void (*set)(unsigned value);
    unsigned value, increments;
    uint64_t nc_ss, saved;
} capture_case;

static void run_cases(const capture_case *cases, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const capture_case *c = &cases[i];
        c->set(c->value);
        sw_increment(c->increments);
        MSR(PMSSCR_EL1, 1);
        put_str(c->what);
        put_str("\n");
        check("  PMSSCR_EL1 {NC,SS}", nc_ss(), c->nc_ss);
        check("  PMEVCNTSVR0_EL1", MRS(PMEVCNTSVR0_EL1), c->saved);
    }
}

/* PMEVCNTR0_EL0 is 9 and saved when they start; a case that must not
 * capture counts first, so that a capture would show */
static const capture_case el1_cases[] = {
    {"PMECR_EL1.SSE 0b00: disabled, no Capture event", set_sse, 0, 1, 0x00, 9},
    {"PMECR_EL1.SSE 0b10: prohibited, unsuccessful", set_sse, 2, 0, 0x10, 9},
    {"PMECR_EL1.SSE 0b11: allowed", set_sse, 3, 0, 0x00, 10},
};

/* At EL2 MDCR_EL2.PMSSE comes first; 0b01 defers to PMECR_EL1.SSE, but
 * not with EL1 in AArch32 (HCR_EL2.RW 0, QEMU's reset value) */
static const capture_case el2_cases[] = {
    {"SSE 0b00 (MDCR_EL2.PMSSE 0b01): disabled", set_sse, 0, 1, 0x00, 10},
    {"MDCR_EL2.PMSSE 0b00: disabled", set_pmsse, 0, 1, 0x00, 10},
    {"MDCR_EL2.PMSSE 0b10: prohibited", set_pmsse, 2, 0, 0x10, 10},
    {"MDCR_EL2.PMSSE 0b11 over SSE 0b00: allowed", set_pmsse, 3, 0, 0x00, 12},
    {"SSE 0b11 (MDCR_EL2.PMSSE 0b11): allowed", set_sse, 3, 1, 0x00, 13},
    {"MDCR_EL2.PMSSE 0b01, SSE 0b11: allowed", set_pmsse, 1, 1, 0x00, 14},
    {"HCR_EL2.RW 0: EL1 in AArch32, disabled", set_hcr_rw, 0, 1, 0x00, 14},
    {"HCR_EL2.RW 1: allowed", set_hcr_rw, 1, 0, 0x00, 15},
};

/* At EL2 with MDCR_EL2.HPMD 1 event counting is prohibited there
 * (CountPMUEvents(): FEAT_PMUv3p1, 'EL2 and MDCR_EL2.HPMD'), and with
 * PMCR_EL0.DP 1 so is the cycle counter: a counter one short of its 32-bit
 * overflow (PMCR_EL0.LP 0, counter 1 below HPMN) neither counts nor sets
 * its PMOVSSET_EL0 bit over 64 instructions; with HPMD 0 the same
 * instructions overflow it. */
static void prohibited_region(void)
{
    MSR("pmovsclr_el0", ~0ul);
    MSR("pmevtyper1_el0", NSH | EV_INST_RETIRED);
    MSR("pmcr_el0", 1ul << 5 | 1);  /* DP, E */
    MSR("mdcr_el2", 1ul << 17 | 6); /* HPMD, HPMN 6 */
    MSR("pmevcntr1_el0", 0xfffffff0u);
    const uint64_t ccnt = MRS("pmccntr_el0");
    __asm__ volatile(".rept 64\n\tnop\n\t.endr");
    check("prohibited: PMEVCNTR1_EL0 unchanged", MRS("pmevcntr1_el0"), 0xfffffff0u);
    check("prohibited: no overflow (PMOVSSET_EL0)", MRS("pmovsset_el0"), 0);
    check("prohibited: PMCCNTR_EL0 unchanged (PMCR_EL0.DP)", MRS("pmccntr_el0"), ccnt);
    MSR("mdcr_el2", 6);
    __asm__ volatile(".rept 64\n\tnop\n\t.endr");
    check("allowed: PMEVCNTR1_EL0 overflowed (PMOVSSET_EL0.P1)", MRS("pmovsset_el0") >> 1 & 1, 1);
}

/* With QEMU's PMU (armprof-pmu=off) there are no snapshots: a Capture
 * event saves the model's counters, and the glue drops FEAT_PMUv3_SS
 * (ID_AA64DFR0_EL1.PMSS 0, its registers UNDEFINED); QEMU's PMU counts
 * SW_INCR without the model. */
static void qemu_pmu(void)
{
    check("QEMU's PMU: ID_AA64DFR0_EL1.PMSS", MRS("id_aa64dfr0_el1") >> 16 & 15, 0);
    check("QEMU's PMU: PMSSCR_EL1 is UNDEFINED", UNDEFINED("mrs x0, " PMSSCR_EL1), 1);
    check("QEMU's PMU: PMEVCNTSVR0_EL1 is UNDEFINED", UNDEFINED("mrs x0, " PMEVCNTSVR0_EL1), 1);
    MSR("pmevtyper0_el0", NSH);
    MSR("pmcntenset_el0", 1);
    MSR("pmcr_el0", 0x3); /* E, P */
    sw_increment(5);
    check("QEMU's PMU: PMEVCNTR0_EL0 after 5 SW_INCR", MRS("pmevcntr0_el0"), 5);
    finish("snapshot");
}

void baremetal_main(void)
{
    const unsigned el = (unsigned)(MRS("CurrentEL") >> 2 & 3);
    put_str("snapshot: FEAT_PMUv3_SS at EL");
    put_dec(el);
    put_str("\n");
    /* PMECR_EL1.SSE decides from here on (PMSSE 0b01) until el2_checks() */
    if (el == 2) {
        set_pmsse(1);
        set_hcr_rw(1);
    }
    if (cmdline_has("armprof-pmu=off")) qemu_pmu();
    check("ID_AA64DFR0_EL1.PMSS", MRS("id_aa64dfr0_el1") >> 16 & 15, 1);
    const uint64_t n_counters = MRS("pmcr_el0") >> 11 & 31;
    if (n_counters != 6) {
        /* the UNDEFINED check below names counter 6 */
        check("PMCR_EL0.N", n_counters, 6);
        semihosting_exit(failed);
    }
    check("PMSSCR_EL1 {NC,SS} at reset", nc_ss(), 0x10);

    /* counter 0 counts SW_INCR, 1 to 4 retirement events, 5 PMU_SNAPSHOT;
     * the cycle and instruction counters run; all from 0, all at EL2 too
     * (NSH, bit 27) */
    /* FEAT_PMUv3_ICNTR at EL1 only (with EL2 it needs FEAT_FGT2) */
    const bool icntr = el == 1;
    check("ID_AA64DFR1_EL1.PMICNTR", MRS("id_aa64dfr1_el1") >> 36 & 15, icntr);
    MSR("pmevtyper0_el0", NSH);
    MSR("pmevtyper1_el0", NSH | EV_INST_RETIRED);
    MSR("pmevtyper2_el0", NSH | EV_BR_RETIRED);
    MSR("pmevtyper3_el0", NSH | EV_LD_RETIRED);
    MSR("pmevtyper4_el0", NSH | EV_ST_RETIRED);
    MSR("pmevtyper5_el0", NSH | EV_PMU_SNAPSHOT);
    MSR("pmccfiltr_el0", NSH);
    if (icntr) MSR(PMICFILTR_EL0, NSH);
    MSR("pmcntenset_el0", (uint64_t)icntr << 32 | 1ul << 31 | 0x3f);
    MSR("pmcr_el0", 0x7); /* E, P (event counters to 0), C (cycle counter to 0) */
    count_block(icntr);
    sw_increment(5);
    check("PMEVCNTR0_EL0 after 5 SW_INCR", MRS("pmevcntr0_el0"), 5);

    /* Without FEAT_EBEP (ID_AA64DFR1_EL1.EBEP, bits [51:48], 0b0000 in
     * QEMU's CPU) PMECR_EL1.KPME and PMEE, bits [2:0], are RES0 */
    check("ID_AA64DFR1_EL1.EBEP", MRS("id_aa64dfr1_el1") >> 48 & 15, 0);
    MSR(PMECR_EL1, 0x7);
    check("PMECR_EL1 after 0b111 written to KPME, PMEE", MRS(PMECR_EL1), 0);

    /* Capture events enabled; allowed once the OS Lock, locked at a Cold
     * reset (OSLSR_EL1.OSLK), is unlocked */
    set_sse(3);
    check("PMECR_EL1.SSE", MRS(PMECR_EL1) >> 3 & 3, 3);
    check("OSLSR_EL1.OSLK at reset", MRS("oslsr_el1") >> 1 & 1, 1);
    const uint64_t unknown = MRS(PMEVCNTSVR0_EL1); /* UNKNOWN after reset */
    MSR(PMSSCR_EL1, 1);
    check("PMSSCR_EL1 {NC,SS}, the OS Lock locked", nc_ss(), 0x10);
    check("PMEVCNTSVR0_EL1 unchanged, the OS Lock locked", MRS(PMEVCNTSVR0_EL1), unknown);
    MSR("oslar_el1", 0);
    MSR(PMSSCR_EL1, 1);
    check("PMSSCR_EL1 {NC,SS} after a successful capture", nc_ss(), 0x00);
    const uint64_t ccnt_saved = MRS(PMCCNTSVR_EL1);
    sw_increment(3);
    check("PMEVCNTR0_EL0, 3 more", MRS("pmevcntr0_el0"), 8);
    check("PMEVCNTSVR0_EL1: the count at the capture", MRS(PMEVCNTSVR0_EL1), 5);
    check("PMEVCNTSVR5_EL1: PMU_SNAPSHOT before the first capture", MRS(PMEVCNTSVR5_EL1), 0);
    const uint64_t ccnt_now = MRS("pmccntr_el0");
    check("PMCCNTSVR_EL1 is not 0", ccnt_saved != 0, 1);
    check("PMCCNTSVR_EL1 <= PMCCNTR_EL0 read later", ccnt_saved <= ccnt_now, 1);

    /* a write of 0 to SS requests nothing */
    MSR(PMSSCR_EL1, 0);
    check("PMEVCNTSVR0_EL1 after SS written 0", MRS(PMEVCNTSVR0_EL1), 5);

    /* a second capture takes the counts of its own instant */
    MSR(PMSSCR_EL1, 1);
    sw_increment(1);
    check("PMEVCNTSVR0_EL1 after a second capture", MRS(PMEVCNTSVR0_EL1), 8);
    MSR(PMSSCR_EL1, 1);
    check("PMEVCNTSVR0_EL1 after a third", MRS(PMEVCNTSVR0_EL1), 9);
    check("PMCCNTSVR_EL1 grew", MRS(PMCCNTSVR_EL1) > ccnt_saved, 1);
    check("PMEVCNTSVR5_EL1: PMU_SNAPSHOT, 2 captures before the third", MRS(PMEVCNTSVR5_EL1), 2);
    check("PMEVCNTR5_EL0: PMU_SNAPSHOT, 3 successful captures", MRS("pmevcntr5_el0"), 3);

    run_cases(el1_cases, sizeof el1_cases / sizeof el1_cases[0]);
    check("PMEVCNTR5_EL0: one more successful capture", MRS("pmevcntr5_el0"), 4);

    /* counters 3 and 4 from 0 on EXC_TAKEN and EXC_RETURN: three UNDEFINED
     * accesses, each an exception taken and returned from */
    MSR("pmevtyper3_el0", NSH | EV_EXC_TAKEN);
    MSR("pmevtyper4_el0", NSH | EV_EXC_RETURN);
    MSR("pmevcntr3_el0", 0);
    MSR("pmevcntr4_el0", 0);
    check("PMEVCNTSVR6_EL1 (n = PMCR_EL0.N) is UNDEFINED", UNDEFINED("mrs x0, " PMEVCNTSVR6_EL1),
          1);
    check("MSR PMEVCNTSVR0_EL1 is UNDEFINED", UNDEFINED("msr " PMEVCNTSVR0_EL1 ", xzr"), 1);
    check("MSR PMCCNTSVR_EL1 is UNDEFINED", UNDEFINED("msr " PMCCNTSVR_EL1 ", xzr"), 1);
    check("EXC_TAKEN: 3 exceptions", MRS("pmevcntr3_el0"), 3);
    check("EXC_RETURN: 3 returns", MRS("pmevcntr4_el0"), 3);
    if (el == 2) {
        run_cases(el2_cases, sizeof el2_cases / sizeof el2_cases[0]);
        check("PMEVCNTR5_EL0: 4 successful captures at EL2", MRS("pmevcntr5_el0"), 8);
        prohibited_region();
    }
    finish("snapshot");
}
