/* SPDX-License-Identifier: BSD-3-Clause */
/* MDCR_EL3.{NSPBE,NSPB}: every choice of Unpredictable_RESERVEDNSxB and of
 * Unpredictable_RESERVEDNSxB_Trap, on every kind of PE with EL3 (FEAT_RME
 * with and without Secure state, no FEAT_RME), for every encoding, in every
 * Security state the PE implements (issue 14, items 1 and 2).
 *
 * Expected values come from registers/MDCR_EL3.md, NSPB:
 * - each encoding names an owning Security state: '00x' Secure, '01x'
 *   Non-secure, '11x' Realm ('10x' is reserved, and so is '00x' "when Secure
 *   state is not implemented");
 * - with NSPB<0> = 0 the EL2 and EL1 accesses "are trapped to EL3" in every
 *   state; with NSPB<0> = 1 only those "at" the states that do not own the
 *   buffer;
 * - a reserved value "Selects an implemented Security state as the owning
 *   Security state" or "Behaves as if profiling is disabled"; "it is
 *   CONSTRAINED UNPREDICTABLE whether or not accesses ... generate Trap
 *   exceptions to EL3".
 * The model's choices (docs/configuration.md): a reserved value behaves as the
 * value Unpredictable_RESERVEDNSxB names, as profiling disabled if that value
 * is reserved itself or names Secure state on a PE without it; with
 * Unpredictable_RESERVEDNSxB_Trap = 1 it traps every EL2 and EL1 access. */
#include <stdio.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"

enum { NO_OWNER = 3 }; /* spe.owner_ss when no Security state owns the buffer */

typedef struct pe_kind {
    const char *name;
    bool rme, secure;
} pe_kind;

static const pe_kind kinds[] = {
    {"FEAT_RME with Secure state", true, true},
    {"FEAT_RME without Secure state (no FEAT_SEL2)", true, false},
    {"no FEAT_RME", false, true},
};

/* The owning Security state an encoding names in the page's table. */
static unsigned named_state(unsigned state_bits)
{
    switch (state_bits >> 1) {
    case 0:
        return ARMPROF_SS_SECURE;
    case 1:
        return ARMPROF_SS_NONSECURE;
    case 3:
        return ARMPROF_SS_REALM;
    default:
        return NO_OWNER;
    }
}

static bool is_reserved(const pe_kind *k, unsigned state_bits)
{
    if (!k->rme) return false;
    return (state_bits >> 1) == 2 || (!k->secure && (state_bits >> 1) == 0);
}

static bool set_field(armprof_pe *pe, const char *reg, const char *field, uint64_t v)
{
    return set_field_of(pe, reg, field, v);
}

static armprof_pe *make(const pe_kind *k, unsigned choice, unsigned trap)
{
    armprof_config c;
    armprof_config_preset(&c, "armv9.4-all");
    char err[256], value[8];
    if (!k->rme) {
        armprof_config_set_feature(&c, ARMPROF_FEAT_RME, false);
        armprof_config_set_feature(&c, ARMPROF_FEAT_MEC, false);
    }
    if (!k->secure) armprof_config_set_feature(&c, ARMPROF_FEAT_SEL2, false);
    snprintf(value, sizeof value, "%u", choice);
    CHECK(armprof_config_set(&c, "Unpredictable_RESERVEDNSxB", value, err, sizeof err), "%s", err);
    snprintf(value, sizeof value, "%u", trap);
    CHECK(armprof_config_set(&c, "Unpredictable_RESERVEDNSxB_Trap", value, err, sizeof err), "%s",
          err);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s: %s", k->name, err);
    return pe;
}

static void check_kind(const pe_kind *k)
{
    static const unsigned states[] = {ARMPROF_SS_NONSECURE, ARMPROF_SS_SECURE, ARMPROF_SS_REALM};
    unsigned idx = 0;
    const int pmscr = armprof_reg_lookup("PMSCR_EL1", &idx);
    const uint32_t pmscr_enc = armprof_reg_encoding(pmscr, idx);
    for (unsigned choice = 0; choice < 8; choice++) {
        for (unsigned trap = 0; trap < 2; trap++) {
            armprof_pe *pe = make(k, choice, trap);
            if (!pe) continue;
            char err[256];
            CHECK(set_field(pe, "MDCR_EL3", "PMSEE", 0), "PMSEE");
            CHECK(set_field(pe, "PMBSR_EL1", "S", 0), "PMBSR_EL1.S");
            CHECK(set_field(pe, "PMBLIMITR_EL1", "E", 1), "PMBLIMITR_EL1.E");
            CHECK(set_field(pe, "MDCR_EL2", "E2PB", 3), "E2PB");
            for (unsigned bits = 0; bits < (k->rme ? 8u : 4u); bits++) {
                CHECK(set_field(pe, "MDCR_EL3", "NSPB", bits & 3), "NSPB");
                if (k->rme) CHECK(set_field(pe, "MDCR_EL3", "NSPBE", bits >> 2), "NSPBE");
                const bool reserved = is_reserved(k, bits);
                const unsigned effective = reserved ? choice : bits;
                unsigned owner = named_state(effective);
                if (owner == ARMPROF_SS_SECURE && !k->secure) owner = NO_OWNER;
                const bool all_trapped = (reserved && trap) || (effective & 1) == 0;
                for (size_t s = 0; s < sizeof states / sizeof states[0]; s++) {
                    const unsigned ss = states[s];
                    if ((ss == ARMPROF_SS_SECURE && !k->secure) ||
                        (ss == ARMPROF_SS_REALM && !k->rme))
                        continue;
                    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
                    CHECK(
                        armprof_set_security_state(pe, (armprof_security_state)ss, err, sizeof err),
                        "%s", err);
                    uint64_t v = 99;
                    CHECK(armprof_spe_value(pe, "owner_ss", &v) && v == owner,
                          "%s, choice %u, trap %u, NSPBE:NSPB %u: owner %llu, expected %u", k->name,
                          choice, trap, bits, (unsigned long long)v, owner);
                    /* The owner is always a state the PE implements, or none. */
                    CHECK(owner == NO_OWNER || owner == ARMPROF_SS_NONSECURE ||
                              (owner == ARMPROF_SS_SECURE && k->secure) ||
                              (owner == ARMPROF_SS_REALM && k->rme),
                          "%s: owner %u not implemented", k->name, owner);
                    CHECK(armprof_spe_buffer_enabled(pe) == (owner == ss),
                          "%s, choice %u, NSPBE:NSPB %u, state %u: enabled", k->name, choice, bits,
                          ss);
                    const bool trapped = all_trapped || owner != ss;
                    const armprof_outcome o = armprof_mrs(pe, pmscr_enc, 0);
                    CHECK((o.kind == ARMPROF_TRAP && o.target_el == 3 && o.ec == 0x18) == trapped &&
                              (trapped || o.kind == ARMPROF_DONE),
                          "%s, choice %u, trap %u, NSPBE:NSPB %u, state %u: MRS PMSCR_EL1 kind %d, "
                          "expected %s",
                          k->name, choice, trap, bits, ss, (int)o.kind,
                          trapped ? "trap to EL3" : "done");
                    CHECK(armprof_set_el(pe, 3, err, sizeof err), "%s", err);
                }
            }
            armprof_pe_destroy(pe);
        }
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        check_kind(&kinds[i]);
    return check_summary();
}
