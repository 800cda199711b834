// SPDX-License-Identifier: BSD-3-Clause
// A counted loop, no C library: what the PMU must count is read off the
// text. N = 200000 iterations of 5 instructions (1 load, 1 store, 1
// branch), 3 before and 3 after:
//   instructions 3 + 5N + 3 = 1000006, branches N, loads N, stores N.
        .equ    N, 200000
        .global _start
        .text
_start:
        adr     x2, counter             // other
        mov     x0, #(N & 0xffff)       // other (MOVZ)
        movk    x0, #(N >> 16), lsl #16 // other
loop:
        ldr     x1, [x2]                // load
        add     x1, x1, #1              // other
        str     x1, [x2]                // store
        subs    x0, x0, #1              // other
        b.ne    loop                    // branch
        mov     x0, #0                  // other
        mov     x8, #93                 // exit
        svc     #0                      // other (exception generating)
        .data
        .balign 64
counter:
        .quad   0
