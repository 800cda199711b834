/* SPDX-License-Identifier: BSD-3-Clause */
/* The owning translation regime of a Profiling Buffer write, as the
 * walker's configuration (D17.7.1 to D17.7.5): which registers make up
 * stage 1 and stage 2, AArch64.S1Enabled() for AccessType_SPE, and the
 * attributes stage 1 outputs when it is disabled. */
#include <string.h>

#include "core/arch.h"
#include "spe/buffer.h"
#include "spe/spe.h"

/* OAMax (RQJNFT) */
static unsigned oamax(const armprof_pe *pe)
{
    if (IsFeatureImplemented(pe, D128)) return 55;
    if (IsFeatureImplemented(pe, LPA) || IsFeatureImplemented(pe, LPA2)) return 51;
    return 47;
}

/* The regime the owner gives (RTDHBH, RKRVDC), also when the buffer is not
 * enabled (a record written under Unpredictable_SPE_BUFFER_DISABLED 0). */
static mmu_regime owner_regime(const armprof_pe *pe, spe_owner owner)
{
    if (owner.el == EL1) return MMU_REGIME_EL10;
    return EffectiveHCR_EL2_E2H(pe) ? MMU_REGIME_EL20 : MMU_REGIME_EL2;
}

/* walkparams.emec of the SPU's regimes: FEAT_MEC && IsSCTLR2EL2Enabled() &&
 * SCTLR2_EL2.EMEC (IsSCTLR2EL2Enabled(): FEAT_SCTLR2, SCR_EL3.SCTLR2En,
 * EL2Enabled()). */
static bool walk_emec(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, MEC) && IsFeatureImplemented(pe, SCTLR2) &&
           (!HaveEL(pe, EL3) || FIELD(pe, SCR_EL3, SCTLR2En) == 1) && EL2Enabled(pe) &&
           FIELD(pe, SCTLR2_EL2, EMEC) == 1;
}

void spe_walk_config(const armprof_pe *pe, int pas, mmu_walk_config *c)
{
    memset(c, 0, sizeof *c);
    const spe_owner owner = ProfilingBufferOwner(pe);
    const bool el2_enabled = EL2EnabledInOwningSecurityState(pe, owner);
    const bool nvm = EffectivePMBLIMITR_EL1_nVM(pe) == 1;
    c->regime = owner_regime(pe, owner);
    if (c->regime == MMU_REGIME_EL10) {
        c->tcr = REG(pe, TCR_EL1);
        c->ttbr0 = REG(pe, TTBR0_EL1);
        c->ttbr1 = REG(pe, TTBR1_EL1);
        c->mair = REG(pe, MAIR_EL1);
    } else {
        c->tcr = REG(pe, TCR_EL2);
        c->ttbr0 = REG(pe, TTBR0_EL2);
        c->ttbr1 = REG(pe, TTBR1_EL2);
        c->mair = REG(pe, MAIR_EL2);
    }
    const bool dc = c->regime == MMU_REGIME_EL10 && el2_enabled && FIELD(pe, HCR_EL2, DC) == 1;
    /* AArch64.S1Enabled(regime, AccessType_SPE) */
    if (nvm)
        c->s1_enabled = false;
    else if (c->regime == MMU_REGIME_EL10)
        c->s1_enabled =
            (!el2_enabled || (FIELD(pe, HCR_EL2, DC) == 0 && FIELD(pe, HCR_EL2, TGE) == 0)) &&
            FIELD(pe, SCTLR_EL1, M) == 1;
    else
        c->s1_enabled = FIELD(pe, SCTLR_EL2, M) == 1;
    /* Stage 1 disabled outputs: HCR_EL2.DC's Normal Non-shareable
     * Write-Back (regardless of PMBMAR_EL1, D17.7.3), else PMBMAR_EL1 with
     * nVM (D17.7.2), else Device-nGnRnE Outer Shareable
     * (AArch64.S1DisabledOutput()). */
    if (dc) {
        c->s1_disabled_attr = 0xFF;
        c->s1_disabled_sh = 0;
    } else if (nvm) {
        c->s1_disabled_attr = (uint8_t)FIELD(pe, PMBMAR_EL1, Attr);
        c->s1_disabled_sh = (uint8_t)FIELD(pe, PMBMAR_EL1, SH);
    } else {
        c->s1_disabled_attr = 0x00;
        c->s1_disabled_sh = 2;
    }
    c->oamax = oamax(pe);
    c->s1_disabled_ignore_top = constrained_unpredictable(pe, SPE_NVM_TOPBITS) ==
                                ARMPROF_UNPRED_SPE_NVM_TOPBITS_TREAT_AS_ZERO;
    /* Stage 2 for the EL1&0 regime with EL2 enabled in the owning Security
     * state and HCR_EL2.{VM,DC} not {0,0} (RTDHBH, D17.7.3). */
    c->s2_enabled = c->regime == MMU_REGIME_EL10 && el2_enabled &&
                    (FIELD(pe, HCR_EL2, VM) == 1 || FIELD(pe, HCR_EL2, DC) == 1);
    c->vtcr = REG(pe, VTCR_EL2);
    c->vttbr = REG(pe, VTTBR_EL2);
    if (IsFeatureImplemented(pe, SEL2)) {
        c->vstcr = REG(pe, VSTCR_EL2);
        c->vsttbr = REG(pe, VSTTBR_EL2);
    } else {
        c->vstcr = c->vsttbr = 0;
    }
    c->fwb = FIELD(pe, HCR_EL2, FWB) == 1;
    c->pas = pas;
    c->pa_bits = (unsigned)OPTION_VALUE(pe, PA_SIZE);
    c->lpa2 = IsFeatureImplemented(pe, LPA2);
    c->the = IsFeatureImplemented(pe, THE);
    c->gpc = IsFeatureImplemented(pe, RME);
    c->manage_af_dirty = OPTION_VALUE(pe, PMBIDR_F) == 1;
    c->fault_txsz_below_min = OPTION_VALUE(pe, MMU_FAULT_TXSZ_BELOW_MIN) != 0;
    c->fault_txsz_above_max = OPTION_VALUE(pe, MMU_FAULT_TXSZ_ABOVE_MAX) != 0;
    c->fault_misprogrammed_contiguous = OPTION_VALUE(pe, MMU_FAULT_CONTIGUOUS) != 0;
    c->contiguous_bit_as_0 = OPTION_VALUE(pe, MMU_CONTIGUOUS_AS_0) != 0;
    c->s1_effective_shareability = OPTION_VALUE(pe, MMU_S1_EFFECTIVE_SH) != 0;
    c->desc_64kb_oa_51_48 = OPTION_VALUE(pe, MMU_64KB_DESC_OA) != 0;
    c->baddr_64kb_52 = OPTION_VALUE(pe, MMU_64KB_BADDR_52) != 0;
    /* The values of these options are the encodings the walker reads. */
    /* FEAT_MEC: walkparams.emec = SCTLR2_EL2.EMEC when IsSCTLR2EL2Enabled()
     * (AArch64.S1TTWParamsEL2()/EL20()/EL10(), NSS2TTWParams()). */
    c->emec = walk_emec(pe);
    c->mecid_p0 = (uint16_t)REG(pe, MECID_P0_EL2);
    c->mecid_a0 = (uint16_t)REG(pe, MECID_A0_EL2);
    c->mecid_p1 = (uint16_t)REG(pe, MECID_P1_EL2);
    c->mecid_a1 = (uint16_t)REG(pe, MECID_A1_EL2);
    c->vmecid_p = (uint16_t)REG(pe, VMECID_P_EL2);
    c->vmecid_a = (uint16_t)REG(pe, VMECID_A_EL2);
    c->tgran_4k = IsFeatureImplemented(pe, TGran4K);
    c->tgran_16k = IsFeatureImplemented(pe, TGran16K);
    c->tgran_64k = IsFeatureImplemented(pe, TGran64K);
    c->tg0_encoded_granule = (unsigned)OPTION_VALUE(pe, MMU_TG0_GRANULE);
    c->tg1_encoded_granule = (unsigned)OPTION_VALUE(pe, MMU_TG1_GRANULE);
    c->reserved_sh = (uint8_t)constrained_unpredictable(pe, SHAREABILITY);
    c->resmair_cacheability = (uint8_t)constrained_unpredictable(pe, RESMAIR);
    c->s2resmemattr_cacheability = (uint8_t)constrained_unpredictable(pe, S2RESMEMATTR);
}

void spe_write_identity(const armprof_pe *pe, armprof_buffer_write *w)
{
    const spe_owner owner = ProfilingBufferOwner(pe);
    const mmu_regime regime = owner_regime(pe, owner);
    /* The current ASID: TTBR0 or TTBR1 by TCR_ELx.A1, 8 or 16 bits by
     * TCR_ELx.AS (the EL2 regime has none). */
    if (regime != MMU_REGIME_EL2) {
        const uint64_t tcr = regime == MMU_REGIME_EL10 ? REG(pe, TCR_EL1) : REG(pe, TCR_EL2);
        const bool a1 = (tcr >> 22) & 1, as = (tcr >> 36) & 1;
        uint64_t ttbr;
        if (regime == MMU_REGIME_EL10)
            ttbr = a1 ? REG(pe, TTBR1_EL1) : REG(pe, TTBR0_EL1);
        else
            ttbr = a1 ? REG(pe, TTBR1_EL2) : REG(pe, TTBR0_EL2);
        w->asid = (uint16_t)(ttbr >> 48);
        if (!as) w->asid &= 0xFF;
    }
    if (regime == MMU_REGIME_EL10 && EL2EnabledInOwningSecurityState(pe, owner)) {
        w->vmid = (uint16_t)FIELD(pe, VTTBR_EL2, VMID);
        if (!(IsFeatureImplemented(pe, VMID16) && FIELD(pe, VTCR_EL2, VS) == 1)) w->vmid &= 0xFF;
    }
    /* RDFFVT: the MECID of the owning regime, Security state and Exception
     * level, for a descriptor with AMEC 0 (an embedder's hook translates; the
     * model's walk gives the exact output MECID: AArch64.S1OutputMECID(),
     * S1DisabledOutputMECID(), S2OutputMECID()). DEFAULT_MECID (0) outside
     * Realm state or without SCTLR2_EL2.EMEC. */
    w->mecid = 0;
    if (walk_emec(pe) && owner.ss == ARMPROF_SS_REALM) {
        if (regime == MMU_REGIME_EL10)
            w->mecid = (uint16_t)REG(pe, VMECID_P_EL2);
        else if (regime == MMU_REGIME_EL20 && ((w->address >> 55) & 1))
            w->mecid = (uint16_t)REG(pe, MECID_P1_EL2);
        else
            w->mecid = (uint16_t)REG(pe, MECID_P0_EL2);
    }
}
