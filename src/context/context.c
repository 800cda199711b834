/* Access checks of the Context ID registers (CONTEXTIDR_EL1, CONTEXTIDR_EL12,
 * CONTEXTIDR_EL2). */
#include "context/context.h"

/* NVMem offset of CONTEXTIDR_EL1 under FEAT_NV2 */
#define NV2_OFFSET_CONTEXTIDR_EL1 0x108

/* HFGRTR_EL2.CONTEXTIDR_EL1 (reads) or HFGWTR_EL2.CONTEXTIDR_EL1 (writes).
 * HFGRTR_EL2 and HFGWTR_EL2 have no page in spec/ and are not declared yet:
 * until they are, the bit reads as 0 and the fine-grained trap never fires.
 * Replace with FIELD(pe, HFGRTR_EL2, CONTEXTIDR_EL1) and FIELD(pe, HFGWTR_EL2,
 * CONTEXTIDR_EL1) once fgt.def declares them. */
static uint64_t hfgxtr_contextidr_el1(const armprof_pe *pe, bool is_read)
{
    (void)pe;
    (void)is_read;
    return 0;
}

/* Accessing CONTEXTIDR_EL1 (the CONTEXTIDR_EL2 page repeats it for FEAT_VHE).
 * Reads are trapped by HCR_EL2.TRVM, writes by HCR_EL2.TVM. */
sysreg_route access_CONTEXTIDR_EL1(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1: {
        const uint64_t tvm = is_read ? FIELD(pe, HCR_EL2, TRVM) : FIELD(pe, HCR_EL2, TVM);
        if (EL2Enabled(pe) && tvm == 1) return route_trap(EL2, 0x18);
        if (fgt_trap(pe, hfgxtr_contextidr_el1(pe, is_read))) return route_trap(EL2, 0x18);
        if (EffectiveHCR_EL2_NVx(pe) == 7) return route_nvmem(NV2_OFFSET_CONTEXTIDR_EL1);
        return route_reg(SR_CONTEXTIDR_EL1, 0);
    }
    case EL2:
        if (ELIsInHost(pe, EL2)) return route_reg(SR_CONTEXTIDR_EL2, 0);
        return route_reg(SR_CONTEXTIDR_EL1, 0);
    default:
        return route_reg(SR_CONTEXTIDR_EL1, 0);
    }
}

/* Accessing CONTEXTIDR_EL12 (on the CONTEXTIDR_EL1 page) */
sysreg_route access_CONTEXTIDR_EL12(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el12_alias_at_el1(pe, NV2_OFFSET_CONTEXTIDR_EL1);
    default:
        if (ELIsInHost(pe, EL2)) return route_reg(SR_CONTEXTIDR_EL1, 0);
        return route_undefined();
    }
}

/* Accessing CONTEXTIDR_EL2 (MRS and MSR are the same) */
sysreg_route access_CONTEXTIDR_EL2(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el2_register_at_el1(pe);
    default:
        return route_reg(SR_CONTEXTIDR_EL2, 0);
    }
}
