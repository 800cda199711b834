/* SPDX-License-Identifier: BSD-3-Clause */
/* The fast path (docs/qemu.md, "How it runs"): whole TBs are counted
 * without the model (inline operations on QEMU 10.0, one short callback on
 * 7.2) and given to it as one run (armprof_retire_run()) only when the TB
 * that holds the next event starts (armprof_ops_until_event()). That TB's
 * instructions go in one by one: runs before and after, the event itself
 * through armprof_retire() with what only execution tells (a load's or
 * store's address, a branch's outcome). */
#include "qprof.h"

qp_counters *qp_counters_of(qp_thread *t)
{
#if QPROF_SCOREBOARDS
    /* exact mode counts in its TB callback, as on QEMU 7.2 */
    if (qp.mode == QP_MODE_FAST) return qemu_plugin_scoreboard_find(qp.sb, t->vcpu);
#endif
    return &qp.hot[t->vcpu].c;
}

/* What the model waits for next (and, for a load or store, what QEMU 7.2's
 * memory callbacks look for). */
static void set_pending(qp_thread *t, qp_pending p, const qp_tb *tb, uint32_t idx)
{
    t->fast.pending = p;
    t->fast.pend_tb = tb;
    t->fast.pend_idx = idx;
    qp.hot[t->vcpu].mem_wait = p == QP_PEND_MEM ? &tb->insn[idx] : NULL;
}

/* The branch the model waits for retires when the next TB shows where it
 * went (next_pc; 0 at the thread's end, when nobody knows: not taken). */
static void retire_branch(qp_thread *t, const qp_insn *q, uint64_t next_pc)
{
    qp_retire_insn(t, q, QP_RETIRE_BRANCH, next_pc, 0, false);
}

/* Instructions from..n of tb, with no more to learn of them: runs, and the
 * events among them through armprof_retire() as they are; a branch that
 * ends tb went to next_pc (0: not known, not taken). */
static void retire_through(qp_thread *t, const qp_tb *tb, uint32_t from, uint64_t next_pc)
{
    /* the block's own branch: its target only the next block tells */
    const uint32_t end = tb->last_branch ? tb->n - 1 : tb->n;
    while (from < end) {
        const uint64_t u = qp_until(t);
        if (u >= end - from) {
            qp_retire_static(t, tb, from, end);
            break;
        }
        const uint32_t e = from + (uint32_t)u;
        qp_retire_static(t, tb, from, e);
        qp_retire_insn(t, &tb->insn[e], QP_RETIRE_AS_IS, 0, 0, false);
        from = e + 1;
    }
    if (end < tb->n && from <= end) retire_branch(t, &tb->insn[end], next_pc);
}

/* ran: how many of the pending TB's instructions ran (UINT32_MAX: not
 * known, all of them); stopped: the last of them did not complete */
static void complete_pending(qp_thread *t, const qp_tb *cur, uint32_t ran, bool stopped)
{
    const qp_pending p = t->fast.pending;
    const qp_tb *tb = t->fast.pend_tb;
    const uint32_t idx = t->fast.pend_idx;
    set_pending(t, QP_PEND_NONE, NULL, 0);
    if (p == QP_PEND_BRANCH) retire_branch(t, &tb->insn[idx], cur ? cur->pc : 0);
    if (p != QP_PEND_MEM) return;
    /* the block ended before the load or store ran (an exception): it
     * retires without an address, counted as such; the model selected it,
     * so it retires even when an instruction before it took the exception */
    if (ran == idx + 1) /* it took the exception */
        qp_retire_insn(t, &tb->insn[idx], QP_RETIRE_EXCEPTION, stopped, 0, false);
    else
        qp_retire_insn(t, &tb->insn[idx], QP_RETIRE_AS_IS, 0, 0, false);
    /* the rest of the block, whose counts the inline operations already
     * took, ran only when nobody says where the exception came */
    if (ran == UINT32_MAX) retire_through(t, tb, idx + 1, cur ? cur->pc : 0);
}

/* Up to most of *acc, taken out of it. */
static uint64_t take(uint64_t *acc, uint64_t most)
{
    const uint64_t n = *acc < most ? *acc : most;
    *acc -= n;
    return n;
}

armprof_op_run qp_run_settled(uint64_t ops, uint64_t mix, const qp_tb *last, const qp_tb *cur,
                              uint32_t cut)
{
    armprof_op_run run = ARMPROF_OP_RUN_INIT;
    run.ops = ops;
    run.branches = qp_mix_field(mix, 0);
    run.loads = qp_mix_field(mix, 1);
    run.stores = qp_mix_field(mix, 2);
    if (last && cut < last->n) {
        /* QEMU ends a TB at its branch: the instructions of it that ran
         * hold none, and the last branch is in an earlier TB, whose target
         * is where this TB starts; a cut at its first instruction leaves
         * that start as the last PC known */
        run.last_pc = last->pc + 4ull * (cut ? cut - 1 : 0);
        if (run.branches) run.last_branch_next = last->pc;
    } else if (last && last->n) {
        run.last_pc = last->last_pc;
        run.last_is_branch = last->last_branch;
        if (run.last_is_branch) {
            /* where the last block's branch went is where this block
             * starts; taken branches before it are not known (fast mode:
             * docs/qemu.md) */
            const uint64_t next = cur ? cur->pc : last->last_pc + 4;
            run.last_branch_next = next;
            run.any_taken = next != last->last_pc + 4;
            run.last_taken_target = next;
        } else if (run.branches) {
            /* the last branch is in an earlier block, whose target is not
             * known: the last block's start ran after it (H7.1: the sampled
             * value is the address of an instruction that has executed) */
            run.last_branch_next = last->pc;
        }
    }
    return run;
}

/* cut: how many of the last TB's instructions ran (UINT32_MAX: all of
 * them): an exception, or a System register access that gives the model
 * the instructions before it, cut it there. */
static void settle(qp_thread *t, const qp_tb *cur, uint32_t ran, uint32_t cut, bool stopped)
{
    qp_counters *c = qp_counters_of(t);
    complete_pending(t, cur, ran, stopped);
    const uint64_t ops = t->fast.synced_budget - qp_budget(c->tally);
    if (ops) {
        /* no field borrows: each only grows */
        const uint64_t mix = (c->tally & QP_MIX_MASK) - t->fast.synced_mix;
        const qp_tb *last = (const qp_tb *)(uintptr_t)c->last_tb;
        if (qp_queue_raw(t)) {
            qp_queue_raw_settled(t, ops, mix, last, cur, cut);
        } else {
            armprof_op_run run = qp_run_settled(ops, mix, last, cur, cut);
            /* exact mode: what the timing model saw of them (and of
             * operations retired ahead of their execution, which a run
             * carries on: no run has more than it can); fast mode has no
             * memory model, no cache events (docs/memory-model.md) */
            run.l1d_access = take(&t->exact.acc.l1d_access, run.loads + run.stores);
            run.l1d_refill = take(&t->exact.acc.l1d_refill, run.l1d_access);
            run.mispredicted = take(&t->exact.acc_mispredicted, run.branches);
            qp_retire_run(t, &run);
        }
    }
    /* the mix starts again from 0 at every visit, so that it never overflows */
    c->tally = qp_tally(qp_budget(c->tally), 0);
    t->fast.synced_budget = qp_budget(c->tally);
    t->fast.synced_mix = 0;
}

void qp_fast_settle(qp_thread *t, const qp_tb *cur)
{
    settle(t, cur, UINT32_MAX, UINT32_MAX, false);
}

void qp_fast_settle_cut(qp_thread *t, uint64_t stop_pc, bool stopped)
{
    qp_counters *c = qp_counters_of(t);
    const qp_tb *last = (const qp_tb *)(uintptr_t)c->last_tb;
    const uint64_t end = last ? last->pc + 4ull * last->n : 0;
    /* Only an instruction the exception stopped cuts the block. Otherwise
     * (an interrupt, which TCG takes between blocks; SVC, HVC and SMC, which
     * end theirs; a prefetch abort, at a block's start) the last block ran
     * whole, even when stop_pc lies inside it: a block that branches back
     * into itself (a loop entered in its middle) goes on at an address of
     * its own, and taking back its tail undercounted the PMU by an
     * iteration (docs/spec-notes.md). */
    if (!stopped || !stop_pc || !last || stop_pc <= last->pc || stop_pc > end) {
        settle(t, NULL, UINT32_MAX, UINT32_MAX, false);
        return;
    }
    const uint32_t ran = (uint32_t)((stop_pc - last->pc) / 4);
    if (t->fast.pending == QP_PEND_MEM && t->fast.pend_tb == last) {
        /* the visit inside the block gave the model its instructions up
         * to the load or store it waits for, and no more */
        settle(t, NULL, ran, ran, stopped);
        return;
    }
    /* The block's inline operations counted all of it; the rest did not
     * run, and runs again after the exception, and neither did the
     * instruction that stopped: an operation of its own, which generated
     * the exception and is not Architecturally executed (no INST_RETIRED).
     * Unless a visit at the block's start gave the model all of it already
     * (the budget it left would go above what the model knows): those
     * stay retired. */
    const uint32_t done = ran - stopped;
    const uint64_t back = last->n - done;
    if (qp_budget(c->tally) + back <= t->fast.synced_budget) {
        c->tally += qp_tally(back, 0) - (last->before[last->n] - last->before[done]);
        settle(t, NULL, UINT32_MAX, done, false);
        if (stopped) qp_retire_insn(t, &last->insn[done], QP_RETIRE_EXCEPTION, 1, 0, false);
        return;
    }
    settle(t, NULL, UINT32_MAX, UINT32_MAX, false);
}

/* The instruction at pc, in the TB that runs now, is about to read or
 * write one of the model's registers: the model takes the instructions
 * before it, and the rest of the TB (which runs: the inline operations
 * counted it at its start) is owed to the next visit. When the model was
 * given the TB at its start already (a visit there: an event in it), or a
 * visit waits for an instruction of it, the model keeps what it was given:
 * the instructions up to that event, at most the rest of that TB ahead of
 * pc (docs/qemu-system.md). */
void qp_fast_sync_at(qp_thread *t, uint64_t pc)
{
    qp_counters *c = qp_counters_of(t);
    const qp_tb *last = (const qp_tb *)(uintptr_t)c->last_tb;
    if (t->fast.pending != QP_PEND_NONE) return;
    if (!last || pc < last->pc || pc >= last->pc + 4ull * last->n) {
        settle(t, NULL, UINT32_MAX, UINT32_MAX, false);
        return;
    }
    const uint32_t ran = (uint32_t)((pc - last->pc) / 4);
    const uint64_t back = last->n - ran;
    const uint64_t rest_mix = last->before[last->n] - last->before[ran];
    if (qp_budget(c->tally) + back > t->fast.synced_budget) return;
    c->tally += qp_tally(back, 0) - rest_mix;
    settle(t, NULL, UINT32_MAX, ran, false);
    /* owed: the next visit's run has them, with their mix */
    c->tally -= qp_tally(back, 0) - rest_mix;
}

/* After a write to one of the model's registers (QEMU ends the TB there):
 * what the model counts down to may have moved, so the next TB visits it,
 * with the operations owed so far. */
void qp_fast_resync(qp_thread *t)
{
    qp_counters *c = qp_counters_of(t);
    if (t->fast.pending != QP_PEND_NONE) return; /* a visit is due anyway */
    const uint64_t owed = t->fast.synced_budget - qp_budget(c->tally);
    const uint64_t mix = (c->tally & QP_MIX_MASK) - t->fast.synced_mix;
    c->tally = qp_tally(0, mix);
    t->fast.synced_budget = owed;
    t->fast.synced_mix = 0;
}

void qp_fast_eret(qp_thread *t, uint64_t target, unsigned target_el)
{
    if (t->fast.pending != QP_PEND_BRANCH) return;
    const qp_insn *q = &t->fast.pend_tb->insn[t->fast.pend_idx];
    if (q->op.op_class != ARMPROF_OP_BRANCH || q->op.branch_kind != ARMPROF_BRANCH_ERET) return;
    set_pending(t, QP_PEND_NONE, NULL, 0);
    armprof_op op = q->op;
    op.taken = true;
    op.target = target;
    op.target_el_valid = true;
    op.target_el = (uint8_t)target_el;
    qp_retire_full(t, &op, 0, false);
}

/* The model is in step up to instruction i of cur: walk the rest. With
 * inline_done, cur's TB-level counting already ran (a callback inside the
 * block); otherwise it runs after this callback and is accounted here. */
static void walk(qp_thread *t, qp_counters *c, const qp_tb *cur, uint32_t i, bool inline_done)
{
    const uint64_t n = inline_done ? 0 : cur->n;
    for (;;) {
        const uint64_t u = qp_until(t);
        uint64_t rest = 0;
        /* the branch that ends cur, left to the next visit's run */
        uint64_t held = 0;
        if (i == 0 && !inline_done && u >= cur->n) {
            /* The whole TB runs before the event (a visit made due by an
             * Exception level change or a register write): its inline
             * operations count it, for the next visit's run, as in any TB
             * that is not due; so an exception in it can still take back
             * what did not run (qp_fast_settle_cut()). */
            rest = u - cur->n;
            if (rest > QP_MAX_RUN) rest = QP_MAX_RUN;
            c->tally = qp_tally(rest + cur->n, c->tally & QP_MIX_MASK);
            t->fast.synced_budget = rest + cur->n;
            t->fast.synced_mix = c->tally & QP_MIX_MASK;
            return;
        }
        if (u >= cur->n - i) {
            /* H7.1: a taken branch's PC sample is its target, the next
             * block's start, not the address after it */
            held = i < cur->n && cur->last_branch;
            qp_retire_static(t, cur, i, cur->n - (uint32_t)held);
            rest = u - (cur->n - i);
            if (rest > QP_MAX_RUN) rest = QP_MAX_RUN; /* the tally's fields stay in range */
        } else {
            const uint32_t e = i + (uint32_t)u;
            const qp_insn *q = &cur->insn[e];
            qp_retire_static(t, cur, i, e);
            /* Where a load's or store's address comes from. Exact mode and
             * QEMU 7.2: its memory callback, after the access. Otherwise
             * the registers: now, when nothing before it in the TB changes
             * them (this callback is at the TB's start or at an earlier
             * load's), else at its own instruction callback. */
            const bool mem_callbacks = !QPROF_SCOREBOARDS || qp.mode == QP_MODE_EXACT;
            uint64_t vaddr = 0;
            const bool now = qp_is_mem(&q->op) && !mem_callbacks && q->addr_at_start &&
                             qp_data_address(t, q, &vaddr);
            const bool own_look = mem_callbacks || (q->addr_from_regs && !q->addr_at_start);
            const bool mem_wait = qp_is_mem(&q->op) && !now && own_look;
            const bool branch_wait = q->op.op_class == ARMPROF_OP_BRANCH && e == cur->n - 1;
            if (!mem_wait && !branch_wait) {
                qp_retire_insn(t, q, QP_RETIRE_AS_IS, 0, vaddr, now);
                i = e + 1;
                continue;
            }
            set_pending(t, mem_wait ? QP_PEND_MEM : QP_PEND_BRANCH, cur, e);
            c->sample_idx = mem_wait ? e + 1 : 0;
            /* 0: if the callback never comes, the next block settles */
        }
        /* after cur's own inline subtraction, rest remain (modulo 2^64) */
        c->tally = qp_tally(rest + n, c->tally & QP_MIX_MASK);
        t->fast.synced_budget = rest + held;
        t->fast.synced_mix =
            (c->tally & QP_MIX_MASK) + (inline_done ? 0 : cur->mix) - qp_mix(held, 0, 0);
        return;
    }
}

void qp_fast_due(qp_thread *t, const qp_tb *cur)
{
    qp_counters *c = qp_counters_of(t);
    c->sample_idx = 0;
    if (!t->started) qp_thread_start(t, cur->pc);
    qp_fast_settle(t, cur);
    walk(t, c, cur, 0, false);
    qp_visit_end(t);
}

void qp_fast_tb_due(unsigned vcpu, void *udata)
{
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) {
        /* the profile has ended: nothing more to wait for (this vCPU's
         * counters: the thread may be gone) */
        qp_counters *c;
#if QPROF_SCOREBOARDS
        if (qp.mode == QP_MODE_FAST)
            c = qemu_plugin_scoreboard_find(qp.sb, vcpu);
        else
#endif
            c = &qp.hot[vcpu].c;
        c->sample_idx = 0;
        c->tally = qp_tally(QP_BUDGET_IDLE, 0);
        return;
    }
    qp_fast_due(t, udata);
    qp_thread_exit(t);
}

/* The load or store the model waits for is about to run (QEMU 10.0: its
 * registers give the address) or has run (QEMU 7.2, and exact mode: a
 * memory callback). */
void qp_mem_due(qp_thread *t, const qp_insn *q, bool known, uint64_t vaddr)
{
    qp_counters *c = qp_counters_of(t);
    c->sample_idx = 0;
    if (t->fast.pending != QP_PEND_MEM || &t->fast.pend_tb->insn[t->fast.pend_idx] != q) return;
    const qp_tb *tb = t->fast.pend_tb;
    const uint32_t idx = t->fast.pend_idx;
    set_pending(t, QP_PEND_NONE, NULL, 0);
    qp_retire_insn(t, q, QP_RETIRE_AS_IS, 0, vaddr, known);
    walk(t, c, tb, idx + 1, true);
}

void qp_fast_insn_due(unsigned vcpu, void *udata)
{
    const qp_insn *q = udata;
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    uint64_t vaddr = 0;
    const bool known = qp_data_address(t, q, &vaddr);
    qp_mem_due(t, q, known, vaddr);
    qp_visit_end(t);
    qp_thread_exit(t);
}

/* A TB that holds the next event, or a vCPU the plugin cannot count. */
static void __attribute__((noinline)) tb_exec_due(unsigned vcpu, const qp_tb *cur)
{
    if (vcpu >= QP_MAX_VCPUS) {
        qp_thread_create_for(vcpu); /* says so and exits */
        return;
    }
    qp_fast_tb_due(vcpu, (void *)(uintptr_t)cur);
    qp_counters *c = &qp.hot[vcpu].c;
    c->tally += cur->add;
    c->last_tb = (uint64_t)(uintptr_t)cur;
}

void qp_fast_tb_exec_v1(unsigned vcpu, void *udata)
{
    const qp_tb *cur = udata;
    /* what QEMU 10.0's inline operations and condition do; a leaf
     * function but for the event's TB */
    if (vcpu < QP_MAX_VCPUS) {
        qp_counters *c = &qp.hot[vcpu].c;
        const uint64_t tally = c->tally;
        if (tally >= cur->enough) {
            c->tally = tally + cur->add;
            c->last_tb = (uint64_t)(uintptr_t)cur;
            return;
        }
    }
    tb_exec_due(vcpu, cur);
}

/* The load or store the model waits for has made its access. */
static void __attribute__((noinline)) mem_awaited(unsigned vcpu, uint64_t vaddr, const qp_insn *q)
{
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    qp_mem_due(t, q, true, vaddr);
    qp_visit_end(t);
    qp_thread_exit(t);
}

void qp_fast_mem_v1(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)info;
    /* every load and store calls this: one look, without the thread, at
     * whether the model waits for this one (only this vCPU sets its own) */
    if (vcpu < QP_MAX_VCPUS && qp.hot[vcpu].mem_wait == udata) mem_awaited(vcpu, vaddr, udata);
}
