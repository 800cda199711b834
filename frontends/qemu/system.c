/* SPDX-License-Identifier: BSD-3-Clause */
/* System mode (docs/qemu-system.md): in the armprof qemu-system-aarch64
 * the emulator owns each vCPU's PE, which the guest's own kernel programs;
 * the plugin only gives it the operations, on the fast path as in user
 * mode, entering and leaving through the emulator (armprof-system.h) so
 * that the PE is at the vCPU's Exception level and PMBIRQ reaches the GIC.
 * In exact mode every vCPU's accesses go through the memory hierarchy they
 * all share, by physical address (exact.c, docs/memory-model.md).
 *
 *   qemu-system-aarch64 -cpu max,armprof=on
 *       -plugin libarmprof_qemu.so[,mode=fast|exact][,mem_*=...][,out=PREFIX,pcsample=HZ...] ...
 */
#include <dlfcn.h>
#include <string.h>
#include <time.h>

#include "qprof.h"

#if QPROF_SCOREBOARDS
/* The emulator's functions, by name (frontends/qemu-system/glue). */
static bool find(void **fn, const char *name)
{
    *fn = dlsym(RTLD_DEFAULT, name);
    if (*fn) return true;
    fprintf(stderr,
            "armprof: this qemu-system-aarch64 has no %s: system mode needs the armprof "
            "one (frontends/qemu-system/build.sh)\n",
            name);
    return false;
}

/* The plugin's copy of the library works on the PEs the emulator's
 * libarmprof.so.0 made: both must have been built from the same sources,
 * or the two disagree on what a PE holds where. */
static bool same_library(void)
{
    const char *(*emulator_id)(void) =
        (const char *(*)(void))dlsym(RTLD_DEFAULT, "armprof_build_id");
    if (emulator_id && strcmp(emulator_id(), armprof_build_id()) == 0) return true;
    fprintf(stderr,
            "armprof: the plugin's library (build %s) and this qemu-system-aarch64's "
            "libarmprof.so.0 (build %s) come from different sources; build both from one tree "
            "(frontends/qemu-system/build.sh, then the plugin)\n",
            armprof_build_id(),
            emulator_id ? emulator_id() : "unknown: it has no armprof_build_id");
    return false;
}

bool qp_system_bind(void)
{
    qp.sys.pmblimitr = armprof_reg_lookup("PMBLIMITR_EL1", NULL);
    qp.sys.pmcntenset = armprof_reg_lookup("PMCNTENSET_EL0", NULL);
    qp.sys.pmbptr = armprof_reg_lookup("PMBPTR_EL1", NULL);
    qp.sys.pmsidr = armprof_reg_lookup("PMSIDR_EL1", NULL);
    qp.sys.pmbidr = armprof_reg_lookup("PMBIDR_EL1", NULL);
    /* without either field, nothing is queued (qp_system_room()) */
    if (!armprof_reg_field(qp.sys.pmsidr, "MaxSize", NULL, &qp.sys.maxsize_lo) ||
        !armprof_reg_field(qp.sys.pmbidr, "Align", NULL, &qp.sys.align_lo))
        qp.sys.pmsidr = qp.sys.pmbidr = -1;
    /* an emulator without the glue first: its message is the one to give */
    return find((void **)&qp.sys.pe, "armprof_system_pe") && same_library() &&
           find((void **)&qp.sys.enter, "armprof_system_enter") &&
           find((void **)&qp.sys.leave, "armprof_system_leave") &&
           find((void **)&qp.sys.release, "armprof_system_release") &&
           find((void **)&qp.sys.translate, "armprof_system_translate") &&
           find((void **)&qp.sys.set_el_change_hook, "armprof_system_set_el_change_hook") &&
           find((void **)&qp.sys.set_control_hook, "armprof_system_set_control_hook") &&
           find((void **)&qp.sys.set_access_hook, "armprof_system_set_access_hook");
}

/* ---- Idle ----
 * While no vCPU's Profiling Buffer is enabled and no vCPU enables a PMU
 * counter, no operation matters to the model (StatisticalProfilingEnabled()
 * needs ProfilingBufferEnabled(): no sample, no SAMPLE_POP; a counter
 * counts only with its PMCNTENSET_EL0 bit), so TBs are translated as QEMU
 * makes them, at the unmodified emulator's speed. A write that sets
 * PMBLIMITR_EL1.E or a PMCNTENSET_EL0 bit brings the instrumentation back before the next TB
 * (qemu_plugin_reset(): the TBs are flushed, the callbacks registered again; QEMU ends a TB after a
 * System register write). It goes away again, at an Exception level
 * change, once every buffer has been disabled for QP_IDLE_AFTER_NS: a
 * recording's pauses (the driver disables the buffer at every context
 * switch of a per-task event and at every PMBIRQ) are shorter, and do not
 * flush the TBs each time. */
#define QP_IDLE_AFTER_NS 200000000ull

bool qp_system_instrumented(void)
{
    return __atomic_load_n(&qp.sys.instrumented, __ATOMIC_ACQUIRE);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Exact mode: the next TB does not start where the last TB's branch went
 * (an exception, or TBs that were not instrumented came between), so no
 * prediction is learnt from it; nor is an access deduplicated against an
 * instruction of a TB that may be gone. */
static void forget_last_branch(qp_thread *t)
{
    t->exact.end_branch_pc = 0;
    t->exact.mem_insn = NULL;
}

/* In the exclusive context after the flush, every vCPU stopped: the
 * callbacks again, and each thread's counters from 0, so that its first
 * instrumented TB visits the model (what they held is of a time when no
 * buffer was enabled: nothing the model counts). No visit to a PE here:
 * PMBIRQ's line would move without the BQL. A load or store a thread
 * waited for when its TB went away retires at the thread's next visit
 * (complete_pending()), as when an exception ends a TB. */
static void reset_done(qemu_plugin_id_t id)
{
    qp.sys.callbacks(id);
    __atomic_store_n(&qp.sys.switching, false, __ATOMIC_RELEASE);
    for (unsigned v = 0; v < QP_MAX_VCPUS; v++) {
        qp_thread *t = __atomic_load_n(&qp.threads[v], __ATOMIC_ACQUIRE);
        if (!t || !t->pe) continue;
        qp_counters *c = qp_counters_of(t);
        c->tally = 0;
        c->last_tb = 0;
        c->sample_idx = 0;
        t->fast.synced_budget = 0;
        t->fast.synced_mix = 0;
        forget_last_branch(t);
        /* planned again at the next visit, which replays what is queued */
        qp_queue_end_plan(t);
    }
}

static void instrument(bool on)
{
    bool was = !on;
    if (__atomic_compare_exchange_n(&qp.sys.instrumented, &was, on, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        __atomic_add_fetch(&qp.sys.resets, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&qp.sys.switching, true, __ATOMIC_RELEASE);
        qemu_plugin_reset(qp.id, reset_done);
    }
}

/* Whether pe enables a counter (PMCNTENSET_EL0; PMCR_EL0.E need not be 1
 * for the counters EL2 reserves, which MDCR_EL2.HPME enables). */
static bool enables_counter(armprof_pe *pe)
{
    return pe && qp.sys.pmcntenset >= 0 && armprof_reg_present(pe, qp.sys.pmcntenset) &&
           armprof_reg_get(pe, qp.sys.pmcntenset, 0) != 0;
}

/* Whether the operations matter to pe: its Profiling Buffer is enabled
 * (PMBLIMITR_EL1.E), or a counter is. */
static bool wants_operations(armprof_pe *pe)
{
    if (pe && qp.sys.pmblimitr >= 0 && (armprof_reg_get(pe, qp.sys.pmblimitr, 0) & 1)) return true;
    return enables_counter(pe);
}

/* Before the guest's instruction at pc reads or writes one of the model's
 * registers on vcpu: the operations before it go to the model. */
static void register_access(unsigned vcpu, uint64_t pc, void *ctx)
{
    (void)ctx;
    if (!qp_system_instrumented() || __atomic_load_n(&qp.sys.switching, __ATOMIC_ACQUIRE)) return;
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    qp_fast_sync_at(t, pc);
    /* exact mode's cache events, before the guest reads a counter */
    if (qp.mode == QP_MODE_EXACT) qp_exact_flush(t);
    /* in step now, even while a visit waits for a load's or store's
     * access (qp_visit_end() would leave the run and the cycles to it):
     * the guest reads the model before that access */
    qp_model_sync(t);
    qp_visit_end(t);
    qp_thread_exit(t);
}

/* After the guest wrote one of the model's registers on vcpu. */
static void control_change(unsigned vcpu, void *ctx)
{
    (void)ctx;
    if (vcpu >= QP_MAX_VCPUS) return;
    if (qp_system_instrumented() && !__atomic_load_n(&qp.sys.switching, __ATOMIC_ACQUIRE)) {
        qp_thread *t = __atomic_load_n(&qp.threads[vcpu], __ATOMIC_ACQUIRE);
        if (t && t->pe) {
            qp_fast_resync(t);
            /* the plan may have changed with the register (the access hook
             * replayed the queue before the write) */
            qp_queue_end_plan(t);
        }
    }
    armprof_pe *pe = qp.sys.pe(vcpu);
    qp.sys.counting[vcpu] = enables_counter(pe);
    const bool wants = wants_operations(pe);
    if (wants == qp.sys.wants[vcpu]) return;
    qp.sys.wants[vcpu] = wants;
    if (wants) {
        __atomic_add_fetch(&qp.sys.wanting, 1, __ATOMIC_ACQ_REL);
        __atomic_store_n(&qp.sys.idle_since, 0, __ATOMIC_RELEASE);
        instrument(true);
    } else if (__atomic_sub_fetch(&qp.sys.wanting, 1, __ATOMIC_ACQ_REL) == 0) {
        __atomic_store_n(&qp.sys.idle_since, now_ns(), __ATOMIC_RELEASE);
    }
}

static void maybe_idle(void)
{
    const uint64_t since = __atomic_load_n(&qp.sys.idle_since, __ATOMIC_ACQUIRE);
    if (!since || __atomic_load_n(&qp.sys.wanting, __ATOMIC_ACQUIRE) != 0) return;
    if (now_ns() - since >= QP_IDLE_AFTER_NS) instrument(false);
}

/* Just before the vCPU's Exception level changes: what ran at the old one
 * goes to the PE now, and the next TB visits it at the new one (budget 0),
 * where profiling may be otherwise enabled. An exception in the middle of
 * a TB (a load's translation fault) cuts it at stop_pc: the rest did not
 * run, and is not counted (it runs again after the exception returns). */
static void el_change(unsigned vcpu, const armprof_system_el_change *change, void *ctx)
{
    (void)ctx;
    /* idle; or a switch is on its way, whose reset drops what the counters
     * hold (of a time when no buffer was enabled) */
    if (!qp_system_instrumented() || __atomic_load_n(&qp.sys.switching, __ATOMIC_ACQUIRE)) return;
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    if (change->eret) qp_fast_eret(t, change->eret_target, change->eret_el);
    qp_fast_settle_cut(t, change->stop_pc, change->stopped);
    if (qp.sys.counting[vcpu]) qp_model_exception(t, change->eret);
    qp_counters *c = qp_counters_of(t);
    c->tally = 0;
    c->sample_idx = 0;
    t->fast.synced_budget = 0;
    t->fast.synced_mix = 0;
    forget_last_branch(t);
    /* the PE changes Exception level after this: the queue goes in at the
     * old one */
    qp_model_sync(t);
    qp_visit_end(t);
    qp_thread_exit(t);
    maybe_idle();
}

/* The guest sees the model at a register access and an Exception level
 * change (both replay the queue first: qp_model_sync()) and through two
 * interrupts; and the model reads registers QEMU owns (CONTEXTIDR_EL1,
 * HCR_EL2, MDCR_EL2, ...: docs/qemu-system.md), pulled at each visit,
 * which EL0 cannot write: so the calls are queued at EL0 only (a replay at
 * a later visit then pulls the values they had).
 * PMUIRQ: while a counter counts, every call is made at once (a counter
 * of an event that is not a retirement's can overflow at any sample); so
 * while the PC sampler reads the PE from its own thread.
 * PMBIRQ: a full buffer (less than the largest record left before
 * PMBLIMITR_EL1.LIMIT, a 4KB boundary) or a fault on a buffer page (at its
 * first write); so the samples queued are at most as many as the rest of
 * the buffer's current 4KB page holds at the largest record (PMSIDR_EL1.
 * MaxSize, or PMBIDR_EL1.Align when larger), none at a page's start:
 * only the last of them can raise PMBIRQ, and its replay is in its own
 * visit, as at once. */
size_t qp_system_room(const qp_thread *t)
{
    if (qp.sys.counting[t->vcpu] || qp.sys.sampler || qp.sys.pmbptr < 0 || qp.sys.pmsidr < 0 ||
        qp.sys.pmbidr < 0 || armprof_current_el(t->pe) != 0)
        return 0;
    const uint64_t off = armprof_reg_get(t->pe, qp.sys.pmbptr, 0) & 0xfff;
    if (!off) return 0;
    unsigned record_log2 =
        (unsigned)(armprof_reg_get(t->pe, qp.sys.pmsidr, 0) >> qp.sys.maxsize_lo) & 0xf;
    const unsigned align_log2 =
        (unsigned)(armprof_reg_get(t->pe, qp.sys.pmbidr, 0) >> qp.sys.align_lo) & 0xf;
    if (align_log2 > record_log2) record_log2 = align_log2;
    return (size_t)((0x1000 - off) >> record_log2);
}

void qp_system_vcpu(const qp_thread *t)
{
    qp.sys.set_el_change_hook(t->vcpu, el_change, NULL);
    qp.sys.set_control_hook(t->vcpu, control_change, NULL);
    qp.sys.set_access_hook(t->vcpu, register_access, NULL);
    control_change(t->vcpu, NULL);
}

void qp_system_summary(void)
{
    FILE *out = stderr;
    fprintf(out,
            "armprof qemu plugin: system mode, %s (the guest programs SPE and the PMU; "
            "timing modelled, not measured%s); instrumentation switched %llu times (on while a "
            "Profiling Buffer or a PMU counter is enabled)\n",
            qp.mode == QP_MODE_EXACT ? "exact mode" : "fast mode",
            qp.mode == QP_MODE_EXACT ? "; every access through the shared memory hierarchy"
                                     : "; no memory modelled: no Data Source, no cache event",
            (unsigned long long)__atomic_load_n(&qp.sys.resets, __ATOMIC_RELAXED));
    for (unsigned v = 0; v < QP_MAX_VCPUS; v++) {
        qp_thread *t = qp.threads[v];
        if (!t || !t->pe) continue;
        qp_fast_settle(t, NULL);
        qp_model_sync(t);
        qp_visit_end(t);
        const armprof_spe_stats s = armprof_spe_get_stats(t->pe);
        fprintf(out,
                "vcpu %u: operations %llu, population %llu, samples %llu, records %llu, bytes "
                "%llu, discarded %llu, no_address %llu, no_pa %llu, deferred %llu\n",
                v, (unsigned long long)t->model.retired, (unsigned long long)s.population,
                (unsigned long long)s.selected, (unsigned long long)s.records,
                (unsigned long long)s.bytes, (unsigned long long)s.discarded,
                (unsigned long long)t->counts.no_address, (unsigned long long)t->counts.no_pa,
                (unsigned long long)t->queue.issued);
    }
}
#else
bool qp_system_bind(void)
{
    fprintf(stderr, "armprof: system mode needs QEMU 10.0's plugin API\n");
    return false;
}
void qp_system_vcpu(const qp_thread *t)
{
    (void)t;
}
void qp_system_summary(void) {}
bool qp_system_instrumented(void)
{
    return true;
}
size_t qp_system_room(const qp_thread *t)
{
    (void)t;
    return 0;
}
#endif
