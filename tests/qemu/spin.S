// SPDX-License-Identifier: BSD-3-Clause
// A hot loop in a named function, the last of the text (issue 44, part 7):
// the loop's backward branch B is spin's last instruction, so the address
// after it is outside every function of the program. N = 3000000
// iterations of 5 instructions (CBZ, SUB, ADD, EOR, B): at the default
// interval, about 15000 records, several Profiling Buffers full (part 6).
//   instructions: _start 3 + BL + MOV, MOV, SVC = 6; spin B 1f, 5N, the
//   last CBZ and RET = 5N + 3: 15000009. branches: BL, B 1f, 2N, CBZ, RET
//   = 6000004.
// PC sampling samples branch targets (H7.1): every branch taken in the
// loop goes to an instruction of spin, so nearly every PC sample is spin's
// (a few may be _start's, before the loop); none is after spin.
        .equ    N, 3000000
        .global _start, spin
        .text
        .type   _start, %function
_start:
        mov     x0, #(N & 0xffff)
        movk    x0, #(N >> 16), lsl #16
        bl      spin
        mov     x0, #0
        mov     x8, #93
        svc     #0
        .size   _start, . - _start
        .type   spin, %function
spin:
        b       1f
0:      ret
1:      cbz     x0, 0b
        sub     x0, x0, #1
        add     x4, x4, x0
        eor     x5, x5, x4
        b       1b
        .size   spin, . - spin
