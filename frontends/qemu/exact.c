/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact mode (docs/qemu.md): every memory access goes through the timing
 * model's TLB and caches, and every branch through its predictor, as the
 * program runs; the PMU counts what they saw (L1D_CACHE, L1D_CACHE_REFILL,
 * BR_MIS_PRED_RETIRED, the TLB and L2 events) and the cycles they took.
 * The model itself is visited as in fast mode: a run of operations up to
 * the next event, then the event's TB walked, the sampled operation with
 * its address and outcome. One callback a TB (its counts, the last TB's
 * branch outcome) and one a memory access, on either QEMU. */
#include "qprof.h"
#include "timing_default.h"

/* PMU events the timing model's TLB and L2 generate (Arm ARM K3.1) */
enum {
    EV_L1D_TLB_REFILL = 0x05,
    EV_L2D_CACHE = 0x16,
    EV_L2D_CACHE_REFILL = 0x17,
    EV_L1D_TLB = 0x25,
    EV_REMOTE_ACCESS = 0x31,
    EV_LL_CACHE_RD = 0x36,
    EV_LL_CACHE_MISS_RD = 0x37,
};

/* The branch that ended the last TB went to cur's start: the predictor
 * learns it, and a misprediction counts in the next run. A sampled branch
 * the model waits for is left to it (it goes through the predictor there). */
static void predict(qp_thread *t, const qp_tb *cur)
{
    if (!t->exact.end_branch_pc || t->fast.pending == QP_PEND_BRANCH) return;
    const bool taken = !t->exact.end_conditional || cur->pc != t->exact.end_branch_pc + 4;
    const qp_timing_ops *m = t->timing.ops;
    bool mispredicted;
    uint32_t cycles;
    if (m == &qp_timing_default) {
        cycles = qp_default_resolve(t->timing.ctx, t->exact.end_branch_pc, t->exact.end_conditional,
                                    taken, &mispredicted);
    } else if (m->resolve) {
        cycles = m->resolve(t->timing.ctx, t->exact.end_branch_pc, cur->pc,
                            t->exact.end_conditional, taken, &mispredicted);
    } else {
        armprof_op *op = &t->exact.scratch;
        op->pc = t->exact.end_branch_pc;
        op->conditional = t->exact.end_conditional;
        op->taken = taken;
        op->target = cur->pc;
        op->mispredicted = false;
        cycles = m->branch(t->timing.ctx, op);
        mispredicted = op->mispredicted;
    }
    t->exact.acc_mispredicted += mispredicted;
    /* the run counts one cycle an operation; the rest is the stall */
    t->model.clock += cycles - 1;
}

static void pmu_events(qp_thread *t);

/* The PE entered for a visit: in system mode the guest may read its
 * counters right after it, so the timing model's events go in first. */
static qp_thread *visit_enter(unsigned vcpu)
{
    qp_thread *t = qp_thread_enter(vcpu);
    if (t && qp.system) pmu_events(t);
    return t;
}

/* Exact mode's callbacks on every TB and every access reach the thread
 * without its PE (qp_thread_active()): the timing model and the counters
 * are the thread's own, touched only by its vCPU's callbacks. They take
 * the PE (system mode: its lock) only to visit it. */
void qp_exact_tb(unsigned vcpu, void *udata)
{
    const qp_tb *cur = udata;
    qp_thread *t = qp_thread_active(vcpu);
    if (!t) return;
    qp_counters *c = &qp.hot[vcpu].c;
    predict(t, cur);
    t->exact.tb_seq++;
    if (c->tally < cur->enough && visit_enter(vcpu)) { /* budget < n */
        qp_fast_due(t, cur);
        qp_thread_exit(t);
    }
    c->tally += cur->add;
    c->last_tb = (uint64_t)(uintptr_t)cur;
    /* the next TB's predict(), from the line of cur that is at hand now */
    t->exact.end_branch_pc = cur->last_branch ? cur->last_pc : 0;
    t->exact.end_conditional = cur->last_conditional;
}

/* The events the timing model saw that a run does not carry, into the PMU
 * at the next visit's end. */
static void pmu_events(qp_thread *t)
{
    static const struct {
        size_t offset;
        uint16_t event;
    } acc[] = {
        {offsetof(qp_timing_counts, tlb), EV_L1D_TLB},
        {offsetof(qp_timing_counts, tlb_refill), EV_L1D_TLB_REFILL},
        {offsetof(qp_timing_counts, l2), EV_L2D_CACHE},
        {offsetof(qp_timing_counts, l2_refill), EV_L2D_CACHE_REFILL},
        {offsetof(qp_timing_counts, llc_rd), EV_LL_CACHE_RD},
        {offsetof(qp_timing_counts, llc_miss_rd), EV_LL_CACHE_MISS_RD},
        {offsetof(qp_timing_counts, remote), EV_REMOTE_ACCESS},
    };
    for (size_t i = 0; i < sizeof acc / sizeof acc[0]; i++) {
        uint64_t *n = (uint64_t *)((char *)&t->exact.acc + acc[i].offset);
        if (*n) qp_pmu_event(t, acc[i].event, *n);
        *n = 0;
    }
}

void qp_exact_op_events(qp_thread *t, const armprof_op *op, bool store)
{
    const uint32_t e = op->events;
    t->exact.acc.tlb += (e & ARMPROF_SPE_EV_TLB_ACCESS) != 0;
    t->exact.acc.tlb_refill += (e & ARMPROF_SPE_EV_TLB_WALK) != 0;
    t->exact.acc.l2 += (e & ARMPROF_SPE_EV_L2_ACCESS) != 0;
    t->exact.acc.l2_refill += (e & ARMPROF_SPE_EV_L2_MISS) != 0;
    t->exact.acc.llc_rd += !store && (e & ARMPROF_SPE_EV_LLC_ACCESS);
    t->exact.acc.llc_miss_rd += !store && (e & ARMPROF_SPE_EV_LLC_MISS);
    t->exact.acc.remote += (e & ARMPROF_SPE_EV_REMOTE) != 0;
}

/* A model without touch(): access() on a scratch operation (the fields it
 * fills and this reads, rather than a copy of the whole armprof_op). */
static uint32_t touch_by_access(qp_thread *t, uint64_t vaddr, bool store)
{
    armprof_op *op = &t->exact.scratch;
    op->events = 0;
    op->l1d_access = op->l1d_refill = false;
    const uint32_t cycles = t->timing.ops->access(t->timing.ctx, op, vaddr, store);
    t->exact.acc.l1d_access += op->l1d_access;
    t->exact.acc.l1d_refill += op->l1d_refill;
    qp_exact_op_events(t, op, store);
    return cycles;
}

/* The address the hierarchy is looked up by: the physical one (qemu-user:
 * the guest's VA is its PA; system mode: QEMU's translation of the access,
 * false for a device's registers, which no cache holds). */
static inline bool hierarchy_address(qemu_plugin_meminfo_t info, uint64_t vaddr, uint64_t *paddr)
{
    *paddr = vaddr;
    if (!qp.system) return true;
    const struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
    if (!hw) return true; /* not expected in system mode: the VA, as in qemu-user */
    if (qemu_plugin_hwaddr_is_io(hw)) return false;
    *paddr = qemu_plugin_hwaddr_phys_addr(hw);
    return true;
}

static inline void exact_access(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                const qp_insn *q, bool store)
{
    qp_thread *t = qp_thread_active(vcpu);
    if (!t) return;
    if (t->fast.pending == QP_PEND_MEM && &t->fast.pend_tb->insn[t->fast.pend_idx] == q) {
        /* the sampled load or store: the timing model sees it there */
        if (!visit_enter(vcpu)) return;
        qp_mem_due(t, q, true, vaddr);
        t->exact.mem_insn = q;
        t->exact.mem_seq = t->exact.tb_seq;
        qp_visit_end(t);
        qp_thread_exit(t);
    } else if (t->exact.mem_insn != q || t->exact.mem_seq != t->exact.tb_seq) {
        /* the instruction's first access (LDP, LD4... make several) */
        t->exact.mem_insn = q;
        t->exact.mem_seq = t->exact.tb_seq;
        uint64_t paddr;
        if (!hierarchy_address(info, vaddr, &paddr)) return;
        const qp_timing_ops *m = t->timing.ops;
        const uint32_t cycles = m == &qp_timing_default
                                    ? qp_default_touch(t->timing.ctx, paddr, store, &t->exact.acc)
                                : m->touch ? m->touch(t->timing.ctx, paddr, store, &t->exact.acc)
                                           : touch_by_access(t, paddr, store);
        t->model.clock += cycles - 1;
        if (t->exact.acc.tlb >= 4096 && qp_thread_enter(vcpu)) {
            pmu_events(t);
            qp_thread_exit(t);
        }
    }
}

void qp_exact_load(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    exact_access(vcpu, info, vaddr, udata, false);
}

void qp_exact_store(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    exact_access(vcpu, info, vaddr, udata, true);
}

void qp_exact_flush(qp_thread *t)
{
    pmu_events(t);
}
