/* SPDX-License-Identifier: BSD-3-Clause */
/* The demo's synthetic workload (demo_workload.h). Each phase builds one
 * iteration of its loop as operations, which are then retired one by one:
 * the PCs, branch targets and data addresses are those a real loop of the
 * kind would have, so that SPE records, PC samples and the PMU counters
 * show what each phase does. */
#include "cli/demo_workload.h"

#include <string.h>

/* Code: 4KB apart, one range per phase. */
#define CODE_BASE 0x400000ull
#define CODE_SIZE 0x1000ull

/* Data (EL0 virtual addresses). */
#define STREAM_SRC  0x0000aaaa00000000ull
#define STREAM_DST  0x0000aaab00000000ull
#define STREAM_SIZE (16ull << 20)
#define CHASE_HEAP  0x0000ffff80000000ull
#define CHASE_SIZE  (64ull << 20)
#define BYTECODE    0x0000aaac00000000ull
#define JUMP_TABLE  0x0000aaac00100000ull
#define STACK_TOP   0x0000fffffffff000ull
#define SVE_X       0x0000aaad00000000ull
#define SVE_Y       0x0000aaae00000000ull
#define SVE_VL_BITS 256u

/* Data sources in the encoding of the Arm Neoverse cores (the Data Source
 * packet's payload is IMPLEMENTATION DEFINED, D18.2.4). */
enum { DS_L1 = 0x0, DS_L2 = 0x8, DS_SLC = 0xb, DS_DRAM = 0xe };

/* Where a load or store found its data. */
typedef enum level { HIT_L1, HIT_L2, HIT_LLC, HIT_DRAM } level;

static const char *const phase_names[DEMO_PHASES] = {
    "stream-copy",
    "pointer-chase",
    "interpreter",
    "sve-compute",
};

const char *demo_phase_name(unsigned phase)
{
    return phase < DEMO_PHASES ? phase_names[phase] : "other";
}

uint64_t demo_phase_code_start(unsigned phase)
{
    return CODE_BASE + phase * CODE_SIZE;
}

uint64_t demo_phase_code_end(unsigned phase)
{
    return demo_phase_code_start(phase) + CODE_SIZE;
}

unsigned demo_phase_of_pc(uint64_t pc)
{
    if (pc < CODE_BASE) return DEMO_PHASES;
    const uint64_t p = (pc - CODE_BASE) / CODE_SIZE;
    return p < DEMO_PHASES ? (unsigned)p : DEMO_PHASES;
}

/* true with probability pct percent */
static bool percent(demo_workload *w, unsigned pct)
{
    return below(&w->rng, 100) < pct;
}

/* The user program's memory is mapped 1GB-block by 1GB-block: each 4GB
 * region of VA lands in its own 1GB of PA. */
static uint64_t user_pa(uint64_t va)
{
    return 0x800000000ull + ((va >> 32 & 0xff) << 30) + (va & 0x3fffffff);
}

static armprof_op *emit(demo_workload *w, uint64_t pc, armprof_op_class cls, unsigned cost)
{
    armprof_op *op = &w->loop[w->n];
    memset(op, 0, sizeof *op);
    op->pc = pc;
    op->op_class = cls;
    op->total_latency = cost + 2;
    op->issue_latency = 1;
    w->cost[w->n++] = cost;
    return op;
}

static armprof_op *alu(demo_workload *w, uint64_t pc)
{
    return emit(w, pc, ARMPROF_OP_OTHER, 1);
}

static void branch(armprof_op *op, armprof_branch_kind kind, bool conditional, bool taken,
                   uint64_t target, bool mispredicted)
{
    op->branch_kind = kind;
    op->conditional = conditional;
    op->taken = taken;
    op->target = taken ? target : op->pc + 4;
    op->mispredicted = mispredicted;
}

/* A load or store of va that hit at lvl, with a table walk or not. */
static armprof_op *mem(demo_workload *w, uint64_t pc, armprof_op_class cls, uint64_t va, level lvl,
                       bool walk)
{
    static const unsigned latency[] = {4, 14, 45, 180};
    static const uint16_t source[] = {DS_L1, DS_L2, DS_SLC, DS_DRAM};
    unsigned lat = latency[lvl] + (unsigned)(rnd(&w->rng) % (latency[lvl] / 2 + 1));
    const unsigned walk_cycles = walk ? 25 + (unsigned)(rnd(&w->rng) % 40) : 1;
    /* A load the next instruction waits for costs its latency; stores and
     * independent loads retire from the store buffer or overlap. */
    armprof_op *op = emit(w, pc, cls, 1);
    op->total_latency = lat + walk_cycles + 2;
    op->issue_latency = 1 + (unsigned)(rnd(&w->rng) % 3);
    op->translation_latency = walk_cycles;
    op->vaddr = va;
    op->paddr = user_pa(va);
    op->pas = ARMPROF_PAS_NONSECURE;
    op->l1d_access = true;
    op->l1d_refill = lvl != HIT_L1;
    op->events = ARMPROF_SPE_EV_TLB_ACCESS;
    if (walk) op->events |= ARMPROF_SPE_EV_TLB_WALK;
    if (lvl >= HIT_L2) op->events |= ARMPROF_SPE_EV_L2_ACCESS;
    if (lvl >= HIT_LLC) op->events |= ARMPROF_SPE_EV_L2_MISS | ARMPROF_SPE_EV_LLC_ACCESS;
    if (lvl == HIT_DRAM) op->events |= ARMPROF_SPE_EV_LLC_MISS;
    if (cls == ARMPROF_OP_LOAD) {
        op->data_source_valid = true;
        op->data_source = source[lvl];
    }
    return op;
}

/* ldp/ldp/stp/stp/subs/b.ne over two 16MB arrays: sequential addresses,
 * L1 hits but for the first access to each 64-byte line, which the
 * prefetcher has already brought into L2. */
static void stream_copy(demo_workload *w)
{
    const uint64_t pc = demo_phase_code_start(0), off = w->stream_off;
    const level first = off % 64 == 0 ? HIT_L2 : HIT_L1;
    mem(w, pc, ARMPROF_OP_LOAD, STREAM_SRC + off, first, off % 4096 == 0);
    mem(w, pc + 4, ARMPROF_OP_LOAD, STREAM_SRC + off + 16, HIT_L1, false);
    mem(w, pc + 8, ARMPROF_OP_STORE, STREAM_DST + off, first, off % 4096 == 0);
    mem(w, pc + 12, ARMPROF_OP_STORE, STREAM_DST + off + 16, HIT_L1, false);
    alu(w, pc + 16);
    w->stream_off = (off + 32) % STREAM_SIZE;
    /* The loop ends at the end of each 64KB block: the one branch the
     * predictor gets wrong. */
    const bool again = w->stream_off % 65536 != 0;
    branch(emit(w, pc + 20, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_DIRECT, true, again, pc, !again);
    if (!again) {
        alu(w, pc + 24);
        branch(emit(w, pc + 28, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_DIRECT, false, true, pc,
               false);
    }
}

/* ldr x0, [x0, #8] / ldr w1, [x0] / add / cbnz over a linked list spread
 * across 64MB: each hop a dependent miss, often with a table walk. */
static void pointer_chase(demo_workload *w)
{
    const uint64_t pc = demo_phase_code_start(1);
    const uint64_t node = CHASE_HEAP + (w->chase_node & (CHASE_SIZE - 1) & ~63ull);
    const unsigned r = (unsigned)(rnd(&w->rng) % 100);
    const level lvl = r < 10 ? HIT_L2 : r < 40 ? HIT_LLC : HIT_DRAM;
    const bool walk = percent(w, 35);
    armprof_op *ld = mem(w, pc, ARMPROF_OP_LOAD, node + 8, lvl, walk);
    /* The next hop cannot start before this load completes. */
    w->cost[w->n - 1] = ld->total_latency;
    mem(w, pc + 4, ARMPROF_OP_LOAD, node, HIT_L1, false);
    alu(w, pc + 8);
    branch(emit(w, pc + 12, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_DIRECT, true, true, pc, false);
    w->chase_node = rnd(&w->rng);
}

/* A bytecode interpreter: fetch a bytecode, load its handler from a jump
 * table and branch to it (BR, hard to predict), run the handler (some
 * with a conditional branch, a call or an indirect call and a return),
 * branch back to the dispatch. */
static void interpreter(demo_workload *w)
{
    const uint64_t base = demo_phase_code_start(2);
    const uint64_t helper = base + 0x800, helper2 = base + 0x900;
    /* A skewed bytecode mix: 0 and 1 are most frequent. */
    const unsigned r = (unsigned)(rnd(&w->rng) % 16);
    const unsigned k = r < 5 ? 0 : r < 9 ? 1 : r - 8;
    const uint64_t handler = base + 0x100 + k * 0x80;
    mem(w, base, ARMPROF_OP_LOAD, BYTECODE + w->bytecode_pc, HIT_L1, false);
    mem(w, base + 4, ARMPROF_OP_LOAD, JUMP_TABLE + 8 * k, HIT_L1, false);
    armprof_op *br = emit(w, base + 8, ARMPROF_OP_BRANCH, 1);
    branch(br, ARMPROF_BRANCH_INDIRECT, false, true, handler, k > 1 && percent(w, 40));
    if (br->mispredicted) w->cost[w->n - 1] += 12;
    uint64_t pc = handler;
    for (unsigned i = 0; i < 2 + k % 3; i++, pc += 4)
        alu(w, pc);
    if (k % 2) {
        const bool taken = percent(w, 50), miss = percent(w, 25);
        armprof_op *b = emit(w, pc, ARMPROF_OP_BRANCH, miss ? 13 : 1);
        branch(b, ARMPROF_BRANCH_DIRECT, true, taken, pc + 12, miss);
        if (!taken) {
            alu(w, pc + 4);
            alu(w, pc + 8);
        }
        pc += 12;
    }
    if (k % 4 == 2 || k == 7) {
        /* BL helper, or BLR to the second helper; the helper spills to the
         * stack and returns. */
        const uint64_t callee = k == 7 ? helper2 : helper;
        branch(emit(w, pc, ARMPROF_OP_BRANCH, 1),
               k == 7 ? ARMPROF_BRANCH_INDIRECT_CALL : ARMPROF_BRANCH_DIRECT_CALL, false, true,
               callee, false);
        mem(w, callee, ARMPROF_OP_STORE, STACK_TOP - 16, HIT_L1, false);
        alu(w, callee + 4);
        mem(w, callee + 8, ARMPROF_OP_LOAD, STACK_TOP - 16, HIT_L1, false);
        branch(emit(w, callee + 12, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_RETURN, false, true,
               pc + 4, false);
        pc += 4;
    }
    branch(emit(w, pc, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_DIRECT, false, true, base, false);
    /* Bytecode 7 is a backward jump of the interpreted program. */
    w->bytecode_pc = k == 7 ? w->bytecode_pc % 256 : w->bytecode_pc + 1;
}

static armprof_op *sve(armprof_op *op, bool fp)
{
    op->other_kind = ARMPROF_OTHER_SVE;
    op->predicated = true;
    op->fp = fp;
    op->vector_length = SVE_VL_BITS;
    return op;
}

static armprof_op *sve_mem(armprof_op *op)
{
    op->ldst_kind = ARMPROF_LDST_SVE_SME;
    op->predicated = true;
    op->vector_length = SVE_VL_BITS;
    return op;
}

/* y[i] += a * x[i] with SVE (256-bit vectors), a scalar FP reduction and a
 * NEON add: whilelo / ld1d / ld1d / fmla / st1d / incd / fmul / fadd /
 * b.first. The last vector of each 4KB block is partly predicated. */
static void sve_compute(demo_workload *w)
{
    const uint64_t pc = demo_phase_code_start(3), off = w->stream_off;
    const bool tail = (off + SVE_VL_BITS / 8) % 4096 == 0;
    sve(alu(w, pc), false);
    const level first = off % 64 == 0 ? HIT_L2 : HIT_L1;
    armprof_op *x = sve_mem(mem(w, pc + 4, ARMPROF_OP_LOAD, SVE_X + off, first, false));
    armprof_op *y = sve_mem(mem(w, pc + 8, ARMPROF_OP_LOAD, SVE_Y + off, first, false));
    armprof_op *fmla = sve(emit(w, pc + 12, ARMPROF_OP_OTHER, 4), true);
    armprof_op *st = sve_mem(mem(w, pc + 16, ARMPROF_OP_STORE, SVE_Y + off, HIT_L1, false));
    if (tail) {
        x->events |= ARMPROF_SPE_EV_PARTIAL_PRED;
        y->events |= ARMPROF_SPE_EV_PARTIAL_PRED;
        fmla->events |= ARMPROF_SPE_EV_PARTIAL_PRED;
        st->events |= ARMPROF_SPE_EV_PARTIAL_PRED;
    }
    alu(w, pc + 20);
    emit(w, pc + 24, ARMPROF_OP_OTHER, 3)->fp = true;
    armprof_op *neon = emit(w, pc + 28, ARMPROF_OP_OTHER, 2);
    neon->fp = neon->simd = true;
    w->stream_off = (off + SVE_VL_BITS / 8) % STREAM_SIZE;
    branch(emit(w, pc + 32, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_DIRECT, true, !tail, pc, tail);
    if (tail)
        branch(emit(w, pc + 36, ARMPROF_OP_BRANCH, 1), ARMPROF_BRANCH_DIRECT, false, true, pc,
               false);
}

void demo_workload_init(demo_workload *w, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    w->rng.s = seed ? seed : 0x9E3779B97F4A7C15ull;
}

void demo_workload_set_phase(demo_workload *w, unsigned phase)
{
    w->phase = phase;
    w->n = w->next = 0;
    w->stream_off = 0;
}

void demo_workload_step(demo_workload *w, armprof_pe *pe)
{
    static void (*const loops[DEMO_PHASES])(demo_workload *) = {stream_copy, pointer_chase,
                                                                interpreter, sve_compute};
    if (w->next == w->n) {
        w->n = w->next = 0;
        loops[w->phase](w);
    }
    const armprof_op *op = &w->loop[w->next];
    const unsigned cost = w->cost[w->next++];
    armprof_retire(pe, op);
    if (op->events & ARMPROF_SPE_EV_TLB_WALK) armprof_pmu_event(pe, DEMO_EV_DTLB_WALK, 1);
    if (op->op_class == ARMPROF_OP_LOAD && (op->events & ARMPROF_SPE_EV_LLC_MISS))
        armprof_pmu_event(pe, DEMO_EV_LL_CACHE_MISS_RD, 1);
    armprof_cycles(pe, cost);
    w->cycles += cost;
}
