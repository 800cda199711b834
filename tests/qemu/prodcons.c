/* SPDX-License-Identifier: BSD-3-Clause */
/* A producer and a consumer (tests/qemu/peer.sh): the main thread writes
 * every line of buf, then publishes the round; the second thread waits for
 * it, reads every line, and acknowledges. Each line the consumer reads was
 * written by the producer since the consumer last read it: under MESI, the
 * producer holds it Modified and the consumer's load is served by the
 * producer's core. ROUNDS rounds of LINES lines.
 *
 *   prodcons */
#include <pthread.h>
#include <stdint.h>

enum { LINES = 256, ROUNDS = 400 };

struct line {
    _Alignas(64) uint64_t v[8];
};
struct line buf[LINES];
static _Alignas(64) unsigned published;
static _Alignas(64) unsigned consumed;
uint64_t total;

static void *consumer(void *arg)
{
    (void)arg;
    uint64_t s = 0;
    for (unsigned r = 1; r <= ROUNDS; r++) {
        while (__atomic_load_n(&published, __ATOMIC_ACQUIRE) != r)
            ;
        for (unsigned i = 0; i < LINES; i++)
            s += *(volatile uint64_t *)&buf[i].v[i % 8];
        __atomic_store_n(&consumed, r, __ATOMIC_RELEASE);
    }
    total = s;
    return NULL;
}

int main(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, consumer, NULL)) return 1;
    for (unsigned r = 1; r <= ROUNDS; r++) {
        for (unsigned i = 0; i < LINES; i++)
            *(volatile uint64_t *)&buf[i].v[i % 8] = r + i;
        __atomic_store_n(&published, r, __ATOMIC_RELEASE);
        while (__atomic_load_n(&consumed, __ATOMIC_ACQUIRE) != r)
            ;
    }
    pthread_join(t, NULL);
    return total == 0;
}
