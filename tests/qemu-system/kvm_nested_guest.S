/* SPDX-License-Identifier: BSD-3-Clause */
/* The bare-metal guest hypervisor kvm_vmm's "nested" mode runs: the vCPU
 * has KVM_ARM_VCPU_HAS_EL2 and starts at (virtual) EL2h, MMU off, with
 * HCR_EL2.E2H 1 (KVM's nested virtualization gives a VHE guest hypervisor
 * unless asked for E2H0), so its EL1 register names reach the EL2
 * registers (VBAR_EL1 is VBAR_EL2, ESR_EL1 ESR_EL2, PMSCR_EL1 PMSCR_EL2)
 * and the EL12 names the EL1 ones. It reports through the MMIO page as
 * kvm_guest.S does (+0x00 the item, +0x08 a value, +0x10 ESR, +0x38 ELR,
 * +0x30 the instruction's address, +0x28 an MSR went through, +0x18 done,
 * +0x20 an exception at an unexpected vector).
 *
 * Items (kvm_vmm.c's nested_items): 1 CurrentEL, 2 HCR_EL2, 3
 * ID_AA64DFR0_EL1, then MRS of PMSCR_EL2, PMSCR_EL1 (PMSCR_EL2 under E2H),
 * PMSCR_EL12 (PMSCR_EL1), PMBLIMITR_EL1, an MSR of PMSCR_EL2 (TS and
 * E0HSPE, 0x21) and of PMSCR_EL12 (0x21), and PMSCR_EL2 and PMSCR_EL12
 * read after them. */
#include "kvm_guest.h"

	.section .text.kvm_nested_guest, "ax"
	.balign 2048
	.global kvm_nested_guest_start
kvm_nested_guest_start:
	b	start

	KVM_VECTORS

start:
	mov	x20, #KVM_GUEST_MMIO
	adr	x0, vectors
	msr	vbar_el1, x0		/* VBAR_EL2 (E2H) */
	isb
	movz	x21, #0xbeef
	movk	x21, #0xdead, lsl #16
	movk	x21, #0xbeef, lsl #32
	movk	x21, #0xdead, lsl #48
	read	1, CurrentEL
	read	2, hcr_el2
	read	3, S3_0_C0_C5_0		/* ID_AA64DFR0_EL1 */
	read	4, S3_4_C9_C9_0		/* PMSCR_EL2 */
	read	5, S3_0_C9_C9_0		/* PMSCR_EL1: PMSCR_EL2 under E2H */
	read	6, S3_5_C9_C9_0		/* PMSCR_EL12 */
	read	7, S3_0_C9_C10_0	/* PMBLIMITR_EL1 */
	write	8, S3_4_C9_C9_0, 0x21	/* PMSCR_EL2 */
	write	9, S3_5_C9_C9_0, 0x21	/* PMSCR_EL12 */
	read	10, S3_4_C9_C9_0	/* PMSCR_EL2 after */
	read	11, S3_5_C9_C9_0	/* PMSCR_EL12 after */
	str	xzr, [x20, #0x18]
2:	wfi
	b	2b
	.global kvm_nested_guest_end
kvm_nested_guest_end:
