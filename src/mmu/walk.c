/* SPDX-License-Identifier: BSD-3-Clause */
/* The VMSAv8-64 translation of one Profiling Buffer write: a transliteration
 * of AArch64.TranslateAddress() and the functions it calls (J1.1.4
 * aarch64/translation, J1.3.5 shared/translation) for an AccessType_SPE
 * write, restricted to what the SPU can do:
 *
 * - a privileged write in the owning regime (EL1&0, EL2 or EL2&0), with
 *   PSTATE.PAN taken as 0, no E0PD, no watchpoints, no Alignment check (the
 *   caller's), 64-bit descriptors only (FEAT_D128 is not modelled);
 * - direct permissions only: FEAT_S1PIE/S2PIE, the permission overlays
 *   (S1POE/S2POE), FEAT_AIE, FEAT_HAFT and FEAT_HDBSS need
 *   TCR2_ELx/VTCR_EL2 fields and registers this walker is not given;
 * - FEAT_THE: the stage 2 AssuredOnly attribute is honoured; the stage 1
 *   "assured" property (VTCR_EL2.TL0/TL1, PnCH) is not, so an IPA is never
 *   s1assured and fault.toplevel is never produced;
 * - no TLB is modelled, so nG, the ASID and the VMID do not change a walk;
 * - the registers the config does not carry take these values: SCTLR_ELx.EE
 *   and HCR_EL2.{PTW,NV1,CD} 0, SCTLR_ELx.C 1 (so AArch64.S1TreatAsNormalNC()
 *   and AArch64.S2TreatAsNormalNC() only apply to stage 2 Device walks), the
 *   granules FEAT_TGran4K/16K/64K say (no FEAT_GTG: stage 2 as stage 1), FEAT_HPDS
 *   implemented, FEAT_TTST not implemented, FEAT_LPA implemented when
 *   pa_bits >= 52 and FEAT_LVA implemented with FEAT_LPA2 (TCR_EL1.DS: "FEAT_LVA
 *   must be implemented if TCR_EL1.DS == 1") or FEAT_LPA.
 *
 * Secure stage 2: the Secure IPA space of a Secure regime walks VSTTBR_EL2
 * with VSTCR_EL2's granule, size and start level, the Non-secure IPA space
 * VTTBR_EL2/VTCR_EL2 (AArch64.SS2TTWParams(), AArch64.SS2InitialTTWState(),
 * AArch64.SS2OutputPASpace()).
 *
 * The IMPLEMENTATION DEFINED and CONSTRAINED UNPREDICTABLE choices the
 * pseudocode leaves open come with the rest of the configuration
 * (mmu_walk_config; the options of include/armprof/options.def). */
#include "mmu/walk.h"

#include <string.h>

#include "core/regs.h"

/* ---- Field access ---- */

#define BIT(v, n) ((unsigned)(((v) >> (n)) & 1u))
/* v<hi:lo>, empty (0) when hi < lo. */
static uint64_t bits(uint64_t v, int hi, int lo)
{
    if (hi < lo) return 0;
    if (hi - lo >= 63) return v >> lo;
    return (v >> lo) & ((UINT64_C(1) << (hi - lo + 1)) - 1);
}
/* Align(x, 2^n) */
static uint64_t align_down(uint64_t x, int n)
{
    return n >= 64 ? 0 : x & ~((UINT64_C(1) << n) - 1);
}
static uint64_t low_mask(int n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

/* A field of a translation register, by its declaration (core/regs/:
 * TCR_EL1, TCR_EL2, VTCR_EL2, VSTCR_EL2). */
#define FLD(v, reg, name) ((unsigned)FIELD_OF(v, reg, name))

/* TCR_EL2 when ELIsInHost(EL2) (the EL2&0 regime) has TCR_EL1's layout: the
 * stage 1 walk reads both with TCR_EL1's names. */
#define SAME_FIELD(a, b, name)                                                                     \
    _Static_assert(a##_##name##_LO == b##_##name##_LO && a##_##name##_W == b##_##name##_W,         \
                   #a "." #name " is where " #b " has it")
SAME_FIELD(TCR_EL1, TCR_EL2, T0SZ);
SAME_FIELD(TCR_EL1, TCR_EL2, EPD0);
SAME_FIELD(TCR_EL1, TCR_EL2, SH0);
SAME_FIELD(TCR_EL1, TCR_EL2, TG0);
SAME_FIELD(TCR_EL1, TCR_EL2, T1SZ);
SAME_FIELD(TCR_EL1, TCR_EL2, EPD1);
SAME_FIELD(TCR_EL1, TCR_EL2, SH1);
SAME_FIELD(TCR_EL1, TCR_EL2, TG1);
SAME_FIELD(TCR_EL1, TCR_EL2, IPS);
SAME_FIELD(TCR_EL1, TCR_EL2, TBI0);
SAME_FIELD(TCR_EL1, TCR_EL2, TBI1);
SAME_FIELD(TCR_EL1, TCR_EL2, HA);
SAME_FIELD(TCR_EL1, TCR_EL2, HD);
SAME_FIELD(TCR_EL1, TCR_EL2, HPDS_HPD0);
SAME_FIELD(TCR_EL1, TCR_EL2, HPDS_HPD1);
SAME_FIELD(TCR_EL1, TCR_EL2, DS);
/* The Secure IPA space's granule and size: VSTCR_EL2's fields at the
 * positions of VTCR_EL2's (core/regs/el2.def). */
SAME_FIELD(VTCR_EL2, VSTCR_EL2, T0SZ);
SAME_FIELD(VTCR_EL2, VSTCR_EL2, TG0);
SAME_FIELD(VTCR_EL2, VSTCR_EL2, SL0);
SAME_FIELD(VTCR_EL2, VSTCR_EL2, SL2);
#undef SAME_FIELD

/* Descriptor bits (VMSAv8-64, 64-bit descriptors). */
#define DESC_AF       10
#define DESC_AP2      7 /* AP[2] at stage 1; S2AP[1] at stage 2 */
#define DESC_DBM      51
#define DESC_CONTIG   52
#define DESC_NSTABLE  63
#define DESC_APTABLE1 62
#define DESC_APTABLE0 61

#define FINAL_LEVEL 3

/* ---- Types mirroring the pseudocode's ---- */

typedef enum tgx { TGX_4KB, TGX_16KB, TGX_64KB } tgx;

typedef enum regime_ss { SS_NONSECURE, SS_SECURE, SS_REALM, SS_ROOT } regime_ss;

/* S1TTWParams, the fields a buffer write uses. */
typedef struct s1_ttw_params {
    tgx tgx;
    unsigned txsz, ps, sh;
    unsigned tbi, hpd, ha, hd, ds, epd;
    uint64_t ttbr;
} s1_ttw_params;

/* S2TTWParams, likewise. */
typedef struct s2_ttw_params {
    tgx tgx;
    unsigned txsz, ps, sh, sl0, sl2;
    unsigned ha, hd, ds, fwb, assuredonly, nsw, nsa, sw, sa;
} s2_ttw_params;

/* Permissions */
typedef struct permissions {
    unsigned ap;       /* ap<2:1> */
    unsigned ap_table; /* ap_table<1:0> */
    unsigned dbm;
    unsigned s2ap; /* s2ap<1:0> */
} permissions;

/* TTWState */
typedef struct ttw_state {
    int level;
    uint64_t baseaddress;
    int paspace;
    unsigned contiguous;
    unsigned s2assuredonly;
    armprof_mem_attrs memattrs;
    permissions perms;
} ttw_state;

/* AddressDescriptor: paddress, memattrs and the FEAT_THE property. */
typedef struct addr_desc {
    uint64_t address;
    int paspace;
    armprof_mem_attrs memattrs;
    bool s1assured;
    uint16_t mecid; /* FEAT_MEC */
} addr_desc;

/* ---- MECIDs (FEAT_MEC) ---- */

#define DEFAULT_MECID 0

/* AArch64.S1OutputMECID() (d128 0: descriptor_amec is descriptor<63>); the
 * SPU's regimes are EL2, EL2&0 and EL1&0. */
static uint16_t s1_output_mecid(const mmu_walk_config *cfg, uint64_t va, int paspace,
                                uint64_t descriptor)
{
    if (!cfg->emec || paspace != ARMPROF_PAS_REALM) return DEFAULT_MECID;
    const unsigned amec = BIT(descriptor, 63);
    switch (cfg->regime) {
    case MMU_REGIME_EL2:
        return amec ? cfg->mecid_a0 : cfg->mecid_p0;
    case MMU_REGIME_EL20:
        if (BIT(va, 55) == 0) /* AArch64.GetVARange(): VARange_LOWER */
            return amec ? cfg->mecid_a0 : cfg->mecid_p0;
        return amec ? cfg->mecid_a1 : cfg->mecid_p1;
    default: /* Regime_EL10; stage 2 might later override it */
        return cfg->vmecid_p;
    }
}

/* AArch64.S1DisabledOutputMECID() */
static uint16_t s1_disabled_output_mecid(const mmu_walk_config *cfg, int paspace)
{
    if (!cfg->emec || paspace != ARMPROF_PAS_REALM) return DEFAULT_MECID;
    return cfg->regime == MMU_REGIME_EL10 ? cfg->vmecid_p : cfg->mecid_p0;
}

/* AArch64.S2OutputMECID() (d128 0) */
static uint16_t s2_output_mecid(const mmu_walk_config *cfg, int paspace, uint64_t descriptor)
{
    if (!cfg->emec || paspace != ARMPROF_PAS_REALM) return DEFAULT_MECID;
    return BIT(descriptor, 63) ? cfg->vmecid_a : cfg->vmecid_p;
}

/* AccessDescriptor: the SPU's write, a table walk read (CreateAccDescS1TTW)
 * or a descriptor update (CreateAccDescTTEUpdate). */
typedef struct acc_desc {
    bool ttw;
    bool write;
} acc_desc;

/* What one translation carries along. */
typedef struct walk_ctx {
    armprof_mem *mem;
    const mmu_walk_config *cfg;
    regime_ss ss;
    bool async_abort;
    unsigned memory_accesses; /* descriptor reads and updates */
} walk_ctx;

static bool is_fault(const mmu_fault *f)
{
    return f->type != MMU_FAULT_NONE;
}

static bool feat_lpa(const mmu_walk_config *cfg)
{
    return cfg->pa_bits >= 52;
}

static bool feat_lva(const mmu_walk_config *cfg)
{
    return cfg->lpa2 || feat_lpa(cfg);
}

/* HasUnprivileged() */
static bool has_unprivileged(mmu_regime regime)
{
    return regime == MMU_REGIME_EL10 || regime == MMU_REGIME_EL20;
}

/* EL2Enabled() for an EL1&0 owner with stage 2: the caller's s2_enabled
 * (a stage 2 with HCR_EL2.{VM,DC} 0 returns the IPA unchanged). */
static bool s2_applies(const walk_ctx *ctx)
{
    return ctx->cfg->regime == MMU_REGIME_EL10 && ctx->cfg->s2_enabled;
}

/* ---- Granules and sizes ---- */

/* TGxGranuleBits() */
static int tgx_granule_bits(tgx t)
{
    return t == TGX_4KB ? 12 : t == TGX_16KB ? 14 : 16;
}

/* AArch64.HaveS1TG(); AArch64.HaveS2TG() is the same without FEAT_GTG. */
static bool have_tg(const mmu_walk_config *cfg, tgx t)
{
    return t == TGX_4KB ? cfg->tgran_4k : t == TGX_16KB ? cfg->tgran_16k : cfg->tgran_64k;
}

/* The TG0 encodings: 00 4KB, 01 64KB, 10 16KB. */
static tgx tg0_granule(unsigned tg0)
{
    switch (tg0) {
    case 1:
        return TGX_64KB;
    case 2:
        return TGX_16KB;
    default: /* 0b00 (the configuration check rejects 0b11 as the choice) */
        return TGX_4KB;
    }
}

/* AArch64.S1DecodeTG0(): the reserved 11, and a granule that is not
 * implemented, are read as the IMPLEMENTATION DEFINED "TG0 encoded granule
 * size". */
static tgx s1_decode_tg0(const mmu_walk_config *cfg, unsigned tg0)
{
    if (tg0 == 3) tg0 = cfg->tg0_encoded_granule;
    tgx t = tg0_granule(tg0);
    if (!have_tg(cfg, t)) t = tg0_granule(cfg->tg0_encoded_granule);
    return t;
}

/* The TG1 encodings: 01 16KB, 10 4KB, 11 64KB. */
static tgx tg1_granule(unsigned tg1)
{
    switch (tg1) {
    case 1:
        return TGX_16KB;
    case 3:
        return TGX_64KB;
    default: /* 0b10 (the configuration check rejects 0b00 as the choice) */
        return TGX_4KB;
    }
}

/* AArch64.S1DecodeTG1(): the reserved 00, and a granule that is not
 * implemented, are read as the IMPLEMENTATION DEFINED "TG1 encoded granule
 * size". */
static tgx s1_decode_tg1(const mmu_walk_config *cfg, unsigned tg1)
{
    if (tg1 == 0) tg1 = cfg->tg1_encoded_granule;
    tgx t = tg1_granule(tg1);
    if (!have_tg(cfg, t)) t = tg1_granule(cfg->tg1_encoded_granule);
    return t;
}

/* AArch64.S2DecodeTG0(): as AArch64.S1DecodeTG0(), the same "TG0 encoded
 * granule size", with AArch64.HaveS2TG() (= HaveS1TG() without FEAT_GTG). */
static tgx s2_decode_tg0(const mmu_walk_config *cfg, unsigned tg0)
{
    return s1_decode_tg0(cfg, tg0);
}

/* AArch64.IASize() */
static int ia_size(unsigned txsz)
{
    return 64 - (int)txsz;
}

/* AArch64.PhysicalAddressSize() (d128 0) */
static int physical_address_size(const mmu_walk_config *cfg, unsigned ds, unsigned encoded_ps,
                                 tgx t)
{
    static const int ps_bits[8] = {32, 36, 40, 42, 44, 48, 52, 56};
    const int ps = ps_bits[encoded_ps & 7];
    const int pamax = (int)cfg->pa_bits;
    int max_ps;
    if (feat_lpa(cfg) && (t == TGX_64KB || ds))
        max_ps = pamax < 52 ? pamax : 52;
    else
        max_ps = pamax < 48 ? pamax : 48;
    return ps < max_ps ? ps : max_ps;
}

/* AArch64.OAOutOfRange() (d128 0); AArch64.S1OAOutOfRange() and
 * AArch64.S2OAOutOfRange() call it with their walk parameters. */
static bool oa_out_of_range(const mmu_walk_config *cfg, uint64_t address, unsigned ds, unsigned ps,
                            tgx t)
{
    const int oasize = physical_address_size(cfg, ds, ps, t);
    return oasize < 56 && bits(address, 55, oasize) != 0;
}

/* AArch64.MaxTxSZ() without FEAT_TTST */
static unsigned max_txsz(tgx t)
{
    (void)t;
    return 39;
}

/* TranslationSize() (d128 0) */
static int translation_size(tgx t, int level)
{
    const int granulebits = tgx_granule_bits(t);
    return granulebits + (FINAL_LEVEL - level) * (granulebits - 3);
}

/* ContiguousSize() (d128 0) */
static int contiguous_size(tgx t, int level)
{
    switch (t) {
    case TGX_4KB:
        return 4;
    case TGX_16KB:
        return level == 2 ? 5 : 7;
    default:
        return 5;
    }
}

/* AArch64.ContiguousBit() (d128 0) */
static unsigned contiguous_bit(const mmu_walk_config *cfg, tgx t, int level, uint64_t descriptor)
{
    if (cfg->contiguous_bit_as_0) return 0;
    if (t == TGX_64KB && level == 1) return 0;
    if (t == TGX_16KB && level == 1) return 0;
    if (t == TGX_4KB && level == 0) return 0;
    return BIT(descriptor, DESC_CONTIG);
}

/* AArch64.ContiguousBitFaults() (d128 0) */
static bool contiguous_bit_faults(const mmu_walk_config *cfg, unsigned txsz, tgx t, int level)
{
    const int tsize = translation_size(t, level) + contiguous_size(t, level);
    return tsize > ia_size(txsz) && cfg->fault_misprogrammed_contiguous;
}

/* AArch64.BlockDescSupported() (d128 0) */
static bool block_desc_supported(const mmu_walk_config *cfg, unsigned ds, tgx t, int level)
{
    switch (t) {
    case TGX_4KB:
        return (level == 0 && ds) || level == 1 || level == 2;
    case TGX_16KB:
        return (level == 1 && ds) || level == 2;
    default:
        return (level == 1 && cfg->pa_bits >= 52) || level == 2;
    }
}

typedef enum descriptor_type {
    DESCRIPTOR_TYPE_INVALID,
    DESCRIPTOR_TYPE_TABLE,
    DESCRIPTOR_TYPE_LEAF,
} descriptor_type;

/* AArch64.DecodeDescriptorType() (d128 0) */
static descriptor_type decode_descriptor_type(const mmu_walk_config *cfg, uint64_t descriptor,
                                              unsigned ds, tgx t, int level)
{
    if (BIT(descriptor, 0) == 0) return DESCRIPTOR_TYPE_INVALID;
    if (BIT(descriptor, 1) == 1)
        return level == FINAL_LEVEL ? DESCRIPTOR_TYPE_LEAF : DESCRIPTOR_TYPE_TABLE;
    return block_desc_supported(cfg, ds, t, level) ? DESCRIPTOR_TYPE_LEAF : DESCRIPTOR_TYPE_INVALID;
}

/* AArch64.NextTableBase() (d128 0) */
static uint64_t next_table_base(const mmu_walk_config *cfg, uint64_t descriptor, unsigned ds, tgx t)
{
    const int granulebits = tgx_granule_bits(t);
    uint64_t tablebase = align_down(bits(descriptor, 47, 0), granulebits);
    if (t == TGX_64KB && (cfg->pa_bits >= 52 || cfg->desc_64kb_oa_51_48))
        tablebase |= bits(descriptor, 15, 12) << 48;
    else if (ds)
        tablebase |= (bits(descriptor, 9, 8) << 50) | (bits(descriptor, 49, 48) << 48);
    return tablebase;
}

/* AArch64.S1LeafBase() and AArch64.S2LeafBase() (d128 0; the two are the
 * same for 64-bit descriptors) */
static uint64_t leaf_base(const mmu_walk_config *cfg, uint64_t descriptor, unsigned ds, tgx t,
                          int level)
{
    const int granulebits = tgx_granule_bits(t);
    const int leafsize = granulebits + (granulebits - 3) * (FINAL_LEVEL - level);
    uint64_t leafbase = align_down(bits(descriptor, 47, 0), leafsize);
    if (t == TGX_64KB && (cfg->pa_bits >= 52 || cfg->desc_64kb_oa_51_48))
        leafbase |= bits(descriptor, 15, 12) << 48;
    else if (ds)
        leafbase |= (bits(descriptor, 9, 8) << 50) | (bits(descriptor, 49, 48) << 48);
    return leafbase;
}

/* AArch64.S1TTEntryAddress()/AArch64.S2TTEntryAddress() (d128 0): the
 * descriptor for ia in the table at tablebase, at a level after the first. */
static uint64_t tt_entry_address(int level, tgx t, uint64_t ia, uint64_t tablebase)
{
    const int granulebits = tgx_granule_bits(t);
    const int stride = granulebits - 3;
    const int lsb = (FINAL_LEVEL - level) * stride + granulebits;
    const int msb = lsb + stride - 1;
    return tablebase | (bits(ia, msb, lsb) << 3);
}

/* AArch64.S1SLTTEntryAddress()/AArch64.S2SLTTEntryAddress(): the first
 * descriptor; the index takes every IA bit above the start level's, so a
 * stage 2 start may index into concatenated tables. */
static uint64_t sltt_entry_address(int level, unsigned txsz, tgx t, uint64_t ia, uint64_t tablebase)
{
    const int granulebits = tgx_granule_bits(t);
    const int stride = granulebits - 3;
    const int lsb = (FINAL_LEVEL - level) * stride + granulebits;
    const int msb = ia_size(txsz) - 1;
    return tablebase | (bits(ia, msb, lsb) << 3);
}

/* StageOA() */
static uint64_t stage_oa(uint64_t ia, tgx t, const ttw_state *walkstate)
{
    const int tsize = translation_size(t, walkstate->level);
    const int csize = walkstate->contiguous ? contiguous_size(t, walkstate->level) : 0;
    const int ia_msb = tsize + csize;
    return (walkstate->baseaddress & ~low_mask(ia_msb) & low_mask(56)) | (ia & low_mask(ia_msb));
}

/* ---- Memory attributes ---- */

/* DecodeShareability(): the SH encoding, with 0b01 resolved
 * (Unpredictable_Shareability). */
static uint8_t decode_shareability(const mmu_walk_config *cfg, unsigned sh)
{
    return sh == 1 ? cfg->reserved_sh : (uint8_t)sh;
}

/* EffectiveShareability(): Device and Normal Inner and Outer Non-cacheable
 * are Outer Shareable. */
static uint8_t effective_shareability(const armprof_mem_attrs *m)
{
    if (m->type == ARMPROF_MEM_DEVICE || (m->inner == 0 && m->outer == 0)) return 2;
    return m->shareability;
}

/* DecodeDevice(): nGnRnE 0, nGnRE 1, nGRE 2, GRE 3, as armprof_mem_attrs. */
static uint8_t decode_device(unsigned device)
{
    return (uint8_t)(device & 3);
}

/* DecodeLDFAttr(): the cacheability of a MAIR nibble (0 NC, 1 WT, 2 WB);
 * allocation hints and transience are not kept. */
static uint8_t decode_ldf_attr(unsigned attr)
{
    if (attr == 4) return 0;   /* 0b0100 Non-cacheable */
    if (!(attr & 4)) return 1; /* 0bx0xx Write-Through */
    return 2;                  /* 0bx1xx Write-Back */
}

/* S1DecodeMemAttrs(). A reserved encoding 0bxxxx0000
 * (S1ConstrainUnpredictableRESMAIR()) maps to Normal memory of the
 * Unpredictable_RESMAIR cacheability; Device encodings with reserved low
 * bits keep their Device type, and the FEAT_XS encodings 0x40 and 0xA0
 * decode as with FEAT_XS. */
static armprof_mem_attrs s1_decode_mem_attrs(const mmu_walk_config *cfg, uint8_t attr, unsigned sh)
{
    armprof_mem_attrs m;
    memset(&m, 0, sizeof m);
    if ((attr & 0xF0) == 0) { /* 0b0000xxxx Device */
        m.type = ARMPROF_MEM_DEVICE;
        m.device = decode_device(attr >> 2);
    } else if (attr == 0x40) { /* FEAT_XS Normal Non-cacheable */
        m.type = ARMPROF_MEM_NORMAL;
    } else if (attr == 0xA0) { /* FEAT_XS Normal Write-Through */
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = m.outer = 1;
    } else if (attr == 0xF0) { /* FEAT_MTE2 Tagged Normal Write-Back */
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = m.outer = 2;
    } else if ((attr & 0x0F) == 0) { /* 0bxxxx0000 reserved */
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = m.outer = cfg->resmair_cacheability;
    } else {
        m.type = ARMPROF_MEM_NORMAL;
        m.outer = decode_ldf_attr(attr >> 4);
        m.inner = decode_ldf_attr(attr & 0xF);
    }
    m.shareability = decode_shareability(cfg, sh);
    m.tagged = false; /* the SPU's writes are Tag Unchecked (D17.7.6) */
    return m;
}

/* AArch64.MAIRAttr() (no FEAT_AIE) */
static uint8_t mair_attr(unsigned index, uint64_t mair)
{
    return (uint8_t)(mair >> (8 * index));
}

/* S2DecodeCacheability() (0 NC, 1 WT, 2 WB) */
static uint8_t s2_decode_cacheability(unsigned attr)
{
    return attr == 1 ? 0 : attr == 2 ? 1 : 2;
}

/* S2DecodeMemAttrs() (FWB 0) */
static armprof_mem_attrs s2_decode_mem_attrs(const mmu_walk_config *cfg, unsigned attr, unsigned sh)
{
    armprof_mem_attrs m;
    memset(&m, 0, sizeof m);
    /* S2ResMemAttr(): 0b0100 (without FEAT_MTE_PERM) and 0b1x00, Normal
     * memory of the Unpredictable_S2RESMEMATTR cacheability. */
    if (attr == 4 || (attr & 0xB) == 8) {
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = m.outer = cfg->s2resmemattr_cacheability;
    } else if ((attr & 0xC) == 0) {
        m.type = ARMPROF_MEM_DEVICE;
        m.device = decode_device(attr);
    } else {
        m.type = ARMPROF_MEM_NORMAL;
        m.outer = s2_decode_cacheability(attr >> 2);
        m.inner = s2_decode_cacheability(attr & 3);
    }
    m.shareability = decode_shareability(cfg, sh);
    return m;
}

/* S2CombineS1Device(): the more restrictive Device type. */
static uint8_t s2_combine_s1_device(uint8_t s1_device, uint8_t s2_device)
{
    return s1_device < s2_device ? s1_device : s2_device;
}

/* S2CombineS1AttrHints(): NC wins over WT, WT over WB (0 NC, 1 WT, 2 WB). */
static uint8_t s2_combine_s1_attr_hints(uint8_t s1_attrs, uint8_t s2_attrs)
{
    return s1_attrs < s2_attrs ? s1_attrs : s2_attrs;
}

/* S2CombineS1Shareability(): Outer over Inner over Non-shareable. */
static uint8_t s2_combine_s1_shareability(uint8_t s1_sh, uint8_t s2_sh)
{
    if (s1_sh == 2 || s2_sh == 2) return 2;
    if (s1_sh == 3 || s2_sh == 3) return 3;
    return 0;
}

/* S2CombineS1MemAttrs() */
static armprof_mem_attrs s2_combine_s1_mem_attrs(const armprof_mem_attrs *s1,
                                                 const armprof_mem_attrs *s2)
{
    armprof_mem_attrs m;
    memset(&m, 0, sizeof m);
    if (s1->type == ARMPROF_MEM_DEVICE && s2->type == ARMPROF_MEM_DEVICE) {
        m.type = ARMPROF_MEM_DEVICE;
        m.device = s2_combine_s1_device(s1->device, s2->device);
    } else if (s1->type == ARMPROF_MEM_DEVICE) {
        m = *s1;
    } else if (s2->type == ARMPROF_MEM_DEVICE) {
        m = *s2;
    } else {
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = s2_combine_s1_attr_hints(s1->inner, s2->inner);
        m.outer = s2_combine_s1_attr_hints(s1->outer, s2->outer);
    }
    m.shareability = s2_combine_s1_shareability(s1->shareability, s2->shareability);
    m.shareability = effective_shareability(&m);
    m.tagged = false;
    return m;
}

/* AArch64.S2ApplyFWBMemAttrs() */
static armprof_mem_attrs s2_apply_fwb_mem_attrs(const mmu_walk_config *cfg,
                                                const armprof_mem_attrs *s1,
                                                const s2_ttw_params *wp, uint64_t descriptor)
{
    const unsigned s2_attr = (unsigned)bits(descriptor, 5, 2);
    const unsigned s2_sh = wp->ds ? wp->sh : (unsigned)bits(descriptor, 9, 8);
    armprof_mem_attrs m;
    memset(&m, 0, sizeof m);
    if (!(s2_attr & 4)) { /* stage 2 Device, stage 1 any */
        const uint8_t s2_device = decode_device(s2_attr);
        m.type = ARMPROF_MEM_DEVICE;
        m.device = s1->type == ARMPROF_MEM_DEVICE ? s2_combine_s1_device(s1->device, s2_device)
                                                  : s2_device;
    } else if ((s2_attr & 3) == 3) { /* stage 1 attributes */
        m = *s1;
    } else if ((s2_attr & 3) == 2) { /* forced Write-Back */
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = m.outer = 2;
    } else if (s1->type == ARMPROF_MEM_DEVICE) { /* Non-cacheable unless Device */
        m = *s1;
    } else {
        m.type = ARMPROF_MEM_NORMAL;
        m.inner = m.outer = 0;
    }
    m.shareability = s2_combine_s1_shareability(s1->shareability, decode_shareability(cfg, s2_sh));
    m.shareability = effective_shareability(&m);
    m.tagged = false;
    return m;
}

/* NormalNCMemAttr() */
static armprof_mem_attrs normal_nc_mem_attr(void)
{
    armprof_mem_attrs m;
    memset(&m, 0, sizeof m);
    m.type = ARMPROF_MEM_NORMAL;
    m.shareability = 2;
    return m;
}

/* The checks on the leaf that AArch64.S1Walk() and AArch64.S2Walk() make
 * alike once the walk stops: a misprogrammed Contiguous bit (Translation
 * fault), the output address StageOA() gives out of range (Address Size
 * fault), AF 0 without hardware Access flag management (Access flag fault).
 * ia is the input address of the stage. Records the first that applies in
 * fault->type; false if the walk then has a fault. */
static bool leaf_checks(const mmu_walk_config *cfg, const ttw_state *ws, uint64_t ia, uint64_t desc,
                        tgx t, unsigned txsz, unsigned ds, unsigned ps, unsigned ha,
                        mmu_fault *fault)
{
    const uint64_t oa = stage_oa(ia, t, ws);
    if (ws->contiguous && contiguous_bit_faults(cfg, txsz, t, ws->level))
        fault->type = MMU_FAULT_TRANSLATION;
    else if (oa_out_of_range(cfg, oa, ds, ps, t))
        fault->type = MMU_FAULT_ADDRESS_SIZE;
    else if (BIT(desc, DESC_AF) == 0 && !ha)
        fault->type = MMU_FAULT_ACCESS_FLAG;
    return !is_fault(fault);
}

/* ---- Descriptor accesses ---- */

/* The physical address space of the owning Security state, as
 * AArch64.S1InitialTTWState() and AArch64.S1DisabledOutput() pick it. */
static int ss_paspace(regime_ss ss)
{
    switch (ss) {
    case SS_SECURE:
        return ARMPROF_PAS_SECURE;
    case SS_REALM:
        return ARMPROF_PAS_REALM;
    case SS_ROOT:
        return ARMPROF_PAS_ROOT;
    default:
        return ARMPROF_PAS_NONSECURE;
    }
}

/* HandleExternalTTWAbort() after a checked descriptor access, with the GPC
 * part of FetchDescriptor()/AArch64.MemSwapTableDesc(): false with the fault
 * recorded if the walk stops. An asynchronous External abort is pended (the
 * caller is told through mmu_result.async_abort_on_walk) and the walk goes
 * on. */
static bool handle_walk_status(walk_ctx *ctx, mem_status s, mmu_fault *fault)
{
    switch (s) {
    case MEM_OK:
        return true;
    case MEM_ASYNC_EXTERNAL:
        ctx->async_abort = true;
        return true;
    case MEM_SYNC_EXTERNAL:
        fault->type = MMU_FAULT_SYNC_EXTERNAL_WALK;
        return false;
    case MEM_GPF:
    case MEM_GPT_WALK:
        fault->type = MMU_FAULT_GPC; /* Fault_GPCFOnWalk */
        fault->walk = true;
        fault->gpf = s == MEM_GPF;
        return false;
    }
    return false;
}

/* FetchDescriptor() (ee 0, N 64). With an asynchronous abort the model
 * hands the walk the value held in memory. */
static bool fetch_descriptor(walk_ctx *ctx, int paspace, uint64_t address, mmu_fault *fault,
                             uint64_t *descriptor)
{
    ctx->memory_accesses++;
    const mem_status s = mem_read64(ctx->mem, paspace, address, ctx->cfg->gpc, descriptor);
    if (s == MEM_ASYNC_EXTERNAL) *descriptor = armprof_mem_read64(ctx->mem, paspace, address);
    return handle_walk_status(ctx, s, fault);
}

/* AArch64.MemSwapTableDesc() (ee 0, N 64). The model has no other observer
 * between the read and the write, so the descriptor in memory always matches
 * the one the walk used and the walk is never restarted. */
static bool mem_swap_table_desc(walk_ctx *ctx, mmu_fault *fault, uint64_t prev_desc,
                                uint64_t new_desc, int paspace, uint64_t address)
{
    uint64_t mem_desc = 0;
    if (!fetch_descriptor(ctx, paspace, address, fault, &mem_desc)) return false;
    if (mem_desc == prev_desc) {
        ctx->memory_accesses++;
        const mem_status s = mem_write64_walk(ctx->mem, paspace, address, ctx->cfg->gpc, new_desc);
        if (!handle_walk_status(ctx, s, fault)) return false;
    }
    return true;
}

/* AArch64.SettingAccessFlagPermitted(): only called with no fault or an
 * Alignment/Permission fault; this walker never has the latter two here. */
static bool setting_access_flag_permitted(const mmu_fault *fault)
{
    return !is_fault(fault);
}

/* AArch64.SetAccessFlag() (the access is never AT, DC or IC) */
static bool set_access_flag(unsigned ha, const mmu_fault *fault)
{
    return ha && setting_access_flag_permitted(fault);
}

/* AArch64.SettingDirtyStatePermitted() */
static bool setting_dirty_state_permitted(const mmu_fault *fault, const mmu_fault *fault_perm)
{
    if (is_fault(fault_perm)) return false;
    return !is_fault(fault);
}

/* AArch64.SetDirtyState() */
static bool set_dirty_state(unsigned hd, unsigned dbm, const acc_desc *accdesc,
                            const mmu_fault *fault, const mmu_fault *fault_perm)
{
    if (!hd) return false;
    if (!setting_dirty_state_permitted(fault, fault_perm)) return false;
    if (!accdesc->write) return false;
    return dbm == 1;
}

/* ---- Stage 2 ---- */

/* AArch64.NSS2TTWParams(), AArch64.RLS2TTWParams() and (simplified, see
 * the top of the file) AArch64.SS2TTWParams() */
/* AArch64.NSS2TTWParams() and AArch64.SS2TTWParams() (s1aarch64, d128 0):
 * for the Secure IPA space of a Secure regime, TG0, T0SZ, SL0 and SL2 are
 * VSTCR_EL2's; SW and SA are VSTCR_EL2's for both IPA spaces; the rest is
 * VTCR_EL2's. */
static s2_ttw_params get_s2_ttw_params(const mmu_walk_config *cfg, bool secure_ipa)
{
    const uint64_t v = cfg->vtcr;
    const uint64_t g = secure_ipa ? cfg->vstcr : cfg->vtcr; /* the granule and size */
    s2_ttw_params wp;
    memset(&wp, 0, sizeof wp);
    wp.tgx = s2_decode_tg0(cfg, FLD(g, VTCR_EL2, TG0));
    wp.txsz = FLD(g, VTCR_EL2, T0SZ);
    wp.ps = FLD(v, VTCR_EL2, PS);
    wp.sh = FLD(v, VTCR_EL2, SH0);
    wp.sl0 = FLD(g, VTCR_EL2, SL0);
    wp.fwb = cfg->fwb;
    wp.ha = cfg->manage_af_dirty && FLD(v, VTCR_EL2, HA);
    wp.hd = wp.ha && FLD(v, VTCR_EL2, HD);
    wp.ds = (wp.tgx == TGX_4KB || wp.tgx == TGX_16KB) && cfg->lpa2 && FLD(v, VTCR_EL2, DS);
    wp.sl2 = (wp.tgx == TGX_4KB && cfg->lpa2) ? (FLD(g, VTCR_EL2, SL2) & FLD(v, VTCR_EL2, DS)) : 0;
    wp.assuredonly = cfg->the ? FLD(v, VTCR_EL2, AssuredOnly) : 0;
    wp.nsw = FLD(v, VTCR_EL2, NSW);
    wp.nsa = FLD(v, VTCR_EL2, NSA);
    wp.sw = FLD(cfg->vstcr, VSTCR_EL2, SW);
    wp.sa = FLD(cfg->vstcr, VSTCR_EL2, SA);
    return wp;
}

/* AArch64.S2MinTxSZ() (s1aarch64) */
static unsigned s2_min_txsz(const mmu_walk_config *cfg, const s2_ttw_params *wp)
{
    int ips;
    if (cfg->pa_bits == 56 || cfg->pa_bits == 52)
        ips = (wp->tgx == TGX_64KB || wp->ds) ? 52 : 48;
    else
        ips = (int)cfg->pa_bits;
    return (unsigned)(64 - ips);
}

/* AArch64.S2TxSZFaults() */
static bool s2_txsz_faults(const mmu_walk_config *cfg, const s2_ttw_params *wp)
{
    if (wp->txsz < s2_min_txsz(cfg, wp)) return feat_lpa(cfg) || cfg->fault_txsz_below_min;
    if (wp->txsz > max_txsz(wp->tgx)) return cfg->fault_txsz_above_max;
    return false;
}

/* AArch64.S2StartLevel() (d128 0) */
static int s2_start_level(const s2_ttw_params *wp)
{
    switch (wp->tgx) {
    case TGX_4KB:
        switch (wp->sl2 << 2 | wp->sl0) {
        case 0:
            return 2;
        case 1:
            return 1;
        case 2:
            return 0;
        case 3:
            return 3;
        case 4:
            return -1;
        default:
            return 0; /* rejected by AArch64.S2InvalidSL() */
        }
    case TGX_16KB:
        return 3 - (int)wp->sl0;
    default:
        return wp->sl0 == 3 ? 0 : 3 - (int)wp->sl0; /* 0b11 invalid */
    }
}

/* AArch64.S2InvalidSL() */
static bool s2_invalid_sl(const mmu_walk_config *cfg, const s2_ttw_params *wp)
{
    const unsigned pamax = cfg->pa_bits;
    switch (wp->tgx) {
    case TGX_4KB:
        switch (wp->sl2 << 2 | wp->sl0) {
        case 5:
        case 6:
        case 7:
            return true; /* 0b1x1, 0b11x */
        case 4:
            return pamax < 52;
        case 2:
            return pamax < 44;
        case 3:
            return true; /* needs FEAT_TTST */
        default:
            return false;
        }
    case TGX_16KB:
        switch (wp->sl0) {
        case 3:
            return wp->ds == 0 || pamax < 52;
        case 2:
            return pamax < 42;
        default:
            return false;
        }
    default:
        switch (wp->sl0) {
        case 3:
            return true;
        case 2:
            return pamax < 44;
        default:
            return false;
        }
    }
}

/* AArch64.S2InconsistentSL() */
static bool s2_inconsistent_sl(const s2_ttw_params *wp)
{
    const int startlevel = s2_start_level(wp);
    const int levels = FINAL_LEVEL - startlevel;
    const int granulebits = tgx_granule_bits(wp->tgx);
    const int stride = granulebits - 3;
    /* The start level must resolve at least one bit, and at most one
     * stride plus four bits of concatenation (16 tables). */
    const int sl_min_iasize = levels * stride + granulebits + 1;
    const int sl_max_iasize = sl_min_iasize + (stride - 1) + 4;
    const int iasize = ia_size(wp->txsz);
    return iasize < sl_min_iasize || iasize > sl_max_iasize;
}

/* AArch64.IPAIsOutOfRange() */
static bool ipa_is_out_of_range(uint64_t ipa, const s2_ttw_params *wp)
{
    const int iasize = ia_size(wp->txsz);
    return iasize < 56 && bits(ipa, 55, iasize) != 0;
}

/* The body AArch64.S1TTBaseAddress() and AArch64.S2TTBaseAddress() share
 * (d128 0): the table base from TTBR, aligned to the size of the start
 * level's table, with the 52-bit forms (DS, or LPA with 64KB granules). */
static uint64_t tt_base_address(const mmu_walk_config *cfg, unsigned txsz, tgx granule, unsigned ds,
                                unsigned ps, int startlevel, uint64_t ttbr)
{
    const int iasize = ia_size(txsz);
    const int granulebits = tgx_granule_bits(granule);
    const int stride = granulebits - 3;
    const int levels = FINAL_LEVEL - startlevel;
    int tsize = (iasize - (levels * stride + granulebits)) + 3;
    uint64_t tablebase;
    if (ds || (granule == TGX_64KB && ps == 6 && (feat_lpa(cfg) || cfg->baddr_64kb_52))) {
        if (tsize < 6) tsize = 6;
        tablebase = (bits(ttbr, 5, 2) << 48) | (bits(ttbr, 47, 6) << 6);
    } else {
        tablebase = bits(ttbr, 47, 1) << 1;
    }
    return align_down(tablebase, tsize);
}

/* AArch64.S2TTBaseAddress() (d128 0) */
static uint64_t s2_tt_base_address(const mmu_walk_config *cfg, const s2_ttw_params *wp,
                                   uint64_t ttbr)
{
    return tt_base_address(cfg, wp->txsz, wp->tgx, wp->ds, wp->ps, s2_start_level(wp), ttbr);
}

/* AArch64.S2ApplyOutputPerms() (direct permissions) */
static permissions s2_apply_output_perms(uint64_t descriptor)
{
    permissions p;
    memset(&p, 0, sizeof p);
    p.s2ap = (unsigned)bits(descriptor, 7, 6);
    p.dbm = BIT(descriptor, DESC_DBM);
    return p;
}

/* AArch64.SS2OutputPASpace() */
static int ss2_output_paspace(const s2_ttw_params *wp, int ipaspace)
{
    if (ipaspace == ARMPROF_PAS_SECURE)
        return (wp->sw | wp->sa) ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_SECURE;
    return (wp->sw | wp->sa | wp->nsw | wp->nsa) ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_SECURE;
}

/* AArch64.S2InitialTTWState(), and AArch64.SS2InitialTTWState() for a
 * Secure regime: the Secure IPA space walks VSTTBR_EL2 from the PA space
 * VSTCR_EL2.SW gives, the Non-secure one VTTBR_EL2 from VTCR_EL2.NSW's. */
static ttw_state s2_initial_ttw_state(const walk_ctx *ctx, const s2_ttw_params *wp, int ipaspace)
{
    ttw_state ws;
    memset(&ws, 0, sizeof ws);
    uint64_t ttbr = ctx->cfg->vttbr;
    if (ctx->ss == SS_SECURE) {
        if (ipaspace == ARMPROF_PAS_SECURE) {
            ttbr = ctx->cfg->vsttbr;
            ws.paspace = wp->sw ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_SECURE;
        } else {
            ws.paspace = wp->nsw ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_SECURE;
        }
    } else if (ctx->ss == SS_REALM) {
        ws.paspace = ARMPROF_PAS_REALM;
    } else {
        ws.paspace = ARMPROF_PAS_NONSECURE;
    }
    ws.baseaddress = s2_tt_base_address(ctx->cfg, wp, ttbr);
    ws.level = s2_start_level(wp);
    return ws;
}

/* AArch64.S2NextWalkStateTable() (d128 0) */
static ttw_state s2_next_walk_state_table(const walk_ctx *ctx, const ttw_state *cur,
                                          const s2_ttw_params *wp, uint64_t descriptor)
{
    ttw_state next = *cur;
    next.baseaddress = next_table_base(ctx->cfg, descriptor, wp->ds, wp->tgx);
    next.level = cur->level + 1;
    return next;
}

/* AArch64.S2NextWalkStateLeaf() (d128 0) */
static ttw_state s2_next_walk_state_leaf(const walk_ctx *ctx, const ttw_state *cur,
                                         const s2_ttw_params *wp, const addr_desc *ipa,
                                         uint64_t descriptor)
{
    ttw_state next;
    memset(&next, 0, sizeof next);
    if (ctx->ss == SS_SECURE)
        next.paspace = ss2_output_paspace(wp, ipa->paspace);
    else if (ctx->ss == SS_REALM)
        next.paspace = BIT(descriptor, 55) ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_REALM;
    else
        next.paspace = ARMPROF_PAS_NONSECURE;
    next.baseaddress = leaf_base(ctx->cfg, descriptor, wp->ds, wp->tgx, cur->level);
    next.level = cur->level;
    next.perms = s2_apply_output_perms(descriptor);
    const unsigned s2_attr = (unsigned)bits(descriptor, 5, 2);
    const unsigned s2_sh = wp->ds ? wp->sh : (unsigned)bits(descriptor, 9, 8);
    if (wp->fwb)
        next.memattrs = s2_apply_fwb_mem_attrs(ctx->cfg, &ipa->memattrs, wp, descriptor);
    else
        next.memattrs = s2_decode_mem_attrs(ctx->cfg, s2_attr, s2_sh);
    next.contiguous = contiguous_bit(ctx->cfg, wp->tgx, cur->level, descriptor);
    next.s2assuredonly = wp->assuredonly ? BIT(descriptor, 58) : 0;
    return next;
}

/* The start AArch64.S1Walk() and AArch64.S2Walk() share: a start level
 * beyond 3 is a level 0 Translation fault, and the first descriptor's
 * address out of the output range a level 0 Address Size fault. */
static bool first_descriptor_address(const mmu_walk_config *cfg, const ttw_state *ws, unsigned txsz,
                                     tgx granule, unsigned ds, unsigned ps, uint64_t ia,
                                     uint64_t *descaddress, mmu_fault *fault)
{
    if (ws->level > 3) {
        fault->type = MMU_FAULT_TRANSLATION;
        fault->level = 0;
        return false;
    }
    *descaddress = sltt_entry_address(ws->level, txsz, granule, ia, ws->baseaddress);
    if (oa_out_of_range(cfg, *descaddress, ds, ps, granule)) {
        fault->type = MMU_FAULT_ADDRESS_SIZE;
        fault->level = 0;
        return false;
    }
    return true;
}

/* AArch64.S2Walk() (N 64). On success *walkaddress and *walkpas locate the
 * leaf descriptor. */
static bool s2_walk(walk_ctx *ctx, mmu_fault *fault, const addr_desc *ipa, const s2_ttw_params *wp,
                    ttw_state *walkstate, uint64_t *walkaddress, int *walkpas, uint64_t *descriptor)
{
    const mmu_walk_config *cfg = ctx->cfg;
    ttw_state ws = s2_initial_ttw_state(ctx, wp, ipa->paspace);
    uint64_t descaddress;
    if (!first_descriptor_address(cfg, &ws, wp->txsz, wp->tgx, wp->ds, wp->ps, ipa->address,
                                  &descaddress, fault))
        return false;
    uint64_t desc = 0;
    for (;;) {
        fault->level = ws.level;
        *walkaddress = descaddress;
        *walkpas = ws.paspace;
        if (!fetch_descriptor(ctx, ws.paspace, descaddress, fault, &desc)) return false;
        const descriptor_type t = decode_descriptor_type(cfg, desc, wp->ds, wp->tgx, ws.level);
        if (t == DESCRIPTOR_TYPE_INVALID) {
            fault->type = MMU_FAULT_TRANSLATION;
            return false;
        }
        if (t == DESCRIPTOR_TYPE_LEAF) {
            ws = s2_next_walk_state_leaf(ctx, &ws, wp, ipa, desc);
            break;
        }
        ws = s2_next_walk_state_table(ctx, &ws, wp, desc);
        descaddress = tt_entry_address(ws.level, wp->tgx, ipa->address, ws.baseaddress);
        if (oa_out_of_range(cfg, descaddress, wp->ds, wp->ps, wp->tgx)) {
            fault->type = MMU_FAULT_ADDRESS_SIZE;
            return false;
        }
    }
    if (!leaf_checks(cfg, &ws, ipa->address, desc, wp->tgx, wp->txsz, wp->ds, wp->ps, wp->ha,
                     fault))
        return false;
    *walkstate = ws;
    *descriptor = desc;
    return true;
}

/* AArch64.S2CheckPermissions() with AArch64.S2ComputePermissions() and
 * AArch64.S2DirectBasePermissions() (no S2PIE, no overlays, no HDBSS,
 * HCR_EL2.PTW 0). ws->paspace is the output PAS of the leaf. */
static mmu_fault s2_check_permissions(const walk_ctx *ctx, const mmu_fault *fault_in,
                                      const ttw_state *ws, const s2_ttw_params *wp,
                                      const addr_desc *ipa, const acc_desc *accdesc)
{
    mmu_fault fault = *fault_in;
    const unsigned r = ws->perms.s2ap & 1;
    unsigned w;
    if (ws->perms.s2ap & 2)
        w = 1;
    else if (ws->perms.dbm && wp->hd)
        w = 1; /* DBM makes S2AP[1] effectively 1 */
    else
        w = 0;
    if (accdesc->ttw) {
        /* (The TopLevel checks need VTCR_EL2.TL0/TL1: not modelled.) */
        if (ws->s2assuredonly && !ipa->s1assured) {
            fault.type = MMU_FAULT_PERMISSION;
            fault.assuredonly = true;
        } else if (ctx->ss == SS_REALM && ws->paspace != ARMPROF_PAS_REALM) {
            /* Realm stage 1 tables must be in the Realm PAS */
            fault.type = MMU_FAULT_PERMISSION;
        } else if (!r) {
            fault.type = MMU_FAULT_PERMISSION;
        } else if (accdesc->write && !w) {
            fault.type = MMU_FAULT_PERMISSION;
        }
    } else if (ws->s2assuredonly && !ipa->s1assured) {
        fault.type = MMU_FAULT_PERMISSION;
        fault.assuredonly = true;
    } else if (accdesc->write && !w) {
        fault.type = MMU_FAULT_PERMISSION;
    }
    return fault;
}

/* AArch64.S2Translate() (s1aarch64, aligned). On success *pa is the output
 * with the combined attributes. */
static bool s2_translate(walk_ctx *ctx, mmu_fault *fault_out, const addr_desc *ipa,
                         const acc_desc *accdesc, addr_desc *pa)
{
    const mmu_walk_config *cfg = ctx->cfg;
    s2_ttw_params wp =
        get_s2_ttw_params(cfg, ctx->ss == SS_SECURE && ipa->paspace == ARMPROF_PAS_SECURE);
    mmu_fault fault;
    memset(&fault, 0, sizeof fault);
    fault.secondstage = true;
    fault.s1ptw = accdesc->ttw;
    fault.ipa = ipa->address;

    if (s2_txsz_faults(cfg, &wp)) {
        fault.type = MMU_FAULT_TRANSLATION;
        fault.level = 0;
        *fault_out = fault;
        return false;
    }
    if (wp.txsz < s2_min_txsz(cfg, &wp))
        wp.txsz = s2_min_txsz(cfg, &wp);
    else if (wp.txsz > max_txsz(wp.tgx))
        wp.txsz = max_txsz(wp.tgx);
    if (s2_invalid_sl(cfg, &wp) || s2_inconsistent_sl(&wp) ||
        ipa_is_out_of_range(ipa->address, &wp)) {
        fault.type = MMU_FAULT_TRANSLATION;
        fault.level = 0;
        *fault_out = fault;
        return false;
    }

    ttw_state ws;
    uint64_t descpaddr = 0, descriptor = 0;
    int descpas = 0;
    if (!s2_walk(ctx, &fault, ipa, &wp, &ws, &descpaddr, &descpas, &descriptor)) {
        *fault_out = fault;
        return false;
    }
    const mmu_fault fault_perm = s2_check_permissions(ctx, &fault, &ws, &wp, ipa, accdesc);

    uint64_t new_desc = descriptor;
    if (set_access_flag(wp.ha, &fault)) new_desc |= UINT64_C(1) << DESC_AF;
    if (set_dirty_state(wp.hd, BIT(descriptor, DESC_DBM), accdesc, &fault, &fault_perm))
        new_desc |= UINT64_C(1) << DESC_AP2; /* S2AP[1]: writable */
    if (!is_fault(&fault) && is_fault(&fault_perm)) fault = fault_perm;
    if (new_desc != descriptor &&
        !mem_swap_table_desc(ctx, &fault, descriptor, new_desc, descpas, descpaddr)) {
        *fault_out = fault;
        return false;
    }
    if (is_fault(&fault)) {
        *fault_out = fault;
        return false;
    }

    pa->address = stage_oa(ipa->address, wp.tgx, &ws);
    pa->paspace = ws.paspace;
    pa->s1assured = false;
    pa->mecid = s2_output_mecid(cfg, pa->paspace, descriptor);
    armprof_mem_attrs s2_memattrs = ws.memattrs;
    /* AArch64.S2TreatAsNormalNC(): a table walk to Device with PTW 0 */
    if (accdesc->ttw && ws.memattrs.type == ARMPROF_MEM_DEVICE) s2_memattrs = normal_nc_mem_attr();
    pa->memattrs = wp.fwb ? s2_memattrs : s2_combine_s1_mem_attrs(&ipa->memattrs, &s2_memattrs);
    return true;
}

/* ---- Stage 1 ---- */

/* AArch64.GetVARange(): true for the upper range (TTBR1). */
static bool va_range_upper(uint64_t va)
{
    return BIT(va, 55) == 1;
}

/* AArch64.GetS1TTWParams() with AArch64.S1TTWParamsEL10(),
 * AArch64.S1TTWParamsEL20() and AArch64.S1TTWParamsEL2(), AArch64.S1TTBR()
 * and AArch64.S1EPD(). */
static s1_ttw_params get_s1_ttw_params(const mmu_walk_config *cfg, uint64_t va)
{
    const uint64_t t = cfg->tcr;
    s1_ttw_params wp;
    memset(&wp, 0, sizeof wp);
    if (cfg->regime == MMU_REGIME_EL2) {
        wp.tgx = s1_decode_tg0(cfg, FLD(t, TCR_EL2, TG0));
        wp.txsz = FLD(t, TCR_EL2, T0SZ);
        wp.ps = FLD(t, TCR_EL2, NOHOST_PS);
        wp.sh = FLD(t, TCR_EL2, SH0);
        wp.tbi = FLD(t, TCR_EL2, NOHOST_TBI);
        wp.hpd = FLD(t, TCR_EL2, NOHOST_HPD);
        wp.ha = cfg->manage_af_dirty && FLD(t, TCR_EL2, NOHOST_HA);
        wp.hd = wp.ha && FLD(t, TCR_EL2, NOHOST_HD);
        wp.ds =
            (wp.tgx == TGX_4KB || wp.tgx == TGX_16KB) && cfg->lpa2 && FLD(t, TCR_EL2, NOHOST_DS);
        wp.ttbr = cfg->ttbr0;
        return wp;
    }
    if (!va_range_upper(va)) {
        wp.tgx = s1_decode_tg0(cfg, FLD(t, TCR_EL1, TG0));
        wp.txsz = FLD(t, TCR_EL1, T0SZ);
        wp.sh = FLD(t, TCR_EL1, SH0);
        wp.tbi = FLD(t, TCR_EL1, TBI0);
        wp.hpd = FLD(t, TCR_EL1, HPDS_HPD0);
        wp.epd = FLD(t, TCR_EL1, EPD0);
        wp.ttbr = cfg->ttbr0;
    } else {
        wp.tgx = s1_decode_tg1(cfg, FLD(t, TCR_EL1, TG1));
        wp.txsz = FLD(t, TCR_EL1, T1SZ);
        wp.sh = FLD(t, TCR_EL1, SH1);
        wp.tbi = FLD(t, TCR_EL1, TBI1);
        wp.hpd = FLD(t, TCR_EL1, HPDS_HPD1);
        wp.epd = FLD(t, TCR_EL1, EPD1);
        wp.ttbr = cfg->ttbr1;
    }
    wp.ps = FLD(t, TCR_EL1, IPS);
    wp.ha = cfg->manage_af_dirty && FLD(t, TCR_EL1, HA);
    wp.hd = wp.ha && FLD(t, TCR_EL1, HD);
    wp.ds = (wp.tgx == TGX_4KB || wp.tgx == TGX_16KB) && cfg->lpa2 && FLD(t, TCR_EL1, DS);
    return wp;
}

/* AArch64.S1MinTxSZ() (no FEAT_LVA3, d128 0) */
static unsigned s1_min_txsz(const mmu_walk_config *cfg, const s1_ttw_params *wp)
{
    if (feat_lva(cfg) && (wp->tgx == TGX_64KB || wp->ds)) return 12;
    return 16;
}

/* AArch64.S1TxSZFaults() */
static bool s1_txsz_faults(const mmu_walk_config *cfg, const s1_ttw_params *wp)
{
    if (wp->txsz < s1_min_txsz(cfg, wp)) return feat_lva(cfg) || cfg->fault_txsz_below_min;
    if (wp->txsz > max_txsz(wp->tgx)) return cfg->fault_txsz_above_max;
    return false;
}

/* AArch64.AddrTop() for a data access */
static int addr_top(unsigned tbi)
{
    return tbi ? 55 : 63;
}

/* AArch64.VAIsOutOfRange() (no MTX) */
static bool va_is_out_of_range(uint64_t va, mmu_regime regime, const s1_ttw_params *wp)
{
    const int addrtop = addr_top(wp->tbi);
    const int iasize = ia_size(wp->txsz);
    if (addrtop < iasize) return false;
    const uint64_t top = bits(va, addrtop, iasize);
    if (has_unprivileged(regime) && va_range_upper(va))
        return top != low_mask(addrtop - iasize + 1); /* !IsOnes() */
    return top != 0;
}

/* AArch64.S1StartLevel() (d128 0) */
static int s1_start_level(const s1_ttw_params *wp)
{
    const int iasize = ia_size(wp->txsz);
    const int granulebits = tgx_granule_bits(wp->tgx);
    const int stride = granulebits - 3;
    return FINAL_LEVEL - ((iasize - 1 - granulebits) / stride);
}

/* AArch64.S1TTBaseAddress() (d128 0) */
static uint64_t s1_tt_base_address(const mmu_walk_config *cfg, const s1_ttw_params *wp)
{
    return tt_base_address(cfg, wp->txsz, wp->tgx, wp->ds, wp->ps, s1_start_level(wp), wp->ttbr);
}

/* AArch64.S1InitialTTWState() */
static ttw_state s1_initial_ttw_state(const walk_ctx *ctx, const s1_ttw_params *wp)
{
    ttw_state ws;
    memset(&ws, 0, sizeof ws);
    ws.paspace = ss_paspace(ctx->ss);
    ws.baseaddress = s1_tt_base_address(ctx->cfg, wp);
    ws.perms.ap_table = 0;
    ws.level = s1_start_level(wp);
    return ws;
}

/* AArch64.S1ApplyTablePerms() (only APTable matters to a privileged write;
 * HCR_EL2.NV1 is taken as 0) */
static permissions s1_apply_table_perms(permissions p, uint64_t descriptor, mmu_regime regime)
{
    unsigned ap_table;
    if (has_unprivileged(regime))
        ap_table = BIT(descriptor, DESC_APTABLE1) << 1 | BIT(descriptor, DESC_APTABLE0);
    else
        ap_table = BIT(descriptor, DESC_APTABLE1) << 1; /* APTable[0] is RES0 at EL2 */
    p.ap_table |= ap_table;
    return p;
}

/* AArch64.S1ApplyOutputPerms() (direct permissions) */
static permissions s1_apply_output_perms(permissions p, uint64_t descriptor, mmu_regime regime)
{
    if (has_unprivileged(regime))
        p.ap = (unsigned)bits(descriptor, 7, 6);
    else
        p.ap = BIT(descriptor, 7) << 1 | 1; /* AP[1] is RES1 in the EL2 regime */
    p.dbm = BIT(descriptor, DESC_DBM);
    return p;
}

/* AArch64.S1NextWalkStateTable() (d128 0, no PnCH) */
static ttw_state s1_next_walk_state_table(const walk_ctx *ctx, const ttw_state *cur,
                                          const s1_ttw_params *wp, uint64_t descriptor)
{
    ttw_state next = *cur;
    next.baseaddress = next_table_base(ctx->cfg, descriptor, wp->ds, wp->tgx);
    if (cur->paspace == ARMPROF_PAS_SECURE)
        /* NSTable takes the rest of the walk to the Non-secure PAS */
        next.paspace = BIT(descriptor, DESC_NSTABLE) ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_SECURE;
    next.level = cur->level + 1;
    if (!wp->hpd) next.perms = s1_apply_table_perms(cur->perms, descriptor, ctx->cfg->regime);
    return next;
}

/* DecodePASpace(nse2 0, nse, ns) for a Root stage 1 leaf */
static int decode_paspace(unsigned nse, unsigned ns)
{
    static const int pas[4] = {ARMPROF_PAS_SECURE, ARMPROF_PAS_NONSECURE, ARMPROF_PAS_ROOT,
                               ARMPROF_PAS_REALM};
    return pas[(nse << 1 | ns) & 3];
}

/* AArch64.S1NextWalkStateLeaf() (d128 0, no AIE, PnCH or guarded pages) */
static ttw_state s1_next_walk_state_leaf(const walk_ctx *ctx, const ttw_state *cur,
                                         const s1_ttw_params *wp, uint64_t descriptor)
{
    const mmu_regime regime = ctx->cfg->regime;
    ttw_state next;
    memset(&next, 0, sizeof next);
    next.baseaddress = leaf_base(ctx->cfg, descriptor, wp->ds, wp->tgx, cur->level);
    const unsigned ns = BIT(descriptor, 5);
    if (cur->paspace == ARMPROF_PAS_SECURE)
        next.paspace = ns ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_SECURE;
    else if (cur->paspace == ARMPROF_PAS_ROOT)
        next.paspace = decode_paspace(BIT(descriptor, 11), ns);
    else if (cur->paspace == ARMPROF_PAS_REALM &&
             (regime == MMU_REGIME_EL2 || regime == MMU_REGIME_EL20))
        next.paspace = ns ? ARMPROF_PAS_NONSECURE : ARMPROF_PAS_REALM;
    else if (cur->paspace == ARMPROF_PAS_REALM)
        next.paspace = ARMPROF_PAS_REALM; /* Realm EL1&0 has no stage 1 NS bit */
    else
        next.paspace = ARMPROF_PAS_NONSECURE;
    next.level = cur->level;
    const unsigned attrindx = (unsigned)bits(descriptor, 4, 2);
    const unsigned sh = wp->ds ? wp->sh : (unsigned)bits(descriptor, 9, 8);
    next.memattrs = s1_decode_mem_attrs(ctx->cfg, mair_attr(attrindx, ctx->cfg->mair), sh);
    next.perms = s1_apply_output_perms(cur->perms, descriptor, regime);
    next.contiguous = contiguous_bit(ctx->cfg, wp->tgx, cur->level, descriptor);
    /* nG is not needed: no TLB is modelled. */
    return next;
}

/* The stage 2 translation of a stage 1 descriptor access (a read by the
 * walk, or a hardware update when write). */
static bool s1_descriptor_s2(walk_ctx *ctx, mmu_fault *fault, uint64_t ipa, int ipaspace,
                             bool write, addr_desc *pa)
{
    addr_desc walkaddress;
    memset(&walkaddress, 0, sizeof walkaddress);
    walkaddress.address = ipa;
    walkaddress.paspace = ipaspace;
    /* WalkMemAttrs(): the IRGN/ORGN/SH of the walk only shape its own
     * access, which this model does not observe; Normal Write-Back. */
    walkaddress.memattrs.type = ARMPROF_MEM_NORMAL;
    walkaddress.memattrs.inner = walkaddress.memattrs.outer = 2;
    walkaddress.memattrs.shareability = 3;
    walkaddress.s1assured = false; /* VTCR_EL2.TL0/TL1 not modelled */
    const acc_desc walkaccess = {.ttw = true, .write = write};
    return s2_translate(ctx, fault, &walkaddress, &walkaccess, pa);
}

/* AArch64.S1Walk() (N 64). On success *descaddr and *descpas give the IPA (or
 * PA) of the leaf descriptor. */
static bool s1_walk(walk_ctx *ctx, mmu_fault *fault, const s1_ttw_params *wp, uint64_t va,
                    ttw_state *walkstate, uint64_t *descaddr, int *descpas, uint64_t *descriptor)
{
    const mmu_walk_config *cfg = ctx->cfg;
    if (has_unprivileged(cfg->regime) && wp->epd) {
        fault->type = MMU_FAULT_TRANSLATION;
        fault->level = 0;
        return false;
    }
    ttw_state ws = s1_initial_ttw_state(ctx, wp);
    uint64_t descaddress;
    if (!first_descriptor_address(cfg, &ws, wp->txsz, wp->tgx, wp->ds, wp->ps, va, &descaddress,
                                  fault))
        return false;
    uint64_t desc = 0;
    for (;;) {
        fault->level = ws.level;
        *descaddr = descaddress;
        *descpas = ws.paspace;
        if (s2_applies(ctx)) {
            addr_desc s2walkaddress;
            if (!s1_descriptor_s2(ctx, fault, descaddress, ws.paspace, false, &s2walkaddress))
                return false; /* the stage 2 fault replaces this one */
            if (!fetch_descriptor(ctx, s2walkaddress.paspace, s2walkaddress.address, fault, &desc))
                return false;
        } else if (!fetch_descriptor(ctx, ws.paspace, descaddress, fault, &desc)) {
            return false;
        }
        const descriptor_type t = decode_descriptor_type(cfg, desc, wp->ds, wp->tgx, ws.level);
        if (t == DESCRIPTOR_TYPE_INVALID) {
            fault->type = MMU_FAULT_TRANSLATION;
            return false;
        }
        if (t == DESCRIPTOR_TYPE_LEAF) {
            ws = s1_next_walk_state_leaf(ctx, &ws, wp, desc);
            break;
        }
        ws = s1_next_walk_state_table(ctx, &ws, wp, desc);
        descaddress = tt_entry_address(ws.level, wp->tgx, va, ws.baseaddress);
        /* Address Size fault by the next table's address, at this level */
        if (oa_out_of_range(cfg, descaddress, wp->ds, wp->ps, wp->tgx)) {
            fault->type = MMU_FAULT_ADDRESS_SIZE;
            return false;
        }
    }
    if (!leaf_checks(cfg, &ws, va, desc, wp->tgx, wp->txsz, wp->ds, wp->ps, wp->ha, fault))
        return false;
    *walkstate = ws;
    *descriptor = desc;
    return true;
}

/* AArch64.S1DirectBasePermissions(): the privileged write permission (pw);
 * PSTATE.PAN is 0 for the SPU, and execute permissions do not matter. The
 * two-range regimes' AP[2:1] table (0b10 and 0b11 read-only) and the EL2
 * regime's AP[2] agree for a privileged write, as do APTable 0b10/0b11 and
 * the EL2 regime's APTable[1] (S1ApplyTablePerms() already dropped
 * APTable[0] there). */
static unsigned s1_direct_base_pw(const ttw_state *ws, const s1_ttw_params *wp)
{
    permissions p = ws->perms;
    /* DBM with hardware dirty state management clears AP[2] in effect */
    if (p.dbm && wp->hd) p.ap &= 1;
    unsigned pw = (p.ap & 2) ? 0 : 1; /* leaf permissions */
    if (p.ap_table & 2) pw = 0;       /* hierarchical permissions */
    return pw;
}

/* AArch64.S1CheckPermissions() for a write (no PIE, no overlays, no
 * AccessType_GCS, no tag access) */
static mmu_fault s1_check_permissions(const mmu_fault *fault_in, const ttw_state *ws,
                                      const s1_ttw_params *wp)
{
    mmu_fault fault = *fault_in;
    /* AArch64.S1ComputePermissions() */
    const unsigned w = s1_direct_base_pw(ws, wp);
    if (!w) fault.type = MMU_FAULT_PERMISSION;
    /* fault.dirtybit is set only with the indirect permission scheme
     * (walkparams.pie and the nDirty bit), which is not modelled. */
    return fault;
}

/* AArch64.S1DisabledOutput() for an AccessType_SPE write, with RQJNFT and
 * RXBFCM. */
static bool s1_disabled_output(walk_ctx *ctx, mmu_fault *fault, uint64_t va, addr_desc *ipa)
{
    const mmu_walk_config *cfg = ctx->cfg;
    const s1_ttw_params wp = get_s1_ttw_params(cfg, va);
    /* The attributes: PMBMAR_EL1 (nVM 1), HCR_EL2.DC's Normal Write-Back, or
     * Device-nGnRnE, chosen by the caller. PMBMAR_EL1.SH is ignored for
     * Device and Normal Non-cacheable: EffectiveShareability(). */
    armprof_mem_attrs memattrs =
        s1_decode_mem_attrs(cfg, cfg->s1_disabled_attr, cfg->s1_disabled_sh);
    memattrs.shareability = effective_shareability(&memattrs);
    fault->level = 0;
    const int pamax = (int)cfg->pa_bits;
    /* va<addrtop:pamax> must be zero (the pseudocode), which is RQJNFT for
     * va<oamax:pamax> and the Address Size fault choice of RXBFCM above
     * OAMax; with s1_disabled_ignore_top the bits above OAMax are treated
     * as zero instead. */
    const int top = cfg->s1_disabled_ignore_top ? (int)cfg->oamax : addr_top(wp.tbi);
    if (bits(va, top, pamax) != 0) {
        fault->type = MMU_FAULT_ADDRESS_SIZE;
        return false;
    }
    ipa->address = va & low_mask(pamax);
    ipa->paspace = ss_paspace(ctx->ss);
    ipa->memattrs = memattrs;
    ipa->s1assured = false;
    ipa->mecid = s1_disabled_output_mecid(cfg, ipa->paspace);
    return true;
}

/* AArch64.S1Translate() for the SPU's write */
static bool s1_translate(walk_ctx *ctx, mmu_fault *fault, uint64_t va, addr_desc *ipa)
{
    const mmu_walk_config *cfg = ctx->cfg;
    fault->secondstage = false;
    fault->s1ptw = false;
    if (!cfg->s1_enabled) return s1_disabled_output(ctx, fault, va, ipa);

    s1_ttw_params wp = get_s1_ttw_params(cfg, va);
    const unsigned mintxsz = s1_min_txsz(cfg, &wp), maxtxsz = max_txsz(wp.tgx);
    if (s1_txsz_faults(cfg, &wp)) {
        fault->type = MMU_FAULT_TRANSLATION;
        fault->level = 0;
        return false;
    }
    if (wp.txsz < mintxsz)
        wp.txsz = mintxsz;
    else if (wp.txsz > maxtxsz)
        wp.txsz = maxtxsz;
    if (va_is_out_of_range(va, cfg->regime, &wp)) {
        fault->type = MMU_FAULT_TRANSLATION;
        fault->level = 0;
        return false;
    }
    /* (TCR_ELx.E0PDx and NFDx apply to EL0 accesses only.) */

    ttw_state ws;
    uint64_t descipaddr = 0, descriptor = 0;
    int descpas = 0;
    if (!s1_walk(ctx, fault, &wp, va, &ws, &descipaddr, &descpas, &descriptor)) return false;

    const mmu_fault fault_perm = s1_check_permissions(fault, &ws, &wp);
    const acc_desc accdesc = {.ttw = false, .write = true};
    uint64_t new_desc = descriptor;
    if (set_access_flag(wp.ha, fault)) new_desc |= UINT64_C(1) << DESC_AF;
    if (set_dirty_state(wp.hd, BIT(descriptor, DESC_DBM), &accdesc, fault, &fault_perm))
        new_desc &= ~(UINT64_C(1) << DESC_AP2); /* AP[2] 0: writable */
    if (!is_fault(fault) && is_fault(&fault_perm)) *fault = fault_perm;
    if (new_desc != descriptor) {
        uint64_t descpaddr = descipaddr;
        int descppas = descpas;
        if (s2_applies(ctx)) {
            addr_desc s2desc;
            if (!s1_descriptor_s2(ctx, fault, descipaddr, descpas, true, &s2desc)) return false;
            descpaddr = s2desc.address;
            descppas = s2desc.paspace;
        }
        if (!mem_swap_table_desc(ctx, fault, descriptor, new_desc, descppas, descpaddr))
            return false;
    }
    if (is_fault(fault)) return false;

    ipa->address = stage_oa(va, wp.tgx, &ws);
    ipa->paspace = ws.paspace;
    ipa->memattrs = ws.memattrs;
    /* Shareability of a stage 1 subject to stage 2: the descriptor's value,
     * or the effective one with the IMPLEMENTATION DEFINED "Apply effective
     * shareability at stage 1"; otherwise the effective one. */
    if (!s2_applies(ctx) || cfg->s1_effective_shareability)
        ipa->memattrs.shareability = effective_shareability(&ipa->memattrs);
    ipa->s1assured = false;
    ipa->mecid = s1_output_mecid(cfg, va, ipa->paspace, descriptor);
    return true;
}

/* AArch64.FullTranslate() */
static bool full_translate(walk_ctx *ctx, mmu_fault *fault, uint64_t va, addr_desc *pa)
{
    addr_desc ipa;
    memset(&ipa, 0, sizeof ipa);
    if (!s1_translate(ctx, fault, va, &ipa)) return false;
    if (s2_applies(ctx)) {
        const acc_desc accdesc = {.ttw = false, .write = true};
        return s2_translate(ctx, fault, &ipa, &accdesc, pa);
    }
    *pa = ipa;
    return true;
}

/* AArch64.TranslateAddress() for an AccessType_SPE write */
/* The translation of va before the output's Granule Protection Check;
 * *from_memory says whether it read or updated a descriptor. */
static mmu_result translate_spe_write(armprof_mem *mem, const mmu_walk_config *cfg, uint64_t va,
                                      bool *from_memory)
{
    mmu_result result;
    memset(&result, 0, sizeof result);
    walk_ctx ctx = {.mem = mem, .cfg = cfg, .async_abort = false};
    switch (cfg->pas) {
    case ARMPROF_PAS_SECURE:
        ctx.ss = SS_SECURE;
        break;
    case ARMPROF_PAS_REALM:
        ctx.ss = SS_REALM;
        break;
    case ARMPROF_PAS_ROOT:
        ctx.ss = SS_ROOT;
        break;
    default:
        ctx.ss = SS_NONSECURE;
        break;
    }
    addr_desc pa;
    memset(&pa, 0, sizeof pa);
    if (full_translate(&ctx, &result.fault, va, &pa)) {
        memset(&result.fault, 0, sizeof result.fault); /* NoFault() */
        result.pa = pa.address;
        result.pas = pa.paspace;
        result.attrs = pa.memattrs;
        result.attrs.tagged = false;
        result.attrs.mecid = pa.mecid; /* RDFFVT */
    }
    result.async_abort_on_walk = ctx.async_abort;
    *from_memory = ctx.memory_accesses != 0;
    return result;
}

/* (No watchpoints for the SPU: AArch64.CheckDebug() finds nothing.) The
 * Granule Protection Check of a translation's output; its External aborts
 * are the write's, for the caller. */
static mmu_result check_output(const armprof_mem *mem, const mmu_walk_config *cfg,
                               mmu_result result)
{
    if (result.fault.type != MMU_FAULT_NONE) return result;
    const mem_status s = mem_check(mem, result.pas, result.pa, 1, false, cfg->gpc);
    if (s == MEM_GPF || s == MEM_GPT_WALK) {
        memset(&result.fault, 0, sizeof result.fault);
        result.fault.type = MMU_FAULT_GPC; /* Fault_GPCFOnOutput */
        result.fault.gpf = s == MEM_GPF;
        result.fault.walk = false;
    }
    return result;
}

mmu_result mmu_translate_spe_write(armprof_mem *mem, const mmu_walk_config *cfg, uint64_t va)
{
    bool from_memory;
    return check_output(mem, cfg, translate_spe_write(mem, cfg, va, &from_memory));
}

mmu_result mmu_translate_spe_write_cached(armprof_mem *mem, const mmu_walk_config *cfg, uint64_t va,
                                          mmu_page_cache *cache, bool keep_walks)
{
    const uint64_t page = va >> 12, offset = va & 0xfff;
    if (cache->valid && cache->va_page == page) {
        mmu_result r = cache->result;
        r.pa |= offset;
        return check_output(mem, cfg, r);
    }
    bool from_memory;
    const mmu_result r = translate_spe_write(mem, cfg, va, &from_memory);
    /* A translation that read no descriptor is a function of the registers
     * alone, and the same for every byte of its 4KB page (the smallest
     * granule); one that read memory is kept only as a TLB entry
     * (keep_walks), since the descriptors can change without a register
     * write. */
    cache->valid =
        (keep_walks || !from_memory) && !r.async_abort_on_walk && r.fault.type == MMU_FAULT_NONE;
    if (cache->valid) {
        cache->va_page = page;
        cache->result = r;
        cache->result.pa &= ~(uint64_t)0xfff;
    }
    return check_output(mem, cfg, r);
}

/* EncodeLDFSC() */
uint8_t mmu_fault_fsc(const mmu_fault *fault)
{
    const int level = fault->level;
    const uint8_t lvl = (uint8_t)(level & 3);
    if (level == -1) {
        switch (fault->type) {
        case MMU_FAULT_ADDRESS_SIZE:
            return 0x29; /* 0b101001 */
        case MMU_FAULT_TRANSLATION:
            return 0x2B; /* 0b101011 */
        case MMU_FAULT_SYNC_EXTERNAL_WALK:
            return 0x13; /* 0b010011 */
        case MMU_FAULT_GPC:
            if (fault->walk) return 0x23; /* 0b100011 */
            break;
        default:
            break;
        }
    }
    switch (fault->type) {
    case MMU_FAULT_NONE:
        return 0;
    case MMU_FAULT_ADDRESS_SIZE:
        return (uint8_t)(0x00 | lvl); /* 0b0000:level */
    case MMU_FAULT_TRANSLATION:
        return (uint8_t)(0x04 | lvl); /* 0b0001:level */
    case MMU_FAULT_ACCESS_FLAG:
        return (uint8_t)(0x08 | lvl); /* 0b0010:level */
    case MMU_FAULT_PERMISSION:
        return (uint8_t)(0x0C | lvl); /* 0b0011:level */
    case MMU_FAULT_SYNC_EXTERNAL_WALK:
        return (uint8_t)(0x14 | lvl); /* 0b0101:level */
    case MMU_FAULT_ALIGNMENT:
        return 0x21; /* 0b100001 */
    case MMU_FAULT_GPC:
        /* Fault_GPCFOnWalk 0b1001:level; Fault_GPCFOnOutput 0b101000 */
        return fault->walk ? (uint8_t)(0x24 | lvl) : 0x28;
    }
    return 0;
}
