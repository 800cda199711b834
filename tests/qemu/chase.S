// SPDX-License-Identifier: BSD-3-Clause
// A pointer chase through 64 nodes of 64 bytes (node i points to node
// (17i + 1) mod 64, one cycle through all 64). N = 100000 steps of 3
// instructions (1 load, 1 branch), 3 before, 3 after:
//   instructions 3 + 3N + 3 = 300006, branches N, loads N, stores 0.
// Every sampled load's data address lies in [nodes, nodes + 4096).
        .equ    N, 100000
        .global _start
        .text
_start:
        adr     x1, nodes               // other
        mov     x0, #(N & 0xffff)       // other
        movk    x0, #(N >> 16), lsl #16 // other
step:
        ldr     x1, [x1]                // load
        subs    x0, x0, #1              // other
        b.ne    step                    // branch
        mov     x0, #0
        mov     x8, #93
        svc     #0
        .data
        .balign 4096
        .global nodes
nodes:
        .set    i, 0
        .rept   64
        .quad   nodes + ((i * 17 + 1) % 64) * 64
        .space  56
        .set    i, i + 1
        .endr
        .global nodes_end
nodes_end:
