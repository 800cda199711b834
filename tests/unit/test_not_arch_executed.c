/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_op.not_arch_executed (issue 38): an instruction that a
 * synchronous exception stopped, as a load's Data Abort on the first touch
 * of a page. Expected values from the manual:
 * - PMU: INST_RETIRED (0x08) is "Instruction architecturally executed" and
 *   LD_RETIRED (0x06) "Instruction architecturally executed, condition code
 *   check pass, load"; the stopped load is neither, so after
 *   armprof_cycles() both counters are as before, while a load that retires
 *   adds 1 to each.
 * - SPE: D17.6 records "whether the sampled operation generated an
 *   exception" and "whether [it] was Architecturally executed": the
 *   operation is a member of the sample population (it counts the interval
 *   down) and its record's Events packet (D18.2.6) has E[1] "0b0 Did not
 *   retire" and E[0] as the embedder gives it (ARMPROF_SPE_EV_EXCEPTION;
 *   "If E[1] ... is 0, then the meaning of this bit is IMPLEMENTATION
 *   DEFINED"). Where the PE does not support sampling of speculative
 *   instructions, E[1] "reads-as-one".
 * - PC sampling (H7.1): a sample is of an instruction that executes; the
 *   stopped instruction is not taken into PMPCSR, branch or not.
 * - armprof_op versions: a program compiled before the field (.size up to
 *   data_address_unknown) gets a load that retires, whatever lies beyond. */
#include <stddef.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "check.h"
#include "fields.h"

#define BUF_BASE 0x80000000u
#define BUF_SIZE 0x100000u

typedef struct capture {
    unsigned records;
    armprof_spe_record last;
} capture;

static void sink(void *ctx, const uint8_t *bytes, size_t size)
{
    capture *c = ctx;
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, bytes, size);
    if (armprof_spe_next_record(&d, &c->last) == ARMPROF_SPE_DECODE_OK) c->records++;
}

static uint64_t reg(const armprof_pe *pe, const char *name)
{
    unsigned index = 0;
    const int r = armprof_reg_lookup(name, &index);
    CHECK(r >= 0, "%s", name);
    return r >= 0 ? armprof_reg_get(pe, r, index) : 0;
}

/* The configuration of preset with PC sampling of every instruction and,
 * unless NULL, option spe_speculative_sampling. */
static armprof_config configuration(const char *preset, const char *speculative)
{
    armprof_config c;
    armprof_config_preset(&c, preset);
    char err[256];
    CHECK(armprof_config_set(&c, "pcsr_sample_all_instructions", "1", err, sizeof err), "%s", err);
    if (speculative)
        CHECK(armprof_config_set(&c, "spe_speculative_sampling", speculative, err, sizeof err),
              "%s", err);
    return c;
}

/* A PE at Non-secure EL1 with counter 0 on INST_RETIRED, counter 1 on
 * LD_RETIRED and Statistical Profiling enabled with PMSICR_EL1.COUNT
 * count (0: profiling left disabled). */
static armprof_pe *make_pe(const char *preset, const char *speculative, uint32_t count,
                           capture *cap)
{
    const armprof_config c = configuration(preset, speculative);
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    if (!pe) {
        CHECK(false, "%s: %s", preset, err);
        return NULL;
    }
    CHECK(own_buffer_nonsecure_el1(pe, BUF_BASE, BUF_SIZE), "the Profiling Buffer at EL1");
    set_field_of(pe, "PMEVTYPER0_EL0", "evtCount", 0x08);
    set_field_of(pe, "PMEVTYPER1_EL0", "evtCount", 0x06);
    set_field_of(pe, "PMCR_EL0", "E", 1);
    unsigned idx = 0;
    armprof_reg_set(pe, armprof_reg_lookup("PMCNTENSET_EL0", &idx), 0, 3);
    if (count) {
        set_field_of(pe, "PMSCR_EL1", "E1SPE", 1);
        set_field_of(pe, "PMSIRR_EL1", "INTERVAL", 0x100);
        set_field_of(pe, "PMSICR_EL1", "COUNT", count);
    }
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    if (cap) armprof_spe_set_sink(pe, sink, cap);
    return pe;
}

static armprof_op load(uint64_t pc, bool stopped)
{
    armprof_op op = ARMPROF_OP_INIT;
    op.op_class = ARMPROF_OP_LOAD;
    op.pc = pc;
    op.vaddr = 0x2000;
    op.l1d_access = true;
    op.events = stopped ? ARMPROF_SPE_EV_EXCEPTION : 0;
    op.not_arch_executed = stopped;
    return op;
}

/* Counter 0 (INST_RETIRED) and counter 1 (LD_RETIRED) read as expected. */
static void expect_retired(const armprof_pe *pe, uint64_t expected, const char *after)
{
    const uint64_t inst = reg(pe, "PMEVCNTR0_EL0"), ld = reg(pe, "PMEVCNTR1_EL0");
    CHECK(inst == expected && ld == expected,
          "after %s: INST_RETIRED %llu, LD_RETIRED %llu, expected %llu each", after,
          (unsigned long long)inst, (unsigned long long)ld, (unsigned long long)expected);
}

/* INST_RETIRED and LD_RETIRED after a stopped load, then after the load
 * that retires. */
static void test_pmu(void)
{
    armprof_pe *pe = make_pe("armv8.2-spe", NULL, 0, NULL);
    if (!pe) return;
    const armprof_op stopped = load(0x1000, true), retired = load(0x1000, false);
    armprof_retire(pe, &stopped);
    armprof_cycles(pe, 1);
    expect_retired(pe, 0, "the stopped load");
    armprof_retire(pe, &retired);
    armprof_cycles(pe, 1);
    expect_retired(pe, 1, "the retried load");
    armprof_pe_destroy(pe);
}

/* The sampled stopped load's Events packet; dispatched first when
 * dispatch. */
static uint64_t sampled_events(const char *speculative, bool dispatch)
{
    capture cap = {0};
    armprof_pe *pe = make_pe("armv8.2-spe", speculative, 1, &cap);
    if (!pe) return ~0ull;
    armprof_op op = load(0x1000, true);
    if (dispatch) CHECK(armprof_dispatch(pe, &op), "dispatch: selected");
    armprof_retire(pe, &op);
    CHECK(cap.records == 1 && cap.last.events_valid, "%s%s: %u records",
          speculative ? speculative : "default", dispatch ? ", dispatched" : "", cap.records);
    armprof_pe_destroy(pe);
    return cap.records == 1 ? cap.last.events : ~0ull;
}

static void test_spe(void)
{
    const uint64_t e = sampled_events(NULL, false);
    CHECK((e & 3) == 1, "Events 0x%llx: E[1] clear, E[0] set", (unsigned long long)e);
    CHECK(!(e & 4), "Events 0x%llx: no L1D_CACHE (E[2]), the access was not made",
          (unsigned long long)e);
    const uint64_t d = sampled_events(NULL, true);
    CHECK((d & 3) == 1, "dispatched: Events 0x%llx: E[1] clear, E[0] set", (unsigned long long)d);
    const uint64_t n = sampled_events("NOT_SUPPORTED", false);
    CHECK((n & 3) == 3, "NOT_SUPPORTED: Events 0x%llx: E[1] reads as one", (unsigned long long)n);

    /* A member of the population: COUNT 2, the stopped load counts it down
     * and the next operation is sampled. */
    capture cap = {0};
    armprof_pe *pe = make_pe("armv8.2-spe", NULL, 2, &cap);
    if (!pe) return;
    const armprof_op stopped = load(0x1000, true), retired = load(0x1000, false);
    armprof_retire(pe, &stopped);
    CHECK(cap.records == 0, "COUNT 2: no record yet");
    armprof_retire(pe, &retired);
    CHECK(cap.records == 1 && (cap.last.events & 3) == 2,
          "the next operation sampled, retired: %u records, Events 0x%llx", cap.records,
          (unsigned long long)cap.last.events);
    armprof_pe_destroy(pe);
}

/* PMPCSR's PCSample[31:0] after a read that samples. */
static uint32_t pc_sample(armprof_pe *pe)
{
    const armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    const armprof_ext_outcome o = armprof_external_read(pe, 0x200, 4, &how);
    CHECK(o.kind == ARMPROF_EXT_OK, "PMPCSR read: %s", o.why ? o.why : "?");
    return (uint32_t)o.value;
}

static void test_pcsr(void)
{
    armprof_pe *pe = make_pe("armv9.4-all", NULL, 0, NULL);
    if (!pe) return;
    pc_sample(pe); /* a read of PMPCSR activates the suspended sampler */
    armprof_op branch = ARMPROF_OP_INIT;
    branch.op_class = ARMPROF_OP_BRANCH;
    branch.pc = 0x1000;
    branch.taken = true;
    branch.target = 0x5000;
    armprof_retire(pe, &branch);
    branch.pc = 0x5000;
    branch.target = 0x9000;
    branch.not_arch_executed = true;
    armprof_retire(pe, &branch);
    CHECK(pc_sample(pe) == 0x5000, "a stopped branch: the sample stays the last target");
    /* pcsr_sample_all_instructions 1: other instructions are sampled. */
    armprof_op other = ARMPROF_OP_INIT;
    other.op_class = ARMPROF_OP_OTHER;
    other.pc = 0x6000;
    armprof_retire(pe, &other);
    armprof_op stopped = load(0x6004, true);
    armprof_retire(pe, &stopped);
    const uint32_t s = pc_sample(pe);
    CHECK(s == 0x6000, "a stopped load: PMPCSR 0x%x, expected 0x6000", s);
    armprof_pe_destroy(pe);
}

/* A program compiled against version 3 sets no not_arch_executed: the
 * bytes beyond its .size are not read. */
static void test_old_size(void)
{
    armprof_pe *pe = make_pe("armv8.2-spe", NULL, 0, NULL);
    if (!pe) return;
    armprof_op op;
    memset(&op, 0x5a, sizeof op);
    memset(&op, 0, offsetof(armprof_op, not_arch_executed));
    op.size = (uint32_t)offsetof(armprof_op, not_arch_executed);
    op.op_class = ARMPROF_OP_LOAD;
    op.pc = 0x1000;
    armprof_retire(pe, &op);
    armprof_cycles(pe, 1);
    expect_retired(pe, 1, "a load of version 3 size");
    armprof_pe_destroy(pe);
}

int main(void)
{
    test_pmu();
    test_spe();
    test_pcsr();
    test_old_size();
    return check_summary();
}
