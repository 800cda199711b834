/* SPDX-License-Identifier: BSD-3-Clause */
/* A thread's calls into its PE, queued and made later in batches
 * (docs/qemu.md, "How it runs"). Under qemu-user nothing but the plugin
 * reads the model (a guest's MRS reaches QEMU's registers), so a visit
 * need not call the model at once: it appends what the model is to be
 * given (a run, the sampled operation, cycles, PMU events, the visit's
 * end; in fast mode raw, what only the guest's thread can tell, which the
 * replay builds and times: qp_queue_raw()) and the queue is replayed when
 * the plan of the next samples
 * (armprof_event_plan()) runs out, many samples at a time with the
 * model's code in the instruction cache. What a visit needs of the model
 * at once, how many operations until the next event, comes from the plan.
 * batch=0 makes each call at once; system mode, whose guest reads the
 * model, queues only where it cannot before the next sample
 * (qp_system_room()), and replays on the vCPU's thread. With
 * replay=thread (the default) the replays run on a host thread of their
 * own (replayer.c) while the guest's thread fills the next buffer: the
 * plans of the batches to come are made by the replay, many batches
 * ahead, at an event the guest's thread asks for (look_ahead()). */
/* The events a look-ahead plans, in batches: the guest's thread asks for
 * the next one when fewer than half are left, and the replay, at most
 * QP_REPLAY_SLOTS buffers behind, makes it before they run out. */
#define LOOK_AHEAD_BATCHES 64u
#include <stdlib.h>
#include <string.h>

#include "qprof.h"

/* A queue this long without a sample (profiling disabled: the plan's one
 * gap never runs out) is replayed at the next visit's end. */
#define QUEUE_MOST_BYTES (64u * 1024u)
/* qp_cmd_op.gap of an operation that is not the step's event */
#define QP_GAP_PLAIN UINT64_MAX

/* Whether t's calls are queued now: batch=0 makes them at once; system
 * mode does when the guest may see the model before the next sample
 * (qp_system_room()). */
static bool deferred(const qp_thread *t)
{
    return qp.batch != 0 && !t->queue.immediate;
}

bool qp_queue_deferring(const qp_thread *t)
{
    return deferred(t);
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
static void merge_run(armprof_op_run *a, const armprof_op_run *run)
{
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

static void exec_run(qp_thread *t, const armprof_op_run *run)
{
    merge_run(&t->model.deferred, run);
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

/* The events a plan is made for at once. */
static size_t look_ahead_events(const qp_thread *t)
{
    return t->queue.replayer ? (size_t)qp.batch * LOOK_AHEAD_BATCHES : qp.batch;
}

/* The look-ahead asked for, from the model just after an event. */
static void look_ahead(qp_thread *t)
{
    qp_queue *q = &t->queue;
    q->ahead_planned = armprof_event_plan(t->pe, q->ahead, look_ahead_events(t));
    q->ahead_at = q->replayed;
    __atomic_store_n(&q->ahead_after, UINT64_MAX, __ATOMIC_RELAXED);
    __atomic_add_fetch(&q->ahead_made, 1, __ATOMIC_RELEASE);
}

static void exec_op(qp_thread *t, const armprof_op *op, uint64_t clock, uint64_t gap)
{
    exec_flush_run(t);
    const bool check = deferred(t);
    if (check && gap == QP_GAP_PLAIN) {
        if (armprof_ops_until_event(t->pe) == 0)
            disagree(t, "plain operations left before the next event", 0, 1);
    } else if (check) {
        /* the step began where the plan said, and ends at the event */
        if (t->queue.step_until != gap)
            disagree(t, "operations from the last sample to this one", t->queue.step_until, gap);
        const uint64_t now = armprof_ops_until_event(t->pe);
        if (now != 0) disagree(t, "plain operations left before this one", now, 0);
    }
    /* the system counter: qemu-user has none, so the modelled cycles;
     * system mode's is the guest's at the visit (qp_thread_enter() gave it
     * to the PE then) */
    armprof_set_physical_count(t->pe, qp.system ? clock : QP_TIME_ORIGIN + clock);
    armprof_retire(t->pe, op);
    /* at once: while the buffer's management event is pending, profiling
     * is stopped and armprof_ops_until_event() says nothing will happen
     * (system mode: the guest's driver, after the visit) */
    if (!qp.system && armprof_pmbirq(t->pe)) armprof_kernel_service(t->k);
    if (gap == QP_GAP_PLAIN) return;
    t->queue.replayed++;
    if (check) t->queue.step_until = armprof_ops_until_event(t->pe);
    if (t->queue.replayed >= __atomic_load_n(&t->queue.ahead_after, __ATOMIC_ACQUIRE))
        look_ahead(t);
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

/* ---- the queue ---- */

/* Each command in the queue: a word of its kind and size, then its
 * payload, in words (8-byte aligned: replayed in place). */
typedef struct cmd_head {
    uint32_t kind, size;
} cmd_head;
#define WORDS(n) (((n) + 7u) & ~(size_t)7u)

/* The clock a sync or a visit's end carries: the guest's thread's, or with
 * raw commands the replay's own (QP_CLOCK_REPLAYED: it keeps model.clock,
 * and is at the command's place in it). */
#define QP_CLOCK_REPLAYED UINT64_MAX
static uint64_t clock_of(const qp_thread *t, uint64_t clock)
{
    return clock == QP_CLOCK_REPLAYED ? t->model.clock : clock;
}

/* A raw command's run (qp_queue_raw()): the replay's clock counts it. */
static void exec_raw_run(qp_thread *t, const armprof_op_run *run)
{
    qp_account(t, run->ops, run->ops);
    exec_run(t, run);
}

static void exec_raw_op(qp_thread *t, const qp_cmd_raw_op *c)
{
    armprof_op op = qp_op_of(c->insn, (qp_retire_how)c->how, c->arg);
    const uint32_t cycles = qp_time_op(t, &op, c->vaddr, c->vaddr_known, c->vl);
    exec_op(t, &op, t->model.clock, c->gap);
    qp_account(t, 1, cycles ? cycles : 1);
}

static void exec(qp_thread *t, qp_cmd_kind kind, const void *payload)
{
    switch (kind) {
    case QP_CMD_RUN:
        exec_run(t, payload);
        break;
    case QP_CMD_OP: {
        const qp_cmd_op *c = payload;
        exec_op(t, &c->op, c->clock, c->gap);
        break;
    }
    case QP_CMD_EVENT: {
        const qp_cmd_event *c = payload;
        if (c->flush) exec_flush_run(t);
        armprof_pmu_event(t->pe, c->event, c->count);
        break;
    }
    case QP_CMD_SYNC:
        exec_sync(t, clock_of(t, *(const uint64_t *)payload));
        break;
    case QP_CMD_VISIT_END:
        exec_visit_end(t, clock_of(t, *(const uint64_t *)payload));
        break;
    case QP_CMD_RAW_OP:
        exec_raw_op(t, payload);
        break;
    case QP_CMD_RAW_WITHIN: {
        const qp_cmd_raw_within *c = payload;
        const armprof_op_run run = qp_run_within(c->tb, c->from, c->to);
        exec_raw_run(t, &run);
        break;
    }
    case QP_CMD_RAW_SETTLED: {
        const qp_cmd_raw_settled *c = payload;
        const armprof_op_run run = qp_run_settled(c->ops, c->mix, c->last, c->cur, c->cut);
        exec_raw_run(t, &run);
        break;
    }
    }
}

void qp_queue_replay(qp_thread *t, const uint8_t *bytes, size_t len)
{
    for (size_t at = 0; at < len;) {
        const cmd_head *h = (const cmd_head *)(const void *)(bytes + at);
        exec(t, (qp_cmd_kind)h->kind, h + 1);
        at += sizeof *h + h->size;
    }
}

/* The queue's buffer to the replayer; the guest's thread goes on with an
 * empty one. */
static void hand_over(qp_thread *t)
{
    qp_queue *q = &t->queue;
    qp_replayer_submit(q->replayer, &q->bytes, &q->len, &q->cap);
    q->last_run = SIZE_MAX;
}

void qp_queue_flush(qp_thread *t)
{
    qp_queue *q = &t->queue;
    if (q->replayer) {
        hand_over(t);
        qp_replayer_wait(q->replayer);
        return;
    }
    qp_queue_replay(t, q->bytes, q->len);
    /* the plan holds on: the model went where it said */
    q->len = 0;
    q->last_run = SIZE_MAX;
}

/* Room for a command of size bytes at the queue's end: its payload. */
static inline void *append(qp_queue *q, qp_cmd_kind kind, size_t size)
{
    const size_t need = q->len + sizeof(cmd_head) + WORDS(size);
    if (need > q->cap) {
        q->cap = q->cap ? 2 * q->cap : 16384;
        if (q->cap < need) q->cap = need;
        /* aligned for the payloads, which are replayed in place */
        uint8_t *b = aligned_alloc(16, q->cap);
        if (!b) abort();
        if (q->len) memcpy(b, q->bytes, q->len);
        free(q->bytes);
        q->bytes = b;
    }
    cmd_head *h = (cmd_head *)(void *)(q->bytes + q->len);
    h->kind = kind;
    h->size = (uint32_t)WORDS(size);
    q->len = need;
    return h + 1;
}

/* An operation queued: the gap of the event the step ends at, when it is
 * that event; or QP_GAP_PLAIN for an operation before it that goes in on
 * its own (a block's last branch, whose target only the next block
 * tells), which counts down as a run's would. */
static uint64_t step_op(qp_queue *q)
{
    const uint64_t gap = q->step < q->planned ? q->gaps[q->step] : UINT64_MAX;
    if (gap != UINT64_MAX && q->queued >= gap) {
        q->step++;
        q->queued = 0;
        q->issued++;
        return gap;
    }
    q->queued++;
    return QP_GAP_PLAIN;
}

void qp_queue_run(qp_thread *t, const armprof_op_run *run)
{
    if (!deferred(t)) {
        exec_run(t, run);
        return;
    }
    qp_queue *q = &t->queue;
    q->queued += run->ops;
    /* two runs in a row are one to the model (merge_run()): one command */
    if (q->last_run != SIZE_MAX) {
        merge_run((armprof_op_run *)(void *)(q->bytes + q->last_run), run);
        return;
    }
    armprof_op_run *a = append(q, QP_CMD_RUN, sizeof *run);
    *a = *run;
    q->last_run = (size_t)((uint8_t *)a - q->bytes);
}

void qp_queue_op(qp_thread *t, const armprof_op *op, uint64_t clock)
{
    if (!deferred(t)) {
        exec_op(t, op, clock, 0);
        return;
    }
    qp_queue *q = &t->queue;
    qp_cmd_op *c = append(q, QP_CMD_OP, sizeof *c);
    c->op = *op;
    c->clock = clock;
    c->gap = step_op(q);
    q->last_run = SIZE_MAX;
}

void qp_queue_raw_op(qp_thread *t, const qp_insn *insn, qp_retire_how how, uint64_t arg,
                     uint64_t vaddr, bool vaddr_known, uint32_t vl)
{
    qp_queue *q = &t->queue;
    qp_cmd_raw_op *c = append(q, QP_CMD_RAW_OP, sizeof *c);
    *c = (qp_cmd_raw_op){.insn = insn,
                         .arg = arg,
                         .vaddr = vaddr,
                         .gap = step_op(q),
                         .vl = vl,
                         .how = (uint8_t)how,
                         .vaddr_known = vaddr_known};
    q->last_run = SIZE_MAX;
}

void qp_queue_raw_within(qp_thread *t, const qp_tb *tb, uint32_t from, uint32_t to)
{
    qp_queue *q = &t->queue;
    q->queued += to - from;
    *(qp_cmd_raw_within *)append(q, QP_CMD_RAW_WITHIN, sizeof(qp_cmd_raw_within)) =
        (qp_cmd_raw_within){.tb = tb, .from = from, .to = to};
    q->last_run = SIZE_MAX;
}

void qp_queue_raw_settled(qp_thread *t, uint64_t ops, uint64_t mix, const qp_tb *last,
                          const qp_tb *cur, uint32_t cut)
{
    qp_queue *q = &t->queue;
    q->queued += ops;
    *(qp_cmd_raw_settled *)append(q, QP_CMD_RAW_SETTLED, sizeof(qp_cmd_raw_settled)) =
        (qp_cmd_raw_settled){.ops = ops, .mix = mix, .last = last, .cur = cur, .cut = cut};
    q->last_run = SIZE_MAX;
}

void qp_queue_event(qp_thread *t, uint16_t event, uint64_t count, bool flush)
{
    const qp_cmd_event e = {.event = event, .flush = flush, .count = count};
    if (!deferred(t)) {
        exec(t, QP_CMD_EVENT, &e);
        return;
    }
    qp_queue *q = &t->queue;
    *(qp_cmd_event *)append(q, QP_CMD_EVENT, sizeof e) = e;
    q->last_run = SIZE_MAX;
}

void qp_queue_clock(qp_thread *t, qp_cmd_kind kind)
{
    if (!deferred(t)) {
        if (kind == QP_CMD_SYNC)
            exec_sync(t, t->model.clock);
        else
            exec_visit_end(t, t->model.clock);
        return;
    }
    qp_queue *q = &t->queue;
    /* raw commands: the replay keeps the clock (model.clock), which this
     * thread must not read */
    *(uint64_t *)append(q, kind, sizeof(uint64_t)) =
        qp_queue_raw(t) ? QP_CLOCK_REPLAYED : t->model.clock;
    q->last_run = SIZE_MAX;
    if (kind != QP_CMD_VISIT_END || q->len <= QUEUE_MOST_BYTES) return;
    if (q->replayer)
        hand_over(t); /* no wait: the plan holds */
    else
        qp_queue_flush(t);
}

void qp_queue_end_plan(qp_thread *t)
{
    t->queue.planned = t->queue.step;
    t->queue.cut = true;
}

/* The plan from the model as the replayed queue left it: the operations
 * of the run not given yet (exec_run()) count in its first step. It is the
 * first batch of the future's events. */
static void plan(qp_thread *t)
{
    qp_queue *q = &t->queue;
    const size_t events = look_ahead_events(t);
    if (!q->gaps) {
        q->gaps = calloc(qp.batch, sizeof *q->gaps);
        q->future = calloc(events, sizeof *q->future);
        q->ahead = calloc(events, sizeof *q->ahead);
        if (!q->gaps || !q->future || !q->ahead) abort();
    }
    q->future_at = q->issued;
    q->future_planned = armprof_event_plan(t->pe, q->future, events);
    q->planned = q->future_planned < qp.batch ? q->future_planned : qp.batch;
    memcpy(q->gaps, q->future, q->planned * sizeof *q->gaps);
    q->step_until = armprof_ops_until_event(t->pe);
    if (!q->planned) {
        /* a state the plan does not know: one step, as a visit at once */
        q->gaps[0] = q->step_until;
        q->planned = 1;
    }
    q->step = 0;
    q->cut = false;
    q->queued = t->model.deferred.ops;
}

/* The plan ran out, at event end. Inline: the queue replayed, and a plan
 * from the model. With a replayer, while the plans run whole, the next
 * comes from the future, and the replay is asked for a look-ahead when it
 * runs low; else (a plan cut short, a future not made or run out) the
 * queue is replayed and the plan made from the model, as inline. */
static void next_plan(qp_thread *t)
{
    qp_queue *q = &t->queue;
    if (!q->replayer) {
        qp_queue_flush(t);
        q->immediate = false;
        if (!qp.system) {
            plan(t);
            return;
        }
        /* system mode: no further than the guest cannot see */
        const size_t room = qp_system_room(t);
        if (room) plan(t);
        if (!room || !q->future_planned) {
            q->immediate = true;
            return;
        }
        if (q->planned > room) q->planned = room;
        return;
    }
    const size_t n = qp.batch;
    const uint64_t end = q->issued;
    const uint64_t made = __atomic_load_n(&q->ahead_made, __ATOMIC_ACQUIRE);
    if (q->ahead_asked && made != q->ahead_seen) {
        memcpy(q->future, q->ahead, q->ahead_planned * sizeof *q->future);
        q->future_planned = q->ahead_planned;
        q->future_at = q->ahead_at;
        q->ahead_seen = made;
        q->ahead_asked = false;
    }
    if (!q->cut && q->planned == n && q->future_at <= end &&
        end - q->future_at + n <= q->future_planned) {
        memcpy(q->gaps, q->future + (end - q->future_at), n * sizeof *q->gaps);
        q->step = 0;
        hand_over(t);
        if (!q->ahead_asked &&
            q->future_at + q->future_planned - end < n * LOOK_AHEAD_BATCHES / 2) {
            /* at the first event from end on: the replay reaches it in
             * order, whatever it is replaying now */
            q->ahead_asked = true;
            __atomic_store_n(&q->ahead_after, end, __ATOMIC_RELEASE);
        }
        return;
    }
    qp_queue_flush(t);
    /* idle: a look-ahead asked and not made is asked no more; one made is
     * left (plan() makes the future anew) */
    __atomic_store_n(&q->ahead_after, UINT64_MAX, __ATOMIC_RELAXED);
    q->ahead_seen = __atomic_load_n(&q->ahead_made, __ATOMIC_RELAXED);
    q->ahead_asked = false;
    plan(t);
}

uint64_t qp_until(qp_thread *t)
{
    uint64_t u, given;
    qp_queue *q = &t->queue;
    if (qp.batch && (q->immediate || q->step >= q->planned)) next_plan(t);
    if (deferred(t)) {
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

void qp_queue_init(qp_thread *t)
{
    /* system mode begins at once: the first qp_until() plans, if it may */
    t->queue = (qp_queue){.last_run = SIZE_MAX, .ahead_after = UINT64_MAX, .immediate = qp.system};
    if (qp.batch && !qp.system && !qp.replay_inline) t->queue.replayer = qp_replayer_start(t);
}

void qp_queue_free(qp_thread *t)
{
    qp_replayer_stop(t->queue.replayer);
    free(t->queue.bytes);
    free(t->queue.gaps);
    free(t->queue.future);
    free(t->queue.ahead);
    t->queue = (qp_queue){.last_run = SIZE_MAX, .ahead_after = UINT64_MAX, .immediate = qp.system};
}
