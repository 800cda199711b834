/* SPDX-License-Identifier: BSD-3-Clause */
/* Regression (found by test_random_activity): with spe_held_records, a
 * record padded to a PMBIDR_EL1.Align that a debugger stored
 * (armprof_reg_set) is larger than the 2^MaxSize records the hold was
 * sized for, and holding it overran the heap. Such records are now written
 * directly, and the accounting stays records == written + lost + held. */
#include "armprof/armprof.h"
#include "check.h"
#include "drv/drv_regs.h"

int main(void)
{
    armprof_config cfg;
    char err[256] = "";
    CHECK(armprof_config_preset(&cfg, "armv9.4-all"), "preset");
    CHECK(armprof_config_set(&cfg, "spe_held_records", "4", err, sizeof err), "%s", err);
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return check_summary();
    /* Non-secure EL1 owns a 64KB buffer; every operation at EL1 sampled. */
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err), "%s", err);
    drv_set_field(pe, "MDCR_EL3", "NSPB", 3);
    drv_set_field(pe, "MDCR_EL2", "E2PB", 3);
    drv_set(pe, "PMBLIMITR_EL1", 0x10010000 | 1);
    drv_set(pe, "PMBPTR_EL1", 0x10000000);
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    drv_set(pe, "PMSIRR_EL1", 1u << 8);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    /* 2KB records: four of them do not fit a hold of 4 x 2^7 bytes. */
    drv_set_field(pe, "PMBIDR_EL1", "Align", 11);
    for (int i = 0; i < 8; i++) {
        drv_set(pe, "PMSICR_EL1", 1);
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = 0x400000 + 4u * (unsigned)i;
        armprof_retire(pe, &op);
    }
    const armprof_spe_stats s = armprof_spe_get_stats(pe);
    CHECK(s.records == 8 && s.bytes == 8 * 2048, "records %llu bytes %llu",
          (unsigned long long)s.records, (unsigned long long)s.bytes);
    CHECK(s.records == s.written + s.lost + s.held, "written %llu lost %llu held %llu",
          (unsigned long long)s.written, (unsigned long long)s.lost, (unsigned long long)s.held);
    CHECK(s.written == 8 && s.written_bytes == 8 * 2048, "written %llu (%llu bytes)",
          (unsigned long long)s.written, (unsigned long long)s.written_bytes);
    CHECK(drv_get(pe, "PMBPTR_EL1") == 0x10000000 + 8 * 2048, "PMBPTR_EL1 0x%llx",
          (unsigned long long)drv_get(pe, "PMBPTR_EL1"));
    armprof_pe_destroy(pe);
    return check_summary();
}
