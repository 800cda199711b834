/* SPDX-License-Identifier: BSD-3-Clause */
/* Registers an embedder owns (armprof_set_reg_provider()): the PE pulls them
 * at armprof_set_el(), armprof_sysreg_check(), armprof_mrs(), armprof_msr()
 * and armprof_psb_csync(), and what derives from them follows.
 *
 * Expected outcomes from PMSCR_EL1's access pseudocode at EL1
 * (registers/PMSCR_EL1.md): with EL2 enabled, MDCR_EL2.TPMS == 1 traps to
 * EL2 with EC 0x18 before CheckMDCR_EL3_NSPBTrap() is looked at; that check
 * traps to EL3 when MDCR_EL3.NSPB[0] is 0 or NSPB[1] differs from
 * SCR_EL3.NS (arm-J1.1); otherwise the access is done. SCR_EL3.NS == 1 is
 * Non-secure state below EL3 (CurrentSecurityState()). The model keeps
 * CheckMDCR_EL3_NSPBTrap() as a derived value, so a trap that follows a
 * pulled MDCR_EL3 shows it was computed again. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"

enum { P_SCR, P_MDCR2, P_MDCR3, P_COUNT };

typedef struct owner {
    uint64_t value[P_COUNT]; /* what the embedder holds */
    unsigned pulls;
} owner;

static void provide(void *ctx, uint64_t *values)
{
    owner *o = ctx;
    memcpy(values, o->value, sizeof o->value);
    o->pulls++;
}

static uint64_t field(const char *reg, const char *name, uint64_t v)
{
    unsigned hi, lo;
    if (!armprof_reg_field(armprof_reg_lookup(reg, NULL), name, &hi, &lo)) {
        fprintf(stderr, "no field %s.%s\n", reg, name);
        exit(2);
    }
    return v << lo;
}

static armprof_outcome check_pmscr(armprof_pe *pe)
{
    return armprof_sysreg_check(pe, armprof_reg_encoding(armprof_reg_lookup("PMSCR_EL1", NULL), 0),
                                0, true);
}

int main(void)
{
    armprof_pe *pe = new_pe_or_exit("armv9.4-all");
    char err[256];
    const int regs[P_COUNT] = {armprof_reg_lookup("SCR_EL3", NULL),
                               armprof_reg_lookup("MDCR_EL2", NULL),
                               armprof_reg_lookup("MDCR_EL3", NULL)};
    owner o = {.value = {field("SCR_EL3", "NS", 1) | field("SCR_EL3", "RW", 1), 0,
                         field("MDCR_EL3", "NSPB", 3)}};
    CHECK(armprof_set_reg_provider(pe, regs, NULL, P_COUNT, provide, &o, err, sizeof err), "%s",
          err);
    CHECK(o.pulls == 0, "installing pulls nothing: %u", o.pulls);

    /* set_el pulls, before the level (SCR_EL3 decides the Security state) */
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    CHECK(o.pulls == 1, "set_el pulls once: %u", o.pulls);
    CHECK(armprof_current_security_state(pe) == ARMPROF_SS_NONSECURE, "SCR_EL3.NS 1: Non-secure");
    CHECK(armprof_reg_get(pe, regs[P_MDCR3], 0) == o.value[P_MDCR3], "MDCR_EL3 as provided");

    /* each access pulls: the embedder changes its registers, nothing else */
    armprof_outcome r = check_pmscr(pe);
    CHECK(r.kind == ARMPROF_DONE, "EL1, TPMS 0, NSPB 0b11, NS 1: done (%d)", r.kind);
    CHECK(o.pulls == 2, "sysreg_check pulls: %u", o.pulls);
    o.value[P_MDCR3] = field("MDCR_EL3", "NSPB", 1); /* NSPB[1] != NS */
    r = check_pmscr(pe);
    CHECK(r.kind == ARMPROF_TRAP && r.target_el == 3 && r.ec == 0x18,
          "NSPB 0b01 with NS 1: trap to EL3 (%d, EL%u, EC 0x%x)", r.kind, r.target_el, r.ec);
    o.value[P_MDCR2] = field("MDCR_EL2", "TPMS", 1);
    r = check_pmscr(pe);
    CHECK(r.kind == ARMPROF_TRAP && r.target_el == 2 && r.ec == 0x18,
          "TPMS 1 comes first: trap to EL2 (%d, EL%u, EC 0x%x)", r.kind, r.target_el, r.ec);
    r = armprof_mrs(pe, armprof_reg_encoding(armprof_reg_lookup("PMSCR_EL1", NULL), 0), 0);
    CHECK(r.kind == ARMPROF_TRAP && r.target_el == 2, "MRS sees the same: %d", r.kind);
    o.value[P_MDCR2] = 0;
    o.value[P_MDCR3] = field("MDCR_EL3", "NSPB", 3);
    r = check_pmscr(pe);
    CHECK(r.kind == ARMPROF_DONE, "controls back: done (%d)", r.kind);
    const unsigned before = o.pulls;
    armprof_psb_csync(pe);
    CHECK(o.pulls == before + 1, "PSB CSYNC pulls");

    /* the embedder owns them: an MSR lasts until the next pull */
    CHECK(armprof_set_el(pe, 2, err, sizeof err), "%s", err);
    const uint32_t mdcr2_enc = armprof_reg_encoding(regs[P_MDCR2], 0);
    r = armprof_msr(pe, mdcr2_enc, 0, field("MDCR_EL2", "TPMS", 1));
    CHECK(r.kind == ARMPROF_DONE, "MSR MDCR_EL2 at EL2: %d", r.kind);
    CHECK(armprof_reg_get(pe, regs[P_MDCR2], 0) & field("MDCR_EL2", "TPMS", 1),
          "the MSR's value until the next pull");
    CHECK(armprof_set_el(pe, 2, err, sizeof err), "%s", err);
    CHECK(armprof_reg_get(pe, regs[P_MDCR2], 0) == 0, "the provider's value after it");

    /* a value is taken as armprof_reg_set() takes it: RES0/RES1 applied */
    armprof_pe *other = new_pe_or_exit("armv9.4-all");
    armprof_reg_set(other, regs[P_SCR], 0, ~0ull);
    o.value[P_SCR] = ~0ull;
    CHECK(armprof_set_el(pe, 3, err, sizeof err), "%s", err);
    CHECK(armprof_reg_get(pe, regs[P_SCR], 0) == armprof_reg_get(other, regs[P_SCR], 0),
          "SCR_EL3 all ones: 0x%llx, as armprof_reg_set() gives 0x%llx",
          (unsigned long long)armprof_reg_get(pe, regs[P_SCR], 0),
          (unsigned long long)armprof_reg_get(other, regs[P_SCR], 0));
    armprof_pe_destroy(other);
    o.value[P_SCR] = field("SCR_EL3", "NS", 1) | field("SCR_EL3", "RW", 1);

    /* a checkpoint restored keeps the PE's provider */
    const size_t n = armprof_checkpoint_size(pe);
    void *buf = malloc(n);
    CHECK(buf && armprof_checkpoint_save(pe, buf, n) == n, "checkpoint saved");
    CHECK(armprof_checkpoint_restore(pe, buf, n, err, sizeof err), "%s", err);
    free(buf);
    unsigned at = o.pulls;
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    CHECK(o.pulls == at + 1, "the provider after a restore");

    /* the arguments the PE refuses, changing nothing */
    const int alias[1] = {armprof_reg_lookup("PMSCR_EL12", NULL)};
    CHECK(!armprof_set_reg_provider(pe, alias, NULL, 1, provide, &o, err, sizeof err) &&
              strstr(err, "PMSCR_EL12"),
          "an alias has no storage: %s", err);
    const int unknown[1] = {-1};
    CHECK(!armprof_set_reg_provider(pe, unknown, NULL, 1, provide, &o, err, sizeof err) &&
              strstr(err, "not a register"),
          "an unknown id: %s", err);
    const unsigned past[1] = {1};
    CHECK(!armprof_set_reg_provider(pe, regs, past, 1, provide, &o, err, sizeof err),
          "an instance past the register's: %s", err);
    int many[ARMPROF_MAX_PROVIDED_REGS + 1];
    for (unsigned i = 0; i <= ARMPROF_MAX_PROVIDED_REGS; i++)
        many[i] = regs[0];
    CHECK(!armprof_set_reg_provider(pe, many, NULL, ARMPROF_MAX_PROVIDED_REGS + 1, provide, &o, err,
                                    sizeof err) &&
              strstr(err, "at most"),
          "too many: %s", err);
    CHECK(!armprof_set_reg_provider(NULL, regs, NULL, 1, provide, &o, err, sizeof err), "no PE: %s",
          err);
    at = o.pulls;
    CHECK(armprof_set_el(pe, 1, err, sizeof err) && o.pulls == at + 1,
          "a refused call kept the provider");

    /* fn NULL removes it */
    CHECK(armprof_set_reg_provider(pe, NULL, NULL, 0, NULL, NULL, err, sizeof err), "%s", err);
    at = o.pulls;
    (void)check_pmscr(pe);
    CHECK(armprof_set_el(pe, 1, err, sizeof err) && o.pulls == at, "no pulls once removed");

    armprof_pe_destroy(pe);
    return check_summary();
}
