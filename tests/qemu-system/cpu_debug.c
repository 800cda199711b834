/* SPDX-License-Identifier: BSD-3-Clause */
/* The guest's program for the external debug test
 * (tests/qemu-system/cpu_debug.sh). Built static with the cross compiler
 * (aarch64-linux-gnu-gcc -static), not position-independent, so that its
 * functions are where the host's nm says.
 *   cpu_debug spin CPU          pins itself to CPU and spins in spin()
 *                               forever, after one line
 *                               "spin pid PID cpu CPU"
 *   cpu_debug read ADDR         a 32-bit read of physical ADDR through
 *                               /dev/mem: "read ADDR VALUE", or
 *                               "read ADDR SIGBUS" when the bus refuses it
 *   cpu_debug write ADDR VALUE  the same for a write: "write ADDR VALUE ok"
 *                               or "... SIGBUS"
 *   cpu_debug sample BASE       the PC sample of the debug block at BASE, as
 *                               an external debugger takes it: EDPCSR[31:0]
 *                               first (its read captures the others), then
 *                               EDPCSR[63:32], EDCIDSR, EDVIDSR: "sample
 *                               BASE EDPCSR EDPCSRHI EDCIDSR EDVIDSR", each
 *                               a number or SIGBUS
 * Addresses and values in hexadecimal (0x...). Exits 0 when it could
 * access /dev/mem (a SIGBUS is an answer, not a failure), 2 otherwise. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* offsets in the external debug block (the manual's H9.2 register pages) */
#define EDPCSR_LO 0x0A0u
#define EDCIDSR   0x0A4u
#define EDVIDSR   0x0A8u
#define EDPCSR_HI 0x0ACu
#define EDLAR     0xFB0u
/* the CoreSight Software Lock's key: what Linux's CS_UNLOCK writes */
#define EDLAR_KEY 0xC5ACCE55u

static sigjmp_buf bus_error;

static void on_sigbus(int sig)
{
    (void)sig;
    siglongjmp(bus_error, 1);
}

__attribute__((noinline, noclone)) static void spin(void)
{
    for (;;) {
        __asm__ volatile("" ::: "memory");
    }
}

/* the mapping of the page that holds physical address addr, and addr in it */
static volatile uint32_t *map(uint64_t addr)
{
    long page = sysconf(_SC_PAGESIZE);
    int fd = open("/dev/mem", O_RDWR | O_SYNC);
    if (fd < 0) {
        fprintf(stderr, "cpu_debug: /dev/mem: %s\n", strerror(errno));
        exit(2);
    }
    uint64_t base = addr & ~(uint64_t)(page - 1);
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)base);
    if (p == MAP_FAILED) {
        fprintf(stderr, "cpu_debug: mmap of /dev/mem at 0x%" PRIx64 ": %s\n", base,
                strerror(errno));
        exit(2);
    }
    close(fd);
    return (volatile uint32_t *)((char *)p + (addr - base));
}

/* one access each, so that the host knows where the load or store is */
__attribute__((noinline, noclone)) static uint32_t load32(volatile uint32_t *p)
{
    return *p;
}

__attribute__((noinline, noclone)) static void store32(volatile uint32_t *p, uint32_t v)
{
    *p = v;
}

/* "0x%08x" or "SIGBUS" into text */
static void read_text(volatile uint32_t *p, char *text, size_t size)
{
    if (sigsetjmp(bus_error, 1) == 0) {
        uint32_t v = load32(p);
        snprintf(text, size, "0x%08" PRIx32, v);
    } else {
        snprintf(text, size, "SIGBUS");
    }
}

static uint64_t number(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *end != '\0') {
        fprintf(stderr, "cpu_debug: not a number: '%s'\n", s);
        exit(2);
    }
    return v;
}

static int usage(void)
{
    fprintf(stderr, "usage: cpu_debug spin CPU | read ADDR | write ADDR VALUE | sample BASE\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigaction(SIGBUS, &sa, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (argc == 3 && strcmp(argv[1], "spin") == 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)number(argv[2]), &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            fprintf(stderr, "cpu_debug: sched_setaffinity: %s\n", strerror(errno));
            return 2;
        }
        printf("spin pid %d cpu %d\n", (int)getpid(), sched_getcpu());
        spin();
    }
    if (argc == 3 && strcmp(argv[1], "read") == 0) {
        char text[16];
        read_text(map(number(argv[2])), text, sizeof text);
        printf("read %s %s\n", argv[2], text);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "write") == 0) {
        volatile uint32_t *p = map(number(argv[2]));
        uint32_t v = (uint32_t)number(argv[3]);
        if (sigsetjmp(bus_error, 1) == 0) {
            store32(p, v);
            printf("write %s %s ok\n", argv[2], argv[3]);
        } else {
            printf("write %s %s SIGBUS\n", argv[2], argv[3]);
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "sample") == 0) {
        uint64_t base = number(argv[2]);
        volatile uint32_t *block = map(base);
        char lo[16], hi[16], cid[16], vid[16];
        /* the OPTIONAL Software Lock, if the block has one, would keep the
         * read of EDPCSR[31:0] from capturing the others (EDPCSR page) */
        if (sigsetjmp(bus_error, 1) == 0) store32(block + EDLAR / 4, EDLAR_KEY);
        read_text(block + EDPCSR_LO / 4, lo, sizeof lo);
        read_text(block + EDPCSR_HI / 4, hi, sizeof hi);
        read_text(block + EDCIDSR / 4, cid, sizeof cid);
        read_text(block + EDVIDSR / 4, vid, sizeof vid);
        printf("sample %s %s %s %s %s\n", argv[2], lo, hi, cid, vid);
        return 0;
    }
    return usage();
}
