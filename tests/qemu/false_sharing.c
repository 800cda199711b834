/* SPDX-License-Identifier: BSD-3-Clause */
/* Two threads, each adding 1 to its own field N times (a load and a store
 * each time; N the first argument, 100000 without): the fields are
 * adjacent, 8 bytes apart in one 64-byte-aligned line (false sharing), or
 * with -DPADDED 64 bytes apart, each on a line of its own. The main thread
 * only starts and joins them: three threads, three PEs under the plugin.
 * The workers wait for each other before their loops. Exits 0 when each
 * field counted N. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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

static void *worker(void *arg)
{
    volatile long *field = arg;
    __atomic_add_fetch(&ready, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&ready, __ATOMIC_SEQ_CST) < 2)
        ;
    for (long i = 0; i < n; i++)
        *field = *field + 1;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) n = strtol(argv[1], NULL, 0);
    pthread_t t[2];
    if (pthread_create(&t[0], NULL, worker, (void *)&line.a) != 0 ||
        pthread_create(&t[1], NULL, worker, (void *)&line.b) != 0)
        return 1;
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    printf("%ld %ld\n", line.a, line.b);
    return line.a == n && line.b == n ? 0 : 1;
}
