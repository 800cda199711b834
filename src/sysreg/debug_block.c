/* SPDX-License-Identifier: BSD-3-Clause */
/* The external debug block's power, reset and lock registers and its
 * CoreSight management registers (pcsr/regs/external_debug.def): EDPRCR,
 * EDPRSR, the external view of OSLAR_EL1, the claim tags, the Software Lock
 * (EDLAR, EDLSR) and the identification (EDDEVARCH, EDDEVTYPE, EDPIDR<n>).
 * What the blocks share (CIDR, DEVAFF, the PIDR layout) is
 * sysreg/coresight.c's. */
#include "sysreg/debug_block.h"

#include "core/arch.h"
#include "sysreg/coresight.h"
#include "sysreg/sysreg.h"

#define EDPRCR_COREPURQ  (1u << 3)
#define EDPRCR_CORENPDRQ (1u << 0)

/* EDPRCR (0x310). 'When FEAT_DoPD is implemented': CWRR [1], CORENPDRQ [0];
 * otherwise COREPURQ [3] (Debug power domain), CWRR [1], CORENPDRQ [0]; the
 * other bits RES0 (Arm developer register page EDPRCR, DDI0595).
 *   COREPURQ  RW, 'On an External debug reset this field resets to 0'.
 *   CWRR      WO/RAZ; 'Arm deprecates use of this bit, and recommends that
 *             implementations ignore the request': the model ignores it.
 *   CORENPDRQ 'DBGPRCR_EL1 bit [0] is architecturally mapped to External
 *             register EDPRCR[0]'; in the Core power domain: UNKNOWN (the bit
 *             of option unknown_fill) while it is off ('When this bit reads as
 *             UNKNOWN, the PE ignores writes to this bit'). */
EXT_READ_FN(ext_read_EDPRCR)
{
    (void)a;
    (void)m;
    (void)bits;
    uint64_t v = 0;
    if (!IsFeatureImplemented(pe, DoPD) && SYSREG_LEVEL(pe)->ext.edprcr_corepurq)
        v |= EDPRCR_COREPURQ;
    if (IsCorePowered(pe))
        v |= FIELD(pe, DBGPRCR_EL1, CORENPDRQ);
    else
        v |= OPTION_VALUE(pe, UNKNOWN_FILL) & EDPRCR_CORENPDRQ;
    return v;
}

EXT_WRITE_FN(ext_write_EDPRCR)
{
    (void)a;
    (void)m;
    if (!IsFeatureImplemented(pe, DoPD) && (bits & EDPRCR_COREPURQ))
        SYSREG_LEVEL(pe)->ext.edprcr_corepurq = (value & EDPRCR_COREPURQ) != 0;
    if (IsCorePowered(pe) && (bits & EDPRCR_CORENPDRQ))
        sysreg_store(pe, SR_DBGPRCR_EL1, 0, value & EDPRCR_CORENPDRQ);
}

/* EDPRSR fields (bit positions) */
#define EDPRSR_PU     (1u << 0)
#define EDPRSR_R      (1u << 2)
#define EDPRSR_HALTED (1u << 4)
#define EDPRSR_OSLK   (1u << 5)
#define EDPRSR_DLK    (1u << 6)
#define EDPRSR_EDAD   (1u << 7)
#define EDPRSR_EPMAD  (1u << 9)
#define EDPRSR_ETAD   (1u << 12)
#define EDPRSR_EDADE  (1u << 14)
#define EDPRSR_ETADE  (1u << 15)
#define EDPRSR_EPMADE (1u << 16)

/* The fields of EDPRSR the configuration has (the others are RES0): SPMAD and
 * EPMAD 'When FEAT_PMUv3_EXT is implemented' (EPMAD 'Reserved, UNKNOWN' with
 * FEAT_PMUv3 only), DLK 'When FEAT_DoubleLock is implemented' and not
 * FEAT_Debugv8p4, the trace fields with FEAT_TRC_EXT and FEAT_TRBE, the
 * Extended ones with FEAT_RME. */
static uint32_t edprsr_fields(const armprof_pe *pe)
{
    uint32_t f = EDPRSR_SDR | EDPRSR_SDAD | EDPRSR_EDAD | EDPRSR_OSLK | EDPRSR_HALTED | EDPRSR_SR |
                 EDPRSR_R | EDPRSR_SPD | EDPRSR_PU;
    const bool rme = IsFeatureImplemented(pe, RME), ext = IsFeatureImplemented(pe, PMUv3_EXT),
               trace = IsFeatureImplemented(pe, TRC_EXT) && IsFeatureImplemented(pe, TRBE);
    if (ext || IsFeatureImplemented(pe, PMUv3)) f |= EDPRSR_EPMAD;
    if (ext) f |= EDPRSR_SPMAD;
    if (IsFeatureImplemented(pe, DoubleLock) && !IsFeatureImplemented(pe, Debugv8p4))
        f |= EDPRSR_DLK;
    if (trace) f |= EDPRSR_STAD | EDPRSR_ETAD;
    if (rme) f |= EDPRSR_EDADE;
    if (rme && trace) f |= EDPRSR_ETADE;
    if (rme && ext) f |= EDPRSR_EPMADE;
    return f;
}

/* The MDCR_EL3 controls EDPRSR reports: EDAD [7] 'prohibited by the
 * MDCR_EL3.EDAD control', EPMAD [9], ETAD [12], and with FEAT_RME EDADE,
 * ETADE, EPMADE; without EL3 the controls are not there (0). */
static uint32_t edprsr_controls(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL3)) return 0;
    uint32_t v = (uint32_t)FIELD(pe, MDCR_EL3, EDAD) << 7;
    if (IsFeatureImplemented(pe, PMUv3_EXT)) v |= (uint32_t)FIELD(pe, MDCR_EL3, EPMAD) << 9;
    if (IsFeatureImplemented(pe, TRC_EXT) && IsFeatureImplemented(pe, TRBE))
        v |= (uint32_t)FIELD(pe, MDCR_EL3, ETAD) << 12;
    if (IsFeatureImplemented(pe, RME)) {
        v |= (uint32_t)FIELD(pe, MDCR_EL3, EDADE) << 14;
        if (IsFeatureImplemented(pe, TRC_EXT) && IsFeatureImplemented(pe, TRBE))
            v |= (uint32_t)FIELD(pe, MDCR_EL3, ETADE) << 15;
        if (IsFeatureImplemented(pe, PMUv3_EXT)) v |= (uint32_t)FIELD(pe, MDCR_EL3, EPMADE) << 16;
    }
    return v;
}

/* The fields whose access is UNKNOWN/WI in the PE's state, with the Core
 * power domain up (R is 0: the model never holds the PE in reset state):
 *   'When DoubleLockStatus(), access to this field is UNKNOWN/WI': SDR, SDAD,
 *   EDAD and EPMAD (without FEAT_RME), SPMAD, OSLK, SR;
 *   'When OSLockStatus(), access to this field is UNKNOWN/WI': EPMAD and SPMAD
 *   without FEAT_Debugv8p4 (their last layout). */
static uint32_t edprsr_unknown(const armprof_pe *pe)
{
    uint32_t u = 0;
    const bool rme = IsFeatureImplemented(pe, RME);
    if (DoubleLockStatus(pe)) {
        u |= EDPRSR_SDR | EDPRSR_SDAD | EDPRSR_SPMAD | EDPRSR_OSLK | EDPRSR_SR;
        if (!rme) u |= EDPRSR_EDAD | EDPRSR_EPMAD;
    }
    if (OSLockStatus(pe) && !IsFeatureImplemented(pe, Debugv8p4) && !rme)
        u |= EDPRSR_EPMAD | EDPRSR_SPMAD;
    if (!IsFeatureImplemented(pe, PMUv3_EXT)) u |= EDPRSR_EPMAD; /* 'Reserved, UNKNOWN' */
    return u;
}

/* EDPRSR (0x314), RO (EDPRSR.external-debug.md):
 *   PU [0]     RAO with FEAT_DoPD; otherwise 1 when the Core power domain is
 *              up and not DoubleLockStatus() (with FEAT_Debugv8p2 PU is 0
 *              then; before it the IMPLEMENTATION DEFINED choice between 'PU
 *              reads as 1, DLK reads as 1, SPD UNKNOWN' and 'PU reads as 0, DLK
 *              UNKNOWN, SPD reads as 0' is the second, the same).
 *   SPD [1]    sticky power-down; 'If FEAT_Debugv8p2 is implemented, this bit
 *              reads as 0' under DoubleLockStatus() (the model: 0 before too);
 *              'RAZ/WI' without FEAT_DoPD while the Core is off.
 *   R [2]      0. SR [3] sticky reset. HALTED [4] Halted(). OSLK [5]
 *              OSLSR_EL1.OSLK. DLK [6] DoubleLockStatus() (the UNKNOWN value
 *              the model gives it is the status; docs/spec-notes.md).
 *   EDAD [7], EPMAD [9], ETAD [12], EDADE [14], ETADE [15], EPMADE [16]
 *              the MDCR_EL3 controls. SDAD [8], SPMAD [10], SDR [11], STAD
 *              [13] sticky.
 * Without FEAT_DoPD and with the Core off, every field but SPD and PU is
 * UNKNOWN (option unknown_fill), PU reads 0 and SPD RAZ. UNKNOWN fields
 * take their bit of option unknown_fill.
 * 'If the Core power domain is powered up (EDPRSR.PU == 1), then following a
 * read of EDPRSR: If FEAT_DoubleLock is not implemented or DoubleLockStatus()
 * == FALSE, then: EDPRSR.{SDR, SPMAD, SDAD, SPD} are cleared to 0. EDPRSR.SR
 * is cleared to 0 if ... EDPRSR.R == 0' (STAD too: 'following a read of
 * EDPRSR, then this bit clears to 0'); under DoubleLockStatus() the CONSTRAINED
 * UNPREDICTABLE choice is 'unchanged' (PU is 0 then). 'When
 * SoftwareLockStatus(), access to this field is RO': the read clears nothing. */
EXT_READ_FN(ext_read_EDPRSR)
{
    (void)m;
    pe_external *x = &SYSREG_LEVEL(pe)->ext;
    const uint32_t fields = edprsr_fields(pe);
    const uint64_t unknown_fill = OPTION_VALUE(pe, UNKNOWN_FILL);
    if (!IsFeatureImplemented(pe, DoPD) && !IsCorePowered(pe))
        return unknown_fill & fields & ~(uint64_t)(EDPRSR_SPD | EDPRSR_PU);
    const bool dls = DoubleLockStatus(pe);
    const bool pu = IsFeatureImplemented(pe, DoPD) || !dls;
    uint32_t v = (x->edprsr & EDPRSR_STICKY) | edprsr_controls(pe);
    if (dls) v &= ~EDPRSR_SPD;
    if (pu) v |= EDPRSR_PU;
    if (Halted(pe)) v |= EDPRSR_HALTED;
    if (OSLockStatus(pe)) v |= EDPRSR_OSLK;
    if (dls) v |= EDPRSR_DLK;
    const uint32_t unknown = edprsr_unknown(pe);
    v = (v & ~unknown) | ((uint32_t)unknown_fill & unknown);
    if (bits && !dls && !SoftwareLockStatus(pe, a, ARMPROF_EXT_DEBUG))
        x->edprsr &= (uint16_t) ~(EDPRSR_SDR | EDPRSR_SPMAD | EDPRSR_SDAD | EDPRSR_STAD |
                                  EDPRSR_SPD | EDPRSR_SR);
    return v & fields;
}

/* OSLAR_EL1 (0x300): 'External register OSLAR_EL1 bits [31:0] are
 * architecturally mapped to AArch64 System register OSLAR_EL1[31:0]': the
 * write goes through the System register's hook ('On writes to OSLAR_EL1,
 * bit[0] is copied to the OS Lock'). WO: reads as 0 (the entry's EXT_WO). */
EXT_WRITE_FN(ext_write_EDOSLAR)
{
    (void)m;
    if (bits & 1) sysreg_write(pe, a, SR_OSLAR_EL1, 0, value & 1);
}

/* The claim tags: eight (DBGCLAIMSET_EL1.CLAIM [7:0]). EDCLAIMSET (0xFA0)
 * reads as the implemented tags, all ones, and a write of 1 sets a tag;
 * EDCLAIMCLR (0xFA4) reads the tags and a write of 1 clears one. */
#define CLAIM_TAGS 0xffu
EXT_READ_FN(ext_read_EDCLAIMSET)
{
    (void)pe;
    (void)a;
    (void)m;
    (void)bits;
    return CLAIM_TAGS;
}
EXT_WRITE_FN(ext_write_EDCLAIMSET)
{
    (void)a;
    (void)m;
    SYSREG_LEVEL(pe)->ext.claim |= (uint8_t)(value & bits & CLAIM_TAGS);
}
EXT_READ_FN(ext_read_EDCLAIMCLR)
{
    (void)a;
    (void)m;
    (void)bits;
    return SYSREG_LEVEL(pe)->ext.claim;
}
EXT_WRITE_FN(ext_write_EDCLAIMCLR)
{
    (void)a;
    (void)m;
    SYSREG_LEVEL(pe)->ext.claim &= (uint8_t) ~(value & bits & CLAIM_TAGS);
}

/* EDLAR (0xFB0) and EDLSR (0xFB4): the Software Lock, as PMLAR and PMLSR. */
EXT_WRITE_FN(ext_write_EDLAR)
{
    (void)m;
    (void)bits;
    coresight_lar_write(pe, a, ARMPROF_EXT_DEBUG, value);
}
EXT_READ_FN(ext_read_EDLSR)
{
    (void)m;
    (void)bits;
    return coresight_lsr_read(pe, a, ARMPROF_EXT_DEBUG);
}

/* EDDEVARCH (0xFBC): ARCHITECT [31:21] 0x23B (Arm), PRESENT [20] 1, REVISION
 * [19:16] 0, ARCHID [15:0] = ARCHVER [15:12] : ARCHPART [11:0] 0xA15 (the
 * Armv8-A debug component); ARCHVER is the debug architecture version,
 * ID_AA64DFR0_EL1.DebugVer's encoding (0b0110 Armv8.0 ... 0b1011 Armv8.9;
 * a Cortex-A57 reads 0x47706A15). */
EXT_READ_FN(ext_read_EDDEVARCH)
{
    (void)a;
    (void)m;
    (void)bits;
    return 0x23Bull << 21 | 1ull << 20 | FIELD(pe, ID_AA64DFR0_EL1, DebugVer) << 12 | 0xA15;
}

/* EDDEVTYPE (0xFCC): SUB [7:4] 0x1 (processor), MAJOR [3:0] 0x5 (debug
 * logic). */
EXT_READ_FN(ext_read_EDDEVTYPE)
{
    (void)pe;
    (void)a;
    (void)m;
    (void)bits;
    return 0x15;
}

/* EDPIDR0..4 from option ed_iidr (coresight_pidr()). */
EXT_PIDR_FN(ext_read_EDPIDR0, ED_IIDR, 0)
EXT_PIDR_FN(ext_read_EDPIDR1, ED_IIDR, 1)
EXT_PIDR_FN(ext_read_EDPIDR2, ED_IIDR, 2)
EXT_PIDR_FN(ext_read_EDPIDR3, ED_IIDR, 3)
EXT_PIDR_FN(ext_read_EDPIDR4, ED_IIDR, 4)
