/* SPDX-License-Identifier: BSD-3-Clause */
/* The PC sample registers' external views (external.c), the functions
 * pcsr/regs/external_pcsr.def and external_debug.def name in their rd and wr
 * columns. */
#ifndef ARMPROF_PCSR_EXTERNAL_H
#define ARMPROF_PCSR_EXTERNAL_H

#include "pcsr/pcsr.h"

/* In the PMU block (FEAT_PCSRv8p2, FEAT_PCSRv8p9) */
EXT_READ_FN(ext_read_PMPCSR);
EXT_READ_FN(ext_read_PMPCSR_HI);
EXT_READ_FN(ext_read_PMCID1SR);
EXT_READ_FN(ext_read_PMCID2SR);
EXT_READ_FN(ext_read_PMVIDSR);
EXT_READ_FN(ext_read_PMVCIDSR);
EXT_READ_FN(ext_read_PMCCIDSR);
EXT_READ_FN(ext_read_PMPCSCTL);
EXT_WRITE_FN(ext_write_PMPCSCTL);
/* In the external debug block (FEAT_PCSRv8, EDSCR, identification) */
EXT_READ_FN(ext_read_EDSCR);
EXT_WRITE_FN(ext_write_EDSCR);
EXT_READ_FN(ext_read_EDPCSR_LO);
EXT_READ_FN(ext_read_EDPCSR_HI);
EXT_READ_FN(ext_read_EDCIDSR);
EXT_READ_FN(ext_read_EDVIDSR);
EXT_READ_FN(ext_read_EDDEVID);
EXT_READ_FN(ext_read_EDDEVID1);
#endif
