/* SPDX-License-Identifier: BSD-3-Clause */
/* The CoreSight management registers the PMU block and the external debug
 * block share (coresight.c): the Peripheral ID registers composed from an
 * IMPLEMENTATION DEFINED identity packed as PMIIDR, the Component ID
 * registers, and the Device Affinity registers. */
#ifndef ARMPROF_SYSREG_CORESIGHT_H
#define ARMPROF_SYSREG_CORESIGHT_H

#include <stdint.h>

#include "sysreg/external.h"

/* Byte n of the Peripheral ID (PIDR0..PIDR4) of a component whose identity
 * is iidr, packed as PMIIDR: ProductID [31:20], Variant [19:16], Revision
 * [15:12], Implementer [11:0] (JEP106 continuation code [11:8], identity code
 * [6:0]). */
uint32_t coresight_pidr(uint32_t iidr, unsigned n);

/* A read function for Peripheral ID register n of a block whose identity is
 * option OPT. */
#define EXT_PIDR_FN(name, OPT, n)                                                                  \
    EXT_READ_FN(name)                                                                              \
    {                                                                                              \
        (void)a;                                                                                   \
        (void)m;                                                                                   \
        (void)bits;                                                                                \
        return coresight_pidr((uint32_t)OPTION_VALUE(pe, OPT), n);                                 \
    }

/* The Software Lock of a component (PMLAR and PMLSR, EDLAR and EDLSR):
 * LAR.KEY 'Writing the key value 0xC5ACCE55 to this field unlocks the lock
 * ... Writing any other value to this register locks the lock'; RES0 when the
 * Software Lock is not implemented. A write that is not memory-mapped does
 * not change the lock, which binds memory-mapped accesses only. LSR: nTT [2]
 * reads 0; SLK [1] the lock, SLI [0] 'Software Lock implemented', both RAZ for
 * an access that is not memory-mapped. */
void coresight_lar_write(armprof_pe *pe, const armprof_ext_access *a, unsigned component,
                         uint64_t value);
uint64_t coresight_lsr_read(const armprof_pe *pe, const armprof_ext_access *a, unsigned component);

/* Component ID registers 0..3: the preamble with CLASS 0x9 (CoreSight). */
EXT_READ_FN(ext_read_CIDR0);
EXT_READ_FN(ext_read_CIDR1);
EXT_READ_FN(ext_read_CIDR2);
EXT_READ_FN(ext_read_CIDR3);
/* Device Affinity: MPIDR_EL1 (option mpidr) as a 64-bit location, and its
 * words [31:0] and [63:32]. */
EXT_READ_FN(ext_read_DEVAFF);
EXT_READ_FN(ext_read_DEVAFF0);
EXT_READ_FN(ext_read_DEVAFF1);
/* A register the model has as 0 (EDITCTRL, EDDEVID2). */
EXT_READ_FN(ext_read_zero);

#endif
