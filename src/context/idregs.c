/* SPDX-License-Identifier: BSD-3-Clause */
/* The values of the core's ID registers (ID_AA64PFR0_EL1, ID_AA64DFR0_EL1,
 * ID_AA64DFR1_EL1, ID_AA64ISAR2_EL1, ID_AA64MMFR0..3_EL1) derived from the
 * configuration: the field tables of registers/ID_AA64DFR0_EL1.md,
 * ID_AA64DFR1_EL1.md, ID_AA64MMFR0_EL1.md, and of the Arm ARM for the ID
 * registers with no page here. */
#include "context/context.h"

#include "core/arch.h"
#include "sysreg/idfields.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* ---- ID_AA64DFR0_EL1 / ID_AA64DFR1_EL1 ---- */

/* 0b0000 is not permitted from Armv8.6 with FEAT_PMUv3: without FEAT_MTPMU
 * the model reports 0b1111, PMEVTYPER<n>_EL0.MT RES0. */
static uint64_t dfr0_mtpmu(const armprof_pe *pe)
{
    if (IsFeatureImplemented(pe, MTPMU)) return 1;
    return IsFeatureImplemented(pe, PMUv3) ? 0xf : 0;
}

/* 0b0000: OS Double Lock implemented; 0b1111: not implemented. */
static uint64_t dfr0_doublelock(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, DoubleLock) ? 0 : 0xf;
}

/* Counts above 16 read 0b1111 in ID_AA64DFR0_EL1 and are given in full by the
 * ID_AA64DFR1_EL1 field; 16 or fewer leave that field 0x00. The context-aware
 * breakpoints are the highest numbered ones, so ID_AA64DFR0_EL1.BRPs (index of
 * the highest context-aware breakpoint) is the number of breakpoints minus 1. */
static uint64_t dfr0_brps(const armprof_pe *pe)
{
    return min_u64(OPTION_VALUE(pe, BRPS), 16) - 1;
}
static uint64_t dfr0_wrps(const armprof_pe *pe)
{
    return min_u64(OPTION_VALUE(pe, WRPS), 16) - 1;
}
static uint64_t dfr0_ctx_cmps(const armprof_pe *pe)
{
    return min_u64(OPTION_VALUE(pe, CTX_CMPS), 16) - 1;
}
static uint64_t above_16(uint64_t n)
{
    return n > 16 ? n - 1 : 0;
}
static uint64_t dfr1_brps(const armprof_pe *pe)
{
    return above_16(OPTION_VALUE(pe, BRPS));
}
static uint64_t dfr1_wrps(const armprof_pe *pe)
{
    return above_16(OPTION_VALUE(pe, WRPS));
}
static uint64_t dfr1_ctx_cmps(const armprof_pe *pe)
{
    return above_16(OPTION_VALUE(pe, CTX_CMPS));
}

static uint64_t dfr1_abl_cmps(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, ABLE) ? OPTION_VALUE(pe, ABL_CMPS) - 1 : 0;
}

static uint64_t dfr1_syspmuid(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, SPMU) ? OPTION_VALUE(pe, SYSPMUID) : 0;
}

/* ---- ID_AA64MMFR0_EL1 ---- */

/* PARange from option pa_size: the largest encoded size not above it. */
static uint64_t mmfr0_parange(const armprof_pe *pe)
{
    static const uint8_t bits[] = {32, 36, 40, 42, 44, 48, 52, 56};
    const uint64_t pa = OPTION_VALUE(pe, PA_SIZE);
    uint64_t code = 0;
    for (unsigned i = 0; i < sizeof bits; i++)
        if (bits[i] <= pa) code = i;
    return code;
}

/* The model does no translation: it reports every granule supported at both
 * stages (with the 52-bit forms under FEAT_LPA2), 16-bit ASIDs, and no
 * stage 2 fields without EL2 ('If EL2 is not implemented, this field is
 * 0b0000'). PMBLIMITR_EL1.LIMIT relies on the 4KB granule being implemented. */
/* TGran<n>_2 (stage 2, no FEAT_GTG: the stage 1 granules): 0b0000 without
 * EL2 ('support identified by TGran<n>'), 0b0001 not supported, 0b0010
 * supported, 0b0011 with 52-bit addresses (FEAT_LPA2, 4KB and 16KB). */
static uint64_t mmfr0_tgran_2(const armprof_pe *pe, bool implemented, bool lpa2_form)
{
    if (!IsFeatureImplemented(pe, EL2)) return 0;
    if (!implemented) return 1;
    return lpa2_form && IsFeatureImplemented(pe, LPA2) ? 3 : 2;
}
static uint64_t mmfr0_tgran4_2(const armprof_pe *pe)
{
    return mmfr0_tgran_2(pe, IsFeatureImplemented(pe, TGran4K), true);
}
static uint64_t mmfr0_tgran16_2(const armprof_pe *pe)
{
    return mmfr0_tgran_2(pe, IsFeatureImplemented(pe, TGran16K), true);
}
static uint64_t mmfr0_tgran64_2(const armprof_pe *pe)
{
    return mmfr0_tgran_2(pe, IsFeatureImplemented(pe, TGran64K), false);
}
/* TGran4 and TGran64: 0b0000 supported, 0b1111 not (TGran4 0b0001 with
 * FEAT_LPA2); TGran16: 0b0000 not supported, 0b0001 supported, 0b0010 with
 * FEAT_LPA2. */
static uint64_t mmfr0_tgran4(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, TGran4K)) return 15;
    return IsFeatureImplemented(pe, LPA2) ? 1 : 0;
}
static uint64_t mmfr0_tgran16(const armprof_pe *pe)
{
    if (!IsFeatureImplemented(pe, TGran16K)) return 0;
    return IsFeatureImplemented(pe, LPA2) ? 2 : 1;
}
static uint64_t mmfr0_tgran64(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, TGran64K) ? 0 : 15;
}
static uint64_t mmfr0_asidbits(const armprof_pe *pe)
{
    (void)pe;
    return 2;
}

/* 'This field is invalid and is RES0 if ID_AA64MMFR0_EL1.BigEnd is not 0b0000'. */
static uint64_t mmfr0_bigendel0(const armprof_pe *pe)
{
    return !IsFeatureImplemented(pe, MixedEnd) && IsFeatureImplemented(pe, MixedEndEL0) ? 1 : 0;
}

/* ---- ID_AA64MMFR3_EL1 ---- */

/* Stage 2 128-bit descriptors come with FEAT_D128 when there is a stage 2. */
static uint64_t mmfr3_d128_2(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, D128) && IsFeatureImplemented(pe, EL2) ? 1 : 0;
}

static const id_field context_id_fields[] = {
    /* ID_AA64PFR0_EL1: EL2 and EL3 are AArch64 only in the model (0b0001);
     * EL0 and EL1 add AArch32 (0b0010) with FEAT_AA32EL0 / FEAT_AA32EL1.
     * CSV3, DIT, AdvSIMD and FP read 0 (for FP and AdvSIMD: implemented,
     * without half-precision). */
    IDV(ID_AA64PFR0_EL1, CSV2, L(CSV2, 1), L(CSV2_2, 2)),
    IDV(ID_AA64PFR0_EL1, RME, L(RME, 1)),
    IDV(ID_AA64PFR0_EL1, AMU, L(AMUv1, 1), L(AMUv1p1, 2)),
    IDV(ID_AA64PFR0_EL1, MPAM, L(MPAM, 1)),
    IDV(ID_AA64PFR0_EL1, SEL2, L(SEL2, 1)),
    IDV(ID_AA64PFR0_EL1, SVE, L(SVE, 1)),
    IDV(ID_AA64PFR0_EL1, RAS, L(RAS, 1), L(RASv1p1, 2), L(RASv2, 3)),
    IDV(ID_AA64PFR0_EL1, GIC, L(GICv3, 1)),
    IDV(ID_AA64PFR0_EL1, EL3, L(EL3, 1)),
    IDV(ID_AA64PFR0_EL1, EL2, L(EL2, 1)),
    IDV(ID_AA64PFR0_EL1, EL1, L(AA64, 1), L(AA32EL1, 2)),
    IDV(ID_AA64PFR0_EL1, EL0, L(AA64, 1), L(AA32EL0, 2)),

    IDV(ID_AA64DFR0_EL1, HPMN0, L(HPMN0, 1)),
    IDV(ID_AA64DFR0_EL1, ExtTrcBuff, L(TRBE_EXT, 1)),
    IDV(ID_AA64DFR0_EL1, BRBE, L(BRBE, 1), L(BRBEv1p1, 2)),
    IDF(ID_AA64DFR0_EL1, MTPMU, dfr0_mtpmu),
    IDV(ID_AA64DFR0_EL1, TraceBuffer, L(TRBE, 1), L(TRBEv1p1, 2)),
    IDV(ID_AA64DFR0_EL1, TraceFilt, L(TRF, 1)),
    IDF(ID_AA64DFR0_EL1, DoubleLock, dfr0_doublelock),
    IDV(ID_AA64DFR0_EL1, PMSVer, L(SPE, 1), L(SPEv1p1, 2), L(SPEv1p2, 3), L(SPEv1p3, 4),
        L(SPEv1p4, 5), L(SPEv1p5, 6)),
    IDF(ID_AA64DFR0_EL1, CTX_CMPs, dfr0_ctx_cmps),
    IDV(ID_AA64DFR0_EL1, SEBEP, L(SEBEP, 1)),
    IDF(ID_AA64DFR0_EL1, WRPs, dfr0_wrps),
    IDV(ID_AA64DFR0_EL1, PMSS, L(PMUv3_SS, 1)),
    IDF(ID_AA64DFR0_EL1, BRPs, dfr0_brps),
    IDV(ID_AA64DFR0_EL1, PMUVer, L(PMUv3, 1), L(PMUv3p1, 4), L(PMUv3p4, 5), L(PMUv3p5, 6),
        L(PMUv3p7, 7), L(PMUv3p8, 8), L(PMUv3p9, 9)),
    /* The System register interface to a trace unit: FEAT_ETE has it,
     * FEAT_ETMv4 only with FEAT_TRC_SR. */
    IDV(ID_AA64DFR0_EL1, TraceVer, L(TRC_SR, 1), L(ETE, 1)),
    /* 0b0110 is the Armv8.0 debug architecture. */
    IDV(ID_AA64DFR0_EL1, DebugVer, L(AA64, 6), L(Debugv8p1, 7), L(Debugv8p2, 8), L(Debugv8p4, 9),
        L(Debugv8p8, 10), L(Debugv8p9, 11)),

    IDF(ID_AA64DFR1_EL1, ABL_CMPs, dfr1_abl_cmps),
    IDV(ID_AA64DFR1_EL1, DPFZS, L(SPE_DPFZS, 1)),
    IDV(ID_AA64DFR1_EL1, EBEP, L(EBEP, 1)),
    IDV(ID_AA64DFR1_EL1, ITE, L(ITE, 1)),
    IDV(ID_AA64DFR1_EL1, ABLE, L(ABLE, 1)),
    IDV(ID_AA64DFR1_EL1, PMICNTR, L(PMUv3_ICNTR, 1)),
    IDV(ID_AA64DFR1_EL1, SPMU, L(SPMU, 1), L(SPMU2, 2)),
    IDF(ID_AA64DFR1_EL1, CTX_CMPs, dfr1_ctx_cmps),
    IDF(ID_AA64DFR1_EL1, WRPs, dfr1_wrps),
    IDF(ID_AA64DFR1_EL1, BRPs, dfr1_brps),
    IDF(ID_AA64DFR1_EL1, SYSPMUID, dfr1_syspmuid),

    IDV(ID_AA64ISAR2_EL1, SYSREG_128, L(SYSREG128, 1)),
    IDV(ID_AA64ISAR2_EL1, MOPS, L(MOPS, 1)),

    IDV(ID_AA64MMFR0_EL1, ECV, L(ECV, 1), L(ECV_POFF, 2)),
    IDV(ID_AA64MMFR0_EL1, FGT, L(FGT, 1), L(FGT2, 2)),
    IDV(ID_AA64MMFR0_EL1, ExS, L(ExS, 1)),
    IDF(ID_AA64MMFR0_EL1, TGran4_2, mmfr0_tgran4_2),
    IDF(ID_AA64MMFR0_EL1, TGran64_2, mmfr0_tgran64_2),
    IDF(ID_AA64MMFR0_EL1, TGran16_2, mmfr0_tgran16_2),
    IDF(ID_AA64MMFR0_EL1, TGran4, mmfr0_tgran4),
    IDF(ID_AA64MMFR0_EL1, TGran64, mmfr0_tgran64),
    IDF(ID_AA64MMFR0_EL1, TGran16, mmfr0_tgran16),
    IDF(ID_AA64MMFR0_EL1, BigEndEL0, mmfr0_bigendel0),
    /* 'If EL3 is implemented, the value 0b0000 is not permitted.' */
    IDV(ID_AA64MMFR0_EL1, SNSMem, L(EL3, 1)),
    IDV(ID_AA64MMFR0_EL1, BigEnd, L(MixedEnd, 1)),
    IDF(ID_AA64MMFR0_EL1, ASIDBits, mmfr0_asidbits),
    IDF(ID_AA64MMFR0_EL1, PARange, mmfr0_parange),

    IDV(ID_AA64MMFR1_EL1, HCX, L(HCX, 1)),
    IDV(ID_AA64MMFR1_EL1, TWED, L(TWED, 1)),
    IDV(ID_AA64MMFR1_EL1, PAN, L(PAN, 1)),
    IDV(ID_AA64MMFR1_EL1, LO, L(LOR, 1)),
    IDV(ID_AA64MMFR1_EL1, VH, L(VHE, 1)),
    IDV(ID_AA64MMFR1_EL1, VMIDBits, L(VMID16, 2)),

    IDV(ID_AA64MMFR2_EL1, E0PD, L(E0PD, 1)),
    IDV(ID_AA64MMFR2_EL1, EVT, L(EVT, 2)),
    IDV(ID_AA64MMFR2_EL1, FWB, L(S2FWB, 1)),
    IDV(ID_AA64MMFR2_EL1, IDS, L(IDST, 1)),
    IDV(ID_AA64MMFR2_EL1, NV, L(NV, 1), L(NV2, 2)),
    IDV(ID_AA64MMFR2_EL1, CnP, L(TTCNP, 1)),

    IDF(ID_AA64MMFR3_EL1, D128_2, mmfr3_d128_2),
    IDV(ID_AA64MMFR3_EL1, D128, L(D128, 1)),
    IDV(ID_AA64MMFR3_EL1, MEC, L(MEC, 1)),
    IDV(ID_AA64MMFR3_EL1, AIE, L(AIE, 1)),
    IDV(ID_AA64MMFR3_EL1, S2POE, L(S2POE, 1)),
    IDV(ID_AA64MMFR3_EL1, S1POE, L(S1POE, 1)),
    IDV(ID_AA64MMFR3_EL1, S2PIE, L(S2PIE, 1)),
    IDV(ID_AA64MMFR3_EL1, S1PIE, L(S1PIE, 1)),
    IDV(ID_AA64MMFR3_EL1, SCTLRX, L(SCTLR2, 1)),
    IDV(ID_AA64MMFR3_EL1, TCRX, L(TCR2, 1)),
};

void context_idregs_init(armprof_pe *pe)
{
    sysreg_apply_id_fields(pe, context_id_fields,
                           sizeof context_id_fields / sizeof context_id_fields[0]);
}
