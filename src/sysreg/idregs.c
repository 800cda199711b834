/* ID register values derived from the configuration.
 *
 * One table row per ID register field the model reports. A row either lists
 * feature levels, in increasing order, and the field takes the value of the
 * last level whose feature is implemented (0 when none is), or names a
 * function of the configuration. Fields with no row read as 0: the model has
 * no feature for them. The values are those of the field tables of
 * registers/ID_AA64DFR0_EL1.md, ID_AA64DFR1_EL1.md, ID_AA64MMFR0_EL1.md,
 * PMSIDR_EL1.md, PMBIDR_EL1.md, and of the Arm ARM for the ID registers with
 * no page here. */
#include "sysreg/idregs.h"

#include "core/arch.h"

typedef struct id_level {
    uint16_t feat1; /* ARMPROF_FEAT_<X> + 1; 0 ends the list */
    uint8_t value;
} id_level;

typedef struct id_field {
    uint16_t reg;
    uint8_t lo, width;
    uint64_t (*fn)(const armprof_pe *pe); /* NULL: use levels */
    id_level levels[8];
} id_field;

#define L(feat, v)                                                                                 \
    {                                                                                              \
        ARMPROF_FEAT_##feat + 1, (v)                                                               \
    }
#define IDV(reg, field, ...)                                                                       \
    {                                                                                              \
        SR_##reg, reg##_##field##_LO, reg##_##field##_W, NULL,                                     \
        {                                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }
#define IDF(reg, field, fn)                                                                        \
    {                                                                                              \
        SR_##reg, reg##_##field##_LO, reg##_##field##_W, fn,                                       \
        {                                                                                          \
            {                                                                                      \
                0, 0                                                                               \
            }                                                                                      \
        }                                                                                          \
    }

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* ---- ID_AA64DFR0_EL1 / ID_AA64DFR1_EL1 ---- */

/* 0b0000 is not permitted from Armv8.6 with FEAT_PMUv3: without FEAT_MTPMU
 * the model reports 0b1111, PMEVTYPER<n>_EL0.MT RES0. */
static uint64_t dfr0_mtpmu(const armprof_pe *pe)
{
    if (IMPLEMENTED(pe, MTPMU)) return 1;
    return IMPLEMENTED(pe, PMUv3) ? 0xf : 0;
}

/* 0b0000: OS Double Lock implemented; 0b1111: not implemented. */
static uint64_t dfr0_doublelock(const armprof_pe *pe)
{
    return IMPLEMENTED(pe, DoubleLock) ? 0 : 0xf;
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
    return IMPLEMENTED(pe, ABLE) ? OPTION_VALUE(pe, ABL_CMPS) - 1 : 0;
}

static uint64_t dfr1_syspmuid(const armprof_pe *pe)
{
    return IMPLEMENTED(pe, SPMU) ? OPTION_VALUE(pe, SYSPMUID) : 0;
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
static uint64_t mmfr0_tgran4_16_2(const armprof_pe *pe)
{
    if (!IMPLEMENTED(pe, EL2)) return 0;
    return IMPLEMENTED(pe, LPA2) ? 3 : 2;
}
static uint64_t mmfr0_tgran64_2(const armprof_pe *pe)
{
    return IMPLEMENTED(pe, EL2) ? 2 : 0;
}
static uint64_t mmfr0_asidbits(const armprof_pe *pe)
{
    (void)pe;
    return 2;
}

/* 'This field is invalid and is RES0 if ID_AA64MMFR0_EL1.BigEnd is not 0b0000'. */
static uint64_t mmfr0_bigendel0(const armprof_pe *pe)
{
    return !IMPLEMENTED(pe, MixedEnd) && IMPLEMENTED(pe, MixedEndEL0) ? 1 : 0;
}

/* ---- ID_AA64MMFR3_EL1 ---- */

/* Stage 2 128-bit descriptors come with FEAT_D128 when there is a stage 2. */
static uint64_t mmfr3_d128_2(const armprof_pe *pe)
{
    return IMPLEMENTED(pe, D128) && IMPLEMENTED(pe, EL2) ? 1 : 0;
}

/* ---- PMSIDR_EL1 / PMBIDR_EL1 ---- */

static uint64_t pmsidr_altclk(const armprof_pe *pe)
{
    return IMPLEMENTED(pe, SPE_ALTCLK) ? OPTION_VALUE(pe, PMSIDR_ALTCLK) : 0;
}
static uint64_t pmsidr_countsize(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMSIDR_COUNTSIZE);
}
static uint64_t pmsidr_maxsize(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMSIDR_MAXSIZE);
}
static uint64_t pmsidr_interval(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMSIDR_INTERVAL);
}
static uint64_t pmbidr_ea(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMBIDR_EA);
}
static uint64_t pmbidr_f(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMBIDR_F);
}
static uint64_t pmbidr_align(const armprof_pe *pe)
{
    return OPTION_VALUE(pe, PMBIDR_ALIGN);
}

static const id_field id_fields[] = {
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
    IDF(ID_AA64MMFR0_EL1, TGran4_2, mmfr0_tgran4_16_2),
    IDF(ID_AA64MMFR0_EL1, TGran64_2, mmfr0_tgran64_2),
    IDF(ID_AA64MMFR0_EL1, TGran16_2, mmfr0_tgran4_16_2),
    /* TGran4 and TGran64: 0b0000 is 'supported'; TGran16: 0b0001 is. */
    IDV(ID_AA64MMFR0_EL1, TGran4, L(LPA2, 1)),
    IDV(ID_AA64MMFR0_EL1, TGran16, L(AA64, 1), L(LPA2, 2)),
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

    /* PMSIDR_EL1: Format 0; FL, FT and FE 'Reads as 0b1'. */
    IDV(PMSIDR_EL1, SME, L(SPE_SME, 1)),
    IDF(PMSIDR_EL1, ALTCLK, pmsidr_altclk),
    IDV(PMSIDR_EL1, FPF, L(SPE_FPF, 1)),
    IDV(PMSIDR_EL1, EFT, L(SPE_EFT, 1)),
    IDV(PMSIDR_EL1, CRR, L(SPE_CRR, 1)),
    IDV(PMSIDR_EL1, PBT, L(SPE_PBT, 1)),
    IDF(PMSIDR_EL1, CountSize, pmsidr_countsize),
    IDF(PMSIDR_EL1, MaxSize, pmsidr_maxsize),
    IDF(PMSIDR_EL1, Interval, pmsidr_interval),
    IDV(PMSIDR_EL1, FDS, L(SPE_FDS, 1)),
    IDV(PMSIDR_EL1, FnE, L(SPE_FnE, 1)),
    IDV(PMSIDR_EL1, ERnd, L(SPE_ERnd, 1)),
    IDV(PMSIDR_EL1, LDS, L(SPE_LDS, 1)),
    IDV(PMSIDR_EL1, ArchInst, L(SPE_ArchInst, 1)),
    IDV(PMSIDR_EL1, FL, L(SPE, 1)),
    IDV(PMSIDR_EL1, FT, L(SPE, 1)),
    IDV(PMSIDR_EL1, FE, L(SPE, 1)),

    /* PMBIDR_EL1: MaxBuffSize 'Reads as 0x0000'. P (programming not allowed)
     * depends on the Profiling Buffer owner and the current Exception level,
     * and AddrMode on PMSCR_EL2.EnVM and P: both stay 0 here until the
     * Profiling Buffer work adds their read-time values. */
    IDF(PMBIDR_EL1, EA, pmbidr_ea),
    IDF(PMBIDR_EL1, F, pmbidr_f),
    IDF(PMBIDR_EL1, Align, pmbidr_align),
};

/* ---- PMU control registers ---- */
/* The Common events the model's PMU counts (src/pmu/), with the feature each
 * needs (0: none). PMCEID0_EL0.ID<n> is event n and IDhi<n> event 0x4000 + n;
 * PMCEID1_EL0.ID<n> is event 0x0020 + n and IDhi<n> event 0x4020 + n
 * (registers/PMCEID0_EL0.md, PMCEID1_EL0.md). IDhi needs FEAT_PMUv3p1 (RES0
 * otherwise, applied through the register's RES0 mask). */
typedef struct pmu_common_event {
    uint16_t event;
    uint16_t feat1; /* ARMPROF_FEAT_<X> + 1; 0 when the event needs no feature */
} pmu_common_event;

static const pmu_common_event pmu_common_events[] = {
    {0x0000, 0},                    /* SW_INCR */
    {0x0003, 0},                    /* L1D_CACHE_REFILL */
    {0x0004, 0},                    /* L1D_CACHE */
    {0x0006, 0},                    /* LD_RETIRED */
    {0x0007, 0},                    /* ST_RETIRED */
    {0x0008, 0},                    /* INST_RETIRED */
    {0x0011, 0},                    /* CPU_CYCLES */
    {0x0013, 0},                    /* MEM_ACCESS */
    {0x001E, 0},                    /* CHAIN */
    {0x0021, 0},                    /* BR_RETIRED */
    {0x0022, 0},                    /* BR_MIS_PRED_RETIRED */
    {0x4000, ARMPROF_FEAT_SPE + 1}, /* SAMPLE_POP */
    {0x4001, ARMPROF_FEAT_SPE + 1}, /* SAMPLE_FEED */
    {0x4002, ARMPROF_FEAT_SPE + 1}, /* SAMPLE_FILTRATE */
    {0x4003, ARMPROF_FEAT_SPE + 1}, /* SAMPLE_COLLISION */
};

/* The bit of PMCEID0_EL0 (*reg = 0) or PMCEID1_EL0 (*reg = 1) that reports
 * event, or -1 when neither does. */
static int pmceid_bit(uint16_t event, unsigned *reg)
{
    if (event < 0x0040) { /* ID<n>: events 0x0000..0x003F */
        *reg = event >> 5;
        return event & 31;
    }
    if (event >= 0x4000 && event < 0x4040) { /* IDhi<n>: events 0x4000..0x403F */
        *reg = (event - 0x4000u) >> 5;
        return 32 + (event & 31);
    }
    return -1;
}

/* PMCEID0_EL0, PMCEID1_EL0 and PMMIR_EL1 whole; PMCR_EL0.{IMP, IDCODE, N}
 * alone (the register's other fields keep their reset values). Model
 * choices (docs/spec-notes.md): PMCR_EL0.IMP = 0, so IDCODE is RES0 and
 * software identifies the PE by MIDR_EL1; PMMIR_EL1.SLOTS = 0 (no STALL_SLOT
 * event), BUS_SLOTS = 0 and BUS_WIDTH = 0 ('information not available'),
 * SME = 0 (no FEAT_PMUv3_SME in the model), EDGE = 0b0001 with
 * FEAT_PMUv3_EDGE, THWIDTH = 0b1100 (12 bits: every PMEVTYPER<n>_EL0.TH bit)
 * with FEAT_PMUv3_TH. */
static void pmu_control_idregs_init(armprof_pe *pe)
{
    uint64_t pmceid[2] = {0, 0};
    for (unsigned i = 0; i < sizeof pmu_common_events / sizeof pmu_common_events[0]; i++) {
        const pmu_common_event *e = &pmu_common_events[i];
        unsigned reg;
        const int bit = pmceid_bit(e->event, &reg);
        if (bit < 0) continue;
        if (e->feat1 && !armprof_config_has(&pe->cfg, (armprof_feature)(e->feat1 - 1))) continue;
        pmceid[reg] |= 1ull << bit;
    }
    REG(pe, PMCEID0_EL0) = pmceid[0] & ~pe->info[SR_PMCEID0_EL0].res0;
    REG(pe, PMCEID1_EL0) = pmceid[1] & ~pe->info[SR_PMCEID1_EL0].res0;

    uint64_t pmmir = 0;
    if (IMPLEMENTED(pe, PMUv3_EDGE)) pmmir |= 1ull << PMMIR_EL1_EDGE_LO;
    if (IMPLEMENTED(pe, PMUv3_TH)) pmmir |= 12ull << PMMIR_EL1_THWIDTH_LO;
    REG(pe, PMMIR_EL1) = pmmir;

    const uint64_t id_mask =
        BITS_MASK(PMCR_EL0_IMP_LO + PMCR_EL0_IMP_W - 1, PMCR_EL0_IMP_LO) |
        BITS_MASK(PMCR_EL0_IDCODE_LO + PMCR_EL0_IDCODE_W - 1, PMCR_EL0_IDCODE_LO) |
        BITS_MASK(PMCR_EL0_N_LO + PMCR_EL0_N_W - 1, PMCR_EL0_N_LO);
    const uint64_t n = OPTION_VALUE(pe, NUM_EVENT_COUNTERS) << PMCR_EL0_N_LO;
    REG(pe, PMCR_EL0) = (REG(pe, PMCR_EL0) & ~id_mask) | (n & id_mask);
}
/* ---- end PMU control registers ---- */

static uint64_t field_value(const armprof_pe *pe, const id_field *f)
{
    if (f->fn) return f->fn(pe);
    uint64_t v = 0;
    for (unsigned i = 0; i < sizeof f->levels / sizeof f->levels[0] && f->levels[i].feat1; i++)
        if (armprof_config_has(&pe->cfg, (armprof_feature)(f->levels[i].feat1 - 1)))
            v = f->levels[i].value;
    return v;
}

void idregs_init(armprof_pe *pe)
{
    const unsigned n = sizeof id_fields / sizeof id_fields[0];
    /* Fields with no row read as 0, whatever a previous configuration left. */
    for (unsigned i = 0; i < n; i++)
        pe->regs[sysreg_table[id_fields[i].reg].storage] = 0;
    for (unsigned i = 0; i < n; i++) {
        const id_field *f = &id_fields[i];
        const uint64_t mask = BITS_MASK(f->lo + f->width - 1, f->lo);
        uint64_t *r = &pe->regs[sysreg_table[f->reg].storage];
        *r |= (field_value(pe, f) << f->lo) & mask;
    }
    /* Absent (FC) fields read as their RES0. */
    for (unsigned i = 0; i < n; i++) {
        const unsigned reg = id_fields[i].reg;
        pe->regs[sysreg_table[reg].storage] &= ~pe->info[reg].res0;
    }
    /* ---- PMU control registers ---- */
    pmu_control_idregs_init(pe);
    /* ---- end PMU control registers ---- */
}
