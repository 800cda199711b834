/* SPDX-License-Identifier: BSD-3-Clause */
/* C4.1 "Branches, Exception Generating and System instructions" (op1
 * 101x): immediate, conditional, compare and test branches, branches to a
 * register (with pointer authentication), exception generation, hints,
 * barriers, PSTATE, SYS/SYSL (DC, IC, AT, GCS), MRS/MSR and the 128-bit
 * system instructions. */
#include "a64/a64_internal.h"

enum {
    F_NONE,
    F_IMM26,  /* B, BL */
    F_BCOND,  /* B.cond, BC.cond */
    F_CB,     /* CBZ, CBNZ */
    F_TB,     /* TBZ, TBNZ */
    F_BREG,   /* BR, BLR, RET (Rn) */
    F_BREGM,  /* BRAA, BLRAA...: Rn, modifier Rm|SP in bits [4:0] */
    F_RETA,   /* RETAA, RETAB: X30 */
    F_SYS_VA, /* DC, IC, AT, GCS push/pop: the address (or value) in Xt */
    F_SYS_ST, /* DC ZVA, DC GVA, DC GZVA: a store of a block at Xt */
};

/* Bits [31:22] 1101010100 (the system instructions) and 1101010101 (their
 * 128-bit forms) come first; the order of the rest does not matter. */
static const a64_row branch_sys_rows[] = {
    /* System instructions with register argument (FEAT_WFxT) */
    ROW(0xffffffe0, 0xd5031000, K_SYSTEM, F_NONE, 0, 0, "WFET"),
    ROW(0xffffffe0, 0xd5031020, K_SYSTEM, F_NONE, 0, 0, "WFIT"),
    /* Hints: the pointer authentication ones first */
    ROW(0xffffffff, 0xd50320ff, K_SYSTEM, F_NONE, A64F_PAUTH, 0, "XPACLRI"),
    ROW(0xffffffff, 0xd503211f, K_SYSTEM, F_NONE, A64F_PAUTH, 0, "PACIA1716"),
    ROW(0xffffffff, 0xd503215f, K_SYSTEM, F_NONE, A64F_PAUTH, 0, "PACIB1716"),
    ROW(0xffffffff, 0xd503219f, K_SYSTEM, F_NONE, A64F_PAUTH, 0, "AUTIA1716"),
    ROW(0xffffffff, 0xd50321df, K_SYSTEM, F_NONE, A64F_PAUTH, 0, "AUTIB1716"),
    ROW(0xffffff1f, 0xd503231f, K_SYSTEM, F_NONE, A64F_PAUTH, 0,
        "PACIAZ, PACIASP, PACIBZ, PACIBSP, AUTIAZ, AUTIASP, AUTIBZ, AUTIBSP"),
    ROW(0xfffff01f, 0xd503201f, K_SYSTEM, F_NONE, 0, 0, "HINT (NOP, YIELD, WFE, WFI, SEV, BTI...)"),
    /* Barriers */
    ROW(0xfffff0ff, 0xd503305f, K_SYSTEM, F_NONE, 0, 0, "CLREX"),
    ROW(0xfffff3ff, 0xd503323f, K_SYSTEM, F_NONE, 0, 0, "DSB (nXS)"),
    ROW(0xffffffff, 0xd503307f, K_SYSTEM, F_NONE, 0, 0, "TCOMMIT"),
    ROW(0xfffff0ff, 0xd503309f, K_SYSTEM, F_NONE, 0, 0, "DSB"),
    ROW(0xfffff0ff, 0xd50330bf, K_SYSTEM, F_NONE, 0, 0, "DMB"),
    ROW(0xfffff0ff, 0xd50330df, K_SYSTEM, F_NONE, 0, 0, "ISB"),
    ROW(0xffffffff, 0xd50330ff, K_SYSTEM, F_NONE, 0, 0, "SB"),
    /* PSTATE: MSR (immediate), CFINV, XAFLAG, AXFLAG, SMSTART, SMSTOP */
    ROW(0xfff8f01f, 0xd500401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 0"),
    ROW(0xfff8f01f, 0xd501401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 1"),
    ROW(0xfff8f01f, 0xd503401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 3"),
    ROW(0xfff8f01f, 0xd504401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 4"),
    ROW(0xfff8f01f, 0xd505401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 5"),
    ROW(0xfff8f01f, 0xd506401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 6"),
    ROW(0xfff8f01f, 0xd507401f, K_SYSTEM, F_NONE, 0, 0, "MSR (immediate), op1 7"),
    /* TME: TSTART, TTEST */
    ROW(0xffffffe0, 0xd5233060, K_SYSTEM, F_NONE, 0, 0, "TSTART"),
    ROW(0xffffffe0, 0xd5233160, K_SYSTEM, F_NONE, 0, 0, "TTEST"),
    /* SYS: data cache zero (stores), DC/IC/AT by virtual address, GCS */
    ROW(0xffffffe0, 0xd50b7420, K_ST_UNSPEC, F_SYS_ST, 0, 0, "DC ZVA"),
    ROW(0xffffffe0, 0xd50b7460, K_ST_UNSPEC, F_SYS_ST, 0, 0, "DC GVA"),
    ROW(0xffffffe0, 0xd50b7480, K_ST_UNSPEC, F_SYS_ST, 0, 0, "DC GZVA"),
    ROW(0xffffffe0, 0xd5087620, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC IVAC"),
    ROW(0xffffffe0, 0xd5087660, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC IGVAC"),
    ROW(0xffffffe0, 0xd50876a0, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC IGDVAC"),
    ROW(0xffffffe0, 0xd5087f20, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CIVAPS"),
    ROW(0xffffffe0, 0xd5087fa0, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CIGDVAPS"),
    ROW(0xffffffe0, 0xd50b7520, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "IC IVAU"),
    ROW(0xffffffe0, 0xd50b7a20, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CVAC"),
    ROW(0xffffffe0, 0xd50b7a60, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CGVAC"),
    ROW(0xffffffe0, 0xd50b7aa0, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CGDVAC"),
    ROW(0xffffffe0, 0xd50b7b20, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CVAU"),
    ROW(0xffffffe0, 0xd50b7c20, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CVAP"),
    ROW(0xffffffe0, 0xd50b7c60, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CGVAP"),
    ROW(0xffffffe0, 0xd50b7ca0, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CGDVAP"),
    ROW(0xffffffe0, 0xd50b7d20, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CVADP"),
    ROW(0xffffffe0, 0xd50b7d60, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CGVADP"),
    ROW(0xffffffe0, 0xd50b7da0, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CGDVADP"),
    ROW(0xffffffe0, 0xd50b7e20, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CIVAC"),
    ROW(0xffffffe0, 0xd50b7e60, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CIGVAC"),
    ROW(0xffffffe0, 0xd50b7ea0, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "DC CIGDVAC"),
    ROW(0xfffffe00, 0xd5087800, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "AT S1E1*, S1E0*"),
    ROW(0xfffffe00, 0xd50c7800, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "AT S1E2*, S12E1*, S12E0*"),
    ROW(0xfffffe00, 0xd50e7800, K_SYSTEM, F_SYS_VA, A64F_SYSVA, 0, "AT S1E3*"),
    ROW(0xffffffe0, 0xd50b7700, K_ST_GCS, F_SYS_VA, 0, 0, "GCSPUSHM"),
    ROW(0xffffffe0, 0xd50b7740, K_LD_GCS, F_SYS_VA, A64F_ATOMIC, 0, "GCSSS1"),
    ROW(0xffffffe0, 0xd52b7720, K_LD_GCS, F_SYS_VA, 0, 0, "GCSPOPM"),
    ROW(0xffffffe0, 0xd52b7760, K_LD_GCS, F_SYS_VA, 0, 0, "GCSSS2"),
    ROW(0xffffffff, 0xd508779f, K_ST_GCS, F_NONE, 0, 0, "GCSPUSHX"),
    ROW(0xffffffff, 0xd50877bf, K_LD_GCS, F_NONE, 0, 0, "GCSPOPCX"),
    ROW(0xffffffff, 0xd50877df, K_LD_GCS, F_NONE, 0, 0, "GCSPOPX"),
    /* System instruction, system register move */
    ROW(0xfff80000, 0xd5080000, K_SYSTEM, F_NONE, 0, 0, "SYS (IC, DC, AT, TLBI, ...)"),
    ROW(0xfff80000, 0xd5280000, K_SYSTEM, F_NONE, 0, 0, "SYSL"),
    ROW(0xfff00000, 0xd5100000, K_SYSTEM, F_NONE, 0, 0, "MSR (register)"),
    ROW(0xfff00000, 0xd5300000, K_SYSTEM, F_NONE, 0, 0, "MRS"),
    /* System pair instructions (FEAT_SYSINSTR128, FEAT_SYSREG128) */
    ROW(0xfff80000, 0xd5480000, K_SYSTEM, F_NONE, 0, 0, "SYSP"),
    ROW(0xfff00000, 0xd5500000, K_SYSTEM, F_NONE, 0, 0, "MSRR"),
    ROW(0xfff00000, 0xd5700000, K_SYSTEM, F_NONE, 0, 0, "MRRS"),
    ROW(0xff800000, 0xd5000000, K_UNDEF, F_NONE, 0, 0, "other system encodings"),

    /* Exception generation */
    ROW(0xffe0001f, 0xd4000001, K_EXCEPTION, F_NONE, 0, 0, "SVC"),
    ROW(0xffe0001f, 0xd4000002, K_EXCEPTION, F_NONE, 0, 0, "HVC"),
    ROW(0xffe0001f, 0xd4000003, K_EXCEPTION, F_NONE, 0, 0, "SMC"),
    ROW(0xffe0001f, 0xd4200000, K_EXCEPTION, F_NONE, 0, 0, "BRK"),
    ROW(0xffe0001f, 0xd4400000, K_EXCEPTION, F_NONE, 0, 0, "HLT"),
    ROW(0xffe0001f, 0xd4600000, K_EXCEPTION, F_NONE, 0, 0, "TCANCEL"),
    ROW(0xffe0001f, 0xd4a00001, K_EXCEPTION, F_NONE, 0, 0, "DCPS1"),
    ROW(0xffe0001f, 0xd4a00002, K_EXCEPTION, F_NONE, 0, 0, "DCPS2"),
    ROW(0xffe0001f, 0xd4a00003, K_EXCEPTION, F_NONE, 0, 0, "DCPS3"),

    /* Unconditional branch (register) */
    ROW(0xfffffc1f, 0xd61f0000, K_BR, F_BREG, 0, 0, "BR"),
    ROW(0xfffffc1f, 0xd61f081f, K_BR, F_BREG, A64F_PAUTH, 0, "BRAAZ"),
    ROW(0xfffffc1f, 0xd61f0c1f, K_BR, F_BREG, A64F_PAUTH, 0, "BRABZ"),
    ROW(0xfffffc1f, 0xd63f0000, K_BLR, F_BREG, 0, 0, "BLR"),
    ROW(0xfffffc1f, 0xd63f081f, K_BLR, F_BREG, A64F_PAUTH, 0, "BLRAAZ"),
    ROW(0xfffffc1f, 0xd63f0c1f, K_BLR, F_BREG, A64F_PAUTH, 0, "BLRABZ"),
    ROW(0xfffffc1f, 0xd65f0000, K_RET, F_BREG, 0, 0, "RET"),
    ROW(0xffffffff, 0xd65f0bff, K_RET, F_RETA, A64F_PAUTH, 0, "RETAA"),
    ROW(0xffffffff, 0xd65f0fff, K_RET, F_RETA, A64F_PAUTH, 0, "RETAB"),
    ROW(0xffffffff, 0xd69f03e0, K_ERET, F_NONE, 0, 0, "ERET"),
    ROW(0xffffffff, 0xd69f0bff, K_ERET, F_NONE, A64F_PAUTH, 0, "ERETAA"),
    ROW(0xffffffff, 0xd69f0fff, K_ERET, F_NONE, A64F_PAUTH, 0, "ERETAB"),
    ROW(0xffffffff, 0xd6bf03e0, K_ERET, F_NONE, 0, 0, "DRPS"),
    ROW(0xfffff800, 0xd71f0800, K_BR, F_BREGM, A64F_PAUTH, 0, "BRAA, BRAB"),
    ROW(0xfffff800, 0xd73f0800, K_BLR, F_BREGM, A64F_PAUTH, 0, "BLRAA, BLRAB"),

    /* Unconditional branch (immediate) */
    ROW(0xfc000000, 0x14000000, K_B, F_IMM26, 0, 0, "B"),
    ROW(0xfc000000, 0x94000000, K_BL, F_IMM26, 0, 0, "BL"),
    /* Compare and branch (immediate), test and branch (immediate) */
    ROW(0x7e000000, 0x34000000, K_BCOND, F_CB, 0, 0, "CBZ, CBNZ"),
    ROW(0x7e000000, 0x36000000, K_BCOND, F_TB, 0, 0, "TBZ, TBNZ"),
    /* Conditional branch (immediate): B.cond, and BC.cond (FEAT_HBC) */
    ROW(0xff000010, 0x54000000, K_BCOND, F_BCOND, 0, 0, "B.cond"),
    ROW(0xff000010, 0x54000010, K_BCOND, F_BCOND, 0, 0, "BC.cond"),
};

bool a64_decode_branch_sys(uint32_t insn, armprof_a64_insn *out)
{
    const a64_row *r = a64_match(A64_ROWS(branch_sys_rows), insn);
    if (!r || r->kind == K_UNDEF) return a64_undefined(out);
    a64_apply(out, r);
    switch (r->form) {
    case F_IMM26:
        out->pc_relative = true;
        out->offset = a64_sbits(insn, 25, 0) * 4;
        break;
    case F_BCOND:
        out->pc_relative = true;
        out->offset = a64_sbits(insn, 23, 5) * 4;
        out->cond = (uint8_t)a64_bits(insn, 3, 0);
        break;
    case F_CB:
        out->pc_relative = true;
        out->offset = a64_sbits(insn, 23, 5) * 4;
        out->rt = (uint8_t)a64_bits(insn, 4, 0);
        break;
    case F_TB:
        out->pc_relative = true;
        out->offset = a64_sbits(insn, 18, 5) * 4;
        out->rt = (uint8_t)a64_bits(insn, 4, 0);
        out->test_bit = (uint8_t)(a64_bits(insn, 31, 31) << 5 | a64_bits(insn, 23, 19));
        break;
    case F_BREG:
        out->target_reg = (uint8_t)a64_bits(insn, 9, 5);
        break;
    case F_BREGM:
        out->target_reg = (uint8_t)a64_bits(insn, 9, 5);
        out->rs = (uint8_t)a64_bits(insn, 4, 0);
        break;
    case F_RETA:
        out->target_reg = 30;
        break;
    case F_SYS_VA:
        out->base_reg = (uint8_t)a64_bits(insn, 4, 0);
        if (r->kind == K_ST_GCS || r->kind == K_LD_GCS) {
            /* GCSPUSHM Xt pushes Xt; GCSPOPM Xt, GCSSS1/2 Xt: Xt is the value or
               the new stack pointer, the address is GCSPR_ELx */
            out->rt = out->base_reg;
            out->base_reg = ARMPROF_A64_NOREG;
            out->size_log2 = 3;
            out->regs = 1;
            out->bytes = 8;
        }
        break;
    case F_SYS_ST:
        out->base_reg = (uint8_t)a64_bits(insn, 4, 0);
        break;
    default:
        break;
    }
    return true;
}
