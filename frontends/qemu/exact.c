/* SPDX-License-Identifier: BSD-3-Clause */
/* Exact mode (docs/qemu.md): every instruction goes through the timing
 * model and armprof_retire(), one by one: a load or store when its memory
 * callback gives the address, a branch when the next instruction shows
 * where it went, anything else at once. */
#include "qprof.h"

static void retire_mem(qp_thread *t, const qp_insn *q, bool known, uint64_t vaddr)
{
    armprof_op op = q->op;
    qp_retire_full(t, &op, op.op_class == ARMPROF_OP_STORE, vaddr, known, 0);
}

static void retire_branch(qp_thread *t, const qp_insn *q, uint64_t next_pc, bool known)
{
    armprof_op op = q->op;
    op.taken = known && next_pc != q->pc + 4;
    if (!q->op.conditional && known) op.taken = true;
    op.target = op.taken ? next_pc : q->d.pc_relative ? q->pc + (uint64_t)q->d.offset : q->pc + 4;
    qp_retire_full(t, &op, false, 0, false, 0);
}

/* What is pending retires with what is known by the next instruction. */
static void resolve(qp_thread *t, uint64_t next_pc, bool known)
{
    if (t->pend_mem) {
        /* no memory callback came: QEMU 7.2's SVE loads and stores, DC ZVA,
         * or an access that faulted */
        retire_mem(t, t->pend_mem, false, 0);
        t->pend_mem = NULL;
    }
    if (t->pend_branch) {
        retire_branch(t, t->pend_branch, next_pc, known);
        t->pend_branch = NULL;
    }
}

void qp_exact_insn(unsigned vcpu, void *udata)
{
    const qp_insn *q = udata;
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    if (!t->started) qp_thread_start(t);
    resolve(t, q->pc, true);
    switch (q->op.op_class) {
    case ARMPROF_OP_LOAD:
    case ARMPROF_OP_STORE:
        t->pend_mem = q;
        break;
    case ARMPROF_OP_BRANCH:
        t->pend_branch = q;
        break;
    default: {
        armprof_op op = q->op;
        qp_retire_full(t, &op, false, 0, false, 0);
    }
    }
    qp_visit_end(t);
    qp_thread_leave(t);
}

void qp_exact_mem(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)info;
    /* the first access of the instruction (LDP, LD4... make several) */
    if (qp_thread_of(vcpu)->pend_mem != udata) return;
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    t->pend_mem = NULL;
    retire_mem(t, udata, true, vaddr);
    qp_visit_end(t);
    qp_thread_leave(t);
}

void qp_exact_flush(qp_thread *t)
{
    resolve(t, 0, false);
}
