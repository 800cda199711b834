/* SPDX-License-Identifier: BSD-3-Clause */
/* Sample filtering (D17.5): SPECollectRecord() and the four filters it
 * combines, transliterated from pseudocode/full/arm-J1.1.md (J1.1.1.75,
 * J1.1.1.84 to J1.1.1.87) as of M.a.a: the latency filter keeps operations
 * whose total latency is at least PMSLATFR_EL1.MINLAT, and a data source
 * rejection drops the record. Each filter also generates its SAMPLE_FEED_*
 * PMU event. */
#include "core/arch.h"
#include "core/siblings.h"
#include "spe/spe_unit.h"

#define BADPMSFCR(pe) (constrained_unpredictable(pe, BADPMSFCR) == ARMPROF_UNPRED_BADPMSFCR_TRUE)

/* The "mask" of SPEFilterByEvents(): the Events packet bits the filters
 * check. Computed by a reset (spe_state.filter_mask). */
uint64_t spe_filter_mask(const armprof_pe *pe)
{
    const uint64_t impdef_mask = OPTION_VALUE(pe, SPE_FILTER_EVENTS);
    const bool v1p4 = IsFeatureImplemented(pe, SPEv1p4);
    uint64_t mask = impdef_mask & 0xffff000000000000ull;               /* <63:48> */
    if (IsFeatureImplemented(pe, SPE_SME) && v1p4) mask |= 3ull << 24; /* streaming mode, SMCU */
    if (v1p4)
        mask |= 0x1full << 19; /* snoop hit, recent fetch, modified, L2 miss, L2 access */
    else
        mask |= impdef_mask & (0xffull << 24);
    if (IsFeatureImplemented(pe, SPEv1p1) && IsFeatureImplemented(pe, SVE))
        mask |= 3ull << 17; /* predicates */
    mask |= impdef_mask & (0xfull << 12);
    if (IsFeatureImplemented(pe, SPEv1p1)) mask |= 1ull << 11; /* data alignment */
    if (v1p4)
        mask |= 7ull << 8; /* remote access, LLC access, LLC miss */
    else
        mask |= impdef_mask & (7ull << 8);
    mask |= 1ull << 7;                                        /* mispredicted */
    if (IsFeatureImplemented(pe, SPE_FnE)) mask |= 1ull << 6; /* not taken */
    mask |= 1ull << 5 | 1ull << 3 | 1ull << 1;                /* TLB walk, L1 miss, retired */
    if (v1p4)
        mask |= 1ull << 4 | 1ull << 2; /* TLB access, L1 access */
    else
        mask |= impdef_mask & (1ull << 4 | 1ull << 2);
    return mask;
}

/* SPEFilterByEvents(): (is_rejected_event, is_rejected_nevent) */
static void SPEFilterByEvents(armprof_pe *pe, uint64_t events, bool *rejected_event,
                              bool *rejected_nevent)
{
    const uint64_t mask = SPE_STATE(pe)->filter_mask;
    const uint64_t e = events & mask;
    const uint64_t evfr = REG(pe, PMSEVFR_EL1) & mask;
    bool is_rejected_event = false;
    const bool is_evt = (~e & evfr) == 0;
    if (FIELD(pe, PMSFCR_EL1, FE) == 1) {
        if (evfr != 0)
            is_rejected_event = !is_evt;
        else
            is_rejected_event = BADPMSFCR(pe);
    }
    bool is_rejected_nevent = false;
    bool is_nevt = true; /* FEAT_SPE_FnE not implemented */
    if (IsFeatureImplemented(pe, SPE_FnE)) {
        const uint64_t nevfr = REG(pe, PMSNEVFR_EL1) & mask;
        is_nevt = (e & nevfr) == 0;
        if (FIELD(pe, PMSFCR_EL1, FnE) == 1) {
            if (nevfr != 0)
                is_rejected_nevent = !is_nevt;
            else
                is_rejected_nevent = BADPMSFCR(pe);
        }
    }
    if (is_evt && is_nevt) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_EVENT));
    if (IsFeatureImplemented(pe, SPE_FnE) && FIELD(pe, PMSFCR_EL1, FnE) == 1 &&
        FIELD(pe, PMSFCR_EL1, FE) == 1 &&
        (REG(pe, PMSEVFR_EL1) & REG(pe, PMSNEVFR_EL1) & mask) != 0) {
        /* the filter and the inverse filter on one event */
        is_rejected_nevent = BADPMSFCR(pe);
        is_rejected_event = BADPMSFCR(pe);
    }
    *rejected_event = is_rejected_event;
    *rejected_nevent = is_rejected_nevent;
}

/* Bit positions in the PMSFCR_EL1.{TYPE, TYPEm} fields */
enum { TYPE_B = 0, TYPE_LD = 1, TYPE_ST = 2, TYPE_FP = 3, TYPE_SIMD = 4 };

/* SPEFilterByType() */
static bool SPEFilterByType(armprof_pe *pe, const SPEOpAttr *opattr)
{
    const bool is_gcs_ldst =
        opattr->op_type == SPEOpType_Branch && opattr->ldst_type == SPELDSTType_GCS;
    const bool is_load = opattr->op_type == SPEOpType_Load ||
                         opattr->op_type == SPEOpType_LoadAtomic ||
                         (is_gcs_ldst && opattr->procedure_return);
    const bool is_store = opattr->op_type == SPEOpType_Store ||
                          opattr->op_type == SPEOpType_LoadAtomic ||
                          (is_gcs_ldst && opattr->branch_has_link);
    unsigned flags = 0;
    flags |= (unsigned)(opattr->op_type == SPEOpType_Branch) << TYPE_B;
    flags |= (unsigned)is_load << TYPE_LD;
    flags |= (unsigned)is_store << TYPE_ST;
    flags |= (unsigned)opattr->is_floating_point << TYPE_FP;
    flags |= (unsigned)opattr->is_simd << TYPE_SIMD;
    const uint64_t pmsfcr = REG(pe, PMSFCR_EL1);
    unsigned ctrl = (unsigned)(pmsfcr >> PMSFCR_EL1_B_LO) & 7u; /* TYPE<2:0> = ST:LD:B */
    unsigned mask = 0;
    if (IsFeatureImplemented(pe, SPE_EFT)) {
        ctrl |= (unsigned)(pmsfcr >> PMSFCR_EL1_B_LO) & 0x18u; /* TYPE<4:3> = SIMD:FP */
        mask = (unsigned)(pmsfcr >> PMSFCR_EL1_Bm_LO) & 0x1fu; /* TYPEm */
    }
    const unsigned ctrl_or = ctrl & ~mask;
    const unsigned ctrl_and = ctrl & mask;
    const bool is_op = (ctrl_or == 0 || (flags & ctrl_or) != 0) && (flags & mask) == ctrl_and;
    if (flags & 1u << TYPE_B) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_BR));
    if (flags & 1u << TYPE_LD) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_LD));
    if (flags & 1u << TYPE_ST) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_ST));
    if (flags & 1u << TYPE_FP) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_FP));
    if (flags & 1u << TYPE_SIMD) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_SIMD));
    bool is_rejected_type = false;
    if (FIELD(pe, PMSFCR_EL1, FT) == 1) {
        if (IsFeatureImplemented(pe, SPE_EFT) || ctrl != 0)
            is_rejected_type = !is_op;
        else
            is_rejected_type = BADPMSFCR(pe);
    }
    if (is_op && (ctrl != 0 || mask != 0))
        spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_OP));
    return is_rejected_type;
}

/* SPEFilterByLatency(). MINLAT[15:12] is RES0 with 12-bit counters
 * (PMSIDR_EL1.CountSize 0b0010): the stored bits are not part of the value. */
static bool SPEFilterByLatency(armprof_pe *pe, uint32_t total_latency)
{
    uint64_t minlat = FIELD(pe, PMSLATFR_EL1, MINLAT);
    if (OPTION_VALUE(pe, PMSIDR_COUNTSIZE) == ARMPROF_PMSIDR_COUNTSIZE_SATURATING_12)
        minlat &= 0xfff;
    const bool is_lat = total_latency >= minlat;
    if (is_lat) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_LAT));
    bool is_rejected_latency = false;
    if (FIELD(pe, PMSFCR_EL1, FL) == 1) {
        if (minlat != 0)
            is_rejected_latency = !is_lat;
        else
            is_rejected_latency = BADPMSFCR(pe);
    }
    return is_rejected_latency;
}

/* SPEFilterByDataSource() */
static bool SPEFilterByDataSource(armprof_pe *pe, SPEOpType optype)
{
    bool is_rejected_data_source = false;
    const spe_sample *s = &SPE_STATE(pe)->sample;
    if (IsFeatureImplemented(pe, SPE_FDS) && s->data_source_valid &&
        (optype == SPEOpType_Load || optype == SPEOpType_LoadAtomic)) {
        const unsigned index = s->data_source & 63u;
        const bool is_ds = (REG(pe, PMSDSFR_EL1) >> index) & 1;
        if (is_ds) spe_pmu_event(pe, OPTION_VALUE(pe, EVENT_SAMPLE_FEED_DS));
        if (FIELD(pe, PMSFCR_EL1, FDS) == 1) is_rejected_data_source = !is_ds;
    }
    return is_rejected_data_source;
}

/* SPECollectRecord() */
bool SPECollectRecord(armprof_pe *pe, uint64_t events, uint32_t total_latency, SPEOpType optype)
{
    bool is_rejected_event, is_rejected_nevent;
    SPEFilterByEvents(pe, events, &is_rejected_event, &is_rejected_nevent);
    const bool is_rejected_type = SPEFilterByType(pe, &SPE_STATE(pe)->sample.opattr);
    const bool is_rejected_latency = SPEFilterByLatency(pe, total_latency);
    const bool is_rejected_data_source = SPEFilterByDataSource(pe, optype);
    const bool return_value = !(is_rejected_nevent || is_rejected_event || is_rejected_type ||
                                is_rejected_latency || is_rejected_data_source);
    if (return_value) {
        spe_event(pe, PMU_EVENT_SAMPLE_FILTRATE);
        SPE_STATE(pe)->stats.filtered++;
    }
    return return_value;
}
