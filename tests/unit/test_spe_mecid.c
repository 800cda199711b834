/* SPDX-License-Identifier: BSD-3-Clause */
/* D17.7.10 RDFFVT: "If FEAT_MEC is implemented, accesses made by the
 * Statistical Profiling Unit to the Profiling Buffer are associated with a
 * MECID that is determined by the owning translation regime, owning Security
 * state, and owning Exception level". End to end: a Realm owner's sample
 * record written to memory, the MECID each write carries seen by the memory
 * observer. Expected values from the output MECID functions:
 * AArch64.S1DisabledOutputMECID() (stage 1 disabled here, SCTLR_ELx.M 0):
 * walkparams.emec 0 -> DEFAULT_MECID (0); Realm PA space; Regime_EL10 ->
 * VMECID_P_EL2, otherwise MECID_P0_EL2. walkparams.emec is SCTLR2_EL2.EMEC
 * when IsSCTLR2EL2Enabled() (FEAT_SCTLR2, SCR_EL3.SCTLR2En 1, EL2Enabled()).
 * Through a buffer hook (armprof_buffer_write.mecid), the EL2&0 regime's
 * MECID is AArch64.S1OutputMECID()'s for a descriptor with AMEC 0:
 * MECID_P1_EL2 for an address in the upper range (VA[55] 1), MECID_P0_EL2
 * in the lower. */
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/memory.h"
#include "check.h"
#include "fields.h"

typedef struct seen {
    unsigned writes;
    int pas;
    uint16_t mecid;
} seen;

static void observe(void *ctx, int pas, uint64_t pa, const uint8_t *data, size_t size,
                    const armprof_mem_attrs *attrs)
{
    (void)pa;
    (void)data;
    (void)size;
    seen *s = ctx;
    s->writes++;
    s->pas = pas;
    s->mecid = attrs->mecid;
}

static void set_field(armprof_pe *pe, const char *reg, const char *field, uint64_t v)
{
    CHECK(set_field_of(pe, reg, field, v), "%s.%s", reg, field);
}

/* An armv9.4-all PE whose Profiling Buffer Realm EL1 or EL2 owns. */
static armprof_pe *realm_owned_pe(unsigned owning_el)
{
    armprof_config c;
    armprof_config_preset(&c, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return NULL;
    set_field(pe, "MDCR_EL3", "NSPBE", 1); /* '111': Realm owns the buffer */
    set_field(pe, "MDCR_EL3", "NSPB", 3);
    set_field(pe, "MDCR_EL2", "E2PB", owning_el == 2 ? 0 : 2);
    return pe;
}

/* One sampled operation at owning_el in Realm state; the MECID of the
 * record's writes (or -1 if none was written). */
static int record_mecid(unsigned owning_el, bool emec, bool sctlr2en)
{
    char err[256];
    armprof_pe *pe = realm_owned_pe(owning_el);
    if (!pe) return -2;
    set_field(pe, "HCR_EL2", "E2H", 0);
    set_field(pe, "HCR_EL2", "TGE", 0);
    set_field(pe, "SCR_EL3", "SCTLR2En", sctlr2en);
    set_field(pe, "SCTLR2_EL2", "EMEC", emec);
    set_field(pe, "MECID_P0_EL2", "MECID", 0x1234);
    set_field(pe, "VMECID_P_EL2", "MECID", 0x5678);
    set_field(pe, "PMBSR_EL1", "S", 0);
    set_field(pe, "PMBPTR_EL1", "PTR", 0x80000000u);
    set_field(pe, "PMBLIMITR_EL1", "LIMIT", 0x80100u);
    set_field(pe, "PMBLIMITR_EL1", "E", 1);
    set_field(pe, "PMSCR_EL2", "E2SPE", 1);
    set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    set_field(pe, "PMSICR_EL1", "COUNT", 1);
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_REALM, err, sizeof err), "%s", err);
    CHECK(armprof_set_el(pe, owning_el, err, sizeof err), "%s", err);
    seen s = {0, -1, 0xffff};
    armprof_mem_set_observer(armprof_pe_memory(pe), observe, &s);
    armprof_op op = ARMPROF_OP_INIT;
    op.op_class = ARMPROF_OP_OTHER;
    op.pc = 0x1000;
    armprof_retire(pe, &op);
    CHECK(s.writes > 0 && s.pas == ARMPROF_PAS_REALM, "EL%u: %u writes, PAS %d", owning_el,
          s.writes, s.pas);
    armprof_pe_destroy(pe);
    return s.writes ? s.mecid : -1;
}

static armprof_buffer_result hook_mecid(void *ctx, const armprof_buffer_write *w)
{
    int *mecid = ctx;
    *mecid = w->mecid;
    const armprof_buffer_result r = {.outcome = ARMPROF_BUFFER_WRITTEN, .written = w->size};
    return r;
}

/* One sampled operation at Realm EL2 with HCR_EL2.E2H 1 (the EL2&0 regime)
 * and the buffer at ptr, written through a hook: the MECID it is given. */
static int hook_el20_mecid(uint64_t ptr)
{
    char err[256];
    armprof_pe *pe = realm_owned_pe(2);
    if (!pe) return -2;
    set_field(pe, "HCR_EL2", "E2H", 1);
    set_field(pe, "SCR_EL3", "SCTLR2En", 1);
    set_field(pe, "SCTLR2_EL2", "EMEC", 1);
    set_field(pe, "MECID_P0_EL2", "MECID", 0x1111);
    set_field(pe, "MECID_P1_EL2", "MECID", 0x2222);
    set_field(pe, "PMBSR_EL1", "S", 0);
    set_field(pe, "PMBPTR_EL1", "PTR", ptr);
    set_field(pe, "PMBLIMITR_EL1", "LIMIT", (ptr + 0x100000) >> 12);
    set_field(pe, "PMBLIMITR_EL1", "E", 1);
    set_field(pe, "PMSCR_EL2", "E2SPE", 1);
    set_field(pe, "PMSICR_EL1", "COUNT", 1);
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_REALM, err, sizeof err), "%s", err);
    CHECK(armprof_set_el(pe, 2, err, sizeof err), "%s", err);
    int mecid = -1;
    armprof_spe_set_buffer_hook(pe, hook_mecid, &mecid);
    armprof_op op = ARMPROF_OP_INIT;
    op.op_class = ARMPROF_OP_OTHER;
    op.pc = 0x1000;
    armprof_retire(pe, &op);
    armprof_pe_destroy(pe);
    return mecid;
}

int main(void)
{
    CHECK(hook_el20_mecid(0x80000000u) == 0x1111, "EL2&0 lower range: MECID_P0_EL2");
    CHECK(hook_el20_mecid(0xffff800080000000ull) == 0x2222, "EL2&0 upper range: MECID_P1_EL2");
    CHECK(record_mecid(2, true, true) == 0x1234, "owning EL2: MECID_P0_EL2");
    CHECK(record_mecid(1, true, true) == 0x5678, "owning EL1 (EL1&0): VMECID_P_EL2");
    CHECK(record_mecid(2, false, true) == 0, "SCTLR2_EL2.EMEC 0: DEFAULT_MECID");
    CHECK(record_mecid(2, true, false) == 0, "SCR_EL3.SCTLR2En 0: not IsSCTLR2EL2Enabled()");
    return check_summary();
}
