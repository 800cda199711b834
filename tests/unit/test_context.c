/* SPDX-License-Identifier: BSD-3-Clause */
/* The PE context API: Exception levels and Security states the
 * configuration allows, Debug state and EDSCR.SDD, resets. Expected values
 * from the pseudocode named in each check. */
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

static armprof_pe *make(const char *preset)
{
    armprof_config c;
    armprof_config_preset(&c, preset);
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s: %s", preset, err);
    return pe;
}

static uint32_t enc(const char *name)
{
    unsigned idx = 0;
    return armprof_reg_encoding(armprof_reg_lookup(name, &idx), idx);
}

int main(void)
{
    char err[256];
    armprof_pe *pe = make("armv9.4-all");

    /* After a Cold reset the PE is at its highest EL; with FEAT_RME EL3 is
     * Root (SecurityStateAtEL). */
    CHECK(armprof_current_el(pe) == 3, "starts at EL3");
    CHECK(armprof_current_security_state(pe) == ARMPROF_SS_ROOT, "EL3 is Root with FEAT_RME");
    CHECK(armprof_core_powered(pe) && !armprof_in_debug_state(pe), "powered, Non-debug");
    CHECK(armprof_os_locked(pe), "OSLSR_EL1.OSLK is 1 after a Cold reset");

    /* SCR_EL3.NS resets to 0 and SCR_EL3.EEL2 to 0: EL2 is not enabled in
     * Secure state (EL2Enabled, IsSecureEL2Enabled). */
    CHECK(!armprof_set_el(pe, 2, err, sizeof err) && strstr(err, "EEL2"), "%s", err);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    CHECK(armprof_current_security_state(pe) == ARMPROF_SS_SECURE, "SCR_EL3.{NSE,NS} = 00");
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_REALM, err, sizeof err), "%s", err);
    CHECK(armprof_current_security_state(pe) == ARMPROF_SS_REALM, "SCR_EL3.{NSE,NS} = 11");
    unsigned idx = 0;
    const int scr = armprof_reg_lookup("SCR_EL3", &idx);
    CHECK((armprof_reg_get(pe, scr, 0) & (1ull << 62 | 1ull)) == (1ull << 62 | 1ull),
          "SCR_EL3.NSE (bit 62) and NS (bit 0) written");
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err), "%s", err);
    CHECK(armprof_set_el(pe, 2, err, sizeof err), "EL2 in Non-secure state: %s", err);
    CHECK(!armprof_set_security_state(pe, ARMPROF_SS_ROOT, err, sizeof err), "Root below EL3");
    CHECK(!armprof_set_el(pe, 4, err, sizeof err), "EL4");

    /* AArch32 at EL1 forces EL0 to AArch32 and needs FEAT_AA32EL1. */
    CHECK(armprof_set_aarch32(pe, 1, true, err, sizeof err), "%s", err);
    CHECK(armprof_el_using_aarch32(pe, 0), "EL0 follows EL1 into AArch32");
    CHECK(!armprof_set_aarch32(pe, 0, false, err, sizeof err), "EL0 AArch64 under AArch32 EL1");
    CHECK(!armprof_set_aarch32(pe, 2, true, err, sizeof err), "AArch32 EL2 is not modelled");

    /* A Warm reset returns to the highest EL in Non-debug state. */
    armprof_set_debug_state(pe, true);
    armprof_reset(pe, ARMPROF_RESET_WARM);
    CHECK(armprof_current_el(pe) == 3 && !armprof_in_debug_state(pe), "Warm reset context");
    armprof_pe_destroy(pe);

    /* Without EL2/EL3 (preset minimal). */
    pe = make("minimal");
    CHECK(armprof_current_el(pe) == 1, "highest EL is EL1");
    CHECK(!armprof_set_el(pe, 2, err, sizeof err) && strstr(err, "EL2 is not implemented"), "%s",
          err);
    CHECK(!armprof_set_el(pe, 3, err, sizeof err) && strstr(err, "EL3 is not implemented"), "%s",
          err);
    /* SecurityStateAtEL without EL3: SecureOnlyImplementation() is option 0. */
    CHECK(armprof_current_security_state(pe) == ARMPROF_SS_NONSECURE, "Non-secure only");
    CHECK(!armprof_set_security_state(pe, ARMPROF_SS_SECURE, err, sizeof err), "no Secure state");
    CHECK(!armprof_set_aarch32(pe, 0, true, err, sizeof err) && strstr(err, "FEAT_AA32EL0"), "%s",
          err);
    /* A register of an absent feature is UNDEFINED (presence check). */
    CHECK(armprof_mrs(pe, enc("PMSCR_EL1"), 0).kind == ARMPROF_UNDEFINED, "PMSCR_EL1 without SPE");
    CHECK(armprof_mrs(pe, armprof_sysreg_encoding(3, 3, 15, 15, 7), 0).kind == ARMPROF_UNMODELLED,
          "an undeclared encoding is reported as unmodelled");
    armprof_pe_destroy(pe);

    /* EDSCR.SDD is latched on entry to Debug state; EL3SDDUndef() makes the
     * EL3 trap of PMSCR_EL1 (CheckMDCR_EL3_NSPBTrap with MDCR_EL3.NSPB = 00)
     * UNDEFINED. Without FEAT_RME, SDD = !ExternalSecureInvasiveDebugEnabled()
     * = !(DBGEN && SPIDEN). */
    pe = make("armv8.2-spe");
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    armprof_set_el(pe, 2, err, sizeof err);
    CHECK(armprof_mrs(pe, enc("PMSCR_EL2"), 0).kind == ARMPROF_TRAP, "NSPB trap to EL3");
    armprof_set_debug_state(pe, true); /* signals low: SDD = 1 */
    CHECK(armprof_mrs(pe, enc("PMSCR_EL2"), 0).kind == ARMPROF_UNDEFINED, "EL3SDDUndef");
    armprof_set_signal(pe, ARMPROF_SIG_DBGEN, true);
    armprof_set_signal(pe, ARMPROF_SIG_SPIDEN, true);
    CHECK(armprof_mrs(pe, enc("PMSCR_EL2"), 0).kind == ARMPROF_UNDEFINED,
          "SDD does not change in Debug state");
    armprof_set_debug_state(pe, false);
    armprof_set_debug_state(pe, true); /* re-entered with DBGEN and SPIDEN high: SDD = 0 */
    const armprof_outcome o = armprof_mrs(pe, enc("PMSCR_EL2"), 0);
    CHECK(o.kind == ARMPROF_TRAP && o.target_el == 3, "SDD = 0 after entry with Secure debug");
    armprof_pe_destroy(pe);
    return check_summary();
}
