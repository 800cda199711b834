/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_pmuirq() after a control change and an armprof_retire(): the
 * level must follow the registers (CheckForPMUOverflow(): PMUIRQ is
 * asserted while some counter has its overflow flag, PMOVSSET_EL0, and its
 * interrupt enable, PMINTENSET_EL1, set and counts). The defect: the
 * retirement brought the PMU's cached counting controls current without
 * the level, and armprof_pmuirq() then took the cache as current and
 * answered the level from before the change. A program with an interrupt
 * callback never saw it (the callback's check reads the level as soon as a
 * register changes); one that polls armprof_pmuirq() did.
 * Found by test_run_equivalence's lean path test (issue 41, part 6). */
#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"

static void set(armprof_pe *pe, const char *name, uint64_t value)
{
    unsigned idx = 0;
    armprof_reg_set(pe, armprof_reg_lookup(name, &idx), idx, value);
}

int main(void)
{
    armprof_pe *pe = new_pe_or_exit("armv9.4-all");
    char err[160];
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err),
          "Non-secure state: %s", err);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "EL1: %s", err);
    /* Event counter 0 counts CPU_CYCLES one cycle from its 32-bit overflow
     * (PMCR_EL0.LP 0), its interrupt enabled. */
    set_field_of(pe, "MDCR_EL2", "HPMN", 8);
    set_field_of(pe, "PMEVTYPER0_EL0", "evtCount", 0x11);
    set_field_of(pe, "PMEVTYPER0_EL0", "NSH", 1);
    set(pe, "PMEVCNTR0_EL0", 0xffffffffu);
    set(pe, "PMCNTENSET_EL0", 1);
    set(pe, "PMINTENSET_EL1", 1);
    set_field_of(pe, "PMCR_EL0", "E", 1);
    armprof_cycles(pe, 1);
    CHECK(armprof_pmuirq(pe), "PMUIRQ asserted by the overflow");

    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x400000;
    op.op_class = ARMPROF_OP_OTHER;
    /* The interrupt disabled (a debugger's write of the enables, which
     * PMINTENSET_EL1 and PMINTENCLR_EL1 both show): PMUIRQ deasserted,
     * whether or not an operation retires before the level is read. */
    set(pe, "PMINTENSET_EL1", 0);
    armprof_retire(pe, &op);
    CHECK(!armprof_pmuirq(pe), "PMUIRQ deasserted once PMINTENSET_EL1 is clear");
    /* ... and enabled again: asserted. */
    set(pe, "PMINTENSET_EL1", 1);
    armprof_retire(pe, &op);
    CHECK(armprof_pmuirq(pe), "PMUIRQ asserted again once PMINTENSET_EL1 is set");
    /* The counter disabled (PMCR_EL0.E 0): deasserted. */
    set_field_of(pe, "PMCR_EL0", "E", 0);
    armprof_retire(pe, &op);
    CHECK(!armprof_pmuirq(pe), "PMUIRQ deasserted once PMCR_EL0.E is 0");
    armprof_pe_destroy(pe);
    return check_summary();
}
