/* SPDX-License-Identifier: BSD-3-Clause */
/* A thread's calls into its PE, queued and made later in batches
 * (docs/qemu.md, "How it runs"). Under qemu-user nothing but the plugin
 * reads the model (a guest's MRS reaches QEMU's registers), so a visit
 * need not call the model at once: it appends what the model is to be
 * given (a run, the sampled operation, cycles, PMU events, the visit's
 * end) and the queue is replayed when the plan of the next samples
 * (armprof_event_plan()) runs out, many samples at a time with the
 * model's code in the instruction cache. What a visit needs of the model
 * at once, how many operations until the next event, comes from the plan.
 * batch=0, and system mode (whose guest reads the model), make each call
 * at once. */
#include <stdlib.h>
#include <string.h>

#include "qprof.h"

/* A queue this long without a sample (profiling disabled: the plan's one
 * gap never runs out) is replayed at the next visit's end. */
#define QUEUE_MOST_BYTES (64u * 1024u)

static bool deferred(void)
{
    return qp.batch != 0 && !qp.system;
}

/* ---- what each command does to the PE ---- */

/* The external agent's read of PMPCSR (H7.1.2), into the thread's
 * histogram. */
static void pc_sample(qp_thread *t)
{
    const armprof_ext_outcome o = armprof_external_read(t->pe, qp.api.pmpcsr, 8, NULL);
    t->pcs.reads++;
    /* PMPCSR[31:0] all ones: no sample (H7.1) */
    if (o.kind != ARMPROF_EXT_OK || (o.value & 0xffffffffull) == 0xffffffffull) return;
    t->pcs.samples++;
    const uint64_t pc = o.value & ((1ull << 56) - 1);
    gpointer v = g_hash_table_lookup(t->pcs.hist, &pc);
    if (v) {
        (*(uint64_t *)v)++;
        return;
    }
    uint64_t *kv = g_new(uint64_t, 2); /* key, then count */
    kv[0] = pc;
    kv[1] = 1;
    g_hash_table_insert(t->pcs.hist, kv, kv + 1);
}

/* Runs that follow one another with nothing between them go to the model
 * as one (each armprof_retire_run() costs a visit to three units): the
 * counts add up, and the last operation, branch and taken branch are the
 * later run's where it has them. */
static void exec_run(qp_thread *t, const armprof_op_run *run)
{
    armprof_op_run *a = &t->model.deferred;
    if (!a->ops) {
        *a = *run;
        return;
    }
    a->ops += run->ops;
    a->branches += run->branches;
    a->mispredicted += run->mispredicted;
    a->loads += run->loads;
    a->stores += run->stores;
    a->l1d_access += run->l1d_access;
    a->l1d_refill += run->l1d_refill;
    if (run->any_taken) {
        a->any_taken = true;
        a->last_taken_target = run->last_taken_target;
    }
    if (run->branches) a->last_branch_next = run->last_branch_next;
    a->last_is_branch = run->last_is_branch;
    a->last_pc = run->last_pc;
}

static void exec_flush_run(qp_thread *t)
{
    armprof_op_run *a = &t->model.deferred;
    if (!a->ops) return;
    /* longer than armprof_ops_until_event(): a bug in the bookkeeping,
     * counted and shown in the summary, never hidden */
    if (!armprof_retire_run(t->pe, a)) t->counts.runs_refused++;
    *a = (armprof_op_run)ARMPROF_OP_RUN_INIT;
}

/* The model's cycles up to the thread's clock. */
static void exec_sync(qp_thread *t, uint64_t clock)
{
    exec_flush_run(t);
    if (clock > t->model.cycles) {
        armprof_cycles(t->pe, clock - t->model.cycles);
        t->model.cycles = clock;
    }
}

/* A replayed step that is not where the plan put it: the deferred visits
 * would give records that immediate ones do not. Never hidden. */
static void disagree(const qp_thread *t, const char *what, uint64_t model, uint64_t plan)
{
    fprintf(stderr,
            "armprof: thread %u (vCPU %u), replayed sample %llu: %s: the model says %llu, the "
            "plan %llu (a bug in the deferred visits; batch=0 visits at once)\n",
            t->tid, t->vcpu, (unsigned long long)t->queue.replayed, what, (unsigned long long)model,
            (unsigned long long)plan);
    abort();
}

static void exec_op(qp_thread *t, armprof_op *op, uint64_t clock, uint64_t gap)
{
    exec_flush_run(t);
    if (deferred()) {
        /* the step began where the plan said, and ends at the event */
        if (t->queue.step_until != gap)
            disagree(t, "operations from the last sample to this one", t->queue.step_until, gap);
        const uint64_t now = armprof_ops_until_event(t->pe);
        if (now != 0) disagree(t, "plain operations left before this one", now, 0);
    }
    /* the system counter: qemu-user has none, so the modelled cycles;
     * system mode keeps the guest's, which qp_thread_enter() gave the PE */
    if (!qp.system) armprof_set_physical_count(t->pe, QP_TIME_ORIGIN + clock);
    armprof_retire(t->pe, op);
    /* at once: while the buffer's management event is pending, profiling
     * is stopped and armprof_ops_until_event() says nothing will happen
     * (system mode: the guest's driver, after the visit) */
    if (!qp.system && armprof_pmbirq(t->pe)) armprof_kernel_service(t->k);
    t->queue.replayed++;
    if (deferred()) t->queue.step_until = armprof_ops_until_event(t->pe);
}

/* qemu-user: the run after the event waits to go in with the next visit's
 * (one armprof_retire_run() a sample, not two), and the cycles until
 * QP_CYCLES_BATCH of them or until somebody looks. */
static void exec_visit_end(qp_thread *t, uint64_t clock)
{
    if (clock - t->model.cycles >= QP_CYCLES_BATCH) exec_sync(t, clock);
    if (armprof_pmbirq(t->pe)) armprof_kernel_service(t->k);
    /* the external agent reads PMPCSR at every QP_PCSR_EVERY-th Statistical
     * Profiling sample: the same operations in both modes */
    const uint64_t selected = armprof_spe_get_stats(t->pe).selected;
    if (selected / QP_PCSR_EVERY != t->model.selected / QP_PCSR_EVERY) {
        exec_sync(t, clock);
        pc_sample(t);
    }
    t->model.selected = selected;
}

static void exec(qp_thread *t, qp_cmd_kind kind, const void *payload)
{
    switch (kind) {
    case QP_CMD_RUN: {
        armprof_op_run run;
        memcpy(&run, payload, sizeof run);
        exec_run(t, &run);
        break;
    }
    case QP_CMD_OP: {
        qp_cmd_op c;
        memcpy(&c, payload, sizeof c);
        exec_op(t, &c.op, c.clock, c.gap);
        break;
    }
    case QP_CMD_EVENT: {
        qp_cmd_event c;
        memcpy(&c, payload, sizeof c);
        if (c.flush) exec_flush_run(t);
        armprof_pmu_event(t->pe, c.event, c.count);
        break;
    }
    case QP_CMD_SYNC:
    case QP_CMD_VISIT_END: {
        uint64_t clock;
        memcpy(&clock, payload, sizeof clock);
        if (kind == QP_CMD_SYNC)
            exec_sync(t, clock);
        else
            exec_visit_end(t, clock);
        break;
    }
    }
}

/* ---- the queue ---- */

/* Each command in the queue: its kind in one byte, then its payload. */
static size_t payload_size(qp_cmd_kind kind)
{
    switch (kind) {
    case QP_CMD_RUN:
        return sizeof(armprof_op_run);
    case QP_CMD_OP:
        return sizeof(qp_cmd_op);
    case QP_CMD_EVENT:
        return sizeof(qp_cmd_event);
    default:
        return sizeof(uint64_t);
    }
}

void qp_queue_flush(qp_thread *t)
{
    qp_queue *q = &t->queue;
    for (size_t at = 0; at < q->len;) {
        const qp_cmd_kind kind = (qp_cmd_kind)q->bytes[at];
        exec(t, kind, q->bytes + at + 1);
        at += 1 + payload_size(kind);
    }
    /* the plan holds on: the model went where it said */
    q->len = 0;
}

void qp_queue_push(qp_thread *t, qp_cmd_kind kind, const void *payload)
{
    qp_queue *q = &t->queue;
    if (!deferred()) {
        exec(t, kind, payload);
        return;
    }
    const size_t size = payload_size(kind);
    if (q->len + 1 + size > q->cap) {
        q->cap = q->cap ? 2 * q->cap : 4096;
        q->bytes = realloc(q->bytes, q->cap);
        if (!q->bytes) abort();
    }
    q->bytes[q->len] = (uint8_t)kind;
    memcpy(q->bytes + q->len + 1, payload, size);
    q->len += 1 + size;
    if (kind == QP_CMD_RUN) {
        armprof_op_run run;
        memcpy(&run, payload, sizeof run);
        q->queued += run.ops;
    } else if (kind == QP_CMD_OP) {
        q->step++;
        q->queued = 0;
    } else if (kind == QP_CMD_VISIT_END && q->len > QUEUE_MOST_BYTES) {
        qp_queue_flush(t);
    }
}

uint64_t qp_queue_gap(const qp_thread *t)
{
    const qp_queue *q = &t->queue;
    return deferred() && q->step < q->planned ? q->gaps[q->step] : 0;
}

void qp_queue_end_plan(qp_thread *t)
{
    t->queue.planned = t->queue.step;
}

/* The plan from the model as the replayed queue left it: the operations
 * of the run not given yet (exec_run()) count in its first step. */
static void plan(qp_thread *t)
{
    qp_queue *q = &t->queue;
    if (!q->gaps) {
        q->gaps = calloc(qp.batch, sizeof *q->gaps);
        if (!q->gaps) abort();
    }
    q->planned = armprof_event_plan(t->pe, q->gaps, qp.batch);
    q->step_until = armprof_ops_until_event(t->pe);
    if (!q->planned) {
        /* a state the plan does not know: one step, as a visit at once */
        q->gaps[0] = q->step_until;
        q->planned = 1;
    }
    q->step = 0;
    q->queued = t->model.deferred.ops;
}

uint64_t qp_until(qp_thread *t)
{
    uint64_t u, given;
    if (deferred()) {
        qp_queue *q = &t->queue;
        if (q->step >= q->planned) {
            qp_queue_flush(t);
            plan(t);
        }
        u = q->gaps[q->step];
        given = q->queued;
    } else {
        u = armprof_ops_until_event(t->pe);
        if (qp.system && qp.sys.counting[t->vcpu]) {
            /* the guest's PMU: a visit where a counter may overflow, so
             * that PMUIRQ rises there (runs are one cycle an operation, so
             * a cycle counter's room is in operations too) */
            const uint64_t o = armprof_pmu_ops_until_overflow(t->pe);
            if (o < u) u = o;
        }
        given = t->model.deferred.ops;
    }
    if (u == UINT64_MAX) return u;
    return u > given ? u - given : 0;
}

void qp_queue_free(qp_thread *t)
{
    free(t->queue.bytes);
    free(t->queue.gaps);
    t->queue = (qp_queue){0};
}
