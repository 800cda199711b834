/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoints (armprof_checkpoint_save/restore): a PE restored from a
 * checkpoint and driven by the same calls ends in the same state as the PE
 * the checkpoint was taken from: every register instance, the Profiling
 * Buffer's bytes in memory, the records the sink received, the SPE
 * statistics, PMUIRQ and PMBIRQ. Checked into a second PE and into the
 * first one rolled back, after streams that fill the buffer, overflow
 * counters and hold records. Bad checkpoints are refused with a reason and
 * leave the PE as it was. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"

#define BUF_PA   0x80000000ull
#define BUF_SIZE 0x4000ull

typedef struct records {
    unsigned count;
    uint64_t hash; /* FNV-1a over every record's bytes */
} records;

static void sink(void *ctx, const uint8_t *record, size_t size)
{
    records *r = ctx;
    r->count++;
    for (size_t i = 0; i < size; i++)
        r->hash = (r->hash ^ record[i]) * 0x100000001b3ull;
}

static armprof_pe *make_pe(const char *held)
{
    armprof_config cfg;
    char err[256];
    armprof_config_preset(&cfg, "armv9.4-all");
    armprof_config_set(&cfg, "pmsidr_interval", "0", err, sizeof err);
    if (held) armprof_config_set(&cfg, "spe_held_records", held, err, sizeof err);
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    return pe;
}

/* Non-secure EL1 owns a 16 KiB buffer; every 256th operation or so is
 * sampled; counter 0 counts INST_RETIRED from near its 32-bit overflow. */
static void program(armprof_pe *pe)
{
    char err[128];
    drv_cpu cpu = {.pe = pe};
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    drv_set_field(pe, "MDCR_EL3", "NSPB", 3);
    drv_set(pe, "HCR_EL2", 1ull << 31);
    drv_set(pe, "PMBPTR_EL1", BUF_PA);
    drv_set(pe, "PMBLIMITR_EL1", BUF_PA + BUF_SIZE);
    drv_set_field(pe, "PMBLIMITR_EL1", "E", 1);
    drv_set_field(pe, "PMSIRR_EL1", "INTERVAL", 1);
    drv_set_field(pe, "PMSCR_EL1", "E0SPE", 1);
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    drv_set_field(pe, "PMSCR_EL1", "TS", 1);
    drv_msr(&cpu, "MDCR_EL2", 8);
    drv_msr(&cpu, "PMEVTYPER0_EL0", (uint64_t)armprof_pmu_event_number("INST_RETIRED"));
    drv_msr(&cpu, "PMEVCNTR0_EL0", 0xFFFFF000u);
    drv_msr(&cpu, "PMINTENSET_EL1", 1);
    drv_msr(&cpu, "PMCNTENSET_EL0", 0x80000001ull);
    drv_msr(&cpu, "PMCR_EL0", 1);
    drv_set_el(&cpu, 1);
}

/* n operations of a random stream; a full buffer is serviced as a driver
 * does (PMBPTR back to the base, PMBSR cleared). */
static void drive(armprof_pe *pe, rng *g, unsigned n)
{
    drv_cpu cpu = {.pe = pe};
    for (unsigned i = 0; i < n; i++) {
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = 0x400000 + 4 * below(g, 4096);
        op.op_class = (armprof_op_class)below(g, 4);
        op.total_latency = 1 + below(g, 200);
        op.issue_latency = below(g, 20);
        if (op.op_class == ARMPROF_OP_LOAD || op.op_class == ARMPROF_OP_STORE) {
            op.vaddr = 0x10000000 + 8 * below(g, 1 << 16);
            op.paddr = op.vaddr;
            op.l1d_access = true;
            op.l1d_refill = chance(g, 8);
        }
        if (op.op_class == ARMPROF_OP_BRANCH) {
            op.taken = chance(g, 2);
            op.target = 0x400000 + 4 * below(g, 4096);
        }
        armprof_retire(pe, &op);
        armprof_cycles(pe, 1 + below(g, 3));
        if (chance(g, 500)) armprof_psb_csync(pe);
        if (armprof_pmbirq(pe)) {
            drv_msr(&cpu, "PMBPTR_EL1", BUF_PA);
            drv_msr(&cpu, "PMBSR_EL1", 0);
        }
    }
}

typedef struct state {
    uint64_t *regs;
    size_t nregs;
    uint8_t buffer[BUF_SIZE];
    armprof_spe_stats stats;
    bool pmuirq, pmbirq;
} state;

static void capture(armprof_pe *pe, state *s)
{
    size_t n = 0;
    for (size_t r = 0; r < armprof_reg_count(); r++)
        n += armprof_reg_instances((int)r) ? armprof_reg_instances((int)r) : 1;
    s->regs = calloc(n, sizeof *s->regs);
    s->nregs = 0;
    for (size_t r = 0; r < armprof_reg_count(); r++)
        for (unsigned m = 0; m < armprof_reg_instances((int)r); m++)
            s->regs[s->nregs++] = armprof_reg_get(pe, (int)r, m);
    armprof_mem_read(armprof_pe_memory(pe), ARMPROF_PAS_NONSECURE, BUF_PA, s->buffer, BUF_SIZE);
    s->stats = armprof_spe_get_stats(pe);
    s->pmuirq = armprof_pmuirq(pe);
    s->pmbirq = armprof_pmbirq(pe);
}

static bool same_state(const state *a, const state *b, const char *what)
{
    bool same = a->nregs == b->nregs;
    for (size_t i = 0; same && i < a->nregs; i++)
        if (a->regs[i] != b->regs[i]) {
            fprintf(stderr, "%s: register slot %zu differs\n", what, i);
            same = false;
        }
    same = same && memcmp(a->buffer, b->buffer, sizeof a->buffer) == 0;
    same = same && memcmp(&a->stats, &b->stats, sizeof a->stats) == 0;
    return same && a->pmuirq == b->pmuirq && a->pmbirq == b->pmbirq;
}

static void round_trip(const char *held, uint64_t seed)
{
    armprof_pe *pe = make_pe(held);
    records r1 = {0, 0xcbf29ce484222325ull};
    armprof_spe_set_sink(pe, sink, &r1);
    program(pe);
    rng before = {seed};
    drive(pe, &before, 3000);
    /* With held records, checkpoint while some are held. */
    for (unsigned i = 0; held && armprof_spe_get_stats(pe).held == 0 && i < 100000; i++)
        drive(pe, &before, 1);
    CHECK(!held || armprof_spe_get_stats(pe).held > 0, "records held at the checkpoint");

    const size_t size = armprof_checkpoint_size(pe);
    uint8_t *cp = malloc(size);
    CHECK(armprof_checkpoint_save(pe, cp, size - 1) == 0, "a short buffer is refused");
    CHECK(armprof_checkpoint_save(pe, cp, size) == size, "saved %zu bytes", size);
    const records at_checkpoint = r1;

    rng after = {seed ^ 0x9e3779b97f4a7c15ull};
    drive(pe, &after, 6000);
    state s1;
    capture(pe, &s1);
    const records r1_end = r1;
    CHECK(r1_end.count > at_checkpoint.count + 10, "records after the checkpoint (%u)",
          r1_end.count - at_checkpoint.count);
    CHECK(s1.stats.records > 0, "records were written");

    /* Into a second PE of the same configuration. */
    armprof_pe *pe2 = make_pe(held);
    records r2 = at_checkpoint;
    armprof_spe_set_sink(pe2, sink, &r2);
    char err[256] = "";
    CHECK(armprof_checkpoint_restore(pe2, cp, size, err, sizeof err), "restore: %s", err);
    rng again = {seed ^ 0x9e3779b97f4a7c15ull};
    drive(pe2, &again, 6000);
    state s2;
    capture(pe2, &s2);
    CHECK(same_state(&s1, &s2, "second PE"), "held=%s: the restored PE ends in the same state",
          held ? held : "0");
    CHECK(r2.count == r1_end.count && r2.hash == r1_end.hash,
          "the same records reach the sink (%u / %u)", r2.count, r1_end.count);
    CHECK(armprof_current_el(pe2) == 1, "the context comes back");

    /* Into the first PE, rolled back. */
    records r3 = at_checkpoint;
    armprof_spe_set_sink(pe, sink, &r3);
    CHECK(armprof_checkpoint_restore(pe, cp, size, err, sizeof err), "roll back: %s", err);
    rng replay = {seed ^ 0x9e3779b97f4a7c15ull};
    drive(pe, &replay, 6000);
    state s3;
    capture(pe, &s3);
    CHECK(same_state(&s1, &s3, "rolled back"), "the rolled-back PE ends in the same state");
    CHECK(r3.count == r1_end.count && r3.hash == r1_end.hash, "rolled back: the same records");

    free(s1.regs);
    free(s2.regs);
    free(s3.regs);
    free(cp);
    armprof_pe_destroy(pe);
    armprof_pe_destroy(pe2);
}

static void refusals(void)
{
    armprof_pe *pe = make_pe(NULL);
    program(pe);
    rng g = {42};
    drive(pe, &g, 500);
    const size_t size = armprof_checkpoint_size(pe);
    uint8_t *cp = malloc(size);
    armprof_checkpoint_save(pe, cp, size);
    drive(pe, &g, 500);
    state before;
    capture(pe, &before);
    char err[256];

    CHECK(!armprof_checkpoint_restore(pe, cp, 10, err, sizeof err) && strstr(err, "header"),
          "truncated header: %s", err);
    CHECK(!armprof_checkpoint_restore(pe, cp, size - 1, err, sizeof err) && strstr(err, "says"),
          "truncated: %s", err);
    cp[0] ^= 1;
    CHECK(!armprof_checkpoint_restore(pe, cp, size, err, sizeof err) && strstr(err, "not an"),
          "bad magic: %s", err);
    cp[0] ^= 1;
    /* A changed bit anywhere (the header, the PE state, the held records,
     * the memory) is refused; past the header, by the checksum. */
    unsigned damaged_refused = 0, damaged_tried = 0;
    for (size_t at = size - 1; at > 0; at = at * 7 / 8) {
        cp[at] ^= 0x10;
        damaged_tried++;
        const bool refused = !armprof_checkpoint_restore(pe, cp, size, err, sizeof err);
        damaged_refused += refused;
        if (at == size - 1) CHECK(refused && strstr(err, "damaged"), "last byte changed: %s", err);
        cp[at] ^= 0x10;
    }
    CHECK(damaged_tried > 10 && damaged_refused == damaged_tried, "damaged: %u of %u refused",
          damaged_refused, damaged_tried);
    armprof_pe *other = make_pe("4");
    CHECK(!armprof_checkpoint_restore(other, cp, size, err, sizeof err) &&
              strstr(err, "spe_held_records"),
          "another configuration: %s", err);
    state after;
    capture(pe, &after);
    CHECK(same_state(&before, &after, "refused"), "refused restores leave the PE as it was");
    free(before.regs);
    free(after.regs);
    free(cp);
    armprof_pe_destroy(pe);
    armprof_pe_destroy(other);
}

int main(void)
{
    round_trip(NULL, 1);
    round_trip("4", 2);
    refusals();
    return check_summary();
}
