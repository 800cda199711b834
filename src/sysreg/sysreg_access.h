/* SPDX-License-Identifier: BSD-3-Clause */
/* What the access checks share: the trap and route helpers every page's
 * 'Accessing' pseudocode uses. The checks themselves, access_<id>, are the
 * owners' (their prototypes come from the declarations: sysreg/access_decl.h). */
#ifndef ARMPROF_SYSREG_ACCESS_H
#define ARMPROF_SYSREG_ACCESS_H

#include "core/arch.h"
#include "sysreg/sysreg.h"

/* The EL3 half of the pattern every page uses for an EL3 control:
 *   if EL3SDDUndef() then UNDEFINED; else AArch64.SystemAccessTrap(EL3, 0x18); */
static inline sysreg_route el3_trap_or_undefined(const armprof_pe *pe)
{
    return EL3SDDUndef(pe) ? route_undefined() : route_trap(EL3, 0x18);
}

/* The EL2 branch of a page whose only test there is an EL3 control:
 *   if HaveEL(EL3) && EL3SDDUndefPriority() && <trap> then UNDEFINED;
 *   elsif HaveEL(EL3) && <trap> then <el3_trap_or_undefined>;
 *   else the register. (el3_trap is HaveEL(EL3) && <trap>.) */
static inline sysreg_route el3_control_or_self(const armprof_pe *pe, bool el3_trap,
                                               const sysreg_desc *d)
{
    if (el3_trap) return EL3SDDUndefPriority(pe) ? route_undefined() : el3_trap_or_undefined(pe);
    return route_reg(d->id, 0);
}

/* The EL1 branch of an EL2 register's page:
 *   if EffectiveHCR_EL2_NVx() IN {'xx1'} then AArch64.SystemAccessTrap(EL2, 0x18);
 *   else UNDEFINED; */
static inline sysreg_route el2_register_at_el1(const armprof_pe *pe)
{
    return (EffectiveHCR_EL2_NVx(pe) & 1) ? route_trap(EL2, 0x18) : route_undefined();
}

/* The shape of an EL2 register's page: EL0 UNDEFINED; EL1 the NV trap to EL2
 * or UNDEFINED (el2_register_at_el1()); at EL2 and EL3 what the caller
 * decided for them (the register, a trap, UNDEFINED). */
static inline sysreg_route el2_register_shape(const armprof_pe *pe, sysreg_route at_el2,
                                              sysreg_route at_el3)
{
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el2_register_at_el1(pe);
    case EL2:
        return at_el2;
    default:
        return at_el3;
    }
}

/* The register the access check belongs to, instance m. */
static inline sysreg_route route_self(const sysreg_desc *d, unsigned m)
{
    return route_reg(d->id, m);
}

/* NVMem[offset] with the page's offset (its NVMEM fact). */
static inline sysreg_route route_page_nvmem(const sysreg_desc *d)
{
    return route_nvmem(d->facts->nv2_offset);
}

/* What an EL2 access to an EL1 register's name reaches: with the page's
 * EL2_HOST fact and ELIsInHost(EL2), the EL2 register (PMSCR_EL1 reaches
 * PMSCR_EL2); otherwise the register itself. */
static inline sysreg_route route_el2_view(const armprof_pe *pe, const sysreg_desc *d)
{
    if (d->facts->host_target && ELIsInHost(pe, EL2))
        return route_reg(d->facts->host_target - 1u, 0);
    return route_self(d, 0);
}

/* The register an EL12 alias names (its declaration's target). */
static inline sysreg_route route_alias_target(const sysreg_desc *d)
{
    return route_reg(d->alias_of - 1u, 0);
}

/* The EL1 branch of an EL12 alias's page, with the NVMem offset of the
 * register it names:
 *   if EffectiveHCR_EL2_NVx() == '101' then NVMem[offset];
 *   elsif EffectiveHCR_EL2_NVx() IN {'xx1'} then AArch64.SystemAccessTrap(EL2, 0x18);
 *   else UNDEFINED; */
static inline sysreg_route el12_alias_at_el1(const armprof_pe *pe, const sysreg_desc *d)
{
    const sysreg_desc *target = sysreg_desc_of(pe, d->alias_of - 1u);
    return EffectiveHCR_EL2_NVx(pe) == 5 ? route_nvmem(target->facts->nv2_offset)
                                         : el2_register_at_el1(pe);
}

/* The fine-grained trap enable of the FEAT_FGT2 registers:
 *   EL2Enabled() && IsFeatureImplemented(FEAT_FGT2) &&
 *   ((HaveEL(EL3) && SCR_EL3.FGTEn2 == '0') || <bit> == '0') */
static inline bool fgt2_trap(const armprof_pe *pe, uint64_t bit)
{
    return EL2Enabled(pe) && IsFeatureImplemented(pe, FGT2) &&
           ((HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, FGTEn2) == 0) || bit == 0);
}

/* The fine-grained trap enable of the FEAT_FGT registers:
 *   EL2Enabled() && IsFeatureImplemented(FEAT_FGT) &&
 *   (!HaveEL(EL3) || SCR_EL3.FGTEn == '1') && <bit> == '1' */
static inline bool fgt_trap(const armprof_pe *pe, uint64_t bit)
{
    return EL2Enabled(pe) && IsFeatureImplemented(pe, FGT) &&
           (!HaveEL(pe, EL3) || FIELD(pe, SCR_EL3, FGTEn) == 1) && bit == 1;
}

/* The page's fine-grained trap for this direction (its FGT_R/FGT_W fact),
 * with the trap condition of the bit's kind: FEAT_FGT, '1' traps (fgt_trap);
 * an 'n' bit of a FEAT_FGT register, '0' traps; FEAT_FGT2 (fgt2_trap). A
 * page without one never traps here. */
static inline bool page_fgt_trap(const armprof_pe *pe, const sysreg_desc *d, bool is_read)
{
    const sysreg_fgt *f = is_read ? &d->facts->fgt_read : &d->facts->fgt_write;
    const uint64_t bit = (pe->regs[f->slot] >> f->lo) & 1u;
    switch (f->kind) {
    case SR_FGT_FGT:
        return fgt_trap(pe, bit);
    case SR_FGT_FGTN:
        return fgt_trap(pe, bit == 0);
    case SR_FGT_FGT2:
        return fgt2_trap(pe, bit);
    default:
        return false;
    }
}

/* The shapes several pages share, each a page's access check for every
 * register whose page has it (the registers' access column names them;
 * access_shapes.c). */
/* An EL2 register: EL0 UNDEFINED; EL1 the EL2-register branch
 * (el2_register_at_el1); EL2 and EL3 the register. */
sysreg_route access_el2_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read);
/* An EL2 register with an NVMem branch: EL1 '1x1' -> NVMem[the page's
 * offset], 'xx1' -> trap to EL2, else UNDEFINED; EL2 and EL3 the register. */
sysreg_route access_el2_register_nvmem(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                       bool is_read);
/* An EL3 register: the register at EL3, UNDEFINED below. */
sysreg_route access_el3_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read);
/* A register declared with ENC_NONE: no MRS or MSR reaches it (the engine's
 * encoding map never names it), so this check is never run; it says
 * UNDEFINED should one ever be. */
sysreg_route access_no_encoding(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read);
/* An EL12 alias with no trap of its own: EL0 UNDEFINED; EL1
 * el12_alias_at_el1(); EL2 and EL3 the register it names when
 * ELIsInHost(EL2), else UNDEFINED. */
sysreg_route access_el12_alias(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                               bool is_read);

/* HaveEL(EL3) && CheckMDCR_EL3_NSPBTrap(): the EL3 trap of every SPE and
 * Profiling Buffer control page */
static inline bool nspb_trap(const armprof_pe *pe)
{
    return HaveEL(pe, EL3) && CheckMDCR_EL3_NSPBTrap(pe);
}

/* EffectiveHCR_EL2_NVx() IN {'1x1'} */
static inline bool nvx_1x1(const armprof_pe *pe)
{
    return (EffectiveHCR_EL2_NVx(pe) & 5) == 5;
}

#endif
