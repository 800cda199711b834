/* SPDX-License-Identifier: BSD-3-Clause */
/* Two threads, each adding 1 to its own field N times (a load and a store
 * each time; N the first argument, 100000 without; with a second argument
 * "pin", worker k runs on CPU k only, so that a guest's scheduler cannot
 * put both on one CPU, where they would share its caches; it says on
 * stderr whether the two loops overlapped in time): the fields are
 * adjacent, 8 bytes apart in one 64-byte-aligned line (false sharing), or
 * with -DPADDED 64 bytes apart, each on a line of its own. The main thread
 * only starts and joins them: three threads, three PEs under the plugin.
 * The workers wait for each other before their loops. Exits 0 when each
 * field counted N. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    volatile long a;
#ifdef PADDED
    char pad[56]; /* b at offset 64: the next line */
#endif
    volatile long b;
} line __attribute__((aligned(64)));

static long n = 100000;
/* the workers start their loops together: one created while the other
 * ran could otherwise find it done (seen on a loaded machine: no shared
 * line at all), and the loops' accesses must interleave */
static int ready;

/* worker k on CPU k: 0 when it is, or pinning was not asked for */
static int pin(pthread_t t, int k)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(k, &set);
    return pthread_setaffinity_np(t, sizeof set, &set);
}

static void *worker(void *arg)
{
    volatile long *field = arg;
    volatile long *other = field == &line.a ? &line.b : &line.a;
    __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < 2)
        ;
    const long before = *other;
    for (long i = 0; i < n; i++)
        *field = *field + 1;
    /* whether the other's field moved during the loop: returned, not
     * stored beside the other worker's answer (a line both would write) */
    return (void *)(uintptr_t)(*other != before);
}

int main(int argc, char **argv)
{
    if (argc > 1) n = strtol(argv[1], NULL, 0);
    const int pinned = argc > 2 && strcmp(argv[2], "pin") == 0;
    pthread_t t[2];
    if (pthread_create(&t[0], NULL, worker, (void *)&line.a) != 0 ||
        pthread_create(&t[1], NULL, worker, (void *)&line.b) != 0)
        return 1;
    for (int k = 0; k < 2 && pinned; k++)
        if (pin(t[k], k) != 0) {
            fprintf(stderr, "false_sharing: worker %d cannot be pinned to CPU %d\n", k, k);
            return 2;
        }
    void *overlapped[2];
    pthread_join(t[0], &overlapped[0]);
    pthread_join(t[1], &overlapped[1]);
    printf("%ld %ld\n", line.a, line.b);
    /* a run whose loops did not overlap in time shares no line: say so */
    fprintf(stderr, "false_sharing: the workers' loops %s\n",
            overlapped[0] || overlapped[1] ? "overlapped" : "did not overlap");
    return line.a == n && line.b == n ? 0 : 1;
}
