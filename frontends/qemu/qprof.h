/* SPDX-License-Identifier: BSD-3-Clause */
/* The armprof TCG plugin for qemu-aarch64 (docs/qemu.md): what its parts
 * share. One source for two plugin API generations: QEMU 7.2's (version 1:
 * per-TB callbacks, no scoreboards, no conditions, no register reads) and
 * QEMU 10.0's (version 4: per-vCPU scoreboards with inline operations,
 * conditional callbacks, register reads). QEMU_PLUGIN_VERSION says which
 * header this build sees. */
#ifndef ARMPROF_QEMU_QPROF_H
#define ARMPROF_QEMU_QPROF_H

#include <glib.h>
#include <stddef.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <qemu-plugin.h>

#include "armprof/a64.h"
#include "armprof/armprof.h"
#include "armprof/kernel.h"
#include "armprof/perfdata.h"
#include "armprof-system.h"
#include "timing.h"

/* The plugin's own symbols are its own (QEMU_PLUGIN_EXPORT marks the rest):
 * said here too, so that the compiler reaches qp without the GOT. */
#pragma GCC visibility push(hidden)

#if QEMU_PLUGIN_VERSION >= 2
#define QPROF_SCOREBOARDS 1 /* scoreboards, conditional callbacks, register reads */
#else
#define QPROF_SCOREBOARDS 0
#endif

/* The external agent reads PMPCSR at every QP_PCSR_EVERY-th SPE sample. */
#define QP_PCSR_EVERY 16u
/* qemu-user gives the model its cycles once this many have passed, and
 * whenever something reads it (a PC sample, the thread's end): a counter
 * overflow among them (PMOVSSET_EL0) comes that much later at most, which
 * nothing sees (the plugin's kernel enables no PMU interrupt, no freeze). */
#define QP_CYCLES_BATCH (1u << 20)

/* batch=: the samples a thread's queue holds before it is replayed
 * (queue.c; docs/qemu.md "How it runs" has the measurements), and the most. */
#define QP_BATCH_DEFAULT 64u
#define QP_BATCH_MOST    65536u

/* The PMU events every vCPU's kernel programs, counter 0 first: fast mode
 * the first QP_EV_FAST_COUNT (it models no memory hierarchy, so it counts
 * no cache events), exact mode all that the PE has counters for. */
enum {
    QP_EV_INST_RETIRED,
    QP_EV_BR_RETIRED,
    QP_EV_LD_RETIRED,
    QP_EV_ST_RETIRED,
    QP_EV_MEM_ACCESS,
    QP_EV_FAST_COUNT,
    QP_EV_L1D_CACHE_REFILL = QP_EV_FAST_COUNT,
    QP_EV_L2D_CACHE_REFILL,
    QP_EV_LL_CACHE_MISS_RD,
    QP_EV_REMOTE_ACCESS,
    QP_EV_COUNT
};
typedef struct qp_event {
    const char *event; /* the Arm ARM's name */
    const char *name;  /* the summary's */
    /* its number (Arm ARM K3.1) when armprof_pmu_event_number() does not
     * know the name (the events only an embedder generates), else 0 */
    uint16_t number;
} qp_event;
extern const qp_event qp_events[QP_EV_COUNT];

static inline bool qp_is_mem(const armprof_op *op)
{
    return op->op_class == ARMPROF_OP_LOAD || op->op_class == ARMPROF_OP_STORE;
}

/* One guest instruction as translated: its classification and the
 * armprof_op it becomes, less what only execution tells. */
typedef struct qp_insn {
    uint64_t pc;
    armprof_a64_insn d;
    armprof_op op;       /* op_class, kinds and flags from the encoding; pc */
    bool addr_from_regs; /* the data address is computable from base/index registers */
    bool addr_at_start;  /* ... and no instruction before it in the TB may change them */
} qp_insn;

/* One translation block: its static counts and instructions. */
typedef struct qp_tb {
    uint64_t pc;
    uint32_t n, branches, loads, stores;
    uint64_t mix; /* qp_mix() of the three */
    uint64_t add; /* what the TB adds to the tally: its mix, less its instructions' budget */
    /* the least tally whose budget covers the TB (n's budget, no mix: the
     * mix bits never reach it), so that QEMU 7.2's callback compares the
     * word as QEMU 10.0's condition does */
    uint64_t enough;
    /* the branches, loads and stores among its instructions before each
     * one, as qp_mix() words (before[n]: the TB's own), apart from the
     * large qp_insn so that a run inside the TB reads two words */
    uint64_t *before;
    /* its last instruction, where the callbacks of the next TB look (kept
     * here, next to the counts, rather than in insn[n - 1]) */
    uint64_t last_pc;
    bool last_branch, last_conditional;
    struct qp_tb *next; /* every TB translated, held until the process exits (a callback may
                         * still be given one while QEMU exits) */
    qp_insn insn[];
} qp_tb;

/* The per-vCPU counters the fast path keeps between two visits to the
 * model: in a QEMU 10.0 scoreboard (updated by inline operations), in the
 * vCPU itself on QEMU 7.2 (updated by the per-TB callback). */
typedef struct qp_counters {
    /* the operations still to retire before the next event (bits 63:42)
     * and the branches, loads and stores of whole TBs since the last visit
     * (QP_MIX_BITS bits each below): one inline addition a TB, and one
     * condition on the whole word */
    uint64_t tally;
    uint64_t last_tb;    /* the last TB entered (a qp_tb pointer) */
    uint64_t sample_idx; /* 1 + the index of the load or store the model waits for */
} qp_counters;

/* A visit at least every QP_MAX_RUN operations keeps each count below
 * 2^QP_MIX_BITS (a TB holds at most 512 instructions), and the budget below
 * 2^(64 - QP_BUDGET_SHIFT). */
#define QP_MIX_BITS     14
#define QP_BUDGET_SHIFT 42
#define QP_MAX_RUN      15000u
#define QP_MIX_MASK     ((1ull << QP_BUDGET_SHIFT) - 1)
#define QP_BUDGET_IDLE  ((1ull << (64 - QP_BUDGET_SHIFT)) - 1)
static inline uint64_t qp_mix(uint64_t branches, uint64_t loads, uint64_t stores)
{
    return branches | loads << QP_MIX_BITS | stores << (2 * QP_MIX_BITS);
}
static inline uint64_t qp_mix_field(uint64_t mix, unsigned i)
{
    return mix >> (i * QP_MIX_BITS) & ((1ull << QP_MIX_BITS) - 1);
}
static inline uint64_t qp_budget(uint64_t tally)
{
    return tally >> QP_BUDGET_SHIFT;
}
static inline uint64_t qp_tally(uint64_t budget, uint64_t mix)
{
    return budget << QP_BUDGET_SHIFT | mix;
}

typedef enum qp_pending { QP_PEND_NONE, QP_PEND_BRANCH, QP_PEND_MEM } qp_pending;

/* What QEMU 7.2's callbacks (and exact mode's per-TB callback) read on every
 * TB and every load or store, per vCPU on cache lines of its own: one load
 * to find, no look through the thread. */
typedef struct qp_hot {
    _Alignas(64) qp_counters c; /* the counters (QEMU 10.0's fast mode: the scoreboard's) */
    const void *mem_wait;       /* the qp_insn whose memory access the model waits for */
} qp_hot;

/* Where a thread's Profiling Buffer contents went in PREFIX.spe: the
 * kernel's copies, in order, each whole records (model.c). */
typedef struct qp_chunk {
    uint64_t offset;
    uint32_t size;
} qp_chunk;

/* A thread's calls into its PE, as queue.c queues them: each command's
 * kind, then its payload (an armprof_op_run, these, or the thread's clock
 * for a sync or a visit's end). */
typedef enum qp_cmd_kind {
    QP_CMD_RUN,       /* plain operations (armprof_retire_run(), merged) */
    QP_CMD_OP,        /* the event's operation (armprof_retire()) */
    QP_CMD_EVENT,     /* armprof_pmu_event() */
    QP_CMD_SYNC,      /* qp_model_sync(): the run and the cycles in */
    QP_CMD_VISIT_END, /* qp_visit_end(): PMBIRQ, the PC sample */
    /* qp_queue_raw(): built and timed by the replay */
    QP_CMD_RAW_OP,      /* qp_cmd_raw_op: qp_op_of() through qp_time_op() */
    QP_CMD_RAW_WITHIN,  /* qp_cmd_raw_within: qp_run_within() */
    QP_CMD_RAW_SETTLED, /* qp_cmd_raw_settled: qp_run_settled() */
} qp_cmd_kind;
typedef struct qp_cmd_op {
    armprof_op op;  /* complete: the timing model saw it at the visit */
    uint64_t clock; /* the thread's cycles before it (the system counter) */
    uint64_t gap;   /* the plan's operations before it, from the last event
                     * (UINT64_MAX: it is not the event, a plain operation) */
} qp_cmd_op;
typedef struct qp_cmd_raw_op {
    const qp_insn *insn;
    uint64_t arg; /* qp_op_of()'s */
    uint64_t vaddr;
    uint64_t gap; /* as qp_cmd_op's */
    uint32_t vl;  /* an SVE operation's vector length read at the visit, or 0 */
    uint8_t how;  /* qp_retire_how */
    bool vaddr_known;
} qp_cmd_raw_op;
typedef struct qp_cmd_raw_within {
    const qp_tb *tb;
    uint32_t from, to;
} qp_cmd_raw_within;
typedef struct qp_cmd_raw_settled {
    uint64_t ops, mix;
    const qp_tb *last, *cur;
    uint32_t cut;
} qp_cmd_raw_settled;
typedef struct qp_cmd_event {
    uint16_t event;
    bool flush; /* the run before it goes in first */
    uint64_t count;
} qp_cmd_event;
/* The queue, and the plan of the next events (armprof_event_plan()) that
 * answers qp_until() meanwhile. */
typedef struct qp_replayer qp_replayer; /* replayer.c */
typedef struct qp_queue {
    /* the guest's thread's side */
    uint8_t *bytes;
    size_t len, cap;
    uint64_t *gaps;       /* the plan: qp.batch gaps */
    size_t planned, step; /* how many gaps it has; the one the thread is in */
    uint64_t queued;      /* plain operations queued in this step */
    size_t last_run;      /* the offset of the last command's run; SIZE_MAX: not a run */
    uint64_t issued;      /* events queued since the thread began */
    bool cut;             /* the plan ended early (qp_queue_end_plan()) */
    /* system mode: the calls are made at once until the next qp_until()
     * (a PMU counter counts, or the Profiling Buffer may fill or fault
     * before the next sample: queue.c) */
    bool immediate;
    qp_replayer *replayer; /* replay=thread: NULL inline */
    /* the gaps of the future_planned events after event future_at, from
     * which the next plans come while they run whole (replay=thread) */
    uint64_t *future;
    size_t future_planned;
    uint64_t future_at;
    bool ahead_asked;    /* a look-ahead asked of the replay, not taken yet */
    uint64_t ahead_seen; /* ahead_made when the guest's thread last looked */
    /* the replay's side (the replayer's thread while buffers are handed
     * over, else the guest's) */
    uint64_t step_until; /* armprof_ops_until_event() at the step's start */
    uint64_t replayed;   /* events replayed */
    /* the look-ahead: at the first event from ahead_after on (atomic;
     * UINT64_MAX: none asked), the replay plans the next events from the
     * model there and counts it in ahead_made (atomic) */
    uint64_t *ahead;
    size_t ahead_planned;
    uint64_t ahead_at;
    uint64_t ahead_after, ahead_made;
} qp_queue;

/* One guest thread: a vCPU in qemu-user, one PE with its kernel. Its state
 * is grouped by who keeps it: model.c (spe, model, counts, pcs, final),
 * the mode files (fast, exact), sideband.c (mmap), regs.c (regbuf). */
typedef struct qp_thread {
    unsigned vcpu;
    uint32_t tid;
    bool started; /* its first TB was seen: tid known, context switched */
    armprof_pe *pe;
    armprof_kernel *k;
    qp_timing timing;
    /* the Profiling Buffer's contents, as the kernel copied them out */
    struct {
        qp_chunk *chunks; /* where they went in PREFIX.spe */
        size_t nchunks, capchunks;
        GByteArray *copy; /* the kernel's copy under way (user mode) */
        uint64_t bytes;
    } spe;
    /* what the model has been given (the system counter follows the
     * modelled cycles) */
    struct {
        uint64_t clock;          /* the thread's modelled cycles (queued included) */
        uint64_t cycles;         /* ... those ended in the model (armprof_cycles()) */
        uint64_t retired;        /* operations given to the model */
        armprof_op_run deferred; /* runs replayed, not yet given to the model */
        uint64_t selected;       /* SPE samples at the last visit's end */
    } model;
    qp_queue queue; /* queue.c */
    /* fast path bookkeeping: the counters as the model has them, and the
     * event a visit waits for (exact mode waits for a memory access too) */
    struct {
        uint64_t synced_budget, synced_mix;
        qp_pending pending;
        const qp_tb *pend_tb;
        uint32_t pend_idx;
    } fast;
    /* exact mode: what the timing model saw since the last visit, for the
     * next run, and the instruction whose memory access it saw last */
    struct {
        qp_timing_counts acc;
        uint64_t acc_mispredicted;
        uint64_t tb_seq, mem_seq;
        armprof_op scratch; /* what exact mode hands the timing model for an access or a branch */
        const qp_insn *mem_insn;
        uint64_t end_branch_pc; /* the last TB's branch at its end, or 0 */
        bool end_conditional;   /* ... a conditional one */
    } exact;
    /* the mmap() a syscall callback saw, until it returns */
    struct {
        uint64_t len, prot, off;
        int64_t fd;
    } mmap;
    /* what the summary reports */
    struct {
        uint64_t no_address;   /* sampled loads and stores whose address was not known */
        uint64_t no_pa;        /* system mode: ... whose VA did not translate (PA 0 recorded) */
        uint64_t vl_assumed;   /* sampled SVE operations given the starting vector length */
        uint64_t runs_refused; /* armprof_retire_run() refusals (a bug if nonzero) */
    } counts;
    /* PC sampling by the external agent */
    struct {
        uint64_t reads, samples;
        GHashTable *hist; /* PMPCSR PC -> count */
    } pcs;
    GByteArray *regbuf;
    struct qp_thread *next_done;
    /* the thread's end, for the outputs */
    struct {
        uint64_t counts[QP_EV_COUNT];
        uint64_t cycles;
        unsigned programmed; /* the event counters the kernel programmed */
        armprof_spe_stats stats;
        armprof_kernel_status kernel;
    } final;
} qp_thread;

typedef enum qp_mode { QP_MODE_FAST, QP_MODE_EXACT } qp_mode;

/* How the threads call the default timing model (timing=): exact mode
 * inline; or only through qp_timing_ops, with touch() and resolve() or as
 * a model without them, as a replaced model is called (the tests of the
 * interface compare the three). */
typedef enum qp_timing_call { QP_TIMING_INLINE, QP_TIMING_OPS, QP_TIMING_ACCESS } qp_timing_call;

#define QP_MAX_VCPUS 1024u
/* qemu-user: the system counter's value when a thread starts, the SPE
 * timestamps being QP_TIME_ORIGIN + its cycles (perf wants time to start
 * after 0). System mode uses the guest's own counter instead, which the
 * glue gives the model at each entry (armprof_system_enter()). */
#define QP_TIME_ORIGIN 1000000u

typedef struct qp_sampler qp_sampler; /* pcsample.c */

/* The plugin: one per QEMU process. */
typedef struct qp_plugin qp_plugin;
struct qp_plugin {
    qemu_plugin_id_t id;
    char *out; /* output prefix */
    uint32_t interval;
    /* batch=: the events a thread's queue holds before it is replayed (0:
     * each call into the model at once; system mode always) */
    uint32_t batch;
    /* the virtual kernel's SPE settings: Linux's arm_spe_pmu attributes
     * given as options (jitter=, load_filter=, min_latency=...) */
    armprof_kernel_params spe_params;
    char *filters; /* those given, for the summary ("" when none) */
    qp_mode mode;
    qp_timing_call timing_call;
    /* exact mode's memory hierarchy, which every thread's PE shares
     * (hierarchy.h): its options, and the hierarchy from install on */
    qp_hier_config hier_config;
    qp_hier *hier;
    armprof_config config;
    char *config_desc;     /* preset and file, for the summary */
    unsigned perf_version; /* perf_version=, major * 100 + minor; 0: the perf on PATH's */
    armprof_perf_spe_metadata metadata; /* PREFIX.perf.data's layout */
    char metadata_why[320];             /* which, and why: for the summary */
    /* MIDR_EL1 PREFIX.perf.data names (midr=): a Neoverse core, whose Data
     * Source encoding the timing model writes (docs/memory-model.md) */
    uint64_t midr;
    bool quiet;
    int watch_fd;            /* the watcher's pipe (watch.c), -1 without one */
    uint64_t *watch_written; /* PREFIX.spe's length written whole, shared with the watcher */
    bool stopped; /* the program called execve(): the profile is written, the plugin idles */
    /* qemu-system-aarch64 with armprof's SPE: the emulator owns the PEs
     * (system.c, frontends/qemu-system/glue/armprof-system.h) */
    bool system;
    struct {
        /* the emulator's functions, as armprof-system.h declares them */
        __typeof__(armprof_system_pe) *pe;
        __typeof__(armprof_system_enter) *enter;
        __typeof__(armprof_system_leave) *leave;
        __typeof__(armprof_system_release) *release;
        __typeof__(armprof_system_translate) *translate;
        __typeof__(armprof_system_set_el_change_hook) *set_el_change_hook;
        __typeof__(armprof_system_set_control_hook) *set_control_hook;
        __typeof__(armprof_system_set_access_hook) *set_access_hook;
        /* plugin.c's registrations, which system.c makes again after a
         * qemu_plugin_reset() */
        void (*callbacks)(qemu_plugin_id_t id);
        /* Idle (system.c): TBs are instrumented only while some vCPU may
         * profile. Read and written with __atomic builtins. */
        bool instrumented;
        unsigned wanting;         /* vCPUs whose PMBLIMITR_EL1.E is 1 or that enable a counter */
        uint64_t idle_since;      /* CLOCK_MONOTONIC ns since none has; 0 while one has */
        bool wants[QP_MAX_VCPUS]; /* each vCPU's, written on its own thread */
        /* ... and whether it enables a PMU counter (PMCNTENSET_EL0): the
         * visits' PMU work (overflow bound, EXC_TAKEN) only then */
        bool counting[QP_MAX_VCPUS];
        int pmblimitr;                 /* PMBLIMITR_EL1's register id */
        int pmbptr, pmsidr, pmbidr;    /* PMBPTR_EL1's, PMSIDR_EL1's, PMBIDR_EL1's */
        unsigned maxsize_lo, align_lo; /* PMSIDR_EL1.MaxSize's and PMBIDR_EL1.Align's bit 0 */
        int pmcntenset;                /* PMCNTENSET_EL0's */
        uint64_t resets;               /* instrumentation switched on or off */
        bool switching;                /* ... and the flush not done yet */
        qp_sampler *sampler;           /* pcsample=: NULL without */
    } sys;
    pthread_mutex_t lock; /* TB list, thread slots, side-band, PREFIX.spe */
    /* A thread's end (vcpu_exit: detached from its slot, settled, flushed,
     * then on the done list) holds it shared; the outputs hold it
     * exclusively, so that no thread is between its slot and the done list
     * while they are written (a worker's end racing the main thread's exit
     * left its records out of PREFIX.perf.data) */
    pthread_rwlock_t ending;
    /* replayer.c: replays hold it shared, a guest's fork() exclusively;
     * forks counts the forks this process is the child of */
    pthread_rwlock_t replaying;
    uint32_t forks;
    bool replay_inline; /* replay=inline */
    FILE *spe;          /* PREFIX.spe */
    uint64_t spe_size;
    bool spe_failed; /* a write failed: said at exit */
    qp_tb *tbs;
    qp_thread *threads[QP_MAX_VCPUS];
    qp_hot hot[QP_MAX_VCPUS]; /* vCPU's, not thread's: set again when a thread starts on it */
    qp_thread *done;          /* threads that ended, newest first */
    qp_thread ended;          /* what a vCPU gets after the profile ended: no PE */
    unsigned nthreads_done;
    uint32_t pid;
    char comm[16];
    char *program; /* the guest program's absolute path, known at the first block */
    /* the SVE vector length qemu-user starts a thread with (-cpu's
     * sve-default-vector-length, 64 bytes by default), in bits */
    uint32_t default_vl;
    /* side-band for perf: executable mappings seen */
    struct qp_map {
        uint64_t addr, len, pgoff;
        char *path;
    } * maps;
    size_t nmaps, capmaps;
    bool maps_scanned;
    /* what the public API says, looked up once at install (qp_model_init()):
     * the event numbers of qp_events, the external agent's offsets of
     * PMPCSR and PMPCSCTL in the PMU block */
    struct {
        uint16_t event[QP_EV_COUNT];
        uint16_t exc_taken, exc_return; /* given at QEMU's Exception level changes */
        uint32_t pmpcsr, pmpcsctl;
    } api;
#if QPROF_SCOREBOARDS
    struct qemu_plugin_scoreboard *sb;
    struct qemu_plugin_register *xreg[32]; /* x0..x30, sp */
    struct qemu_plugin_register *vg;       /* the SVE vector length in 64-bit granules */
#endif
};

/* The files, each calling only those below it (QEMU's and the emulator's
 * callbacks enter at the top; system.c registers plugin.c's callbacks again
 * through qp.sys.callbacks, a pointer plugin.c gives it):
 *   plugin.c                 install, vCPUs, system calls, exit
 *   translate.c              TB translation: registers the modes' callbacks
 *   system.c                 system mode: idle, Exception level changes
 *   pcsample.c               system mode: the host-side PC sampler's thread
 *   output.c                 a thread's end, and the outputs at exit
 *   exact.c, then fast.c     the two modes' callbacks
 *   model.c                  a thread's PE and what goes into it
 *   queue.c                  ... queued, and replayed in batches
 *   replayer.c               ... on a host thread of the guest thread's own
 *   regs.c, sideband.c, timing.c, watch.c, config_file.c   leaves */

/* translate.c */
void qp_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

/* system.c: system mode */
bool qp_system_bind(void);               /* the emulator's functions; false with a message */
void qp_system_vcpu(const qp_thread *t); /* the vCPU's hooks in the emulator */
void qp_system_summary(void);            /* at exit, to stderr */
/* whether TBs are to be instrumented now */
bool qp_system_instrumented(void);
/* How many samples t's calls may be queued for from here (0: made at
 * once): docs/qemu-system.md, "Deferred visits". */
size_t qp_system_room(const qp_thread *t);

/* output.c */
/* A thread's end: both modes' bookkeeping into the model, then
 * qp_thread_done(). */
void qp_thread_end(qp_thread *t);
void qp_write_outputs(void);
/* PREFIX.spe, open from install to exit: the records stream there as the
 * kernels copy them out (memory stays bounded on long runs). */
bool qp_spe_open(char *err, size_t errlen);

/* exact.c: every access and branch through the timing model */
void qp_exact_tb(unsigned vcpu, void *udata);
/* A load's access (atomics included), a store's: each registered for its
 * own kind, so the callback need not look at the instruction. */
void qp_exact_load(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void qp_exact_store(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void qp_exact_flush(qp_thread *t); /* the timing model's events into the PMU */
/* The events of the caches and TLB that access() put in op, into the
 * tallies the PMU gets at the next visit (those the PE counts from op
 * itself, L1D_CACHE and L1D_CACHE_REFILL, aside). */
void qp_exact_op_events(qp_thread *t, const armprof_op *op, bool store);

/* fast.c: the fast path */
void qp_fast_tb_due(unsigned vcpu, void *udata);
void qp_fast_insn_due(unsigned vcpu, void *udata);
void qp_fast_tb_exec_v1(unsigned vcpu, void *udata);
void qp_fast_mem_v1(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata);
void qp_fast_settle(qp_thread *t, const qp_tb *cur);
/* The same when an exception (system mode) cut the last TB before stop_pc's
 * instruction (0: it ran to its end): what did not run is not retired, and
 * with stopped the instruction before stop_pc generated the exception and
 * did not complete (armprof_op.not_arch_executed). */
void qp_fast_settle_cut(qp_thread *t, uint64_t stop_pc, bool stopped);
/* System mode, around an access to one of the model's registers: before
 * it, the model takes the instructions before pc; after a write, the next
 * TB visits it (what it counts down to may have moved). */
void qp_fast_sync_at(qp_thread *t, uint64_t pc);
void qp_fast_resync(qp_thread *t);
/* An exception return is about to change the Exception level: when it is
 * the branch the model waits for, it retires now, at the level it leaves,
 * taken to target at target_el (D17.6.3: a sampled exception return is an
 * unconditional branch whose target carries its Exception level). */
void qp_fast_eret(qp_thread *t, uint64_t target, unsigned target_el);
/* The TB cur holds the next event: the model catches up and walks it (the
 * thread locked). */
void qp_fast_due(qp_thread *t, const qp_tb *cur);
void qp_mem_due(qp_thread *t, const qp_insn *q, bool known, uint64_t vaddr);
qp_counters *qp_counters_of(qp_thread *t);

/* model.c: a thread's PE and what goes into it */
extern qp_plugin qp; /* the one plugin instance: QEMU's callbacks carry no context pointer */
qp_thread *qp_thread_create_for(unsigned vcpu);
/* The external register table's entry for the PMU block's register name
 * of width bits (the first location, PMPCSR's 0x200), or -1. */
int qp_pmu_block_reg(const char *name, unsigned width);
/* qp.api from the public API's tables: false with a message */
bool qp_model_init(char *err, size_t errlen);
/* An exception is taken (or an exception return retires) at the PE's
 * Exception level: EXC_TAKEN (EXC_RETURN), and the cycle it ends in. */
void qp_model_exception(qp_thread *t, bool eret);
bool qp_boot(armprof_pe **pe, armprof_kernel **k, armprof_kernel_data_fn data, void *ctx, char *err,
             size_t errlen);
/* The thread of vcpu, created at its first use: a load in the callbacks'
 * common case. */
static inline qp_thread *qp_thread_of(unsigned vcpu)
{
    qp_thread *t =
        vcpu < QP_MAX_VCPUS ? __atomic_load_n(&qp.threads[vcpu], __ATOMIC_ACQUIRE) : NULL;
    return t ? t : qp_thread_create_for(vcpu);
}
/* The thread of vcpu, or NULL when its profile has ended. A thread's
 * callbacks run on its own host thread, one at a time, and QEMU ends the
 * others' (start_exclusive(), callbacks unregistered) before the exit
 * callback: a visit needs no lock, only the look at whether the profile has
 * ended. */
static inline qp_thread *qp_thread_active(unsigned vcpu)
{
    qp_thread *t = qp_thread_of(vcpu);
    return t->pe && !__atomic_load_n(&qp.stopped, __ATOMIC_RELAXED) ? t : NULL;
}
/* ... and its PE entered (system mode: at the vCPU's EL and time, locked). */
static inline qp_thread *qp_thread_enter(unsigned vcpu)
{
    qp_thread *t = qp_thread_active(vcpu);
    if (t && qp.system) qp.sys.enter(vcpu);
    return t;
}
/* The end of the callback that entered: in system mode the PE is unlocked
 * for the external agents (armprof_system_external_access()). */
static inline void qp_thread_exit(qp_thread *t)
{
    if (qp.system) qp.sys.release(t->vcpu);
}
void qp_thread_start(qp_thread *t, uint64_t first_pc);
/* The operation through the timing model and armprof_retire(): a load's
 * or store's vaddr when vaddr_known, else none (data_address_unknown). */
void qp_retire_full(qp_thread *t, armprof_op *op, uint64_t vaddr, bool vaddr_known);
/* ... the timing model's part: fills op (an SVE operation's vector length
 * vl, as read at the visit, 0 when it could not be) and returns its cycles */
uint32_t qp_time_op(qp_thread *t, armprof_op *op, uint64_t vaddr, bool vaddr_known, uint32_t vl);
/* How an instruction's operation retired, beyond its encoding. */
typedef enum qp_retire_how {
    QP_RETIRE_AS_IS,
    QP_RETIRE_BRANCH,    /* a branch; arg: where the next block starts (0: not known) */
    QP_RETIRE_EXCEPTION, /* it took an exception; arg: 1 when it did not complete */
} qp_retire_how;
armprof_op qp_op_of(const qp_insn *q, qp_retire_how how, uint64_t arg);
/* Instruction q's operation retires (qp_op_of()), through qp_retire_full();
 * or, where the queue takes raw commands (qp_queue_raw()), queued as what
 * the guest's thread alone can tell, for the replay to build and time. */
void qp_retire_insn(qp_thread *t, const qp_insn *q, qp_retire_how how, uint64_t arg, uint64_t vaddr,
                    bool vaddr_known);
/* Instructions [from, to) of tb as a run */
armprof_op_run qp_run_within(const qp_tb *tb, uint32_t from, uint32_t to);
void qp_retire_static(qp_thread *t, const qp_tb *tb, uint32_t from, uint32_t to);
/* The run a visit settles (fast.c): ops operations with the mix's
 * branches, loads and stores, the last of them in last (cut: how many of
 * its instructions ran, UINT32_MAX all), before cur (NULL: not known) */
armprof_op_run qp_run_settled(uint64_t ops, uint64_t mix, const qp_tb *last, const qp_tb *cur,
                              uint32_t cut);
void qp_retire_run(qp_thread *t, armprof_op_run *run);
/* ops operations retired in cycles of the thread's clock (model.clock:
 * kept by the guest's thread, or by the replay with raw commands) */
static inline void qp_account(qp_thread *t, uint64_t ops, uint64_t cycles)
{
    t->model.retired += ops;
    t->model.clock += cycles;
}
void qp_model_sync(qp_thread *t);
/* armprof_pmu_event(), in its place among the thread's calls */
void qp_pmu_event(qp_thread *t, uint16_t event, uint64_t count);
void qp_thread_finish(qp_thread *t);
/* The end of a callback's visit to the model: the PMBIRQ it raised, the PC
 * sample the agent takes; the run and the cycles it advanced go in when
 * somebody looks (qp_model_sync(): system mode, a PC sample, 2^20 cycles). */
void qp_visit_end(qp_thread *t);
/* A thread taken out of its vCPU slot (NULL if none): from the thread
 * itself (vCPU exit) or with every vCPU stopped (QEMU's exit). */
qp_thread *qp_thread_detach(unsigned vcpu);
/* Its profile ended (the caller settled the modes first: qp_thread_end())
 * and kept for the outputs. */
void qp_thread_done(qp_thread *t);

/* pcsample.c: the host-side PC sampler of system mode (pcsample=HZ,
 * docs/pc-sampling.md), a thread that reads every vCPU's PMPCSR through
 * the emulator as a JTAG probe would (qp_sampler: qp.sys.sampler) */
/* Whether name=value is one of the sampler's options (pcsample,
 * pcsample-elf); *bad with a message in err when its value is not valid. */
bool qp_sampler_option(qp_sampler **s, const char *name, const char *value, bool *bad, char *err,
                       size_t errlen);
/* The thread started, when pcsample= asked for it: false with a message
 * (the emulator has no external blocks, no thread). */
bool qp_sampler_start(qp_sampler *s, char *err, size_t errlen);
/* At exit: the thread stopped, PREFIX.pcsr.perf.data written, the counts
 * on stderr; s freed. */
void qp_sampler_finish(qp_sampler *s);

/* queue.c: a thread's calls into its PE, queued (qp_cmd_kind) */
/* Each command made now (batch=0, system mode) or queued: a run, the
 * event's operation (clock: the thread's cycles before it), a PMU event
 * (flush: the run before it goes in first), a sync or a visit's end at the
 * thread's clock. */
void qp_queue_run(qp_thread *t, const armprof_op_run *run);
/* qemu-user's fast mode with a queue: the visits queue raw commands
 * (what the guest's thread alone can tell: the instructions, addresses,
 * counts) and the replay builds the runs and operations, times them and
 * keeps the thread's clock (model.clock). Exact mode and system mode time
 * each operation at its visit (the shared hierarchy's order, the guest's
 * counter), so queue them built. */
static inline bool qp_queue_raw(const qp_thread *t)
{
    return qp.batch != 0 && !qp.system && qp.mode == QP_MODE_FAST && !t->queue.immediate;
}
void qp_queue_raw_op(qp_thread *t, const qp_insn *q, qp_retire_how how, uint64_t arg,
                     uint64_t vaddr, bool vaddr_known, uint32_t vl);
void qp_queue_raw_within(qp_thread *t, const qp_tb *tb, uint32_t from, uint32_t to);
void qp_queue_raw_settled(qp_thread *t, uint64_t ops, uint64_t mix, const qp_tb *last,
                          const qp_tb *cur, uint32_t cut);
void qp_queue_op(qp_thread *t, const armprof_op *op, uint64_t clock);
void qp_queue_event(qp_thread *t, uint16_t event, uint64_t count, bool flush);
void qp_queue_clock(qp_thread *t, qp_cmd_kind kind);
/* The queue replayed: the model in step with everything the thread gave. */
void qp_queue_flush(qp_thread *t);
/* The plan ends here: the next qp_until() replays the queue and plans anew
 * (the context changed, or the last operation drew a random value). */
void qp_queue_end_plan(qp_thread *t);
/* armprof_ops_until_event() (the plan's, while queued) less the operations
 * queued or merged and not given yet */
uint64_t qp_until(qp_thread *t);
void qp_queue_init(qp_thread *t);
void qp_queue_free(qp_thread *t);
/* Whether t's calls are queued now (not made at once). */
bool qp_queue_deferring(const qp_thread *t);
/* The commands in bytes[0, len) made (the replayer's thread, or the
 * guest's) */
void qp_queue_replay(qp_thread *t, const uint8_t *bytes, size_t len);

/* replayer.c: a thread's queue replayed on a host thread of its own */
/* At install: guest fork()s wait for replays under way. */
void qp_replayer_init(void);
/* NULL (said on stderr) when the host cannot start a thread. */
qp_replayer *qp_replayer_start(qp_thread *t);
/* The buffer handed over (the replayer's idle one comes back in its
 * place, empty), once the one before is replayed. */
void qp_replayer_submit(qp_replayer *r, uint8_t **bytes, size_t *len, size_t *cap);
/* Every buffer handed over replayed. */
void qp_replayer_wait(qp_replayer *r);
void qp_replayer_stop(qp_replayer *r);

/* regs.c: a load's or store's address from the registers (QEMU 10.0) */
bool qp_data_address(qp_thread *t, const qp_insn *i, uint64_t *vaddr);
/* The SVE vector length now, in bits, where registers can be read (QEMU
 * 10.0's fast mode). */
bool qp_vector_length(qp_thread *t, uint32_t *bits);
void qp_regs_init(void);

/* sideband.c: what perf needs besides the records */
void qp_add_map(uint64_t addr, uint64_t len, uint64_t pgoff, const char *path);
void qp_scan_maps(uint64_t first_pc);
void qp_map_program(const char *path);
char *qp_program_path(void);
/* The value of property name in QEMU's -cpu option, or NULL (free it). */
char *qp_cpu_property(const char *name);

/* watch.c: a process that says what was lost if QEMU ends without the
 * exit callback (QEMU 7.2, a guest killed by a signal) */
bool qp_watch_start(char *err, size_t errlen);
void qp_watch_done(void); /* the outputs are written */
/* PREFIX.spe holds bytes written whole (under qp.lock). */
void qp_watch_written(uint64_t bytes);

/* config_file.c */
bool qp_config_file(armprof_config *c, const char *path, char *err, size_t errlen);

#pragma GCC visibility pop

#endif
