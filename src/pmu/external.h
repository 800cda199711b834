/* SPDX-License-Identifier: BSD-3-Clause */
/* The Performance Monitors' external-only registers (external.c), the
 * functions pmu/regs/external_pmu.def names in its rd and wr columns. */
#ifndef ARMPROF_PMU_EXTERNAL_H
#define ARMPROF_PMU_EXTERNAL_H

#include "pmu/pmu.h"

EXT_READ_FN(ext_read_PMCFGR);
EXT_READ_FN(ext_read_PMIIDR);
EXT_READ_FN(ext_read_PMLSR);
EXT_READ_FN(ext_read_PMAUTHSTATUS);
EXT_READ_FN(ext_read_PMDEVARCH);
EXT_READ_FN(ext_read_PMDEVID);
EXT_READ_FN(ext_read_PMDEVTYPE);
EXT_READ_FN(ext_read_PMPIDR0);
EXT_READ_FN(ext_read_PMPIDR1);
EXT_READ_FN(ext_read_PMPIDR2);
EXT_READ_FN(ext_read_PMPIDR3);
EXT_READ_FN(ext_read_PMPIDR4);
EXT_WRITE_FN(ext_write_PMLAR);
EXT_WRITE_FN(ext_write_ignored);

/* The counters an external access a reaches through the PMU's counter masks
 * (GetPMUAccessMask(), GetPMUReadMask(), GetPMUWriteMask() given the access
 * by the hook it passes through): bit n for PMEVCNTR<n>_EL0, 31 the cycle
 * counter, 32 the instruction counter. The external pages make P<m> RAZ/WI
 * when m >= NUM_PMU_COUNTERS, or with FEAT_PMUv3_EXTPMN when
 * m >= EffectiveEPMN() and the access is not a Most secure access; no
 * condition depends on PSTATE.EL. */
/* The PMU block's Accessing bullets (external_access.c): the perm column of
 * every page in the block (the PC sample registers' too), and the J1.3.1
 * helpers they use. */
EXT_PERM_FN(perm_PMU);
EXT_PERM_FN(perm_PMSS);
EXT_PERM_FN(perm_PCSR);
bool IsRange3Counter(const armprof_pe *pe, unsigned n);
bool AllowExternalPMUAccess(const armprof_pe *pe, const armprof_ext_access *a);
bool AllowExternalPMSSAccess(const armprof_pe *pe, const armprof_ext_access *a);

uint64_t ext_pmu_counter_mask(const armprof_pe *pe, const armprof_ext_access *a);

#endif
