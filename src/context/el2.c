/* SPDX-License-Identifier: BSD-3-Clause */
/* Access check of MDCR_EL2. HCR_EL2, VTTBR_EL2 and VTCR_EL2 share a shape,
 * MRS and MSR alike: EL1 accesses are turned into memory accesses by
 * FEAT_NV2, trapped by FEAT_NV, UNDEFINED otherwise; EL2 and EL3 access the
 * register (access_el2_register_nvmem, with their NVMEM offsets in
 * core/regs/el2.def). */
#include "context/context.h"

/* Accessing MDCR_EL2 (MRS and MSR alike) */
sysreg_route access_MDCR_EL2(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    const bool tda_trap = HaveEL(pe, EL3) && FIELD(pe, MDCR_EL3, TDA) == 1;
    return el2_register_shape(pe, el3_control_or_self(pe, tda_trap, d), route_self(d, 0));
}

/* VSTTBR_EL2 and VSTCR_EL2 (FEAT_SEL2): EL0 UNDEFINED; EL1 the EL2
 * register's NV trap (el2_register_at_el1(); their NVMem offsets are not in
 * the project's copy, so the NV2 redirection is not modelled); EL2 only in
 * Secure state; EL3 only with SCR_EL3.EEL2 set. */
sysreg_route access_secure_el2_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                        bool is_read)
{
    (void)m;
    (void)is_read;
    const sysreg_route self = route_self(d, 0);
    return el2_register_shape(
        pe, CurrentSecurityState(pe) == ARMPROF_SS_SECURE ? self : route_undefined(),
        FIELD(pe, SCR_EL3, EEL2) == 1 ? self : route_undefined());
}

/* Accessing MECID_P0_EL2 (registers/MECID_P0_EL2.md), applied to every MECID
 * register the model declares (core/regs/el2.def): EL0 and EL1 UNDEFINED;
 * EL2 only in Realm state, SCR_EL3.MECEn 0 traps to EL3; EL3 the register. */
sysreg_route access_mecid_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                   bool is_read)
{
    (void)m;
    (void)is_read;
    const bool mecen_trap = HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, MECEn) == 0;
    switch (pe->ctx.el) {
    case EL0:
    case EL1:
        return route_undefined();
    case EL2:
        if (CurrentSecurityState(pe) != ARMPROF_SS_REALM) return route_undefined();
        return el3_control_or_self(pe, mecen_trap, d);
    default:
        return route_self(d, 0);
    }
}

/* MECID: "If MECIDWidth is less than 16 bits, bits[15:MECIDWidth] are RES0"
 * (option mecid_width). */
void write_mecid(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                 uint64_t value)
{
    (void)ext;
    const unsigned width = (unsigned)OPTION_VALUE(pe, MECID_WIDTH);
    sysreg_store(pe, reg, m, sysreg_merge_write(pe, reg, m, value) & ((1ull << width) - 1));
}

/* SCTLR2_EL2: EL0 UNDEFINED; EL1 the EL2 register's NV trap, else UNDEFINED;
 * EL2 trapped to EL3 while SCR_EL3.SCTLR2En is 0 (IsSCTLR2EL2Enabled()); EL3
 * the register. (No page in the project's copy: docs/spec-notes.md.) */
sysreg_route access_sctlr2_el2(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    const bool sctlr2en_trap = HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, SCTLR2En) == 0;
    return el2_register_shape(pe, el3_control_or_self(pe, sctlr2en_trap, d), route_self(d, 0));
}
