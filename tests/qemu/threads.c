/* SPDX-License-Identifier: BSD-3-Clause */
/* Three threads, each a loop of 2 instructions (SUBS, B.NE) run N = 200000
 * times: each worker's thread counts at least 2N = 400000 instructions and
 * N = 200000 branches (its start and end in the C library add some). */
#include <pthread.h>
#include <stdio.h>

#define N 200000

static void *worker(void *arg)
{
    long n = (long)arg;
    __asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(long)N) != 0) return 1;
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    puts("done");
    return 0;
}
