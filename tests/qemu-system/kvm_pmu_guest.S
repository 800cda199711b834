/* SPDX-License-Identifier: BSD-3-Clause */
/* The bare-metal program kvm_vmm's "pmu" mode runs in a KVM guest whose
 * vCPU has KVM's PMU (KVM_ARM_VCPU_PMU_V3, tests/qemu-system/kvm_vmm.c):
 * at EL1, MMU off, it counts its own known loop with event counter 0 and
 * reports through the MMIO page as kvm_guest.S does (+0x00 the item, +0x08
 * its value, +0x18 done; a synchronous exception: +0x38 ELR_EL1, +0x10
 * ESR_EL1, then +0x20 with its vector offset).
 *
 * PMEVTYPER0_EL0: evtCount 0x0008 (INST_RETIRED), P 0 (count at EL1),
 * U 1 (not at EL0), NSK and NSU 0, NSH 0 (not at EL2). PMCR_EL0 E and P:
 * the counters enabled and reset; PMCNTENSET_EL0 bit 0. Every access to
 * a PMU register traps to KVM (MDCR_EL2.TPM), which emulates it over a
 * perf event of the host's (kvm_pmu_create_perf_event()), here the
 * armprof model's PMU in the emulated machine.
 *
 * Items: 1 the loop's sum (500500), 2 PMEVCNTR0_EL0 before the loop,
 * 3 after it, 4 PMCEID0_EL0 as KVM shows it, 5 PMCR_EL0 (N: the counters
 * KVM gives the vCPU). Between the reads of items 2 and 3 the guest
 * retires exactly 3002 instructions: two MOVs and 1000 times the loop's
 * three; both MRS trap (an instruction that takes an exception is not
 * architecturally executed, and KVM skips it), so neither counts. */
#define KVM_GUEST_MMIO 0x10000000

	.section .text.kvm_pmu_guest, "ax"
	.balign 2048
	.global kvm_pmu_guest_start
kvm_pmu_guest_start:
	b	start

	.balign 2048
vectors:
	.irp off, 0x000, 0x080, 0x100, 0x180, 0x200, 0x280, 0x300, 0x380, 0x400, 0x480, 0x500, 0x580, 0x600, 0x680, 0x700, 0x780
	.balign 0x80
	mrs	x9, elr_el1
	str	x9, [x20, #0x38]
	mrs	x9, esr_el1
	str	x9, [x20, #0x10]
	mov	x9, #\off
	str	x9, [x20, #0x20]
1:	wfi
	b	1b
	.endr

/* REPORT ITEM, REGISTER: ITEM and the value REGISTER holds */
.macro report item, reg
	mov	x0, #\item
	str	x0, [x20]
	str	\reg, [x20, #8]
.endm

start:
	adr	x0, vectors
	msr	vbar_el1, x0
	isb
	mov	x20, #KVM_GUEST_MMIO
	mrs	x5, S3_3_C9_C12_6	/* PMCEID0_EL0 */
	mrs	x6, S3_3_C9_C12_0	/* PMCR_EL0 */
	movz	x0, #0x0008
	movk	x0, #0x4000, lsl #16	/* U, bit 30 */
	msr	S3_3_C14_C12_0, x0	/* PMEVTYPER0_EL0 */
	mov	x0, #3			/* E, P */
	msr	S3_3_C9_C12_0, x0	/* PMCR_EL0 */
	mov	x0, #1
	msr	S3_3_C9_C12_1, x0	/* PMCNTENSET_EL0 */
	isb
	mrs	x3, S3_3_C14_C8_0	/* PMEVCNTR0_EL0: before */
	mov	x1, #0
	mov	x2, #1000
1:	add	x1, x1, x2
	subs	x2, x2, #1
	b.ne	1b
	mrs	x4, S3_3_C14_C8_0	/* PMEVCNTR0_EL0: after */

	report	1, x1
	report	2, x3
	report	3, x4
	report	4, x5
	report	5, x6
	str	xzr, [x20, #0x18]
2:	wfi
	b	2b
	.global kvm_pmu_guest_end
kvm_pmu_guest_end:
