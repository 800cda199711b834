/* SPDX-License-Identifier: BSD-3-Clause */
/* A guest thread's queue replayed on a host thread of its own
 * (replay=thread; docs/qemu.md, "How it runs"): the guest's thread fills
 * a buffer while this one replays those handed over before, in order, so
 * the model's work and the kernel's writes of PREFIX.spe leave the guest's
 * thread. A ring of QP_REPLAY_SLOTS buffers absorbs a replay that takes
 * longer than its batch (a buffer service's write). The queue (queue.c)
 * decides what goes in a buffer and when; this file hands buffers over and
 * waits.
 *
 * Neither side sleeps or wakes the other on the common path: the counts
 * of buffers handed over and replayed are atomics, and each side says,
 * before it sleeps, that it is asleep, then looks at the counts again
 * under the lock (so a hand-over or a replay's end that missed the flag
 * is seen then). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qprof.h"

/* Buffers in flight at most: a few batches (a batch at interval 1024 is
 * tens of microseconds of the guest's time; a buffer service's write of
 * PREFIX.spe, a few milliseconds of the replayer's, once in many). */
#define QP_REPLAY_SLOTS 16u
/* An asleep replayer is woken when this many buffers wait: a wake-up is a
 * system call on the guest's thread (8% of it at a wake a batch). */
#define QP_REPLAY_WAKE 8u
/* A replayer that has just replayed naps this long before it sleeps
 * until woken: while the guest's thread hands buffers over at its usual
 * pace (one every 50 us or so at interval 1024) the replayer finds them
 * at its nap's end, and the guest's thread wakes nobody (a wake-up cost it
 * about 10 us on a virtual machine, 2% of a run at a wake every 8
 * buffers). */
#define QP_REPLAY_NAP_NS 200000L

struct qp_replayer {
    qp_thread *t;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    struct qp_replay_slot {
        uint8_t *bytes;
        size_t len, cap;
    } slot[QP_REPLAY_SLOTS];
    uint64_t handed, replayed;          /* buffers (atomic): the guest's, the replayer's */
    bool replayer_asleep, guest_asleep; /* atomic */
    bool quit;                          /* under lock */
    /* qp.forks when it started: a guest fork()'s child has the replayer's
     * memory but not its thread, and replays on the guest's thread */
    uint32_t forks;
};

static bool lost(const qp_replayer *r)
{
    return r->forks != __atomic_load_n(&qp.forks, __ATOMIC_ACQUIRE);
}

/* The next buffer handed over and not replayed, replayed. */
static void replay_next(qp_replayer *r)
{
    const uint64_t n = __atomic_load_n(&r->replayed, __ATOMIC_RELAXED);
    struct qp_replay_slot *s = &r->slot[n % QP_REPLAY_SLOTS];
    /* a guest fork() waits for the replay to end (qp.replaying) */
    pthread_rwlock_rdlock(&qp.replaying);
    qp_queue_replay(r->t, s->bytes, s->len);
    pthread_rwlock_unlock(&qp.replaying);
    s->len = 0;
    __atomic_store_n(&r->replayed, n + 1, __ATOMIC_SEQ_CST);
}

/* The monotonic clock's time ns from now. */
static struct timespec after_ns(long ns)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += ns;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    return t;
}

static void *replayer_main(void *arg)
{
    qp_replayer *r = arg;
    bool busy = false; /* it replayed since it last slept */
    for (;;) {
        if (__atomic_load_n(&r->replayed, __ATOMIC_RELAXED) !=
            __atomic_load_n(&r->handed, __ATOMIC_ACQUIRE)) {
            replay_next(r);
            busy = true;
            if (__atomic_load_n(&r->guest_asleep, __ATOMIC_SEQ_CST)) {
                pthread_mutex_lock(&r->lock);
                pthread_cond_signal(&r->idle);
                pthread_mutex_unlock(&r->lock);
            }
            continue;
        }
        pthread_mutex_lock(&r->lock);
        __atomic_store_n(&r->replayer_asleep, true, __ATOMIC_SEQ_CST);
        /* a nap first after a replay; a nap that ends with nothing handed
         * over (the guest's thread idle, or gone) becomes a sleep */
        const struct timespec nap_end = after_ns(QP_REPLAY_NAP_NS);
        while (!r->quit && __atomic_load_n(&r->replayed, __ATOMIC_RELAXED) ==
                               __atomic_load_n(&r->handed, __ATOMIC_SEQ_CST)) {
            if (!busy)
                pthread_cond_wait(&r->wake, &r->lock);
            else if (pthread_cond_timedwait(&r->wake, &r->lock, &nap_end) == ETIMEDOUT)
                busy = false;
        }
        busy = false;
        __atomic_store_n(&r->replayer_asleep, false, __ATOMIC_RELAXED);
        const bool quit = r->quit && __atomic_load_n(&r->replayed, __ATOMIC_RELAXED) ==
                                         __atomic_load_n(&r->handed, __ATOMIC_ACQUIRE);
        pthread_mutex_unlock(&r->lock);
        if (quit) return NULL;
    }
}

qp_replayer *qp_replayer_start(qp_thread *t)
{
    qp_replayer *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->t = t;
    r->forks = __atomic_load_n(&qp.forks, __ATOMIC_ACQUIRE);
    pthread_mutex_init(&r->lock, NULL);
    /* the naps' ends on the monotonic clock (a change of the date must not
     * make one last) */
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_cond_init(&r->wake, &monotonic);
    pthread_condattr_destroy(&monotonic);
    pthread_cond_init(&r->idle, NULL);
    /* no signal for this thread: qemu-user's handlers expect a vCPU's
     * thread, and a process's signals go to any thread that takes them */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const int e = pthread_create(&r->thread, NULL, replayer_main, r);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e) {
        fprintf(stderr, "armprof: no replay thread (%s): replaying on the guest's thread\n",
                strerror(e));
        pthread_cond_destroy(&r->wake);
        pthread_cond_destroy(&r->idle);
        pthread_mutex_destroy(&r->lock);
        free(r);
        return NULL;
    }
    return r;
}

/* Until at most `most` buffers are handed over and not replayed. */
static void wait_until(qp_replayer *r, uint64_t most)
{
    if (__atomic_load_n(&r->handed, __ATOMIC_RELAXED) -
            __atomic_load_n(&r->replayed, __ATOMIC_ACQUIRE) <=
        most)
        return;
    if (lost(r)) {
        /* a fork()'s child: what was handed over and not begun
         * (qp.replaying kept any from being under way) is replayed here */
        while (__atomic_load_n(&r->handed, __ATOMIC_RELAXED) -
                   __atomic_load_n(&r->replayed, __ATOMIC_RELAXED) >
               most)
            replay_next(r);
        return;
    }
    pthread_mutex_lock(&r->lock);
    /* it may be asleep on fewer than QP_REPLAY_WAKE buffers */
    if (__atomic_load_n(&r->replayer_asleep, __ATOMIC_SEQ_CST)) pthread_cond_signal(&r->wake);
    __atomic_store_n(&r->guest_asleep, true, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&r->handed, __ATOMIC_RELAXED) -
               __atomic_load_n(&r->replayed, __ATOMIC_SEQ_CST) >
           most)
        pthread_cond_wait(&r->idle, &r->lock);
    __atomic_store_n(&r->guest_asleep, false, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&r->lock);
}

void qp_replayer_wait(qp_replayer *r)
{
    wait_until(r, 0);
}

void qp_replayer_submit(qp_replayer *r, uint8_t **bytes, size_t *len, size_t *cap)
{
    wait_until(r, QP_REPLAY_SLOTS - 1);
    /* the slot's buffer was replayed: the queue takes it */
    const uint64_t n = __atomic_load_n(&r->handed, __ATOMIC_RELAXED);
    struct qp_replay_slot *s = &r->slot[n % QP_REPLAY_SLOTS];
    uint8_t *b = s->bytes;
    const size_t c = s->cap;
    s->bytes = *bytes;
    s->len = *len;
    s->cap = *cap;
    *bytes = b;
    *len = 0;
    *cap = c;
    __atomic_store_n(&r->handed, n + 1, __ATOMIC_SEQ_CST);
    if (lost(r)) {
        replay_next(r);
        return;
    }
    if (n + 1 - __atomic_load_n(&r->replayed, __ATOMIC_RELAXED) >= QP_REPLAY_WAKE &&
        __atomic_load_n(&r->replayer_asleep, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&r->lock);
        pthread_cond_signal(&r->wake);
        pthread_mutex_unlock(&r->lock);
    }
}

void qp_replayer_stop(qp_replayer *r)
{
    if (!r) return;
    qp_replayer_wait(r);
    if (!lost(r)) {
        pthread_mutex_lock(&r->lock);
        r->quit = true;
        pthread_cond_signal(&r->wake);
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->thread, NULL);
        pthread_cond_destroy(&r->wake);
        pthread_cond_destroy(&r->idle);
        pthread_mutex_destroy(&r->lock);
    }
    for (unsigned i = 0; i < QP_REPLAY_SLOTS; i++)
        free(r->slot[i].bytes);
    free(r);
}

/* pthread_atfork(): no replay under way while QEMU forks for the guest, so
 * that the child's models are whole; the child's replayers have no thread.
 * The child is not profiled: it would write PREFIX's outputs at its exit
 * over the parent's, and its buffers' copies into the PREFIX.spe it shares
 * with the parent (one file offset), among the parent's (docs/qemu.md). */
static void fork_prepare(void)
{
    pthread_rwlock_wrlock(&qp.replaying);
}

static void fork_parent(void)
{
    pthread_rwlock_unlock(&qp.replaying);
}

static void fork_child(void)
{
    /* anew: the lock's writer was the parent's thread, whose ID the child's
     * thread does not have (glibc's unlock would take it for a reader's) */
    pthread_rwlock_init(&qp.replaying, NULL);
    __atomic_add_fetch(&qp.forks, 1, __ATOMIC_ACQ_REL);
    __atomic_store_n(&qp.stopped, true, __ATOMIC_RELEASE);
}

void qp_replayer_init(void)
{
    pthread_rwlock_init(&qp.replaying, NULL);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}
