/* SPDX-License-Identifier: BSD-3-Clause */
/* The guest's workload for the PC sampler's test
 * (tests/qemu-system/pcsample.sh), built static with the cross compiler:
 *   pcs_work spin SECONDS     runs pcs_spin, a loop of multiplications and
 *                             additions with no load, store or call, for
 *                             SECONDS: the process's time is in it
 *   pcs_work syscall SECONDS  reads 1 MiB from /dev/zero (svc in a loop
 *                             of a few instructions) again and again for
 *                             SECONDS: the process's time is in the
 *                             kernel, most of it zeroing the buffer
 *                             (65536 16-byte stores a call), the rest in
 *                             its entry and exit
 * Each prints "armprof-guest: pcs_work MODE pid PID" first. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NR_READ 63 /* the AArch64 Linux system call number */
#define CHUNK   (1u << 20)

static volatile uint64_t sink;
static char buffer[CHUNK];

__attribute__((noinline, noclone)) static uint64_t pcs_spin(uint64_t n)
{
    uint64_t x = n;
    for (uint64_t i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

__attribute__((noinline, noclone)) static void pcs_syscalls(int fd, uint64_t n)
{
    for (; n; n--) {
        register uint64_t x8 __asm__("x8") = NR_READ;
        register uint64_t x0 __asm__("x0") = (uint64_t)fd;
        register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)buffer;
        register uint64_t x2 __asm__("x2") = CHUNK;
        __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
        sink = x0;
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "spin") && strcmp(argv[1], "syscall"))) {
        fprintf(stderr, "usage: pcs_work spin|syscall SECONDS\n");
        return 2;
    }
    const int spin = !strcmp(argv[1], "spin");
    const int fd = spin ? -1 : open("/dev/zero", O_RDONLY);
    if (!spin && fd < 0) {
        perror("/dev/zero");
        return 1;
    }
    printf("armprof-guest: pcs_work %s pid %d\n", argv[1], (int)getpid());
    fflush(stdout);
    const time_t end = time(NULL) + atoi(argv[2]);
    while (time(NULL) < end) {
        if (spin)
            sink = pcs_spin(1u << 20);
        else
            pcs_syscalls(fd, 4);
    }
    return 0;
}
