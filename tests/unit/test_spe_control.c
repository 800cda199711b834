/* SPDX-License-Identifier: BSD-3-Clause */
/* The public SPE owner and enable API (armprof.h "Statistical Profiling:
 * owner and enables"): the C entry points the scenario tests reach through
 * `expect spe.NAME`, their argument handling, and that they agree with each
 * other. Expected values from ProfilingBufferOwner(),
 * ProfilingBufferEnabled() and StatisticalProfilingEnabled(), as each check
 * says. */
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"

static void set_field(armprof_pe *pe, const char *reg, const char *field, uint64_t v)
{
    CHECK(set_field_of(pe, reg, field, v), "%s.%s", reg, field);
}

int main(void)
{
    armprof_config c;
    armprof_config_preset(&c, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return check_summary();

    /* Non-secure owner ({NSPBE,NSPB} = {0,0b11}), owning EL2 (E2PB 0b00),
     * EL2 and EL1 enables set, PMBSR_EL1.S 0, MDCR_EL3.PMSEE 0b00. */
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err), "%s", err);
    set_field(pe, "MDCR_EL3", "NSPBE", 0);
    set_field(pe, "MDCR_EL3", "NSPB", 3);
    set_field(pe, "MDCR_EL3", "PMSEE", 0);
    set_field(pe, "MDCR_EL2", "E2PB", 0);
    set_field(pe, "HCR_EL2", "TGE", 0);
    set_field(pe, "HCR_EL2", "E2H", 1);
    set_field(pe, "PMBSR_EL1", "S", 0);
    set_field(pe, "PMSCR_EL2", "E2SPE", 1);
    set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    set_field(pe, "PMSCR_EL1", "E0SPE", 0);

    /* PMBLIMITR_EL1.E = 0: no owner to report, but the out-parameters still
     * take ProfilingBufferOwner()'s values. */
    armprof_security_state ss = ARMPROF_SS_ROOT;
    unsigned el = 9;
    CHECK(!armprof_spe_buffer_owner(pe, &ss, &el), "E = 0: not enabled");
    CHECK(ss == ARMPROF_SS_NONSECURE && el == 2, "owner NS EL2, got %d EL%u", (int)ss, el);
    CHECK(!armprof_spe_buffer_enabled(pe), "E = 0");
    CHECK(armprof_spe_owning_regime(pe) == ARMPROF_SPE_REGIME_NONE, "E = 0: no regime");

    set_field(pe, "PMBLIMITR_EL1", "E", 1);
    CHECK(armprof_spe_buffer_owner(pe, NULL, NULL), "NULL out-parameters are allowed");
    CHECK(armprof_spe_buffer_enabled(pe), "E = 1, owner matches");
    /* RKRVDC: owning EL2, Effective E2H 1 -> EL2&0. */
    CHECK(armprof_spe_owning_regime(pe) == ARMPROF_SPE_REGIME_EL20, "EL2&0");
    CHECK(!armprof_spe_profiling_stopped(pe), "not stopped");
    CHECK(!armprof_spe_profiling_enabled(pe, 3), "EL3 never");
    CHECK(armprof_spe_profiling_enabled(pe, 2), "E2SPE");
    CHECK(armprof_spe_profiling_enabled(pe, 1), "E1SPE");
    CHECK(!armprof_spe_profiling_enabled(pe, 0), "E0SPE 0");
    CHECK(!armprof_spe_profiling_enabled(pe, 4), "no EL4");

    /* armprof_spe_value() names agree with the typed calls. */
    uint64_t v = 99;
    CHECK(armprof_spe_value(pe, "owner_ss", &v) && v == ARMPROF_SS_NONSECURE, "owner_ss");
    CHECK(armprof_spe_value(pe, "owner_el", &v) && v == 2, "owner_el");
    CHECK(armprof_spe_value(pe, "regime", &v) && v == ARMPROF_SPE_REGIME_EL20, "regime");
    CHECK(armprof_spe_value(pe, "enabled_el2", &v) && v == 1, "enabled_el2");
    CHECK(armprof_spe_value(pe, "enabled_el0", &v) && v == 0, "enabled_el0");
    /* EnVM: owning EL2 -> Effective 1 (PMSCR_EL2.md). */
    CHECK(armprof_spe_value(pe, "effective.PMSCR_EL2.EnVM", &v) && v == 1, "EnVM");
    CHECK(!armprof_spe_value(pe, "enabled_el4", &v), "no EL4");
    CHECK(!armprof_spe_value(pe, "enabled_el", &v), "no EL");
    CHECK(!armprof_spe_value(pe, "enabled_el10", &v), "two digits");
    CHECK(!armprof_spe_value(pe, "effective.PMSCR_EL2.NOPE", &v), "unknown field");
    CHECK(!armprof_spe_value(pe, "effective.", &v), "empty field");
    CHECK(!armprof_spe_value(pe, "", &v), "empty name");

    /* From Secure state the Non-secure owner disables everything (D17.7.5). */
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_SECURE, err, sizeof err), "%s", err);
    CHECK(!armprof_spe_buffer_owner(pe, &ss, &el), "Secure: not the owner");
    CHECK(ss == ARMPROF_SS_NONSECURE, "the owner is still Non-secure");
    CHECK(!armprof_spe_profiling_enabled(pe, 1), "Secure EL1 disabled");

    armprof_pe_destroy(pe);
    return check_summary();
}
