/* SPDX-License-Identifier: BSD-3-Clause */
/* Regressions (found by test_random_activity): a PMBIDR_EL1.Align that a
 * direct store (armprof_reg_set) raised above PMSIDR_EL1.MaxSize padded
 * records past 2^MaxSize. With spe_held_records that overran the hold,
 * sized for 2^MaxSize records; and since SPEBufferIsFull() leaves room for
 * one 2^MaxSize record below the limit, a larger one was written past
 * PMBLIMITR_EL1 (D17.8: the SPU never writes past the limit pointer).
 * PMSIDR_EL1.MaxSize is the largest record (its register page), so such an
 * Align pads as MaxSize does: expected sizes below are 2^7, the preset's
 * MaxSize, not the stored 2^11. */
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
    /* Align 11 (2KB) stored, MaxSize 7: records of 128 bytes, held four at
     * a time and written in order. */
    drv_set_field(pe, "PMBIDR_EL1", "Align", 11);
    for (int i = 0; i < 8; i++) {
        drv_set(pe, "PMSICR_EL1", 1);
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = 0x400000 + 4u * (unsigned)i;
        armprof_retire(pe, &op);
    }
    armprof_spe_stats s = armprof_spe_get_stats(pe);
    CHECK(s.records == 8 && s.bytes == 8 * 128, "records %llu bytes %llu",
          (unsigned long long)s.records, (unsigned long long)s.bytes);
    CHECK(s.records == s.written + s.lost + s.held, "written %llu lost %llu held %llu",
          (unsigned long long)s.written, (unsigned long long)s.lost, (unsigned long long)s.held);
    CHECK(s.written == 8 && s.written_bytes == 8 * 128, "written %llu (%llu bytes)",
          (unsigned long long)s.written, (unsigned long long)s.written_bytes);
    CHECK(drv_get(pe, "PMBPTR_EL1") == 0x10000000 + 8 * 128, "PMBPTR_EL1 0x%llx",
          (unsigned long long)drv_get(pe, "PMBPTR_EL1"));

    /* One 128-byte record's room below the limit (RHXSYK): the record fills
     * it exactly, PMBPTR_EL1 reaches the limit and no byte lies past it;
     * the buffer is then full (SPEBufferIsFull(), PMBSR_EL1.MSS: BSC 0b000001). */
    drv_set(pe, "PMBLIMITR_EL1", 0x10020000 | 1);
    drv_set(pe, "PMBPTR_EL1", 0x10020000 - 128);
    drv_set(pe, "PMSICR_EL1", 1);
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x401000;
    armprof_retire(pe, &op);
    armprof_psb_csync(pe);
    s = armprof_spe_get_stats(pe);
    CHECK(drv_get(pe, "PMBPTR_EL1") == 0x10020000, "PMBPTR_EL1 0x%llx: not at the limit",
          (unsigned long long)drv_get(pe, "PMBPTR_EL1"));
    CHECK(s.written == 9 && s.written_bytes == 9 * 128, "written %llu (%llu bytes)",
          (unsigned long long)s.written, (unsigned long long)s.written_bytes);
    CHECK(drv_get_field(pe, "PMBSR_EL1", "S") == 1 && drv_get_field(pe, "PMBSR_EL1", "MSS") == 1,
          "buffer full: PMBSR_EL1 0x%llx", (unsigned long long)drv_get(pe, "PMBSR_EL1"));
    armprof_pe_destroy(pe);
    return check_summary();
}
