// SPDX-License-Identifier: BSD-3-Clause
// The guest's workload for the qemu-system record tests of the operation
// type filters, the data source filter and jitter
// (tests/qemu-system/record.sh), no C library. Each iteration is 25
// instructions (the loop's 23 and leaf's 2). SPEToCollectSample() samples
// the operation that takes PMSICR_EL1.COUNT to 0 and reloads COUNT on the
// next one, so without jitter one sample is taken every INTERVAL + 1
// operations: with INTERVAL 1024, every 41 iterations (1025 = 41 * 25), at
// the same instruction each time. Their types as PMSFCR_EL1's filter
// defines them (D17.8.3, "The operation types"), flags {SIMD, FP, ST, LD, B}:
//   ldr x1          LD                 general-purpose load
//   str x1          ST
//   ldadd           LD ST              an atomic that returns a value
//   fadd d0         FP                 scalar floating-point data processing
//   add v0.4s       SIMD               Advanced SIMD data processing
//   fmla v3.4s      SIMD FP            both
//   ldr q4          LD SIMD            scalar load of a Q register
//   str d0          ST FP              scalar store of a SIMD&FP register, not Q
//   ldr x9          LD                 a new line of a 1 MB buffer each time,
//                                      so not always data source 0 (L1)
//   bl, ret, b.ne   B
//   the rest        none
// record.sh names the two SIMD&FP accesses to its checker by address
// (loop + 0x1c and loop + 0x20): their Operation Type packet alone does
// not say FP or SIMD.
        .arch   armv8.1-a+fp+simd
        .equ    N, 50000
        .global _start
        .text
_start:
        adr     x2, data
        add     x5, x2, #8
        adr     x11, big
        mov     x10, #0
        mov     x0, #(N & 0xffff)
        movk    x0, #(N >> 16), lsl #16
        mov     x3, #1
        fmov    d1, #1.0
        movi    v2.4s, #1
        .balign 128
loop:
        ldr     x1, [x2]
        add     x1, x1, #1
        str     x1, [x2]
        ldadd   x3, x4, [x5]
        fadd    d0, d0, d1
        add     v0.4s, v0.4s, v2.4s
        fmla    v3.4s, v2.4s, v2.4s
        ldr     q4, [x2, #16]
        str     d0, [x2, #32]
        add     x10, x10, #64
        and     x10, x10, #0xfffc0
        ldr     x9, [x11, x10]
        add     x6, x6, #1
        add     x6, x6, #1
        add     x6, x6, #1
        add     x6, x6, #1
        add     x6, x6, #1
        add     x6, x6, #1
        add     x6, x6, #1
        add     x6, x6, #1
        bl      leaf                    // branch with link
        subs    x0, x0, #1
        b.ne    loop                    // 25 with leaf's 2
        mov     x0, #0
        mov     x8, #93
        svc     #0
leaf:
        add     x7, x7, #1
        ret
        .data
        .balign 64
data:
        .fill   8, 8, 0
        .bss
        .balign 64
big:
        .skip   1048576
