/* SPDX-License-Identifier: BSD-3-Clause */
/* A guest thread's PE: created with its kernel when the vCPU appears, fed
 * operations, finished when the thread ends (qprof.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "qprof.h"

/* The events by their Arm ARM names (K3.1), and the summary's. */
const qp_event qp_events[QP_EV_COUNT] = {
    [QP_EV_INST_RETIRED] = {"INST_RETIRED", "instructions", 0},
    [QP_EV_BR_RETIRED] = {"BR_RETIRED", "branches", 0},
    [QP_EV_LD_RETIRED] = {"LD_RETIRED", "loads", 0},
    [QP_EV_ST_RETIRED] = {"ST_RETIRED", "stores", 0},
    [QP_EV_MEM_ACCESS] = {"MEM_ACCESS", "mem_access", 0},
    [QP_EV_L1D_CACHE_REFILL] = {"L1D_CACHE_REFILL", "l1d_refill", 0},
    [QP_EV_L2D_CACHE_REFILL] = {"L2D_CACHE_REFILL", "l2d_refill", 0x0017},
    [QP_EV_LL_CACHE_MISS_RD] = {"LL_CACHE_MISS_RD", "ll_miss_rd", 0x0037},
    [QP_EV_REMOTE_ACCESS] = {"REMOTE_ACCESS", "remote_access", 0x0031},
};

int qp_pmu_block_reg(const char *name, unsigned width)
{
    for (size_t r = 0; r < armprof_ext_reg_count(); r++)
        if (armprof_ext_reg_component((int)r) == ARMPROF_EXT_PMU &&
            armprof_ext_reg_width((int)r) == width && !strcmp(armprof_ext_reg_name((int)r), name))
            return (int)r;
    return -1;
}

/* The offset in the PMU's external block of the 64-bit register name, or
 * UINT32_MAX. */
static uint32_t pmu_block_offset(const char *name)
{
    const int r = qp_pmu_block_reg(name, 64);
    return r < 0 ? UINT32_MAX : armprof_ext_reg_offset(r, 0);
}

bool qp_model_init(char *err, size_t errlen)
{
    for (unsigned i = 0; i < QP_EV_COUNT; i++) {
        int n = armprof_pmu_event_number(qp_events[i].event);
        if (n < 0 && qp_events[i].number) n = qp_events[i].number;
        if (n < 0) {
            snprintf(err, errlen, "the model has no PMU event %s", qp_events[i].event);
            return false;
        }
        qp.api.event[i] = (uint16_t)n;
    }
    const int taken = armprof_pmu_event_number("EXC_TAKEN");
    const int ret = armprof_pmu_event_number("EXC_RETURN");
    if (taken < 0 || ret < 0) {
        snprintf(err, errlen, "the model has no PMU event EXC_TAKEN or EXC_RETURN");
        return false;
    }
    qp.api.exc_taken = (uint16_t)taken;
    qp.api.exc_return = (uint16_t)ret;
    /* PMPCSR's first location (H7.1.2: the EXT64 view at 0x200; 0x220
     * repeats it) */
    qp.api.pmpcsr = pmu_block_offset("PMPCSR");
    qp.api.pmpcsctl = pmu_block_offset("PMPCSCTL");
    if (qp.api.pmpcsr == UINT32_MAX || qp.api.pmpcsctl == UINT32_MAX) {
        snprintf(err, errlen, "the model's PMU block has no PMPCSR or PMPCSCTL");
        return false;
    }
    return true;
}

/* The kernel copies its buffer out a page's part at a time (on_data()),
 * up to PMBPTR_EL1, which the unit leaves after the last whole record
 * (SPEBufferIsFull() keeps a record from crossing the limit): the copy is
 * whole records once the kernel says it is done (copy_done(), and at the
 * thread's end). It goes to PREFIX.spe then, in one write, flushed, so
 * that the file never ends inside a record, however QEMU ends; and as one
 * chunk, whose end perf.data's AUX events may end at (output.c). */
static void on_data(void *ctx, const uint8_t *data, size_t size)
{
    qp_thread *t = ctx;
    g_byte_array_append(t->spe.copy, data, (guint)size);
}

static void copy_end(qp_thread *t)
{
    const size_t size = t->spe.copy->len;
    if (!size) return;
    pthread_mutex_lock(&qp.lock);
    const uint64_t at = qp.spe_size;
    if (!qp.spe_failed &&
        (fwrite(t->spe.copy->data, 1, size, qp.spe) != size || fflush(qp.spe) != 0))
        qp.spe_failed = true;
    qp.spe_size += size;
    if (!qp.spe_failed) qp_watch_written(qp.spe_size);
    pthread_mutex_unlock(&qp.lock);
    g_byte_array_set_size(t->spe.copy, 0);
    t->spe.bytes += size;
    if (t->spe.nchunks == t->spe.capchunks) {
        t->spe.capchunks = t->spe.capchunks ? 2 * t->spe.capchunks : 64;
        t->spe.chunks = realloc(t->spe.chunks, t->spe.capchunks * sizeof *t->spe.chunks);
        if (!t->spe.chunks) abort();
    }
    t->spe.chunks[t->spe.nchunks++] = (qp_chunk){at, (uint32_t)size};
}

static void copy_done(void *ctx, const armprof_kernel_irq *irq)
{
    (void)irq;
    copy_end(ctx);
}

/* A PE of the plugin's configuration, booted by the virtual kernel: SPE
 * when the configuration has it, the PMU counters always. */
bool qp_boot(armprof_pe **pe, armprof_kernel **k, armprof_kernel_data_fn data, void *ctx, char *err,
             size_t errlen)
{
    *k = NULL;
    *pe = armprof_pe_create(&qp.config, err, errlen);
    if (!*pe) return false;
    armprof_kernel_params p = qp.spe_params;
    p.spe = armprof_config_has(&qp.config, ARMPROF_FEAT_SPE);
    p.interval = qp.interval;
    p.data = data;
    p.data_ctx = ctx;
    p.irq = data ? copy_done : NULL;
    p.irq_ctx = ctx;
    p.events = qp.mode == QP_MODE_FAST ? QP_EV_FAST_COUNT : QP_EV_COUNT;
    for (unsigned i = 0; i < p.events; i++)
        p.event[i] = qp.api.event[i];
    *k = armprof_kernel_boot(*pe, &p, err, errlen);
    if (*k) return true;
    armprof_pe_destroy(*pe);
    *pe = NULL;
    return false;
}

static qp_thread *thread_create(unsigned vcpu)
{
    char err[256];
    qp_thread *t = calloc(1, sizeof *t);
    if (!t) abort();
    t->vcpu = vcpu;
    if (qp.system) {
        /* the emulator's PE, which the guest's kernel programs (its hooks:
         * qp_system_vcpu()) */
        t->pe = qp.sys.pe(vcpu);
        if (!t->pe) {
            fprintf(stderr, "armprof: vCPU %u has no PE: run it with -cpu ...,armprof=on\n", vcpu);
            exit(1);
        }
    } else {
        /* the configuration booted once at install: this cannot fail but
         * for memory */
        if (!qp_boot(&t->pe, &t->k, on_data, t, err, sizeof err)) {
            fprintf(stderr, "armprof: vCPU %u: %s\n", vcpu, err);
            exit(1);
        }
        /* an external agent samples the PC (PMPCSCTL.EN 1; it resets
         * suspended) */
        armprof_external_write(t->pe, qp.api.pmpcsctl, 8, 1, NULL);
    }
    static const qp_timing_ops *const called_by[] = {[QP_TIMING_INLINE] = &qp_timing_default,
                                                     [QP_TIMING_OPS] = &qp_timing_default_ops,
                                                     [QP_TIMING_ACCESS] =
                                                         &qp_timing_default_access};
    if (qp.mode == QP_MODE_EXACT) {
        /* the thread's (vCPU's) PE in the hierarchy every one shares */
        qp_timing_init(&t->timing, &qp_hier_ops, qp.hier, vcpu);
        t->timing.ops = called_by[qp.timing_call];
    } else {
        /* fast mode looks up no access: it models no memory */
        qp_timing_init(&t->timing, NULL, NULL, vcpu);
        t->timing.ops = &qp_timing_no_memory;
    }
    t->pcs.hist = g_hash_table_new(g_int64_hash, g_int64_equal);
    t->regbuf = g_byte_array_new();
    t->spe.copy = g_byte_array_new();
    qp_queue_init(t);
    /* the first TB of the thread visits the model (budget 0) */
    qp.hot[vcpu] = (qp_hot){0};
    return t;
}

qp_thread *qp_thread_create_for(unsigned vcpu)
{
    if (vcpu >= QP_MAX_VCPUS) {
        fprintf(stderr, "armprof: vCPU %u: more than %u threads at once\n", vcpu, QP_MAX_VCPUS);
        exit(1);
    }
    qp_thread *t;
    pthread_mutex_lock(&qp.lock);
    t = qp.threads[vcpu];
    if (!t && __atomic_load_n(&qp.stopped, __ATOMIC_ACQUIRE)) {
        /* the profile has ended: a thread with no PE, which every
         * callback leaves alone */
        t = &qp.ended;
    } else if (!t) {
        t = thread_create(vcpu);
        __atomic_store_n(&qp.threads[vcpu], t, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&qp.lock);
    return t;
}

qp_thread *qp_thread_detach(unsigned vcpu)
{
    if (vcpu >= QP_MAX_VCPUS) return NULL;
    pthread_mutex_lock(&qp.lock);
    qp_thread *t = qp.threads[vcpu];
    __atomic_store_n(&qp.threads[vcpu], NULL, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&qp.lock);
    return t;
}

void qp_thread_done(qp_thread *t)
{
    qp_thread_finish(t);
    pthread_mutex_lock(&qp.lock);
    t->next_done = qp.done;
    qp.done = t;
    pthread_mutex_unlock(&qp.lock);
}

/* The thread's first TB: it runs on the thread's own host thread, whose
 * TID qemu-user gives the guest. */
void qp_thread_start(qp_thread *t, uint64_t first_pc)
{
    t->started = true;
    if (qp.system) return; /* the guest's kernel switches its own contexts */
    t->tid = (uint32_t)syscall(SYS_gettid);
    pthread_mutex_lock(&qp.lock);
    const bool scan = !qp.maps_scanned;
    qp.maps_scanned = true;
    pthread_mutex_unlock(&qp.lock);
    /* the plan is the model's before the context changes */
    qp_queue_flush(t);
    armprof_kernel_switch_context(t->k, t->tid);
    qp_queue_end_plan(t);
    if (scan) {
        /* perf's COMM is at most 15 characters */
        qp.program = qp_program_path();
        const char *base = qp.program ? strrchr(qp.program, '/') : NULL;
        snprintf(qp.comm, sizeof qp.comm, "%s", base ? base + 1 : "guest");
        qp_map_program(qp.program);
        qp_scan_maps(first_pc);
    }
}

/* Cycles pass: they end in the model later, all at once (qp_model_sync()),
 * which counts the same events. */
void qp_pmu_event(qp_thread *t, uint16_t event, uint64_t count)
{
    qp_queue_event(t, event, count, false);
}

void qp_model_exception(qp_thread *t, bool eret)
{
    qp_queue_event(t, eret ? qp.api.exc_return : qp.api.exc_taken, 1, true);
    qp_account(t, 0, 1);
}

/* The model in step with everything the thread gave it. System mode: the
 * guest is about to see the model (a register access, an Exception level
 * change), so the queue is replayed now and the plan made anew after. */
void qp_model_sync(qp_thread *t)
{
    qp_queue_clock(t, QP_CMD_SYNC);
    if (!qp.system) return;
    qp_queue_flush(t);
    qp_queue_end_plan(t);
}

void qp_visit_end(qp_thread *t)
{
    /* a visit that waits for a load's or store's access goes on there:
     * until then the run, the cycles and the rest can wait (nothing else
     * reaches the model between the two) */
    if (t->fast.pending == QP_PEND_MEM) return;
    if (qp.system) {
        /* the guest sees the model between visits, unless the plan says it
         * cannot before the next sample (queue.c): then the calls wait, and
         * the lines follow any replay this visit made */
        if (!qp_queue_deferring(t)) qp_model_sync(t);
        qp.sys.leave(t->vcpu);
        return;
    }
    /* qemu-user: only the plugin looks at the model (docs/qemu.md, "How it
     * runs"; queue.c) */
    qp_queue_clock(t, QP_CMD_VISIT_END);
}

/* An SVE operation, whose record carries the effective vector length
 * (the EVL field). */
static bool is_sve(const armprof_op *op)
{
    return op->op_class == ARMPROF_OP_OTHER
               ? op->other_kind == ARMPROF_OTHER_SVE
               : op->op_class != ARMPROF_OP_BRANCH && op->ldst_kind == ARMPROF_LDST_SVE_SME;
}

uint32_t qp_time_op(qp_thread *t, armprof_op *op, uint64_t vaddr, bool vaddr_known, uint32_t vl)
{
    const qp_timing_ops *m = t->timing.ops;
    /* read where QEMU lets registers be read (vl), else the length the
     * thread started with, counted in the summary */
    if (is_sve(op) && !op->vector_length) {
        op->vector_length = vl ? vl : qp.default_vl;
        if (!vl) t->counts.vl_assumed++;
    }
    if (!qp_is_mem(op))
        return op->op_class == ARMPROF_OP_BRANCH ? m->branch(t->timing.ctx, op)
                                                 : m->other(t->timing.ctx, op);
    if (!vaddr_known) {
        /* no made-up address: the record has none (armprof_op) */
        op->data_address_unknown = true;
        t->counts.no_address++;
        return m->other(t->timing.ctx, op);
    }
    op->vaddr = vaddr;
    /* qemu-user: no stage 1 of its own; the guest's VA is the PA the model
     * records (PMSCR_EL1.PA); system mode: QEMU translates it */
    op->paddr = vaddr;
    const bool store = op->op_class == ARMPROF_OP_STORE;
    if (qp.system && !qp.sys.translate(t->vcpu, vaddr, store, &op->paddr)) {
        op->paddr = 0; /* not expected after the access: counted, shown */
        t->counts.no_pa++;
    }
    const uint32_t cycles = m->access(t->timing.ctx, op, vaddr, store);
    if (qp.mode == QP_MODE_EXACT) qp_exact_op_events(t, op, store);
    return cycles;
}

/* The vector length an SVE operation without one runs at, read from the
 * registers where QEMU lets them be read (the guest's thread, at the
 * visit); 0 otherwise. */
static uint32_t visit_vl(qp_thread *t, const armprof_op *op)
{
    uint32_t vl = 0;
    if (is_sve(op) && !op->vector_length && !qp_vector_length(t, &vl)) vl = 0;
    return vl;
}

void qp_retire_full(qp_thread *t, armprof_op *op, uint64_t vaddr, bool vaddr_known)
{
    const uint32_t vl = visit_vl(t, op);
    /* the timing model and the memory hierarchy, which every thread shares,
     * see the operation now, in program order with the other accesses;
     * only the PE's part may wait (queue.c) */
    const uint32_t cycles = qp_time_op(t, op, vaddr, vaddr_known, vl);
    /* the system counter at the operation: qemu-user's is the modelled
     * cycles; system mode's the guest's, which qp_thread_enter() set */
    qp_queue_op(t, op, qp.system ? armprof_get_physical_count(t->pe) : t->model.clock);
    qp_account(t, 1, cycles ? cycles : 1);
}

armprof_op qp_op_of(const qp_insn *q, qp_retire_how how, uint64_t arg)
{
    armprof_op op = q->op;
    if (how == QP_RETIRE_BRANCH) {
        /* arg: where the next block starts (0 at the thread's end, when
         * nobody knows: not taken) */
        op.taken = arg ? arg != q->pc + 4 : false;
        if (!q->op.conditional && arg) op.taken = true;
        op.target = op.taken ? arg : q->d.pc_relative ? q->pc + (uint64_t)q->d.offset : q->pc + 4;
    } else if (how == QP_RETIRE_EXCEPTION) {
        /* it took the exception; arg: it did not complete (no
         * INST_RETIRED) */
        op.events |= ARMPROF_SPE_EV_EXCEPTION;
        op.not_arch_executed = arg != 0;
    }
    return op;
}

void qp_retire_insn(qp_thread *t, const qp_insn *q, qp_retire_how how, uint64_t arg, uint64_t vaddr,
                    bool vaddr_known)
{
    if (qp_queue_raw(t)) {
        /* what the guest's thread alone can read goes with it: the vector
         * length (qp_retire_full() reads it as late) */
        qp_queue_raw_op(t, q, how, arg, vaddr, vaddr_known, visit_vl(t, &q->op));
    } else {
        armprof_op op = qp_op_of(q, how, arg);
        qp_retire_full(t, &op, vaddr, vaddr_known);
    }
    /* a memory copy's sample draws a random value of its own (the load or
     * store it records, SPEMultiAccessSample()): the plan ends after it */
    if (qp_is_mem(&q->op) && q->op.ldst_kind == ARMPROF_LDST_MEMCOPY) qp_queue_end_plan(t);
}

void qp_retire_run(qp_thread *t, armprof_op_run *run)
{
    if (!run->ops) return;
    qp_queue_run(t, run);
    qp_account(t, run->ops, run->ops);
}

armprof_op_run qp_run_within(const qp_tb *tb, uint32_t from, uint32_t to)
{
    armprof_op_run run = ARMPROF_OP_RUN_INIT;
    const uint64_t mix = tb->before[to] - tb->before[from];
    run.ops = to - from;
    run.branches = qp_mix_field(mix, 0);
    run.loads = qp_mix_field(mix, 1);
    run.stores = qp_mix_field(mix, 2);
    /* A64 instructions are 4 bytes, and a TB's follow one another */
    run.last_pc = tb->pc + 4ull * (to - 1);
    /* a branch here falls through: QEMU ends a block at a branch, and the
     * walks leave a block's own branch to whoever sees the next block */
    run.last_is_branch = qp_mix_field(tb->before[to] - tb->before[to - 1], 0) != 0;
    run.last_branch_next = run.last_pc + 4;
    return run;
}

/* Instructions [from, to) of tb, none of them the event, as one run. */
void qp_retire_static(qp_thread *t, const qp_tb *tb, uint32_t from, uint32_t to)
{
    if (from >= to) return;
    if (qp_queue_raw(t)) {
        qp_queue_raw_within(t, tb, from, to);
        return;
    }
    armprof_op_run run = qp_run_within(tb, from, to);
    qp_retire_run(t, &run);
}

void qp_thread_finish(qp_thread *t)
{
    if (!t->pe) return;
    qp_visit_end(t);
    qp_model_sync(t); /* the cycles end: the events of the last run count */
    qp_queue_flush(t);
    qp_queue_free(t);
    armprof_kernel_stop(t->k);
    if (t->spe.copy) copy_end(t); /* the stop's last copy */
    uint64_t instructions;
    armprof_kernel_counters(t->k, &t->final.cycles, &instructions, t->final.counts);
    const unsigned n = armprof_kernel_get_setup(t->k).counters;
    /* fast mode programs no cache event: its summary says "-" for them */
    const unsigned events = qp.mode == QP_MODE_FAST ? QP_EV_FAST_COUNT : QP_EV_COUNT;
    t->final.programmed = n < events ? n : events;
    t->final.stats = armprof_spe_get_stats(t->pe);
    t->final.kernel = armprof_kernel_get_status(t->k);
    qp_timing_fini(&t->timing);
    armprof_kernel_destroy(t->k);
    armprof_pe_destroy(t->pe);
    t->k = NULL;
    t->pe = NULL;
}
