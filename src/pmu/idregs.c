/* SPDX-License-Identifier: BSD-3-Clause */
/* The PMU's identification values: PMCEID0_EL0, PMCEID1_EL0, PMMIR_EL1 and
 * PMCR_EL0.{IMP, IDCODE, N} derived from the configuration. */
#include "core/arch.h"
#include "pmu/pmu_regs.h"

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
    {0x0009, 0},                    /* EXC_TAKEN (the embedder's, armprof_pmu_event()) */
    {0x000A, 0},                    /* EXC_RETURN (likewise) */
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

/* The events whose number is an option (options.def, event_number_*): the
 * ones configured to a number that PMCEID<n>_EL0 covers report it there, so
 * that a driver can tell whether the PE counts them. A number above 0xFFFF
 * means not implemented. */
static const armprof_option pmu_numbered_events[] = {
    ARMPROF_OPT_EVENT_SAMPLE_FEED_BR,    ARMPROF_OPT_EVENT_SAMPLE_FEED_LD,
    ARMPROF_OPT_EVENT_SAMPLE_FEED_ST,    ARMPROF_OPT_EVENT_SAMPLE_FEED_OP,
    ARMPROF_OPT_EVENT_SAMPLE_FEED_EVENT, ARMPROF_OPT_EVENT_SAMPLE_FEED_LAT,
    ARMPROF_OPT_EVENT_SAMPLE_FEED_DS,    ARMPROF_OPT_EVENT_SAMPLE_FEED_FP,
    ARMPROF_OPT_EVENT_SAMPLE_FEED_SIMD,  ARMPROF_OPT_EVENT_SAMPLE_BUFFER_FULL,
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
void pmu_idregs_init(armprof_pe *pe)
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
    for (unsigned i = 0; IsFeatureImplemented(pe, SPE) &&
                         i < sizeof pmu_numbered_events / sizeof pmu_numbered_events[0];
         i++) {
        const uint64_t number = pe->cfg.options[pmu_numbered_events[i]];
        unsigned reg;
        const int bit = number <= 0xffff ? pmceid_bit((uint16_t)number, &reg) : -1;
        if (bit >= 0) pmceid[reg] |= 1ull << bit;
    }
    REG(pe, PMCEID0_EL0) = pmceid[0] & ~sysreg_info(pe, SR_PMCEID0_EL0)->res0;
    REG(pe, PMCEID1_EL0) = pmceid[1] & ~sysreg_info(pe, SR_PMCEID1_EL0)->res0;

    uint64_t pmmir = 0;
    if (IsFeatureImplemented(pe, PMUv3_EDGE)) pmmir |= 1ull << PMMIR_EL1_EDGE_LO;
    if (IsFeatureImplemented(pe, PMUv3_TH)) pmmir |= 12ull << PMMIR_EL1_THWIDTH_LO;
    REG(pe, PMMIR_EL1) = pmmir;

    const uint64_t id_mask =
        BITS_MASK(PMCR_EL0_IMP_LO + PMCR_EL0_IMP_W - 1, PMCR_EL0_IMP_LO) |
        BITS_MASK(PMCR_EL0_IDCODE_LO + PMCR_EL0_IDCODE_W - 1, PMCR_EL0_IDCODE_LO) |
        BITS_MASK(PMCR_EL0_N_LO + PMCR_EL0_N_W - 1, PMCR_EL0_N_LO);
    const uint64_t n = OPTION_VALUE(pe, NUM_EVENT_COUNTERS) << PMCR_EL0_N_LO;
    REG(pe, PMCR_EL0) = (REG(pe, PMCR_EL0) & ~id_mask) | (n & id_mask);
}
