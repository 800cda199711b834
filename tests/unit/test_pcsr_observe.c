/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_pcsr_observe(): an embedder that skips instructions says where the
 * PE is before an external agent reads PMPCSR. Expected values from H7.1 and
 * the PMPCSR page (registers/PMPCSR.external.md):
 * - with PMPCSCTL.IMP 1 (option pcsr_pmpcsctl_imp) sampling starts
 *   suspended; the first read activates it and has no sample: PMPCSR[31:0]
 *   reads 0xFFFF_FFFF (Read_PMPCSR(), SetPCSRUnknown());
 * - a sample is the branch target's PC [55:0], EL [62:61] of the level it
 *   runs at, NS [63] 1 for Non-secure state (NSE [59] 0: with FEAT_RME,
 *   Non-secure is NS 1, NSE 0);
 * - where PC sampling is prohibited (H7.1.1: in Secure state with
 *   ExternalSecureNoninvasiveDebugEnabled() FALSE, DBGEN and SPIDEN low;
 *   with FEAT_Debugv8p4 Non-secure state is always allowed) the read gives
 *   0xFFFF_FFFF;
 * - an observation is not an instruction: INST_RETIRED (0x08) and BR_RETIRED
 *   (0x21) do not count it, and SPE's population (SAMPLE_POP) does not grow. */
#include "armprof/armprof.h"
#include "check.h"

static uint64_t pmpcsr(armprof_pe *pe)
{
    const armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    const armprof_ext_outcome o = armprof_external_read(pe, 0x200, 8, &how);
    CHECK(o.kind == ARMPROF_EXT_OK, "PMPCSR read: %s", o.why ? o.why : "?");
    return o.value;
}

static void msr(armprof_pe *pe, const char *name, uint64_t value)
{
    unsigned index = 0;
    const int r = armprof_reg_lookup(name, &index);
    CHECK(r >= 0, "%s", name);
    const armprof_outcome o = armprof_msr(pe, armprof_reg_encoding(r, index), 0, value);
    CHECK(o.kind == ARMPROF_DONE, "MSR %s", name);
}

static uint64_t get(const armprof_pe *pe, const char *name)
{
    unsigned index = 0;
    const int r = armprof_reg_lookup(name, &index);
    return r >= 0 ? armprof_reg_get(pe, r, index) : 0;
}

int main(void)
{
    armprof_config c;
    CHECK(armprof_config_preset(&c, "armv9.4-all"), "preset");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return check_summary();
    armprof_set_os_lock(pe, false); /* OSLSR_EL1.OSLK is 1 after a Cold reset */
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "EL1: %s", err);
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err), "NS: %s", err);
    /* counters 0 and 1 count INST_RETIRED and BR_RETIRED at every level */
    msr(pe, "PMEVTYPER0_EL0", 0x08);
    msr(pe, "PMEVTYPER1_EL0", 0x21);
    msr(pe, "PMCR_EL0", 1);
    msr(pe, "PMCNTENSET_EL0", 3);

    CHECK((uint32_t)pmpcsr(pe) == 0xffffffffu, "the activating read has no sample");
    const uint64_t pc = 0xffff800012345678ull;
    armprof_pcsr_observe(pe, pc);
    uint64_t v = pmpcsr(pe);
    CHECK((v & ((1ull << 56) - 1)) == (pc & ((1ull << 56) - 1)), "PMPCSR.PC 0x%llx",
          (unsigned long long)v);
    CHECK((v >> 61 & 3) == 1, "PMPCSR.EL %llu, expected 1", (unsigned long long)(v >> 61 & 3));
    CHECK((v >> 63) == 1 && !(v >> 59 & 1), "PMPCSR.{NS,NSE} of Non-secure state");

    CHECK(armprof_set_el(pe, 0, err, sizeof err), "EL0: %s", err);
    armprof_pcsr_observe(pe, 0x400abc);
    v = pmpcsr(pe);
    CHECK((v & 0xffffffffu) == 0x400abc && (v >> 61 & 3) == 0, "EL0 sample 0x%llx",
          (unsigned long long)v);

    armprof_cycles(pe, 1);
    CHECK(get(pe, "PMEVCNTR0_EL0") == 0 && get(pe, "PMEVCNTR1_EL0") == 0,
          "no INST_RETIRED or BR_RETIRED for an observation: %llu %llu",
          (unsigned long long)get(pe, "PMEVCNTR0_EL0"),
          (unsigned long long)get(pe, "PMEVCNTR1_EL0"));
    CHECK(armprof_spe_get_stats(pe).population == 0, "no SPE operation");

    armprof_set_signal(pe, ARMPROF_SIG_SPIDEN, false);
    armprof_set_signal(pe, ARMPROF_SIG_DBGEN, false);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "EL1: %s", err);
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_SECURE, err, sizeof err), "S: %s", err);
    armprof_pcsr_observe(pe, 0x400000);
    CHECK((uint32_t)pmpcsr(pe) == 0xffffffffu, "prohibited: PMPCSR[31:0] all ones");

    armprof_pcsr_observe(NULL, 0); /* does nothing */
    armprof_pe_destroy(pe);
    return check_summary();
}
