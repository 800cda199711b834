// SPDX-License-Identifier: BSD-3-Clause
// SVE in a counted loop: N = 50000 iterations of a contiguous SVE load
// (LD1D, a load), an SVE add (data processing), SUBS and B.NE; 4 before,
// 3 after: instructions 4 + 4N + 3 = 200007, branches N, loads N, stores 0.
// Every sampled SVE operation records the vector length the thread runs
// with (the EVL field): qemu-user's -cpu max starts at 64 bytes (512 bits)
// unless -cpu sets sve-default-vector-length.
        .equ    N, 50000
        .arch   armv8.2-a+sve
        .global _start
        .text
_start:
        adr     x1, data                // other
        mov     x0, #(N & 0xffff)       // other
        movk    x0, #(N >> 16), lsl #16 // other
        ptrue   p0.d                    // other (SVE)
loop:
        ld1d    {z0.d}, p0/z, [x1]      // load (SVE)
        add     z1.d, z1.d, z0.d        // other (SVE)
        subs    x0, x0, #1              // other
        b.ne    loop                    // branch
        mov     x0, #0
        mov     x8, #93
        svc     #0
        .data
        .balign 256
        .global data
data:
        .space  256
        .global data_end
data_end:
