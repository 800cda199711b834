/* SPDX-License-Identifier: BSD-3-Clause */
/* The values of PMSIDR_EL1 and PMBIDR_EL1 derived from the configuration
 * (registers/PMSIDR_EL1.md, PMBIDR_EL1.md). */
#include "core/arch.h"
#include "spe/spe_regs.h"
#include "sysreg/idfields.h"

/* ---- PMSIDR_EL1 / PMBIDR_EL1 ---- */

static uint64_t pmsidr_altclk(const armprof_pe *pe)
{
    return IsFeatureImplemented(pe, SPE_ALTCLK) ? OPTION_VALUE(pe, PMSIDR_ALTCLK) : 0;
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

static const id_field spe_id_fields[] = {
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

void spe_idregs_init(armprof_pe *pe)
{
    sysreg_apply_id_fields(pe, spe_id_fields, sizeof spe_id_fields / sizeof spe_id_fields[0]);
}
