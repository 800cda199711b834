/* SPDX-License-Identifier: BSD-3-Clause */
/* The QEMU plugin benchmark's 4-thread guest program (docs/qemu.md,
 * "Speed"): four threads, each a streaming sum over an array of its own
 * (512KB: its L2), a pointer chase and a branchy step, adding to a counter
 * all four share after each round (a line that moves between their
 * caches). Argument: a size multiplier (default 1). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N       (1u << 16)
#define THREADS 4

static _Alignas(64) uint64_t shared_total;
static unsigned scale = 1;

static void *worker(void *arg)
{
    uint64_t *a = malloc(N * sizeof *a);
    uint32_t *next = malloc(N * sizeof *next);
    if (!a || !next) return NULL;
    uint64_t x = 88172645463325252ull + (uintptr_t)arg, sum = 0;
    for (unsigned i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = x;
        next[i] = (uint32_t)((i * 40503u + 1) % N);
    }
    for (unsigned r = 0; r < 15 * scale; r++) {
        for (unsigned i = 0; i < N; i++)
            sum += a[i] ^ r; /* stream */
        uint32_t p = r;
        for (unsigned i = 0; i < N / 4; i++)
            p = next[p]; /* chase */
        sum += p;
        for (unsigned i = 1; i < N; i++) /* branchy */
            if (a[i - 1] > a[i])
                sum++;
            else
                sum += 2;
        __atomic_fetch_add(&shared_total, sum & 0xff, __ATOMIC_RELAXED);
    }
    free(a);
    free(next);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1) scale = (unsigned)atoi(argv[1]);
    pthread_t t[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)i)) return 1;
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    printf("%llu\n", (unsigned long long)shared_total);
    return 0;
}
