/* SPDX-License-Identifier: BSD-3-Clause */
/* The public BRBE freeze output, armprof_brbe_paused() (BRBFCR_EL1.PAUSED),
 * driven through the public API: a successful PMU snapshot Capture event
 * with BRBCR_EL1.FZPSS and BRBCR_EL2.FZPSS set freezes BRBE (PMUCaptureEvent(),
 * BRBEFreeze()). Expected values from the pseudocode named in each check. */
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

static int reg(const char *name)
{
    unsigned idx = 0;
    return armprof_reg_lookup(name, &idx);
}

static uint32_t enc(const char *name)
{
    return armprof_reg_encoding(reg(name), 0);
}

/* Sets one field of a register through the debugger-style interface. */
static void set_field(armprof_pe *pe, const char *name, const char *field, uint64_t v)
{
    unsigned hi = 0, lo = 0;
    const int r = reg(name);
    CHECK(armprof_reg_field(r, field, &hi, &lo), "%s.%s", name, field);
    const uint64_t mask = (~0ull >> (63 - hi)) & (~0ull << lo);
    armprof_reg_set(pe, r, 0, (armprof_reg_get(pe, r, 0) & ~mask) | ((v << lo) & mask));
}

int main(void)
{
    char err[256];
    armprof_config c;
    armprof_config_preset(&c, "armv9.4-all");
    CHECK(armprof_config_set(&c, "capture_delay_cycles", "0", err, sizeof err), "%s", err);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return check_summary();

    /* BRBFCR_EL1.PAUSED resets to UNKNOWN (unknown_fill 0). */
    CHECK(!armprof_brbe_paused(pe), "PAUSED is 0 after the Cold reset");

    /* Capture events enabled and allowed (MDCR_EL3.PMSSE = 0b11), PMSSCR_EL1
     * accessible at Non-secure EL1, OS Lock off; recording allowed at EL1
     * (MDCR_EL3.SBRBE = 0b11, BRBCR_EL1.E1BRE = 1); both FZPSS set. */
    set_field(pe, "MDCR_EL3", "PMSSE", 3);
    set_field(pe, "MDCR_EL3", "EnPMSS", 1);
    set_field(pe, "MDCR_EL3", "SBRBE", 3);
    set_field(pe, "SCR_EL3", "FGTEn2", 1);
    set_field(pe, "HDFGWTR2_EL2", "nPMSSCR_EL1", 1);
    set_field(pe, "BRBCR_EL1", "E1BRE", 1);
    set_field(pe, "BRBCR_EL1", "FZPSS", 1);
    set_field(pe, "BRBCR_EL2", "FZPSS", 0);
    armprof_set_os_lock(pe, false);
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err), "%s", err);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);

    /* BRBCR_EL2.FZPSS = 0 with EL2 implemented: no freeze. */
    armprof_outcome o = armprof_msr(pe, enc("PMSSCR_EL1"), 0, 1);
    CHECK(o.kind == ARMPROF_DONE, "MSR PMSSCR_EL1: %d", (int)o.kind);
    CHECK(armprof_reg_get(pe, reg("PMSSCR_EL1"), 0) == 0, "successful Capture event");
    CHECK(!armprof_brbe_paused(pe), "no freeze with BRBCR_EL2.FZPSS = 0");

    /* Both set: freeze. */
    set_field(pe, "BRBCR_EL2", "FZPSS", 1);
    o = armprof_msr(pe, enc("PMSSCR_EL1"), 0, 1);
    CHECK(o.kind == ARMPROF_DONE, "MSR PMSSCR_EL1: %d", (int)o.kind);
    CHECK(armprof_brbe_paused(pe), "BRBEFreeze(): PAUSED = 1");

    /* Software clears PAUSED with MSR BRBFCR_EL1. */
    o = armprof_msr(pe, enc("BRBFCR_EL1"), 0, 0);
    CHECK(o.kind == ARMPROF_DONE, "MSR BRBFCR_EL1: %d", (int)o.kind);
    CHECK(!armprof_brbe_paused(pe), "PAUSED cleared");

    /* The external snapshot request: the same Capture event. */
    armprof_snapshot_request(pe);
    CHECK(armprof_brbe_paused(pe), "freeze on the external request");
    armprof_pe_destroy(pe);

    /* Without FEAT_BRBE there is no BRBFCR_EL1: never paused. */
    armprof_config_preset(&c, "armv9.4-all");
    CHECK(armprof_config_set(&c, "FEAT_BRBEv1p1", "off", err, sizeof err), "%s", err);
    CHECK(armprof_config_set(&c, "FEAT_BRBE", "off", err, sizeof err), "%s", err);
    pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (pe) {
        CHECK(!armprof_brbe_paused(pe), "no FEAT_BRBE");
        armprof_pe_destroy(pe);
    }
    return check_summary();
}
