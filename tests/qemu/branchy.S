// SPDX-License-Identifier: BSD-3-Clause
// A branchy kernel: each of N = 20000 iterations calls hot three times and
// cold once; both take a data-dependent conditional branch.

//   branches; hot 8 instructions (3 branches: B.EQ, B, RET... see below).
// hot (8): TST, B.EQ (taken when bit 0 of x3 is 0), ADD, ADD, ADD, ADD,
//   EOR, RET; the B.EQ skips nothing (its target is the next instruction,
//   so the count does not depend on the outcome): branches 2.
// cold (8): the same, on bit 1.
// Per iteration: 7 + 3 * 8 + 8 = 39 instructions, 5 + 4 * 2 = 13 branches.
//   instructions 3 + 39N + 3 = 780006, branches 13N = 260000, loads 0,
//   stores 0. Sampled PCs: hot's share 24/39 = 61.5%, cold's 8/39 = 20.5%.
        .equ    N, 20000
        .global _start, hot, cold
        .text
_start:
        mov     x3, #0                  // other
        mov     x0, #(N & 0xffff)       // other
        movk    x0, #(N >> 16), lsl #16 // other
iter:
        bl      hot                     // branch
        bl      hot                     // branch
        bl      hot                     // branch
        bl      cold                    // branch
        add     x3, x3, #1              // other
        subs    x0, x0, #1              // other
        b.ne    iter                    // branch
        mov     x0, #0
        mov     x8, #93
        svc     #0
        .balign 64
hot:
        tst     x3, #1
        b.eq    1f
1:      add     x4, x4, #1
        add     x5, x5, x4
        add     x6, x6, x5
        add     x7, x7, x6
        eor     x4, x4, x7
        ret
        .balign 64
cold:
        tst     x3, #2
        b.eq    2f
2:      add     x4, x4, #2
        add     x5, x5, x4
        add     x6, x6, x5
        add     x7, x7, x6
        eor     x4, x4, x7
        ret
