/* SPDX-License-Identifier: BSD-3-Clause */
/* Translation: each new TB is classified once, instruction by instruction
 * (armprof_a64_decode()), and instrumented for the mode and the plugin API
 * (docs/qemu.md, "How it runs"). */
#include <stdlib.h>
#include <string.h>

#include "qprof.h"

/* Whether instruction j may write general-purpose register r (31: SP or
 * XZR), conservatively: its bits [4:0] (Rd or Rt of nearly every A64
 * encoding), a pair's second register, a written-back base, an atomic's
 * Rs. */
static bool may_write(const qp_insn *j, unsigned r)
{
    const armprof_a64_insn *d = &j->d;
    if ((d->insn & 0x1f) == r) return true;
    if (d->regs >= 2 && d->rt2 == r) return true;
    if (d->writeback && d->base_reg == r) return true;
    if ((d->atomic || d->exclusive) && d->rs == r) return true;
    return false;
}

/* A load's or store's address can be read from the registers at the TB's
 * start when no instruction before it in the TB may change its base or
 * index register. */
static void mark_addr_at_start(qp_tb *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        qp_insn *q = &t->insn[i];
        if (!q->addr_from_regs) continue;
        bool ok = true;
        for (uint32_t j = 0; j < i && ok; j++) {
            if (!q->d.pc_relative && may_write(&t->insn[j], q->d.base_reg)) ok = false;
            if (q->d.index_reg != ARMPROF_A64_NOREG && may_write(&t->insn[j], q->d.index_reg))
                ok = false;
        }
        q->addr_at_start = ok;
    }
}

static qp_tb *classify(struct qemu_plugin_tb *tb)
{
    const size_t n = qemu_plugin_tb_n_insns(tb);
    qp_tb *t = calloc(1, sizeof *t + n * sizeof(qp_insn));
    if (!t) abort();
    t->before = calloc(n + 1, sizeof *t->before);
    if (!t->before) abort();
    t->pc = qemu_plugin_tb_vaddr(tb);
    t->n = (uint32_t)n;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
        qp_insn *q = &t->insn[i];
        uint32_t word = 0;
#if QEMU_PLUGIN_VERSION >= 3
        qemu_plugin_insn_data(in, &word, sizeof word);
#else
        memcpy(&word, qemu_plugin_insn_data(in), sizeof word);
#endif
        q->pc = qemu_plugin_insn_vaddr(in);
        armprof_a64_decode(word, &q->d);
        armprof_op op = ARMPROF_OP_INIT;
        armprof_a64_fill_op(&q->d, &op);
        op.pc = q->pc;
        q->op = op;
        const bool mem = qp_is_mem(&op);
        /* an offset in vector lengths (MUL VL) needs the length: 0 does not */
        q->addr_from_regs = mem && !q->d.vector_base && !q->d.vector_index &&
                            (!q->d.offset_vl || q->d.offset == 0) &&
                            (q->d.base_reg != ARMPROF_A64_NOREG || q->d.pc_relative);
        t->before[i] = qp_mix(t->branches, t->loads, t->stores);
        t->branches += op.op_class == ARMPROF_OP_BRANCH;
        t->loads += op.op_class == ARMPROF_OP_LOAD;
        t->stores += op.op_class == ARMPROF_OP_STORE;
    }
    t->mix = qp_mix(t->branches, t->loads, t->stores);
    if (n) {
        t->last_pc = t->insn[n - 1].pc;
        t->last_branch = t->insn[n - 1].op.op_class == ARMPROF_OP_BRANCH;
        t->last_conditional = t->insn[n - 1].op.conditional;
    }
    t->enough = (uint64_t)t->n << QP_BUDGET_SHIFT;
    t->add = t->mix - t->enough;
    mark_addr_at_start(t);
    t->before[n] = qp_mix(t->branches, t->loads, t->stores);
    pthread_mutex_lock(&qp.lock);
    t->next = qp.tbs;
    qp.tbs = t;
    pthread_mutex_unlock(&qp.lock);
    return t;
}

/* One callback per TB, and one per memory access of its loads and stores:
 * exact mode on either QEMU, and QEMU 7.2's fast path. */
static void instrument_callbacks(struct qemu_plugin_tb *tb, qp_tb *t,
                                 qemu_plugin_vcpu_udata_cb_t tb_cb,
                                 qemu_plugin_vcpu_mem_cb_t load_cb,
                                 qemu_plugin_vcpu_mem_cb_t store_cb)
{
    qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_cb, QEMU_PLUGIN_CB_NO_REGS, t);
    for (uint32_t i = 0; i < t->n; i++)
        if (qp_is_mem(&t->insn[i].op))
            qemu_plugin_register_vcpu_mem_cb(
                qemu_plugin_tb_get_insn(tb, i),
                t->insn[i].op.op_class == ARMPROF_OP_STORE ? store_cb : load_cb,
                QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, &t->insn[i]);
}

#if QPROF_SCOREBOARDS
/* QEMU 10.0: the counters are a scoreboard; the model is visited only by
 * the TB that holds the next event (COND_LT: budget < n, on the tally), and, inside it,
 * by the load or store the model waits for (COND_EQ on sample_idx). The
 * inline operations run after the conditional callback. */
static void instrument_fast(struct qemu_plugin_tb *tb, qp_tb *t)
{
    struct qemu_plugin_scoreboard *sb = qp.sb;
    const qemu_plugin_u64 tally = qemu_plugin_scoreboard_u64_in_struct(sb, qp_counters, tally);
    /* budget < n: the whole word below n's budget, whatever the counts */
    qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, qp_fast_tb_due, QEMU_PLUGIN_CB_R_REGS,
                                              QEMU_PLUGIN_COND_LT, tally, t->enough, t);
    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64, tally,
                                                      t->add);
    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
        tb, QEMU_PLUGIN_INLINE_STORE_U64,
        qemu_plugin_scoreboard_u64_in_struct(sb, qp_counters, last_tb), (uint64_t)(uintptr_t)t);
    for (uint32_t i = 0; i < t->n; i++) {
        const qp_insn *q = &t->insn[i];
        /* only a load or store whose address its registers give (which
         * addr_from_regs says) and the TB's start does not */
        if (!q->addr_from_regs || q->addr_at_start) continue;
        qemu_plugin_register_vcpu_insn_exec_cond_cb(
            qemu_plugin_tb_get_insn(tb, i), qp_fast_insn_due, QEMU_PLUGIN_CB_R_REGS,
            QEMU_PLUGIN_COND_EQ, qemu_plugin_scoreboard_u64_in_struct(sb, qp_counters, sample_idx),
            i + 1, (void *)q);
    }
}
#else
/* QEMU 7.2: one callback per TB keeps the counters; the sampled load's or
 * store's address comes from a memory callback (no register reads). */
static void instrument_fast(struct qemu_plugin_tb *tb, qp_tb *t)
{
    instrument_callbacks(tb, t, qp_fast_tb_exec_v1, qp_fast_mem_v1, qp_fast_mem_v1);
}
#endif

void qp_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    /* system mode while no vCPU may profile: the TB as QEMU made it */
    if (qp.system && !qp_system_instrumented()) return;
    qp_tb *t = classify(tb);
    if (!t->n) return;
    if (qp.mode == QP_MODE_EXACT)
        instrument_callbacks(tb, t, qp_exact_tb, qp_exact_load, qp_exact_store);
    else
        instrument_fast(tb, t);
}
