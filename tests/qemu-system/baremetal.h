/* SPDX-License-Identifier: BSD-3-Clause */
/* What the bare-metal test programs (snapshot.c, pmu_traps.c) share: run on
 * the virt machine with -kernel at EL1 (or EL2 with virtualization=on), the
 * MMU off, output on the PL011 UART, the exit status through semihosting
 * SYS_EXIT. Each program defines baremetal_main(); the entry code here
 * gives it a stack and the vectors (VBAR_EL1, and VBAR_EL2 at EL2):
 *   - a synchronous exception from the current Exception level, or one from
 *     the level below but an SVC or HVC, is counted in `exceptions`, its
 *     syndrome kept in `last_esr` and the level that took it in
 *     `exception_el`, and returns past the instruction;
 *   - an SVC from EL0 (to EL1) or an HVC from EL1 (to EL2) ends
 *     run_lower(): the way back from code run at the level below;
 *   - an IRQ from the level below goes to irq_lower, which a program that
 *     defines BAREMETAL_IRQ_LOWER gives (irq_reentry.c);
 *   - anything else stops the PE (wfi). */
#ifndef ARMPROF_TESTS_BAREMETAL_H
#define ARMPROF_TESTS_BAREMETAL_H

#include <stdbool.h>
#include <stdint.h>

#define UART_DR 0x09000000ul

#define MRS(reg)                                                                                   \
    ({                                                                                             \
        uint64_t v_;                                                                               \
        __asm__ volatile("mrs %0, " reg : "=r"(v_)::"memory");                                     \
        v_;                                                                                        \
    })
#define MSR(reg, v) __asm__ volatile("msr " reg ", %0\n\tisb" ::"r"((uint64_t)(v)) : "memory")

/* The exception handler's (see above) */
volatile uint64_t last_esr, exceptions, exception_el;

/* The syndrome of the synchronous exception that insn took, or
 * NO_EXCEPTION; insn may use x0 and x2. */
#define NO_EXCEPTION (~0ull)
#define SYNDROME(insn)                                                                             \
    ({                                                                                             \
        const uint64_t before_ = exceptions;                                                       \
        __asm__ volatile(insn ::: "x0", "x2", "memory");                                           \
        exceptions != before_ ? last_esr : NO_EXCEPTION;                                           \
    })

/* Whether an access was UNDEFINED: a synchronous exception with EC 0x00
 * (Unknown reason) taken by the instruction. */
#define UNDEFINED(insn)                                                                            \
    ({                                                                                             \
        const uint64_t esr_ = SYNDROME(insn);                                                      \
        esr_ != NO_EXCEPTION && (esr_ >> 26) == 0;                                                 \
    })

static inline void put_char(char c)
{
    *(volatile uint32_t *)UART_DR = (uint32_t)c;
}

static inline void put_str(const char *s)
{
    while (*s)
        put_char(*s++);
}

static inline void put_hex(uint64_t v)
{
    put_str("0x");
    for (int shift = 60; shift >= 0; shift -= 4)
        put_char("0123456789abcdef"[(v >> shift) & 15]);
}

static inline void put_dec(uint64_t v)
{
    char digits[20];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        put_char(digits[--n]);
}

/* Written by check() at any Exception level (memory is flat with the MMU
 * off, at EL0 too) */
volatile unsigned checks, failed;

static inline void check(const char *what, uint64_t got, uint64_t want)
{
    checks++;
    if (got != want) failed++;
    put_str(got == want ? "ok   " : "FAIL ");
    put_str(what);
    put_str(": ");
    put_hex(got);
    if (got != want) {
        put_str(", want ");
        put_hex(want);
    }
    put_str("\n");
}

static inline void semihosting_exit(unsigned status)
{
    /* SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit and the status */
    static volatile uint64_t block[2];
    block[0] = 0x20026;
    block[1] = status;
    register uint64_t x0 __asm__("x0") = 0x18;
    register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;
    __asm__ volatile("hlt #0xf000" ::"r"(x0), "r"(x1) : "memory");
    for (;;)
        __asm__ volatile("wfi");
}

/* The summary line and the exit status: the number of failed checks */
static inline void finish(const char *program)
{
    put_str(program);
    put_str(": ");
    put_dec(checks);
    put_str(" checks, ");
    put_dec(failed);
    put_str(" failed\n");
    semihosting_exit(failed);
}

/* Whether the semihosting command line (SYS_GET_CMDLINE, 0x15: the
 * runner's -semihosting-config arg= values, the -cpu options it added)
 * holds word */
static inline bool cmdline_has(const char *word)
{
    static volatile char line[256];
    static volatile uint64_t block[2];
    block[0] = (uint64_t)(uintptr_t)line;
    block[1] = sizeof line;
    register uint64_t x0 __asm__("x0") = 0x15;
    register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    if (x0 != 0) return false;
    for (uint64_t i = 0; i < block[1]; i++) {
        uint64_t j = 0;
        while (word[j] && i + j < block[1] && line[i + j] == word[j])
            j++;
        if (!word[j]) return true;
    }
    return false;
}

/* Runs fn at the Exception level below the current one (EL0t from EL1,
 * EL1h from EL2: SPSR M[3:0] 0b0000 or 0b0101, DAIF masked) on a stack of
 * its own, and returns when fn does: fn's return address is an SVC (or
 * HVC), which the vectors turn into this function's return. */
void run_lower(void (*fn)(void));

void baremetal_main(void);

__asm__(".section .text.start, \"ax\"\n"
        ".global _start\n"
        "_start:\n"
        "    ldr x0, =stack_top\n"
        "    mov sp, x0\n"
        "    ldr x0, =vectors\n"
        "    msr vbar_el1, x0\n"
        "    mrs x1, CurrentEL\n"
        "    cmp x1, #8\n"
        "    b.ne 2f\n"
        "    msr vbar_el2, x0\n"
        "2:  isb\n"
        "    bl baremetal_main\n"
        "1:  wfi\n"
        "    b 1b\n"
        ".text\n"
        ".global run_lower\n"
        "run_lower:\n"
        "    ldr x9, =lower_saved\n"
        "    stp x19, x20, [x9, #0]\n"
        "    stp x21, x22, [x9, #16]\n"
        "    stp x23, x24, [x9, #32]\n"
        "    stp x25, x26, [x9, #48]\n"
        "    stp x27, x28, [x9, #64]\n"
        "    stp x29, x30, [x9, #80]\n"
        "    mov x10, sp\n"
        "    str x10, [x9, #96]\n"
        "    ldr x2, =lower_stack_top\n"
        "    mrs x10, CurrentEL\n"
        "    cmp x10, #8\n"
        "    b.eq 1f\n"
        "    msr sp_el0, x2\n"
        "    msr elr_el1, x0\n"
        "    mov x10, #0x3c0\n" /* EL0t, DAIF masked */
        "    msr spsr_el1, x10\n"
        "    ldr x30, =lower_svc\n"
        "    eret\n"
        "1:  msr sp_el1, x2\n"
        "    msr elr_el2, x0\n"
        "    mov x10, #0x3c5\n" /* EL1h, DAIF masked */
        "    msr spsr_el2, x10\n"
        "    ldr x30, =lower_hvc\n"
        "    eret\n"
        "lower_svc:\n"
        "    svc #0\n"
        "lower_hvc:\n"
        "    hvc #0\n"
        ".balign 2048\n"
        "vectors:\n"
        ".rept 4\n" /* current EL with SP0: not used */
        "    b .\n"
        "    .balign 128\n"
        ".endr\n"
        "    b sync_exception\n" /* current EL with SPx, synchronous */
        "    .balign 128\n"
        ".rept 3\n"
        "    b .\n"
        "    .balign 128\n"
        ".endr\n"
        "    b sync_lower\n" /* lower EL in AArch64, synchronous */
        "    .balign 128\n"
        "    b irq_lower\n" /* lower EL in AArch64, IRQ */
        "    .balign 128\n"
        ".rept 6\n"
        "    b .\n"
        "    .balign 128\n"
        ".endr\n"
        /* an SVC (EC 0x15) or HVC (EC 0x16) from below returns from
         * run_lower() */
        "sync_lower:\n"
        "    stp x9, x10, [sp, #-16]!\n"
        "    mrs x9, CurrentEL\n"
        "    cmp x9, #8\n"
        "    b.eq 4f\n"
        "    mrs x9, esr_el1\n"
        "    b 5f\n"
        "4:  mrs x9, esr_el2\n"
        "5:  lsr x9, x9, #26\n"
        "    cmp x9, #0x15\n"
        "    b.eq 6f\n"
        "    cmp x9, #0x16\n"
        "    b.eq 6f\n"
        "    ldp x9, x10, [sp], #16\n"
        "    b sync_exception\n"
        "6:  ldr x9, =lower_saved\n"
        "    ldp x19, x20, [x9, #0]\n"
        "    ldp x21, x22, [x9, #16]\n"
        "    ldp x23, x24, [x9, #32]\n"
        "    ldp x25, x26, [x9, #48]\n"
        "    ldp x27, x28, [x9, #64]\n"
        "    ldp x29, x30, [x9, #80]\n"
        "    ldr x10, [x9, #96]\n"
        "    mov sp, x10\n"
        "    ret\n"
        "sync_exception:\n"
        "    stp x9, x10, [sp, #-16]!\n"
        "    ldr x10, =exceptions\n"
        "    ldr x9, [x10]\n"
        "    add x9, x9, #1\n"
        "    str x9, [x10]\n"
        "    mrs x9, CurrentEL\n"
        "    lsr x9, x9, #2\n"
        "    ldr x10, =exception_el\n"
        "    str x9, [x10]\n"
        "    ldr x10, =last_esr\n"
        "    cmp x9, #2\n"
        "    b.eq 3f\n"
        "    mrs x9, esr_el1\n"
        "    str x9, [x10]\n"
        "    mrs x9, elr_el1\n"
        "    add x9, x9, #4\n"
        "    msr elr_el1, x9\n"
        "    ldp x9, x10, [sp], #16\n"
        "    eret\n"
        "3:  mrs x9, esr_el2\n"
        "    str x9, [x10]\n"
        "    mrs x9, elr_el2\n"
        "    add x9, x9, #4\n"
        "    msr elr_el2, x9\n"
        "    ldp x9, x10, [sp], #16\n"
        "    eret\n"
        ".ltorg\n"
        ".bss\n"
        ".balign 16\n"
        "lower_saved:\n"
        "    .space 112\n"
        ".balign 16\n"
        "    .space 16384\n"
        "stack_top:\n"
        "    .space 8192\n"
        "lower_stack_top:\n"
        ".text\n");

/* An IRQ from the level below: a program that takes them defines
 * BAREMETAL_IRQ_LOWER and irq_lower; the others stop there. */
#ifndef BAREMETAL_IRQ_LOWER
__asm__(".text\n"
        "irq_lower:\n"
        "    b .\n");
#endif

#endif
