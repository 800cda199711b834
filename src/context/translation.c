/* SPDX-License-Identifier: BSD-3-Clause */
/* The access check of the EL1 registers that HCR_EL2.TRVM and TVM trap: the
 * stage 1 translation registers TTBR0_EL1, TTBR1_EL1, TCR_EL1, MAIR_EL1,
 * SCTLR_EL1 (core/regs/translation.def) and CONTEXTIDR_EL1
 * (core/regs/context.def). Their EL12 names use access_el12_alias and the
 * EL2 registers (TTBR0_EL2, ..., CONTEXTIDR_EL2) access_el2_register
 * (sysreg/access_shapes.c).
 *
 * The six EL1 pages share one shape for the MRS and MSR forms of the EL1
 * name (the EL2 pages repeat it 'When FEAT_VHE is implemented'):
 *   EL0: UNDEFINED.
 *   EL1: EL2Enabled() && HCR_EL2.TRVM (MRS) / HCR_EL2.TVM (MSR) == '1'
 *          -> AArch64.SystemAccessTrap(EL2, 0x18);
 *        the FEAT_FGT trap on HFGRTR_EL2.<reg> (MRS) / HFGWTR_EL2.<reg> (MSR)
 *          -> AArch64.SystemAccessTrap(EL2, 0x18);
 *        EffectiveHCR_EL2_NVx() IN {'111'} -> NVMem[offset];
 *        else the EL1 register.
 *   EL2: ELIsInHost(EL2) ? the EL2 register : the EL1 register.
 * Each register's FGT bits, NVMem offset and EL2 register are its
 * declaration's facts. HFGRTR_EL2 and HFGWTR_EL2 have no page in spec/ and
 * are not declared yet, so these registers declare no FGT bits and the
 * fine-grained trap never fires; declare FGT_RW(<reg>, FGT, HFGRTR_EL2,
 * HFGWTR_EL2, <reg>) once fgt.def has them.
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

sysreg_route access_el1_vm_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                    bool is_read)
{
    (void)m;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        const uint64_t tvm = is_read ? FIELD(pe, HCR_EL2, TRVM) : FIELD(pe, HCR_EL2, TVM);
        if (EL2Enabled(pe) && tvm == 1) return route_trap(EL2, 0x18);
        if (page_fgt_trap(pe, d, is_read)) return route_trap(EL2, 0x18);
        if (EffectiveHCR_EL2_NVx(pe) == 7) return route_page_nvmem(d); /* IN {'111'} */
        return route_self(d, 0);
    }
    case EL2:
        return route_el2_view(pe, d);
    default:
        return route_self(d, 0);
    }
}
