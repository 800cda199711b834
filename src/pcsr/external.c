/* SPDX-License-Identifier: BSD-3-Clause */
/* The PC sample registers in the PMU block (pcsr/regs/external_pcsr.def,
 * FEAT_PCSRv8p2 and FEAT_PCSRv8p9, H7.1.2) and the external debug block
 * (pcsr/regs/external_debug.def: FEAT_PCSRv8, EDSCR and what identifies the
 * block): the functions of the rd and wr columns. */
#include "pcsr/external.h"

#include "core/arch.h"

/* PMPCSR as it reads: bit [60] and bits [58:56] are RES0, and NSE [59]
 * without FEAT_RME (the stored value may hold UNKNOWN bits there). */
static uint64_t pmpcsr_view(const armprof_pe *pe, uint64_t v)
{
    uint64_t res0 = 1ull << 60 | BITS_MASK(58, 56);
    if (!IsFeatureImplemented(pe, RME)) res0 |= 1ull << 59;
    return v & ~res0;
}

/* PMPCSR (EXT64) and PMPCSR[31:0] (EXT32), at 0x200 and at 0x220. A read that
 * covers bits [31:0] is Read_PMPCSR(memory_mapped) with its side effects:
 * 'Only a 64-bit access to PMPCSR[63:0] or a 32-bit access to PMPCSR[31:0]
 * updates the PC sample registers'. A 32-bit read of bits [63:32] of the
 * 64-bit location, and the value reported after a (ignored) write, are the
 * register as the last sample left it. */
EXT_READ_FN(ext_read_PMPCSR)
{
    (void)m;
    const uint64_t v =
        (bits & 0xffffffffu) ? Read_PMPCSR(pe, a->memory_mapped) : PCSR_STATE(pe)->pmpcsr;
    return pmpcsr_view(pe, v);
}

/* PMPCSR[63:32] (EXT32), at 0x204 and 0x224: 'A 32-bit access to
 * PMPCSR[63:32] does not update the PC sample registers.' */
EXT_READ_FN(ext_read_PMPCSR_HI)
{
    (void)a;
    (void)m;
    (void)bits;
    return pmpcsr_view(pe, PCSR_STATE(pe)->pmpcsr) >> 32;
}

/* The VMID bits of PMVIDSR.VMID / PMVCIDSR.VMID: [15:8] 'When FEAT_VMID16 is
 * implemented', RES0 otherwise. */
static uint64_t vmid_mask(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, VMID16) ? 0xffff : 0xff;
}

/* PMCID1SR (0x208, 0x228): CONTEXTIDR_EL1 of the last sample. */
EXT_READ_FN(ext_read_PMCID1SR)
{
    (void)a;
    (void)m;
    (void)bits;
    return PCSR_STATE(pe)->pmcid1sr;
}

/* PMCID2SR (0x22C): CONTEXTIDR_EL2 of the last sample. */
EXT_READ_FN(ext_read_PMCID2SR)
{
    (void)a;
    (void)m;
    (void)bits;
    return PCSR_STATE(pe)->pmcid2sr;
}

/* PMVIDSR (0x20C): bits [31:16] RES0, VMID [15:0]. */
EXT_READ_FN(ext_read_PMVIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return PCSR_STATE(pe)->pmvidsr & vmid_mask(pe);
}

/* PMVCIDSR (0x208, EXT64): bits [63:48] RES0, VMID [47:32], CONTEXTIDR_EL1
 * [31:0] - 'the same content' as PMVIDSR and PMCID1SR. */
EXT_READ_FN(ext_read_PMVCIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return (PCSR_STATE(pe)->pmvidsr & vmid_mask(pe)) << 32 | PCSR_STATE(pe)->pmcid1sr;
}

/* PMCCIDSR (0x228, EXT64): CONTEXTIDR_EL2 [63:32], CONTEXTIDR_EL1 [31:0] -
 * 'the same content' as PMCID2SR and PMCID1SR. */
EXT_READ_FN(ext_read_PMCCIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return (uint64_t)PCSR_STATE(pe)->pmcid2sr << 32 | PCSR_STATE(pe)->pmcid1sr;
}

#define PMPCSCTL_EN  (1u << 0)
#define PMPCSCTL_IMP (1u << 1)
#define PMPCSCTL_SS  (1u << 4)

/* The PMPCSCTL fields: SS 'When FEAT_PMUv3_SS is implemented' (RES0
 * otherwise), IMP (RO, option pcsr_pmpcsctl_imp from reset), EN 'When
 * PMU.PMPCSCTL.IMP == '1'' ('Otherwise: Reserved, RAZ/WI'). */
static uint64_t pmpcsctl_fields(const armprof_pe *pe)
{
    uint64_t f = PMPCSCTL_IMP;
    if (PCSR_STATE(pe)->pmpcsctl & PMPCSCTL_IMP) f |= PMPCSCTL_EN;
    if (IsFeatureImplemented(pe, PMUv3_SS)) f |= PMPCSCTL_SS;
    return f;
}

/* PMPCSCTL (0xE50): SS [4], IMP [1], EN [0]; bits [63:5] and [3:2] RES0. */
EXT_READ_FN(ext_read_PMPCSCTL)
{
    (void)a;
    (void)m;
    (void)bits;
    return PCSR_STATE(pe)->pmpcsctl & pmpcsctl_fields(pe);
}

/* A write is pcsr_write_pmpcsctl() (the PC sampling unit keeps IMP, and
 * applies the writable fields and what entering suspended state or setting SS
 * does to later samples). A 32-bit write to one word of the 64-bit location
 * leaves the other as it reads. */
EXT_WRITE_FN(ext_write_PMPCSCTL)
{
    (void)a;
    (void)m;
    const uint64_t v = (PCSR_STATE(pe)->pmpcsctl & pmpcsctl_fields(pe) & ~bits) | (value & bits);
    pcsr_write_pmpcsctl(pe, (uint32_t)v);
}

/* ---- The external debug block (external_debug.def) ---- */

/* EDSCR.SC2 'When FEAT_PCSRv8 is implemented, EL2 is implemented,
 * FEAT_Debugv8p1 is implemented, and FEAT_PCSRv8p2 is not implemented';
 * RES0 otherwise. */
static bool edscr_sc2_implemented(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8) && HaveEL(pe, EL2) &&
           IsFeatureImplemented(pe, Debugv8p1) && !IsFeatureImplemented(pe, PCSRv8p2);
}

/* EDPCSR and EDVIDSR have the EDSCR.SC2 == '1' format: 'If FEAT_Debugv8p1 is
 * implemented, the format of this register differs depending on the value of
 * EDSCR.SC2' (EDVIDSR: 'When EL2 is implemented, FEAT_Debugv8p1 is
 * implemented, and EDSCR.SC2 == '1''). SC2 can be 1 only where it is
 * implemented, which includes both conditions. */
static bool edscr_sc2_format(const armprof_pe *pe)
{
    return edscr_sc2_implemented(pe) && PCSR_STATE(pe)->edscr_sc2;
}

/* EDSCR.RW in Debug state: the Execution state of each Exception level
 * (RW[3] EL3 ... RW[0] EL0). 0b1111 when EL1 (and so EL0 unless at EL0
 * using AArch32) uses AArch64; 0b1110 in Debug state at EL0 using AArch32
 * with EL1 using AArch64; 0b110x with EL0 and EL1 using AArch32 and EL2
 * enabled using AArch64; 0b10xx with EL3 using AArch64 only; 0b0xxx with every
 * Exception level using AArch32. The x bits are given as 0: the Exception
 * levels they stand for use AArch32 or are not implemented. */
static uint32_t edscr_rw_debug(const armprof_pe *pe)
{
    if (!ELUsingAArch32(pe, EL1)) return pe->ctx.el == EL0 && ELUsingAArch32(pe, EL0) ? 0xE : 0xF;
    if (HaveEL(pe, EL2) && EL2Enabled(pe) && !ELUsingAArch32(pe, EL2)) return 0xC;
    if (HaveEL(pe, EL3) && !ELUsingAArch32(pe, EL3)) return 0x8;
    return 0;
}

/* EDSCR, the fields the model has state for:
 *   SC2 [19]      the PC sampling control (PCSR_STATE(pe)->edscr_sc2), RW where
 *                 implemented. Its indirect access through MDSCR_EL1 under
 *                 the OS Lock is not modelled (MDSCR_EL1 is not declared).
 *   NS [18], NSE [15] (FEAT_RME)
 *                 in Debug state the current Security state; UNKNOWN/WI in
 *                 Non-debug state (the bits of option unknown_fill).
 *   SDD [16]      RO: EDSCR_SDD() - latched on entry to Debug state, the
 *                 inverse of the authentication in Non-debug state.
 *   RW [13:10]    RAO/WI in Non-debug state, edscr_rw_debug() in Debug state.
 *   EL [9:8]      RAZ/WI in Non-debug state, PSTATE.EL in Debug state.
 *   STATUS [5:0]  0b000010 'PE is in Non-debug state'; in Debug state the
 *                 halting reason, which the model's Debug state entry does not
 *                 carry: 0b010011 'External debug request' (the scenario's
 *                 `debug on` stands for the debugger halting the PE).
 * The other fields (TFO, RXfull, TXfull, ITO, RXO, TXU, PipeAdv, ITE, INTdis,
 * TDA, MA, HDE, A, ERR) belong to halting debug and the DCC, which the model
 * does not implement: they read as 0 and writes to them are ignored. */
EXT_READ_FN(ext_read_EDSCR)
{
    (void)a;
    (void)m;
    (void)bits;
    const bool halted = Halted(pe), rme = IsFeatureImplemented(pe, RME);
    uint64_t v = 0;
    if (edscr_sc2_format(pe)) v |= 1u << 19;
    if (halted) {
        const armprof_security_state ss = CurrentSecurityState(pe);
        if (rme) {
            v |= (uint64_t)(ss == ARMPROF_SS_NONSECURE || ss == ARMPROF_SS_REALM) << 18;
            v |= (uint64_t)(ss == ARMPROF_SS_ROOT || ss == ARMPROF_SS_REALM) << 15;
        } else {
            v |= (uint64_t)(ss != ARMPROF_SS_SECURE) << 18;
        }
        v |= (uint64_t)edscr_rw_debug(pe) << 10 | (uint64_t)(pe->ctx.el & 3) << 8 | 0x13;
    } else {
        const uint64_t unknown = 1ull << 18 | (rme ? 1ull << 15 : 0);
        v |= (OPTION_VALUE(pe, UNKNOWN_FILL) & unknown) | 0xFull << 10 | 0x02;
    }
    v |= (uint64_t)EDSCR_SDD(pe) << 16;
    return v;
}

/* A write to EDSCR sets SC2 where it is implemented; the rest is RO or not
 * modelled (ext_read_EDSCR). */
EXT_WRITE_FN(ext_write_EDSCR)
{
    (void)a;
    (void)m;
    if (edscr_sc2_implemented(pe) && (bits & (1u << 19)))
        PCSR_STATE(pe)->edscr_sc2 = (value >> 19) & 1;
}

/* EDPCSR[31:0] (0x0A0): a read is Read_EDPCSRlo(memory_mapped), with its side
 * effects on EDPCSRhi, EDCIDSR and EDVIDSR. EDPCSRlo has no stored value of
 * its own, so what an (ignored, RO) write reports is 0: the write reads
 * nothing. */
EXT_READ_FN(ext_read_EDPCSR_LO)
{
    (void)m;
    return (bits & 0xffffffffu) ? Read_EDPCSRlo(pe, a->memory_mapped) : 0;
}

/* EDPCSR[63:32] (0x0AC): EDPCSRhi as the last read of EDPCSR[31:0] left it.
 * In the EDSCR.SC2 == '1' format, EDPCSR bits [60:56] (bits [28:24] of this
 * word) are RES0. */
EXT_READ_FN(ext_read_EDPCSR_HI)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint32_t hi = PCSR_STATE(pe)->edpcsrhi;
    return edscr_sc2_format(pe) ? hi & ~(uint32_t)BITS_MASK(28, 24) : hi;
}

/* EDCIDSR (0x0A4): the Context ID of the last EDPCSR sample. */
EXT_READ_FN(ext_read_EDCIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    return PCSR_STATE(pe)->edcidsr;
}

/* EDVIDSR (0x0A8). In the EDSCR.SC2 == '1' format, CONTEXTIDR_EL2 [31:0].
 * Otherwise NS [31], E2 [30] 'When EL2 is implemented', E3 [29] 'When EL3 is
 * implemented and FEAT_AA64 is implemented', HV [28], bits [27:16] RES0, VMID
 * [15:8] 'When FEAT_VMID16 is implemented and EL2 is implemented', VMID [7:0]
 * 'When EL2 is implemented'; RES0 where the condition fails. */
EXT_READ_FN(ext_read_EDVIDSR)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint32_t v = PCSR_STATE(pe)->edvidsr;
    if (edscr_sc2_format(pe)) return v;
    uint32_t mask = 1u << 31 | 1u << 28;
    if (HaveEL(pe, EL2)) mask |= 1u << 30 | 0xffu;
    if (HaveEL(pe, EL3) && IsFeatureImplemented(pe, AA64)) mask |= 1u << 29;
    if (HaveEL(pe, EL2) && IsFeatureImplemented(pe, VMID16)) mask |= 0xff00u;
    return v & mask;
}

/* FEAT_PCSRv8 (the PC sample registers in the external debug block), and
 * whether EDVIDSR is among them (its entry's present column: option
 * pcsr_edvidsr without EL2 and EL3). */
static bool PCSRv8Registers(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, PCSRv8) && !IsFeatureImplemented(pe, PCSRv8p2);
}
static bool EDVIDSRImplemented(const armprof_pe *pe)
{
    return pcsr_edvidsr_implemented(&pe->cfg);
}

/* EDDEVID (0xFC8): AuxRegs [27:24] 0b0000 (EDACR is not implemented),
 * DebugPower [7:4] 0b0001 with FEAT_DoPD, PCSample [3:0]: 0b0011 'EDPCSR,
 * EDCIDSR, and EDVIDSR are implemented', 0b0010 'Only EDPCSR and EDCIDSR are
 * implemented' (permitted only without EL3 and EL2: option pcsr_edvidsr),
 * 0b0000 without FEAT_PCSRv8 ('When FEAT_PCSRv8p2 is implemented, the only
 * permitted value is 0b0000'). */
EXT_READ_FN(ext_read_EDDEVID)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint64_t pcsample = !PCSRv8Registers(pe) ? 0 : EDVIDSRImplemented(pe) ? 3 : 2;
    return (uint64_t)IsFeatureImplemented(pe, DoPD) << 4 | pcsample;
}

/* EDDEVID1 (0xFC4): HSR [7:4] 0b0010 with FEAT_Debugv8p9 ('From Armv8.9, the
 * values 0b0000 and 0b0001 are not permitted'), otherwise 0b0000 (EDHSR is not
 * modelled); PCSROffset [3:0] 0b0010 'EDPCSR implemented, and samples have no
 * offset applied' with FEAT_PCSRv8, 0b0000 'EDPCSR not implemented' otherwise
 * (the only value permitted with FEAT_PCSRv8p2). */
EXT_READ_FN(ext_read_EDDEVID1)
{
    (void)a;
    (void)m;
    (void)bits;
    const uint64_t hsr = IsFeatureImplemented(pe, Debugv8p9) ? 2 : 0;
    return hsr << 4 | (PCSRv8Registers(pe) ? 2 : 0);
}
