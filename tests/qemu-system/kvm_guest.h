/* SPDX-License-Identifier: BSD-3-Clause */
/* What the bare-metal KVM guests of kvm_vmm.c share (kvm_guest.S,
 * kvm_nested_guest.S; included by the assembler's preprocessor): the MMIO
 * page their reports go to (kvm_vmm.c decodes it), a vector table whose
 * synchronous vector of the current level reports the exception and skips
 * the instruction, and the READ and WRITE macros of one report item.
 * x20 holds KVM_GUEST_MMIO and x21 the poison value a skipped MRS leaves. */
#ifndef ARMPROF_TESTS_KVM_GUEST_H
#define ARMPROF_TESTS_KVM_GUEST_H

#define KVM_GUEST_MMIO 0x10000000

/* KVM_VECTORS: the table (at `vectors`, 2 KB aligned) and its handlers.
 * The current EL with SPx's synchronous vector (+0x200), the one an MRS at
 * EL1h (or a VHE guest hypervisor's EL2h, whose *_EL1 names reach its
 * *_EL2 registers) takes: ELR to +0x38, ESR to +0x10, return past the
 * instruction. Any other vector: its offset to +0x20, then wait. */
.macro KVM_VECTORS
	.balign 2048
vectors:
	.irp off, 0x000, 0x080, 0x100, 0x180
	.balign 0x80
	mov	x9, #\off
	b	unexpected
	.endr
	.balign 0x80
	b	sync			/* +0x200 */
	.irp off, 0x280, 0x300, 0x380, 0x400, 0x480, 0x500, 0x580, 0x600, 0x680, 0x700, 0x780
	.balign 0x80
	mov	x9, #\off
	b	unexpected
	.endr

sync:
	mrs	x9, elr_el1
	str	x9, [x20, #0x38]
	mrs	x10, esr_el1
	str	x10, [x20, #0x10]
	add	x9, x9, #4
	msr	elr_el1, x9
	eret

unexpected:
	str	x9, [x20, #0x20]
1:	wfi
	b	1b
.endm

/* WRITE ITEM, REGISTER, VALUE[, SHIFT]: report ITEM, MSR REGISTER of VALUE
 * (a 16-bit immediate, shifted by SHIFT), then that it went through */
.macro write item, reg, value, shift=0
	mov	x0, #\item
	str	x0, [x20]
	movz	x1, #\value, lsl #\shift
	adr	x2, 9f
	str	x2, [x20, #0x30]
9:	msr	\reg, x1
	str	x1, [x20, #0x28]
.endm

/* READ ITEM, REGISTER: report ITEM, then what MRS REGISTER gives (the
 * poison x21 when the handler skipped it) */
.macro read item, reg
	mov	x0, #\item
	str	x0, [x20]
	mov	x1, x21
	adr	x2, 9f
	str	x2, [x20, #0x30]
9:	mrs	x1, \reg
	str	x1, [x20, #8]
.endm

#endif
