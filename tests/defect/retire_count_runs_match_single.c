/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 44, part 10: `retire CLASS xN` (scenario_retire_repeat()) now
 * retires runs through armprof_retire_run(); it must leave the PE exactly
 * as N armprof_retire() calls do. Two PEs set up alike, one driven each
 * way, for counts below, at and across the sample interval and across a
 * Profiling Buffer full event (a 16KB buffer, an interval of 256: the
 * buffer fills after a few hundred samples), with the instruction counter
 * 20 instructions from its overflow, and for operations a run cannot
 * describe (misspeculated, an exception return). Every register instance,
 * the SPE statistics, the records, the buffer's bytes, PMBIRQ, PMUIRQ and
 * the PC sample (PMPCSR) must match; and a plain operation's large count
 * must take far fewer armprof_retire() calls than its N. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"
#include "same_state.h"
#include "scenario/retire_repeat.h"

#define BUF_BASE 0x80000000ull
#define BUF_SIZE 0x4000ull

/* Non-secure EL1 owning a 16KB Profiling Buffer, sampling every 256th
 * operation; INST_RETIRED, BR_RETIRED, LD_RETIRED and L1D_CACHE_REFILL on
 * event counters; the instruction counter near its overflow, with its
 * interrupt enabled; PC sampling active; FEAT_SPE_PBT. */
static armprof_pe *make(sink_log *log)
{
    armprof_config c;
    char err[160];
    armprof_config_preset(&c, "armv9.4-all");
    /* the previous branch target in each record: a run's last taken branch */
    armprof_config_set_feature(&c, ARMPROF_FEAT_SPE_PBT, true);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    CHECK(own_buffer_nonsecure_el1(pe, BUF_BASE, BUF_SIZE), "the Profiling Buffer at EL1");
    set_field_of(pe, "MDCR_EL2", "HPMN", 8);
    set_field_of(pe, "PMSCR_EL1", "E1SPE", 1);
    set_field_of(pe, "PMSCR_EL1", "TS", 1);
    set_field_of(pe, "PMSIRR_EL1", "INTERVAL", 1); /* 256 operations */
    set_field_of(pe, "PMSICR_EL1", "COUNT", 100);
    set_field_of(pe, "PMCR_EL0", "E", 1);
    set_field_of(pe, "PMCR_EL0", "LP", 1);
    static const uint16_t events[] = {0x08, 0x21, 0x06, 0x03};
    for (unsigned n = 0; n < 4; n++) {
        char name[32];
        snprintf(name, sizeof name, "PMEVTYPER%u_EL0", n);
        set_field_of(pe, name, "evtCount", events[n]);
        set_field_of(pe, name, "NSH", 1);
    }
    unsigned idx = 0;
    armprof_reg_set(pe, armprof_reg_lookup("PMCNTENSET_EL0", &idx), 0, 0x10000000full);
    armprof_reg_set(pe, armprof_reg_lookup("PMINTENSET_EL1", &idx), 0, 0x10000000full);
    armprof_reg_set(pe, armprof_reg_lookup("PMICNTR_EL0", &idx), 0, ~0ull - 20);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "EL1: %s", err);
    armprof_spe_set_sink(pe, sink_log_record, log);
    const armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    armprof_external_read(pe, 0x200, 4, &how); /* a read of PMPCSR starts the sampler */
    return pe;
}

/* The operations, each retired n times both ways, one after another on
 * the same two PEs (so that later counts start mid-interval). */
static armprof_spe_stats compare(const armprof_op *ops, size_t nops, const uint64_t *counts,
                                 size_t ncounts, const char *what)
{
    sink_log la = {0}, lb = {0};
    armprof_pe *a = make(&la), *b = make(&lb);
    uint64_t total = 0, singles = 0;
    for (size_t c = 0; c < ncounts; c++)
        for (size_t o = 0; o < nops; o++) {
            for (uint64_t k = 0; k < counts[c]; k++)
                armprof_retire(a, &ops[o]);
            singles += scenario_retire_repeat(b, &ops[o], counts[c]);
            total += counts[c];
            armprof_cycles(a, 3);
            armprof_cycles(b, 3);
        }
    CHECK(same_state_differences(a, b, &la, &lb, BUF_BASE, BUF_SIZE, what) == 0,
          "%s: the PEs differ", what);
    const armprof_spe_stats s = armprof_spe_get_stats(a);
    printf("%s: %llu operations, %llu retired singly; %llu samples, %llu records, %llu buffer "
           "management events, PMICNTR_EL0 wrapped: %s\n",
           what, (unsigned long long)total, (unsigned long long)singles,
           (unsigned long long)s.selected, (unsigned long long)s.records,
           (unsigned long long)s.management_events,
           armprof_reg_get(a, armprof_reg_lookup("PMOVSSET_EL0", NULL), 0) >> 32 & 1 ? "yes"
                                                                                     : "no");
    free(la.bytes);
    free(lb.bytes);
    armprof_pe_destroy(a);
    armprof_pe_destroy(b);
    return s;
}

int main(void)
{
    armprof_op load = ARMPROF_OP_INIT, branch = ARMPROF_OP_INIT, other = ARMPROF_OP_INIT,
               store = ARMPROF_OP_INIT;
    load.pc = 0x400100;
    load.op_class = ARMPROF_OP_LOAD;
    load.vaddr = 0x10000000;
    load.l1d_access = load.l1d_refill = true;
    branch.pc = 0x400200;
    branch.op_class = ARMPROF_OP_BRANCH;
    branch.taken = branch.mispredicted = true;
    branch.target = 0x400800;
    other.pc = 0x400300;
    store.pc = 0x400400;
    store.op_class = ARMPROF_OP_STORE;
    store.vaddr = 0x10000100;
    store.l1d_access = true;
    const armprof_op plain[] = {load, branch, other, store};
    /* below, at and across the interval (256), then across a buffer full
     * event (16KB of records) and the instruction counter's overflow */
    const uint64_t counts[] = {1, 99, 1, 255, 256, 257, 1000, 40000};
    const armprof_spe_stats s1 =
        compare(plain, 4, counts, sizeof counts / sizeof counts[0], "plain operations");
    CHECK(s1.selected > 100 && s1.management_events >= 1,
          "the counts crossed %llu samples and %llu buffer events", (unsigned long long)s1.selected,
          (unsigned long long)s1.management_events);

    /* operations a run cannot describe: retired one at a time */
    armprof_op spec = other, eret = branch;
    spec.misspeculated = true;
    eret.branch_kind = ARMPROF_BRANCH_ERET;
    eret.target_el_valid = true;
    eret.target_el = 1;
    const armprof_op odd[] = {spec, load, eret};
    const uint64_t few[] = {3, 300};
    compare(odd, 3, few, 2, "misspeculated and exception return");

    /* the point of the change: a large count costs its events, not N */
    sink_log log = {0};
    armprof_pe *pe = make(&log);
    const uint64_t n = 1000000;
    const uint64_t singles = scenario_retire_repeat(pe, &other, n);
    const armprof_spe_stats s = armprof_spe_get_stats(pe);
    /* the instruction counter started 21 below its wrap */
    const uint64_t icntr = armprof_reg_get(pe, armprof_reg_lookup("PMICNTR_EL0", NULL), 0);
    CHECK(icntr == n - 21, "PMICNTR_EL0 0x%llx", (unsigned long long)icntr);
    /* one single retirement per sample selection, one for the counter's
     * overflow, no more */
    CHECK(singles <= s.selected + s.collisions + 1, "%llu single retirements for %llu samples",
          (unsigned long long)singles, (unsigned long long)s.selected);
    free(log.bytes);
    armprof_pe_destroy(pe);
    return check_summary();
}
