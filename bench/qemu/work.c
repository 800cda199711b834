/* SPDX-License-Identifier: BSD-3-Clause */
/* The QEMU plugin benchmark's guest program (bench/qemu.sh): a mix of
 * what programs do, about 400 million instructions at the default size:
 * a streaming sum over an array, a pointer chase, a branchy sort step and
 * a byte copy. Argument: a size multiplier (default 1). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1u << 16)

static uint64_t a[N];
static uint32_t next[N];
static uint8_t src[N], dst[N];

int main(int argc, char **argv)
{
    const unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    uint64_t x = 88172645463325252ull, sum = 0;
    for (unsigned i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = x;
        next[i] = (uint32_t)((i * 40503u + 1) % N);
        src[i] = (uint8_t)x;
    }
    for (unsigned r = 0; r < 60 * scale; r++) {
        for (unsigned i = 0; i < N; i++) sum += a[i] ^ r; /* stream */
        uint32_t p = r;
        for (unsigned i = 0; i < N / 4; i++) p = next[p]; /* chase */
        sum += p;
        for (unsigned i = 1; i < N; i++)                  /* branchy */
            if (a[i - 1] > a[i]) sum++;
            else sum += 2;
        memcpy(dst, src + (r & 63), N - 64); /* copy */
        sum += dst[r & 1023];
    }
    printf("%llu\n", (unsigned long long)sum);
    return 0;
}
