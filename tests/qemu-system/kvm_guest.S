/* SPDX-License-Identifier: BSD-3-Clause */
/* The bare-metal program tests/qemu-system/kvm_vmm.c runs in a KVM guest
 * at EL1 (MMU off), copied from kvm_guest_start..kvm_guest_end to the
 * start of the guest's memory: position-independent (PC-relative only)
 * and its vector table 2 KB aligned relative to kvm_guest_start.
 *
 * It reports through stores to the MMIO page KVM_GUEST_MMIO (no memory
 * slot there: each store is a KVM_EXIT_MMIO the VMM decodes):
 *   +0x00  the number of the item that follows (kvm_vmm.c's names)
 *   +0x08  its value (for a register: what MRS gave, or the poison
 *          0xdeadbeefdeadbeef when the MRS was skipped by the handler)
 *   +0x10  ESR_EL1 of a synchronous exception the vector caught
 *   +0x18  done
 *   +0x20  an exception at an unexpected vector: its offset in the table
 *   +0x28  the MSR of the item went through (no exception)
 *   +0x30  the address of the item's MRS or MSR (before it runs)
 *   +0x38  ELR_EL1 of a synchronous exception (before its ESR_EL1)
 *   +0x40  the known loop ran once more (X19 times in all: the VMM's
 *          "repeat" mode, an exit to the host, a world switch, each time)
 *
 * Items: 1 the loop's sum, then the registers (2 ...) in kvm_vmm.c's
 * order. A synchronous exception (an UNDEFINED MRS that KVM injects, or
 * one the PE takes) is reported and the instruction skipped: ELR_EL1 + 4. */
#include "kvm_guest.h"

	.section .text.kvm_guest, "ax"
	.balign 2048
	.global kvm_guest_start
kvm_guest_start:
	b	start

	KVM_VECTORS

start:
	adr	x0, vectors
	msr	vbar_el1, x0
	isb
	mov	x20, #KVM_GUEST_MMIO
	movz	x21, #0xbeef
	movk	x21, #0xdead, lsl #16
	movk	x21, #0xbeef, lsl #32
	movk	x21, #0xdead, lsl #48

	/* the known loop, X19 times (the VMM sets it; 0 is once), each
	 * but the last followed by an exit: 1 + 2 + ... + 1000 = 500500 */
	cmp	x19, #1
	csinc	x19, x19, xzr, hi	/* x19 = max(x19, 1) */
3:	mov	x1, #0
	mov	x2, #1000
1:	add	x1, x1, x2
	subs	x2, x2, #1
	b.ne	1b
	subs	x19, x19, #1
	b.eq	4f
	str	x19, [x20, #0x40]
	b	3b
4:	mov	x0, #1
	str	x0, [x20]
	str	x1, [x20, #8]

	read	2, S3_0_C0_C5_0		/* ID_AA64DFR0_EL1 */
	read	3, S3_0_C9_C9_0		/* PMSCR_EL1 */
	read	4, S3_0_C9_C9_7		/* PMSIDR_EL1 */
	read	5, S3_0_C9_C10_0	/* PMBLIMITR_EL1 */
	read	6, S3_0_C9_C10_1	/* PMBPTR_EL1 */
	read	7, S3_0_C9_C10_3	/* PMBSR_EL1 */
	read	8, S3_0_C9_C10_7	/* PMBIDR_EL1 */
	read	9, S3_0_C9_C13_3	/* PMSSCR_EL1 */
	read	10, S2_0_C14_C11_7	/* PMCCNTSVR_EL1 */
	read	11, S3_0_C9_C14_5	/* PMECR_EL1 */
	read	12, S3_3_C9_C12_0	/* PMCR_EL0 */
	/* PMSSCR_EL1.SS 1: a request for a Capture event */
	write	13, S3_0_C9_C13_3, 1, 0
	read	14, S3_0_C9_C13_3	/* PMSSCR_EL1 after the request */
	/* PMSCR_EL1.E1SPE 1 (bit 1): sampling at EL1 */
	write	15, S3_0_C9_C9_0, 2, 0
	/* what would stop the host's Profiling Buffer if it reached it:
	 * PMBLIMITR_EL1.E 0, PMBPTR_EL1 0, PMBSR_EL1.S 1 (bit 17) */
	write	16, S3_0_C9_C10_0, 0, 0
	write	17, S3_0_C9_C10_1, 0, 0
	write	18, S3_0_C9_C10_3, 2, 16

	str	xzr, [x20, #0x18]
2:	wfi
	b	2b
	.global kvm_guest_end
kvm_guest_end:
