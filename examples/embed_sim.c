/* SPDX-License-Identifier: BSD-3-Clause */
/* A complete small embedding of armprof (docs/embedding.md): a toy
 * instruction-set simulator that runs a copy loop on one PE, with the model
 * behind it. It uses the public API only and shows the order of calls a
 * simulator makes:
 *
 *   set-up   create the PE, program the PMU and SPE with MSRs as a kernel
 *            would, install an interrupt callback;
 *   per instruction
 *            armprof_retire(), then armprof_cycles() for its cycles; at the
 *            instruction boundary, take an interrupt the callback flagged;
 *   interrupt handler
 *            PMBIRQ: read the records (the PE's memory), decode them, move
 *            PMBPTR_EL1 back, clear PMBSR_EL1;
 *   checkpoint
 *            save half-way, run on, restore, run the second half again: the
 *            same records and counts.
 *
 * Build: cc embed_sim.c $(pkg-config --cflags --libs armprof)
 * Exit status 0 when every check holds. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"

#define BUF_VA   0x80000000ull /* stage 1 off (SCTLR_EL1.M 0): VA == PA */
#define BUF_SIZE 0x2000ull

typedef struct sim {
    armprof_pe *pe;
    bool pmbirq_pending; /* set by the callback, taken at a boundary */
    unsigned pmbirqs, pmuirqs;
    unsigned records; /* decoded by the handler */
    uint64_t record_hash;
} sim;

static void die(const char *what, const char *why)
{
    fprintf(stderr, "embed_sim: %s: %s\n", what, why);
    exit(2);
}

/* MSR by name, as the simulator's MSR instruction would reach the model. */
static void msr(sim *s, const char *name, uint64_t value)
{
    unsigned index;
    const int reg = armprof_reg_lookup(name, &index);
    if (reg < 0) die(name, "no such register");
    const armprof_outcome o = armprof_msr(s->pe, armprof_reg_encoding(reg, index), 0, value);
    if (o.kind != ARMPROF_DONE) die(name, "the MSR did not complete (a trap to deliver)");
}

static uint64_t mrs(sim *s, const char *name)
{
    unsigned index;
    const int reg = armprof_reg_lookup(name, &index);
    const armprof_outcome o = armprof_mrs(s->pe, armprof_reg_encoding(reg, index), 0);
    if (o.kind != ARMPROF_DONE) die(name, "the MRS did not complete");
    return o.value;
}

/* Called from inside the model call that changed a level: only note it. */
static void on_irq(void *ctx, armprof_irq irq, bool level, unsigned target_el)
{
    sim *s = ctx;
    (void)target_el;
    if (irq == ARMPROF_IRQ_PMB) s->pmbirq_pending = level;
    if (irq == ARMPROF_IRQ_PMU && level) s->pmuirqs++;
}

/* Decode what the buffer holds and start it again at its base. */
static void drain(sim *s)
{
    const uint64_t end = mrs(s, "PMBPTR_EL1");
    uint8_t buf[BUF_SIZE];
    armprof_mem_read(armprof_pe_memory(s->pe), ARMPROF_PAS_NONSECURE, BUF_VA, buf,
                     (size_t)(end - BUF_VA));
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, buf, (size_t)(end - BUF_VA));
    armprof_spe_record r;
    while (armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_OK) {
        s->records++;
        s->record_hash = (s->record_hash ^ r.address[ARMPROF_SPE_ADDR_PC]) * 0x100000001b3ull;
    }
    msr(s, "PMBPTR_EL1", BUF_VA);
}

/* The PMBIRQ handler: the buffer is full (PMBSR_EL1.S 1). */
static void pmbirq_handler(sim *s)
{
    drain(s);
    msr(s, "PMBSR_EL1", 0); /* S = 0: PMBIRQ drops, profiling resumes */
    s->pmbirqs++;
}

/* The guest program: copy n words, a load, a store, an add and a branch
 * per iteration. */
static void run(sim *s, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++) {
        const uint64_t pc = 0x400000 + 16 * (i % 4);
        armprof_op op = ARMPROF_OP_INIT;
        op.pc = pc;
        switch (i % 4) {
        case 0:
            op.op_class = ARMPROF_OP_LOAD;
            op.vaddr = op.paddr = 0x10000000 + 8 * (i / 4);
            op.l1d_access = true;
            op.l1d_refill = (i / 4) % 8 == 0; /* a new 64-byte line */
            op.total_latency = op.l1d_refill ? 40 : 4;
            break;
        case 1:
            op.op_class = ARMPROF_OP_STORE;
            op.vaddr = op.paddr = 0x20000000 + 8 * (i / 4);
            op.l1d_access = true;
            op.total_latency = 2;
            break;
        case 2:
            op.op_class = ARMPROF_OP_OTHER;
            op.total_latency = 1;
            break;
        default:
            op.op_class = ARMPROF_OP_BRANCH;
            op.taken = true;
            op.target = 0x400000;
            op.total_latency = 1;
            break;
        }
        armprof_retire(s->pe, &op);
        armprof_cycles(s->pe, op.total_latency > 4 ? 4 : 1);
        if (s->pmbirq_pending) pmbirq_handler(s); /* the instruction boundary */
    }
}

int main(void)
{
    armprof_config cfg;
    char err[256];
    if (!armprof_config_preset(&cfg, "armv9.4-all")) die("preset", "unknown");
    sim s = {0};
    s.record_hash = 0xcbf29ce484222325ull;
    s.pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!s.pe) die("create", err);

    /* Firmware at EL3 hands the Profiling Buffer to Non-secure EL1 and lets
     * EL1 use the PMU's counters; then the kernel at EL1 programs them. */
    if (!armprof_set_security_state(s.pe, ARMPROF_SS_NONSECURE, err, sizeof err))
        die("security state", err);
    msr(&s, "MDCR_EL3", 3ull << 12);     /* NSPB 0b11: Non-secure EL1 owns the buffer */
    msr(&s, "MDCR_EL2", 6 | 3ull << 12); /* HPMN 6; E2PB 0b11: no EL2 trap of the buffer */
    msr(&s, "HCR_EL2", 1ull << 31);      /* EL1 is AArch64 */
    if (!armprof_set_el(s.pe, 1, err, sizeof err)) die("EL1", err);
    armprof_set_irq_callback(s.pe, on_irq, &s);

    msr(&s, "PMEVTYPER0_EL0", (uint64_t)armprof_pmu_event_number("INST_RETIRED"));
    msr(&s, "PMEVTYPER1_EL0", (uint64_t)armprof_pmu_event_number("L1D_CACHE_REFILL"));
    msr(&s, "PMCNTENSET_EL0", 3ull | 1ull << 31);
    msr(&s, "PMCR_EL0", 1); /* E */

    msr(&s, "PMBPTR_EL1", BUF_VA);
    msr(&s, "PMBLIMITR_EL1", (BUF_VA + BUF_SIZE) | 1); /* LIMIT, E */
    msr(&s, "PMSIRR_EL1", 1024);                       /* INTERVAL: 1024 operations */
    msr(&s, "PMSCR_EL1", 3);                           /* E0SPE, E1SPE */

    const uint64_t total = 400000, half = total / 2;
    run(&s, 0, half);

    const size_t size = armprof_checkpoint_size(s.pe);
    void *cp = malloc(size);
    if (!cp || armprof_checkpoint_save(s.pe, cp, size) != size) die("checkpoint", "save");
    const sim at_half = s;

    run(&s, half, total);
    armprof_psb_csync(s.pe); /* what is held inside the unit reaches memory */
    drain(&s);
    const sim first = s;
    const uint64_t insts = mrs(&s, "PMEVCNTR0_EL0"), refills = mrs(&s, "PMEVCNTR1_EL0");
    const armprof_spe_stats stats = armprof_spe_get_stats(s.pe);

    /* Back to the half-way point, and the second half again. */
    if (!armprof_checkpoint_restore(s.pe, cp, size, err, sizeof err)) die("restore", err);
    s.records = at_half.records;
    s.record_hash = at_half.record_hash;
    s.pmbirqs = at_half.pmbirqs;
    s.pmbirq_pending = armprof_pmbirq(s.pe);
    run(&s, half, total);
    armprof_psb_csync(s.pe);
    drain(&s);
    const bool replay_same = s.records == first.records && s.record_hash == first.record_hash &&
                             mrs(&s, "PMEVCNTR0_EL0") == insts;
    free(cp);

    printf("embed_sim: %" PRIu64 " instructions, INST_RETIRED %" PRIu64
           ", L1D_CACHE_REFILL %" PRIu64 "\n",
           total, insts, refills);
    printf("embed_sim: %u records decoded (%u PMBIRQ handlers); the model wrote %" PRIu64 "\n",
           first.records, first.pmbirqs, stats.written);
    printf("embed_sim: checkpoint of %zu bytes; replay from it: %s\n", size,
           replay_same ? "same records and counts" : "DIFFERENT");
    armprof_pe_destroy(s.pe);
    const bool ok = insts == total && refills == total / 32 && first.pmbirqs > 0 &&
                    first.records == stats.written && replay_same;
    return ok ? 0 : 1;
}
