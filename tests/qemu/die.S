// SPDX-License-Identifier: BSD-3-Clause
// Work, then death by a signal (issue 44, part 8): N = 3000000 iterations
// of SUBS and B.NE (6 10^6 instructions: several Profiling Buffers of
// records at the default interval, and a part-filled one at the end), then
// with no argument a load from address 0 (SIGSEGV), with one
// kill(getpid(), SIGABRT). No handler is installed: both are fatal.
        .equ    N, 3000000
        .global _start
        .text
_start:
        ldr     x9, [sp]                // argc
        mov     x0, #(N & 0xffff)
        movk    x0, #(N >> 16), lsl #16
1:      subs    x0, x0, #1
        b.ne    1b
        cmp     x9, #1
        b.ne    2f
        mov     x1, #0
        ldr     x2, [x1]                // SIGSEGV
2:      mov     x8, #172                // getpid
        svc     #0
        mov     x1, #6                  // SIGABRT
        mov     x8, #129                // kill
        svc     #0
        mov     x0, #0
        mov     x8, #93                 // exit, should the signal not come
        svc     #0
