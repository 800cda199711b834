/* SPDX-License-Identifier: BSD-3-Clause */
/* Bad input to the PMU's System registers in the armprof qemu-system-aarch64
 * (issue 38 part 7): a bare-metal program (baremetal.h) that makes the
 * accesses a guest should not, on the model's PMU (armprof-pmu=on, the
 * default), and checks that each has the outcome the register's 'Accessing'
 * pseudocode (the manual's registers/ pages) gives, with the exact syndrome: a trap is
 * ESR EC 0x18 with IL 1 and the ISS of AArch64.SystemAccessTrapSyndrome()
 * (Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1],
 * Direction [0], 1 for a read), an UNDEFINED access ESR 0x02000000 (EC 0x00,
 * IL 1), taken at the level the pseudocode names. At EL1 (virt) the EL0
 * enables (PMUSERENR_EL0, PMUACR_EL1) are tried from EL0; at EL2
 * (virtualization=on) MDCR_EL2.TPM and HPMN from EL1; at both, PMSELR_EL0
 * beyond the counters and reserved values.
 *
 * The model, on QEMU's max CPU with QEMU's 6 event counters (PMCR_EL0.N),
 * is one of two presets (the test runs both; the program reads what it
 * has off the ID registers):
 *   - armv9.4-all: FEAT_PMUv3p9 (PMUSERENR_EL0.UEN, PMUACR_EL1),
 *     FEAT_PMUv3p8, FEAT_HPMN0 and FEAT_FGT (QEMU's max CPU has it, so the
 *     model keeps it): every index test of the counter pages has a defined
 *     outcome, UNDEFINED or a trap to EL2. Not FEAT_PMUv3_EXTPMN: the glue
 *     drops it (MDCR_EL2 is QEMU's, which cannot read HPMN back as
 *     PMCCR.EPMN, RMFYQC), so MDCR_EL2.HPMN above the counters is reserved;
 *   - armprof-preset=armv8.2-spe: FEAT_PMUv3p1, no FEAT_FGT (the glue then
 *     clears QEMU's ID_AA64MMFR0_EL1.FGT too) or FEAT_HPMN0:
 *     the same tests are CONSTRAINED UNPREDICTABLE, and the model makes its
 *     default choices (docs/configuration.md): Unpredictable_PMUEVENTCOUNTER
 *     TRAP_EL2 (trapped to EL2 when EL2 is enabled, the access is from EL0
 *     or EL1 and n is below the implemented counters; UNDEFINED otherwise),
 *     which is what FEAT_FGT defines, so the checks expect the same
 *     outcomes; Unpredictable_RES_HPMN 0 (MDCR_EL2.HPMN 0, reserved without
 *     FEAT_HPMN0, and HPMN above the counters behave as 0). The model's
 *     ID_AA64DFR0_EL1.PMUVer and HPMN0 say which PMUv3 rules apply. */
#include <stdbool.h>
#include <stdint.h>

#include "baremetal.h"

#define PMUACR_EL1 "S3_0_C9_C14_4"

/* PMUSERENR_EL0 fields */
#define EN  (1u << 0)
#define CR  (1u << 2)
#define ER  (1u << 3)
#define UEN (1u << 4)

#define NSH (1ul << 27) /* PMEVTYPER<n>_EL0.NSH: count at EL2 too */

/* ID_AA64DFR0_EL1.PMUVer */
#define PMUv3p8 8
#define PMUv3p9 9

/* What the PE has, from its ID registers and the runner's preset */
typedef struct pmu_features {
    unsigned el, n_counters, pmuver;
    bool fgt, hpmn0;
} pmu_features;

#define ESR_UNDEFINED 0x02000000ull /* EC 0x00 (Unknown reason), IL 1 */

/* The EC 0x18 syndrome of an access to (3, op1, crn, crm, op2) with Rt x2 */
static uint64_t trapped(unsigned op1, unsigned crn, unsigned crm, unsigned op2, bool read)
{
    return 0x18ull << 26 | 1ull << 25 | 3ull << 20 | (uint64_t)op2 << 17 | (uint64_t)op1 << 14 |
           (uint64_t)crn << 10 | 2ull << 5 | (uint64_t)crm << 1 | read;
}

/* The encodings (Op1, CRn, CRm, Op2; Op0 is 3) of D23's table */
#define PMCR_EL0      3, 9, 12, 0
#define PMSELR_EL0    3, 9, 12, 5
#define PMCCNTR_EL0   3, 9, 13, 0
#define PMXEVCNTR_EL0 3, 9, 13, 2
#define PMUSERENR     3, 9, 14, 0
#define PMEVCNTR(n)   3, 14, 8 + (n) / 8, (n) % 8

/* A read's syndrome (NO_EXCEPTION if it read) and the value read */
#define READ(reg, value)                                                                           \
    ({                                                                                             \
        const uint64_t before_ = exceptions;                                                       \
        value = MRS(reg);                                                                          \
        exceptions != before_ ? last_esr : NO_EXCEPTION;                                           \
    })

/* check() of a syndrome and of the level that took the exception */
static void check_trap(const char *what, uint64_t esr, uint64_t want, unsigned el)
{
    check(what, esr, want);
    if (want != NO_EXCEPTION) check("  taken to", exception_el, el);
}

/* MRS and MSR of reg (Rt x2) both trap to el with enc's syndrome */
#define CHECK_TRAPS_BOTH(what, reg, enc, el)                                                       \
    do {                                                                                           \
        check_trap(what ": MRS", SYNDROME("mrs x2, " reg), trapped(enc, true), el);                \
        check_trap(what ": MSR", SYNDROME("msr " reg ", x2"), trapped(enc, false), el);            \
    } while (0)

/* ---- 1, 2: EL0 and PMUSERENR_EL0 (run at EL0 by run_lower()) ----
 * Counter 0 holds 42 (not counting) when each starts. */

/* PMUSERENR_EL0 0: PMCCNTR_EL0 MRS: '(FEAT_PMUv3p9 && PMUSERENR_EL0.<UEN,CR,EN>
 * == '000') ... AArch64.SystemAccessTrap(EL1, 0x18)'; PMEVCNTR<n>_EL0 MRS and
 * PMSELR_EL0: <UEN,ER,EN> == '000'; PMEVCNTR<n>_EL0 MSR: EN == '0' && UEN ==
 * '0'. PMUSERENR_EL0 MRS at EL0 has no enable test ('else X[t, 64] =
 * PMUSERENR_EL0'), its MSR is 'elsif PSTATE.EL == EL0 then UNDEFINED'. */
static void el0_disabled(void)
{
    uint64_t v;
    check_trap("EL0 MRS PMCCNTR_EL0, PMUSERENR_EL0 0", SYNDROME("mrs x2, pmccntr_el0"),
               trapped(PMCCNTR_EL0, true), 1);
    CHECK_TRAPS_BOTH("EL0 PMEVCNTR0_EL0", "pmevcntr0_el0", PMEVCNTR(0), 1);
    CHECK_TRAPS_BOTH("EL0 PMSELR_EL0", "pmselr_el0", PMSELR_EL0, 1);
    check("EL0 MRS PMUSERENR_EL0 reads", READ("pmuserenr_el0", v), NO_EXCEPTION);
    check("  PMUSERENR_EL0", v, 0);
    check_trap("EL0 MSR PMUSERENR_EL0 is UNDEFINED", SYNDROME("msr pmuserenr_el0, x2"),
               ESR_UNDEFINED, 1);
}

/* PMUSERENR_EL0.CR 1: PMCCNTR_EL0 reads; the event counters still trap; an
 * MSR PMCCNTR_EL0 tests EN only */
static void el0_cr(void)
{
    check("EL0 MRS PMCCNTR_EL0, CR 1, reads", SYNDROME("mrs x2, pmccntr_el0"), NO_EXCEPTION);
    check_trap("EL0 MRS PMEVCNTR0_EL0, CR 1", SYNDROME("mrs x2, pmevcntr0_el0"),
               trapped(PMEVCNTR(0), true), 1);
    check_trap("EL0 MSR PMCCNTR_EL0, CR 1", SYNDROME("msr pmccntr_el0, x2"),
               trapped(PMCCNTR_EL0, false), 1);
}

/* PMUSERENR_EL0.ER 1: event counter reads and PMSELR_EL0 reads and writes;
 * not event counter writes, not PMCCNTR_EL0 */
static void el0_er(void)
{
    uint64_t v;
    check("EL0 MRS PMEVCNTR0_EL0, ER 1, reads", READ("pmevcntr0_el0", v), NO_EXCEPTION);
    check("  PMEVCNTR0_EL0", v, 42);
    check_trap("EL0 MSR PMEVCNTR0_EL0, ER 1", SYNDROME("msr pmevcntr0_el0, x2"),
               trapped(PMEVCNTR(0), false), 1);
    check_trap("EL0 MRS PMCCNTR_EL0, ER 1", SYNDROME("mrs x2, pmccntr_el0"),
               trapped(PMCCNTR_EL0, true), 1);
    check("EL0 MSR PMSELR_EL0 4, ER 1", SYNDROME("mov x2, #4\n\tmsr pmselr_el0, x2"), NO_EXCEPTION);
    check("EL0 MRS PMSELR_EL0, ER 1, reads", READ("pmselr_el0", v), NO_EXCEPTION);
    check("  PMSELR_EL0.SEL", v & 31, 4);
}

/* PMUSERENR_EL0.EN 1: all of them */
static void el0_en(void)
{
    uint64_t v;
    check("EL0 MSR PMEVCNTR0_EL0 7, EN 1", SYNDROME("mov x2, #7\n\tmsr pmevcntr0_el0, x2"),
          NO_EXCEPTION);
    check("EL0 MRS PMEVCNTR0_EL0, EN 1", READ("pmevcntr0_el0", v), NO_EXCEPTION);
    check("  PMEVCNTR0_EL0", v, 7);
    check("EL0 MRS PMCCNTR_EL0, EN 1", SYNDROME("mrs x2, pmccntr_el0"), NO_EXCEPTION);
}

/* PMUSERENR_EL0.UEN 1 (FEAT_PMUv3p9) with PMUACR_EL1.P0 0: 'PMUSERENR_EL0.UEN
 * == '1' && PMUACR_EL1[n] == '0' then X[t, 64] = Zeros(64)' for MRS, and
 * 'return' (the write ignored) for MSR */
static void el0_uen_p0_clear(void)
{
    uint64_t v;
    check("EL0 MRS PMEVCNTR0_EL0, UEN 1, PMUACR_EL1.P0 0", READ("pmevcntr0_el0", v), NO_EXCEPTION);
    check("  RAZ", v, 0);
    check("EL0 MSR PMEVCNTR0_EL0 9, UEN 1, P0 0", SYNDROME("mov x2, #9\n\tmsr pmevcntr0_el0, x2"),
          NO_EXCEPTION);
}

/* UEN 1, PMUACR_EL1.P0 1: the counter reads and, with ER 0, is written */
static void el0_uen_p0_set(void)
{
    uint64_t v;
    check("EL0 MRS PMEVCNTR0_EL0, UEN 1, P0 1", READ("pmevcntr0_el0", v), NO_EXCEPTION);
    check("  PMEVCNTR0_EL0", v, 7);
    check("EL0 MSR PMEVCNTR0_EL0 9, UEN 1, P0 1", SYNDROME("mov x2, #9\n\tmsr pmevcntr0_el0, x2"),
          NO_EXCEPTION);
}

/* UEN 1, ER 1, P0 1: '(PMUACR_EL1[n] == '0' || PMUSERENR_EL0.ER == '1') then
 * return': the write ignored */
static void el0_uen_er(void)
{
    check("EL0 MSR PMEVCNTR0_EL0 11, UEN 1, ER 1", SYNDROME("mov x2, #11\n\tmsr pmevcntr0_el0, x2"),
          NO_EXCEPTION);
}

/* Without FEAT_PMUv3p9 the enable tests are '!IsFeatureImplemented(
 * FEAT_PMUv3p9) && PMUSERENR_EL0.<ER,EN> == '00'': UEN (RES0) enables
 * nothing */
static void el0_uen_without_p9(void)
{
    check_trap("EL0 MRS PMEVCNTR0_EL0, UEN written, no FEAT_PMUv3p9",
               SYNDROME("mrs x2, pmevcntr0_el0"), trapped(PMEVCNTR(0), true), 1);
}

/* PMUSERENR_EL0 0 with PMSELR_EL0.SEL 25: PMXEVCNTR_EL0's and
 * PMXEVTYPER_EL0's index test ('UInt(PMSELR_EL0.SEL) >=
 * GetNumEventCountersSelfHosted() then ... UNDEFINED') comes before the
 * 'PSTATE.EL == EL0' branch and its enable test: UNDEFINED, not trapped
 * (armv8.2-spe: Unpredictable_PMUEVENTCOUNTER TRAP_EL2, UNDEFINED with no
 * EL2) */
static void el0_sel25(void)
{
    check_trap("EL0 MRS PMXEVCNTR_EL0, SEL 25, PMUSERENR_EL0 0", SYNDROME("mrs x2, pmxevcntr_el0"),
               ESR_UNDEFINED, 1);
    check_trap("EL0 MSR PMXEVTYPER_EL0, SEL 25", SYNDROME("msr pmxevtyper_el0, x2"), ESR_UNDEFINED,
               1);
}

/* ... and with SEL 3 the enable test traps, with PMXEVCNTR_EL0's ISS */
static void el0_sel3(void)
{
    check_trap("EL0 MRS PMXEVCNTR_EL0, SEL 3, PMUSERENR_EL0 0", SYNDROME("mrs x2, pmxevcntr_el0"),
               trapped(PMXEVCNTR_EL0, true), 1);
}

static void at_el0(unsigned pmuserenr, uint64_t pmuacr, void (*fn)(void))
{
    MSR("pmuserenr_el0", pmuserenr);
    if (pmuacr != NO_EXCEPTION) MSR(PMUACR_EL1, pmuacr);
    run_lower(fn);
}

static void el0_cases(const pmu_features *f)
{
    /* PMUACR_EL1 is FEAT_PMUv3p9's: left alone (NO_EXCEPTION) without it */
    const uint64_t no_acr = f->pmuver >= PMUv3p9 ? 0 : NO_EXCEPTION;
    MSR("pmcntenclr_el0", ~0ul);
    MSR("pmevcntr0_el0", 42);
    at_el0(0, no_acr, el0_disabled);
    MSR("pmselr_el0", 25);
    run_lower(el0_sel25);
    MSR("pmselr_el0", 3);
    run_lower(el0_sel3);
    at_el0(CR, no_acr, el0_cr);
    at_el0(ER, no_acr, el0_er);
    at_el0(EN, no_acr, el0_en);
    check("PMEVCNTR0_EL0 written at EL0", MRS("pmevcntr0_el0"), 7);
    if (f->pmuver < PMUv3p9) {
        at_el0(UEN, NO_EXCEPTION, el0_uen_without_p9);
        MSR("pmuserenr_el0", 0);
        return;
    }
    at_el0(UEN, 0, el0_uen_p0_clear);
    check("PMEVCNTR0_EL0 after the ignored EL0 write", MRS("pmevcntr0_el0"), 7);
    at_el0(UEN, 1, el0_uen_p0_set);
    check("PMEVCNTR0_EL0 written at EL0 (UEN, P0)", MRS("pmevcntr0_el0"), 9);
    at_el0(UEN | ER, 1, el0_uen_er);
    check("PMEVCNTR0_EL0 after the ignored EL0 write (UEN, ER)", MRS("pmevcntr0_el0"), 9);
    MSR("pmuserenr_el0", 0);
    MSR(PMUACR_EL1, 0);
}

/* ---- 3: PMSELR_EL0.SEL beyond the counters ----
 * PMXEVCNTR_EL0 and PMXEVTYPER_EL0 (MRS and MSR): 'elsif UInt(PMSELR_EL0.SEL)
 * >= GetNumEventCountersSelfHosted() then if IsFeatureImplemented(FEAT_FGT)
 * then UNDEFINED' (PMXEVTYPER_EL0: 'UInt(PMSELR_EL0.SEL) != 31 && ...');
 * SEL 31 selects PMCCFILTR_EL0 through PMXEVTYPER_EL0 (PMSELR_EL0.SEL's
 * table). With FEAT_FGT, SEL reads back as written (its UNKNOWN read is
 * for 'FEAT_FGT is not implemented'). */
static void check_selection_undefined(const char *what, bool evtyper_too)
{
    put_str(what);
    put_str("\n");
    check("  MRS PMXEVCNTR_EL0 UNDEFINED", SYNDROME("mrs x2, pmxevcntr_el0"), ESR_UNDEFINED);
    check("  MSR PMXEVCNTR_EL0 UNDEFINED", SYNDROME("msr pmxevcntr_el0, xzr"), ESR_UNDEFINED);
    if (!evtyper_too) return;
    check("  MRS PMXEVTYPER_EL0 UNDEFINED", SYNDROME("mrs x2, pmxevtyper_el0"), ESR_UNDEFINED);
    check("  MSR PMXEVTYPER_EL0 UNDEFINED", SYNDROME("msr pmxevtyper_el0, xzr"), ESR_UNDEFINED);
}

/* PMSELR_EL0 resets to an UNKNOWN value: whatever it reads, the selected
 * registers behave as the pseudocode says for that SEL. Run before anything
 * writes PMSELR_EL0. */
static void selection_at_reset(const pmu_features *f)
{
    const unsigned n_counters = f->n_counters;
    const unsigned sel = (unsigned)(MRS("pmselr_el0") & 31);
    put_str("PMSELR_EL0.SEL at reset: ");
    put_dec(sel);
    put_str("\n");
    if (sel < n_counters) {
        check("  MRS PMXEVCNTR_EL0 reads", SYNDROME("mrs x2, pmxevcntr_el0"), NO_EXCEPTION);
        check("  MRS PMXEVTYPER_EL0 reads", SYNDROME("mrs x2, pmxevtyper_el0"), NO_EXCEPTION);
    } else {
        check_selection_undefined("  PMXEV* with no counter selected", sel != 31);
    }
}

static void selection_cases(const pmu_features *f)
{
    const unsigned n_counters = f->n_counters;
    MSR("pmselr_el0", 25);
    if (f->fgt) check("PMSELR_EL0.SEL 25 reads back", MRS("pmselr_el0"), 25);
    check_selection_undefined("PMSELR_EL0.SEL 25 (N 6)", true);
    MSR("pmselr_el0", n_counters);
    check_selection_undefined("PMSELR_EL0.SEL N", true);
    MSR("pmselr_el0", 31);
    check_selection_undefined("PMSELR_EL0.SEL 31: PMXEVCNTR_EL0", false);
    MSR("pmxevtyper_el0", 1ul << 31); /* PMCCFILTR_EL0.P */
    check("  MSR PMXEVTYPER_EL0 writes PMCCFILTR_EL0", MRS("pmccfiltr_el0"), 1ul << 31);
    check("  MRS PMXEVTYPER_EL0 reads it", MRS("pmxevtyper_el0"), 1ul << 31);
    MSR("pmccfiltr_el0", 0);
    MSR("pmselr_el0", n_counters - 1);
    MSR("pmxevcntr_el0", 123);
    check("PMSELR_EL0.SEL N - 1: PMXEVCNTR_EL0 is PMEVCNTR5_EL0", MRS("pmevcntr5_el0"), 123);
    MSR("pmxevtyper_el0", 0x11);
    check("  PMXEVTYPER_EL0 is PMEVTYPER5_EL0", MRS("pmevtyper5_el0") & 0xffff, 0x11);
    MSR("pmevtyper5_el0", 0);
}

/* ---- 4: reserved values ---- */

/* The lowest common event (0..31) PMCEID0_EL0 says is not implemented */
static unsigned unimplemented_event(void)
{
    const uint64_t ceid = MRS("pmceid0_el0");
    unsigned e = 1;
    while (e < 32 && (ceid >> e & 1))
        e++;
    return e;
}

static void reserved_cases(const pmu_features *f)
{
    const unsigned n_counters = f->n_counters;
    const uint64_t low = (1ul << n_counters) - 1;
    /* PMCR_EL0.N and IMP: 'Access to this field is RO' */
    const uint64_t pmcr = MRS("pmcr_el0");
    MSR("pmcr_el0", (pmcr ^ (0x1ful << 11 | 0xfful << 24)) & ~0x7ul);
    check("PMCR_EL0.N after a write", MRS("pmcr_el0") >> 11 & 31, n_counters);
    check("PMCR_EL0.IMP after a write", MRS("pmcr_el0") >> 24 & 0xff, pmcr >> 24 & 0xff);
    /* P<m> of PMCNTENSET, PMINTENSET, PMOVSSET: 'When m >= N ... RAZ/WI' */
    MSR("pmcntenclr_el0", 0xfffffffful);
    MSR("pmcntenset_el0", 0x7ffffffful);
    check("PMCNTENSET_EL0 P<m>, m >= N, RAZ/WI", MRS("pmcntenset_el0") & 0x7ffffffful, low);
    MSR("pmcntenclr_el0", 0xfffffffful);
    MSR("pmintenset_el1", 0x7ffffffful);
    check("PMINTENSET_EL1 P<m>, m >= N, RAZ/WI", MRS("pmintenset_el1") & 0x7ffffffful, low);
    MSR("pmintenclr_el1", 0xfffffffful);
    MSR("pmovsset_el0", 0x7ffffffful);
    check("PMOVSSET_EL0 P<m>, m >= N, RAZ/WI", MRS("pmovsset_el0") & 0x7ffffffful, low);
    MSR("pmovsclr_el0", 0xfffffffful);

    /* PMEVTYPER<n>_EL0.evtCount: 'If FEAT_PMUv3p8 is implemented and
     * evtCount is programmed to an event that is reserved or not supported
     * by the PE, no events are counted and the value returned by a direct
     * or external read of the evtCount field is the value written';
     * without it, the same 'For the range 0x0000 to 0x003F' only (0x1234
     * then reads UNKNOWN and counts UNPREDICTABLY: not checked). Counter 0
     * counts SW_INCR beside them, so counting is on. */
    const bool p8 = f->pmuver >= PMUv3p8;
    const unsigned event = unimplemented_event();
    const uint64_t filter = f->el == 2 ? NSH : 0;
    check("  a common event PMCEID0_EL0 lacks", event < 32, 1);
    MSR("pmevtyper0_el0", filter);
    MSR("pmevtyper1_el0", filter | event);
    MSR("pmevtyper2_el0", filter | 0x1234); /* reserved */
    check("PMEVTYPER1_EL0.evtCount, an unsupported event", MRS("pmevtyper1_el0") & 0xffff, event);
    if (p8)
        check("PMEVTYPER2_EL0.evtCount 0x1234 (reserved)", MRS("pmevtyper2_el0") & 0xffff, 0x1234);
    MSR("pmevcntr0_el0", 0);
    MSR("pmevcntr1_el0", 0);
    MSR("pmevcntr2_el0", 0);
    MSR("pmcntenset_el0", 7);
    MSR("pmcr_el0", 1); /* E */
    for (unsigned i = 0; i < 5; i++)
        MSR("pmswinc_el0", 7); /* 'If n >= N ... no effect': counters 1, 2 not SW_INCR */
    MSR("pmcr_el0", 0);
    check("PMEVCNTR0_EL0 (SW_INCR) counted", MRS("pmevcntr0_el0"), 5);
    check("PMEVCNTR1_EL0 (unsupported event) counted nothing", MRS("pmevcntr1_el0"), 0);
    if (p8) check("PMEVCNTR2_EL0 (reserved event) counted nothing", MRS("pmevcntr2_el0"), 0);
    MSR("pmcntenclr_el0", 0xfffffffful);
    MSR("pmevtyper1_el0", 0);
    MSR("pmevtyper2_el0", 0);
}

/* ---- 5: at EL2, EL1's accesses (run at EL1 by run_lower()) ---- */

/* MDCR_EL2.TPM 1: each EL1 branch 'elsif EL2Enabled() && MDCR_EL2.TPM == '1'
 * then AArch64.SystemAccessTrap(EL2, 0x18)' */
static void el1_tpm(void)
{
    CHECK_TRAPS_BOTH("EL1 PMCR_EL0, MDCR_EL2.TPM 1", "pmcr_el0", PMCR_EL0, 2);
    check_trap("EL1 MRS PMEVCNTR1_EL0, TPM 1", SYNDROME("mrs x2, pmevcntr1_el0"),
               trapped(PMEVCNTR(1), true), 2);
    check_trap("EL1 MSR PMUSERENR_EL0, TPM 1", SYNDROME("msr pmuserenr_el0, x2"),
               trapped(PMUSERENR, false), 2);
}

/* MDCR_EL2.HPMN 2: PMCR_EL0.N 'from EL1 and EL0 return the Effective value
 * of MDCR_EL2.HPMN'; 'elsif EL2Enabled() && n >= GetNumEventCountersAccessible()
 * then if !IsFeatureImplemented(FEAT_FGT) then ConstrainUnpredictable...
 * else AArch64.SystemAccessTrap(EL2, 0x18)', after the leading test
 * (n >= GetNumEventCountersSelfHosted(): UNDEFINED with FEAT_FGT). */
static void el1_hpmn(void)
{
    uint64_t v;
    check("EL1 PMCR_EL0.N, MDCR_EL2.HPMN 2", MRS("pmcr_el0") >> 11 & 31, 2);
    check("EL1 MRS PMEVCNTR1_EL0 (n < HPMN) reads", READ("pmevcntr1_el0", v), NO_EXCEPTION);
    check("  PMEVCNTR1_EL0", v, 11);
    CHECK_TRAPS_BOTH("EL1 PMEVCNTR3_EL0 (HPMN <= n < N)", "pmevcntr3_el0", PMEVCNTR(3), 2);
    check_trap("EL1 MRS PMEVCNTR6_EL0 (n = N) UNDEFINED", SYNDROME("mrs x2, pmevcntr6_el0"),
               ESR_UNDEFINED, 1);
    MSR("pmselr_el0", 3);
    check_trap("EL1 MRS PMXEVCNTR_EL0, SEL 3", SYNDROME("mrs x2, pmxevcntr_el0"),
               trapped(PMXEVCNTR_EL0, true), 2);
    MSR("pmselr_el0", 25);
    check_trap("EL1 MRS PMXEVCNTR_EL0, SEL 25 UNDEFINED", SYNDROME("mrs x2, pmxevcntr_el0"),
               ESR_UNDEFINED, 1);
}

/* MDCR_EL2.HPMN 0: no counter accessible at EL1 (with FEAT_HPMN0; without
 * it the value is reserved, and the model's Unpredictable_RES_HPMN default
 * 0 keeps it) */
static void el1_hpmn0(void)
{
    check("EL1 PMCR_EL0.N, MDCR_EL2.HPMN 0", MRS("pmcr_el0") >> 11 & 31, 0);
    check_trap("EL1 MRS PMEVCNTR0_EL0, HPMN 0", SYNDROME("mrs x2, pmevcntr0_el0"),
               trapped(PMEVCNTR(0), true), 2);
}

/* MDCR_EL2.HPMN 31, above the 6 counters: without FEAT_PMUv3_EXTPMN the
 * value is reserved, and the model's Unpredictable_RES_HPMN 0 leaves EL1
 * none. */
static void el1_hpmn31_reserved(void)
{
    check("EL1 PMCR_EL0.N, MDCR_EL2.HPMN 31 as 0", MRS("pmcr_el0") >> 11 & 31, 0);
    check_trap("EL1 MRS PMEVCNTR0_EL0, HPMN 31 as 0", SYNDROME("mrs x2, pmevcntr0_el0"),
               trapped(PMEVCNTR(0), true), 2);
}

static void el2_cases(const pmu_features *f)
{
    const unsigned n_counters = f->n_counters;
    MSR("hcr_el2", 1ul << 31); /* RW: EL1 is AArch64 */
    MSR("pmevcntr1_el0", 11);
    MSR("pmevcntr3_el0", 33);
    MSR("mdcr_el2", 1ul << 6 | n_counters); /* TPM */
    run_lower(el1_tpm);
    MSR("mdcr_el2", 2);
    run_lower(el1_hpmn);
    /* the EL2 branch has no HPMN test */
    check("EL2 MRS PMEVCNTR3_EL0, HPMN 2", MRS("pmevcntr3_el0"), 33);
    check("EL2 PMCR_EL0.N, HPMN 2", MRS("pmcr_el0") >> 11 & 31, n_counters);
    put_str(f->hpmn0 ? "MDCR_EL2.HPMN 0 (FEAT_HPMN0)\n"
                     : "MDCR_EL2.HPMN 0, reserved: Unpredictable_RES_HPMN 0\n");
    MSR("mdcr_el2", 0);
    run_lower(el1_hpmn0);
    MSR("mdcr_el2", 31);
    run_lower(el1_hpmn31_reserved);
    MSR("mdcr_el2", n_counters);
}

void baremetal_main(void)
{
    const uint64_t dfr0 = MRS("id_aa64dfr0_el1");
    const pmu_features f = {
        .el = (unsigned)(MRS("CurrentEL") >> 2 & 3),
        .n_counters = (unsigned)(MRS("pmcr_el0") >> 11 & 31),
        .pmuver = (unsigned)(dfr0 >> 8 & 15),
        /* ID_AA64MMFR0_EL1.FGT, bits [59:56], the model's (the glue takes
         * QEMU's away with a preset that lacks it) */
        .fgt = (MRS("id_aa64mmfr0_el1") >> 56 & 15) != 0,
        .hpmn0 = (dfr0 >> 60 & 15) == 1,
    };
    put_str("pmu_traps: the PMU's registers at EL");
    put_dec(f.el);
    put_str(f.fgt ? ", FEAT_FGT" : ", no FEAT_FGT");
    put_str(", ID_AA64DFR0_EL1.PMUVer ");
    put_dec(f.pmuver);
    put_str("\n");
    selection_at_reset(&f);
    if (f.n_counters != 6) {
        /* the checks name counters 3, 5 and 6 */
        check("PMCR_EL0.N", f.n_counters, 6);
        finish("pmu_traps");
    }
    selection_cases(&f);
    reserved_cases(&f);
    if (f.el == 1)
        el0_cases(&f);
    else
        el2_cases(&f);
    finish("pmu_traps");
}
