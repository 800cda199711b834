/* SPDX-License-Identifier: BSD-3-Clause */
/* The guest's workload for the symbol test (tests/qemu-system/symbols.sh):
 * three functions, each the only one rich in one kind of operation, so that
 * with SPE's load, branch or store filter the function perf names first is
 * known from the code alone:
 *   load_heavy    8 loads an iteration, 1 branch, no store
 *   branch_heavy  9 branches an iteration, no load, no store
 *   store_heavy   8 stores an iteration, 1 branch, no load
 * Built static with the cross compiler (aarch64-linux-gnu-gcc -static).
 *   spe_hot          runs the three
 *   spe_hot counter  prints CNTVCT_EL0 and CNTFRQ_EL0 (Linux lets EL0 read
 *                    them), one "counter VALUE FREQUENCY" line */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define WORDS  4096u
#define ROUNDS 100u

static long words[WORDS];

__attribute__((noinline, noclone)) static long load_heavy(void)
{
    long sum = 0;
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (unsigned i = 0; i < WORDS; i += 8) {
            const volatile long *p = words + i;
            sum += p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7];
        }
    }
    return sum;
}

__attribute__((noinline, noclone)) static void store_heavy(long value)
{
    for (unsigned r = 0; r < ROUNDS; r++) {
        for (unsigned i = 0; i < WORDS; i += 8) {
            volatile long *p = words + i;
            p[0] = value;
            p[1] = value;
            p[2] = value;
            p[3] = value;
            p[4] = value;
            p[5] = value;
            p[6] = value;
            p[7] = value;
        }
    }
}

/* eight taken branches in a row, in registers only: the compiler can
 * neither fold them nor turn them into loads or stores */
__attribute__((noinline, noclone)) static void branch_heavy(void)
{
    for (unsigned r = 0; r < ROUNDS * WORDS / 8; r++) {
        __asm__ volatile("b 1f\n1: b 2f\n2: b 3f\n3: b 4f\n4: b 5f\n5: b 6f\n6: b 7f\n7: b 8f\n8:");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "counter") == 0) {
        uint64_t count, frequency;
        __asm__ volatile("isb\n mrs %0, cntvct_el0" : "=r"(count));
        __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frequency));
        printf("counter %llu %llu\n", (unsigned long long)count, (unsigned long long)frequency);
        return 0;
    }
    store_heavy(3);
    branch_heavy();
    printf("spe_hot: %ld\n", load_heavy());
    return 0;
}
