/* SPDX-License-Identifier: BSD-3-Clause */
/* The Timestamp packet's value: SPESampleAddTimeStamp(), CollectTimeStamp()
 * (pseudocode/full/arm-J1.1.md J1.1.1.55), GetTimestamp() and
 * PhysicalOffsetIsValid() (arm-J1.3.md). PhysicalCountInt() is the count
 * the embedder sets with armprof_set_physical_count(). */
#include "core/arch.h"
#include "spe/spe_unit.h"
#include "spe/spe.h"

typedef enum TimeStamp {
    TimeStamp_None,
    TimeStamp_Virtual,
    TimeStamp_Physical,
    TimeStamp_OffsetPhysical,
} TimeStamp;

/* IsInHost() */
static bool IsInHost(const armprof_pe *pe)
{
    return ELIsInHost(pe, pe->ctx.el);
}

/* CollectTimeStamp(); StatisticalProfilingEnabled() holds for a sample
 * being started. */
static TimeStamp collect_timestamp(const armprof_pe *pe)
{
    const spe_owner owner = ProfilingBufferOwner(pe);
    if (owner.el == EL2) {
        if (FIELD(pe, PMSCR_EL2, TS) == 0) return TimeStamp_None;
    } else {
        if (FIELD(pe, PMSCR_EL1, TS) == 0) return TimeStamp_None;
    }
    const unsigned pct_el1 = spe_pct_value(pe, (unsigned)FIELD(pe, PMSCR_EL1, PCT));
    if (EL2Enabled(pe)) {
        const unsigned pct_el2 = spe_pct_value(pe, (unsigned)FIELD(pe, PMSCR_EL2, PCT));
        switch (pct_el2) {
        case PMSCR_EL2_PCT_VIRTUAL:
            return IsInHost(pe) ? TimeStamp_Physical : TimeStamp_Virtual;
        case PMSCR_EL2_PCT_PHYSICAL:
            if (owner.el == EL2) return TimeStamp_Physical;
            break; /* falls out to PMSCR_EL1.PCT */
        default:   /* PMSCR_EL2_PCT_GUEST, with FEAT_ECV */
            if (owner.el == EL1 && pct_el1 == PMSCR_EL1_PCT_VIRTUAL)
                return IsInHost(pe) ? TimeStamp_Physical : TimeStamp_Virtual;
            return TimeStamp_OffsetPhysical;
        }
    }
    switch (pct_el1) {
    case PMSCR_EL1_PCT_VIRTUAL:
        return IsInHost(pe) ? TimeStamp_Physical : TimeStamp_Virtual;
    case PMSCR_EL1_PCT_PHYSICAL:
        return TimeStamp_Physical;
    default: /* PMSCR_EL1_PCT_GUEST_PHYSICAL, with FEAT_ECV */
        return TimeStamp_OffsetPhysical;
    }
}

unsigned CollectTimeStamp(const armprof_pe *pe)
{
    return (unsigned)collect_timestamp(pe);
}

/* PhysicalOffsetIsValid(). EL3 uses AArch64 in the model, so the
 * EffectiveSCR_EL3_RW() == '0' arm never applies. */
static bool PhysicalOffsetIsValid(const armprof_pe *pe)
{
    if (!HaveEL(pe, EL2) || !IsFeatureImplemented(pe, ECV_POFF)) return false;
    if (HaveEL(pe, EL3) && FIELD(pe, SCR_EL3, ECVEn) == 0) return false;
    if (FIELD(pe, CNTHCTL_EL2, ECV) == 0) return false;
    return true;
}

/* GetTimestamp() */
static uint64_t GetTimestamp(const armprof_pe *pe, TimeStamp type)
{
    const uint64_t count = SPE_STATE(pe)->physical_count; /* PhysicalCountInt() */
    switch (type) {
    case TimeStamp_Physical:
        return count;
    case TimeStamp_Virtual:
        return count - (HaveEL(pe, EL2) ? REG(pe, CNTVOFF_EL2) : 0);
    case TimeStamp_OffsetPhysical:
        return count - (PhysicalOffsetIsValid(pe) ? REG(pe, CNTPOFF_EL2) : 0);
    default:
        return 0;
    }
}

/* SPESampleAddTimeStamp() */
void SPESampleAddTimeStamp(armprof_pe *pe)
{
    spe_sample *s = &SPE_STATE(pe)->sample;
    const TimeStamp timestamp = (TimeStamp)SPE_STATE(pe)->sc.timestamp;
    if (timestamp == TimeStamp_None) {
        s->timestamp_valid = false;
    } else {
        s->timestamp_valid = true;
        s->timestamp = GetTimestamp(pe, timestamp);
    }
}
