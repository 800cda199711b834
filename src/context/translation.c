/* Access checks of the stage 1 translation registers (regs/translation.def):
 * TTBR0_EL1, TTBR1_EL1, TCR_EL1, MAIR_EL1, SCTLR_EL1 with their EL12 names,
 * and TTBR0_EL2, TTBR1_EL2, TCR_EL2, MAIR_EL2, SCTLR_EL2.
 *
 * The five EL1 pages share one shape for the MRS and MSR forms of the EL1
 * name (the EL2 pages repeat it 'When FEAT_VHE is implemented'):
 *   EL0: UNDEFINED.
 *   EL1: EL2Enabled() && HCR_EL2.TRVM (MRS) / HCR_EL2.TVM (MSR) == '1'
 *          -> AArch64.SystemAccessTrap(EL2, 0x18);
 *        the FEAT_FGT trap on HFGRTR_EL2.<reg> (MRS) / HFGWTR_EL2.<reg> (MSR)
 *          -> AArch64.SystemAccessTrap(EL2, 0x18);
 *        EffectiveHCR_EL2_NVx() IN {'111'} -> NVMem[offset];
 *        else the EL1 register.
 *   EL2: ELIsInHost(EL2) ? the EL2 register : the EL1 register.
 *   EL3: the EL1 register.
 * and one for the EL12 name:
 *   EL0: UNDEFINED.
 *   EL1: EffectiveHCR_EL2_NVx() == '101' -> NVMem[offset];
 *        IN {'xx1'} -> AArch64.SystemAccessTrap(EL2, 0x18); else UNDEFINED.
 *   EL2, EL3: ELIsInHost(EL2) ? the EL1 register : UNDEFINED.
 * The five EL2 pages (MRS and MSR alike, no NVMem offset on any of them):
 *   EL0: UNDEFINED.
 *   EL1: EffectiveHCR_EL2_NVx() IN {'xx1'} -> AArch64.SystemAccessTrap(EL2, 0x18);
 *        else UNDEFINED.
 *   EL2, EL3: the EL2 register.
 *
 * Not modelled:
 * - the FEAT_D128 MRRS/MSRR forms of TTBR0_EL1, TTBR1_EL1 (and their EL12
 *   names), TTBR0_EL2 and TTBR1_EL2 (EC 0x14, SCR_EL3.D128En,
 *   HCRX_EL2.D128En): the model has no 128-bit accesses;
 * - the FEAT_SRMASK encodings TCRALIAS_EL1 and SCTLRALIAS_EL1, and the
 *   masking of MSR TCR_EL1/TCR_EL2/SCTLR_EL1/SCTLR_EL2 by
 *   EffectiveTCRMASK_ELx()/EffectiveSCTLRMASK_ELx(): TCRMASK_ELx and
 *   SCTLRMASK_ELx have no page in spec/ and are not declared, so the mask is
 *   taken as zero (every bit of the MSR value is written). */
#include "context/context.h"

/* NVMem offsets under FEAT_NV2 (each page's NVMem[...]) */
#define NV2_OFFSET_SCTLR_EL1 0x110
#define NV2_OFFSET_TCR_EL1   0x120
#define NV2_OFFSET_MAIR_EL1  0x140
#define NV2_OFFSET_TTBR0_EL1 0x200
#define NV2_OFFSET_TTBR1_EL1 0x210

/* HFGRTR_EL2.<reg> (reads) and HFGWTR_EL2.<reg> (writes) for SCTLR_EL1,
 * TCR_EL1, MAIR_EL1, TTBR0_EL1 and TTBR1_EL1. HFGRTR_EL2 and HFGWTR_EL2 have
 * no page in spec/ and are not declared yet: until they are, every bit reads
 * as 0 and the fine-grained trap never fires. Replace with FIELD(pe,
 * HFGRTR_EL2, <reg>) and FIELD(pe, HFGWTR_EL2, <reg>) once fgt.def declares
 * them. */
static uint64_t hfgxtr_bit(const armprof_pe *pe, unsigned reg, bool is_read)
{
    (void)pe;
    (void)reg;
    (void)is_read;
    return 0;
}

/* The EL1 name of an EL1 register (the shape in the header comment) */
static sysreg_route el1_name(const armprof_pe *pe, bool is_read, unsigned el1_reg, unsigned el2_reg,
                             unsigned nv2_offset)
{
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        const uint64_t tvm = is_read ? FIELD(pe, HCR_EL2, TRVM) : FIELD(pe, HCR_EL2, TVM);
        if (EL2Enabled(pe) && tvm == 1) return route_trap(EL2, 0x18);
        if (fgt_trap(pe, hfgxtr_bit(pe, el1_reg, is_read))) return route_trap(EL2, 0x18);
        if (EffectiveHCR_EL2_NVx(pe) == 7) return route_nvmem(nv2_offset); /* IN {'111'} */
        return route_reg(el1_reg, 0);
    }
    case EL2:
        if (ELIsInHost(pe, EL2)) return route_reg(el2_reg, 0);
        return route_reg(el1_reg, 0);
    default:
        return route_reg(el1_reg, 0);
    }
}

/* The EL12 name of an EL1 register */
static sysreg_route el12_name(const armprof_pe *pe, unsigned el1_reg, unsigned nv2_offset)
{
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el12_alias_at_el1(pe, nv2_offset);
    default:
        if (ELIsInHost(pe, EL2)) return route_reg(el1_reg, 0);
        return route_undefined();
    }
}

/* An EL2 register's own name */
static sysreg_route el2_name(const armprof_pe *pe, unsigned el2_reg)
{
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el2_register_at_el1(pe);
    default:
        return route_reg(el2_reg, 0);
    }
}

/* The access functions of an EL1 register REG_EL1 and its EL12 name (the
 * first two shapes in the header comment); REG_EL2 is what the EL1 name
 * reaches at EL2 when ELIsInHost(EL2). */
#define EL1_REGISTER(REG)                                                                          \
    sysreg_route access_##REG##_EL1(const armprof_pe *pe, unsigned m, bool is_read)                \
    {                                                                                              \
        (void)m;                                                                                   \
        return el1_name(pe, is_read, SR_##REG##_EL1, SR_##REG##_EL2, NV2_OFFSET_##REG##_EL1);      \
    }                                                                                              \
    sysreg_route access_##REG##_EL12(const armprof_pe *pe, unsigned m, bool is_read)               \
    {                                                                                              \
        (void)m;                                                                                   \
        (void)is_read;                                                                             \
        return el12_name(pe, SR_##REG##_EL1, NV2_OFFSET_##REG##_EL1);                              \
    }

/* The access function of an EL2 register REG_EL2 (the third shape) */
#define EL2_REGISTER(REG)                                                                          \
    sysreg_route access_##REG##_EL2(const armprof_pe *pe, unsigned m, bool is_read)                \
    {                                                                                              \
        (void)m;                                                                                   \
        (void)is_read;                                                                             \
        return el2_name(pe, SR_##REG##_EL2);                                                       \
    }

/* Accessing TTBR0_EL1 (MRS, MSR: bits [63:0]) and TTBR0_EL12 (on the TTBR0_EL1 page) */
EL1_REGISTER(TTBR0)
/* Accessing TTBR1_EL1, TTBR1_EL12 */
EL1_REGISTER(TTBR1)
/* Accessing TCR_EL1, TCR_EL12 */
EL1_REGISTER(TCR)
/* Accessing MAIR_EL1, MAIR_EL12 */
EL1_REGISTER(MAIR)
/* Accessing SCTLR_EL1, SCTLR_EL12 */
EL1_REGISTER(SCTLR)

/* Accessing TTBR0_EL2 (bits [63:0]) */
EL2_REGISTER(TTBR0)
/* Accessing TTBR1_EL2 (present only with FEAT_VHE) */
EL2_REGISTER(TTBR1)
/* Accessing TCR_EL2 */
EL2_REGISTER(TCR)
/* Accessing MAIR_EL2 */
EL2_REGISTER(MAIR)
/* Accessing SCTLR_EL2 */
EL2_REGISTER(SCTLR)
