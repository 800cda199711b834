/* SPDX-License-Identifier: BSD-3-Clause */
/* The CoreSight management registers both external blocks share
 * (coresight.h). The pages of PMPIDR0 and PMCIDR0 give the first registers of
 * each set; the others follow the CoreSight identification rules of the full
 * manual (each field's source is cited beside it). */
#include "sysreg/coresight.h"

#include "core/arch.h"
#include "sysreg/sysreg.h"

/* PIDR0.PART_0 [7:0] = part number [7:0] ('Matches the PMPIDR1.PART_1,
 *   PMPIDR0.PART_0 fields', PMIIDR.ProductID);
 * PIDR1: DES_0 [7:4] = JEP106 identity code [3:0], PART_1 [3:0] = part
 *   number [11:8] (CoreSight PIDR1 layout);
 * PIDR2: REVISION [7:4] ('Matches the PMPIDR2.REVISION field', PMIIDR.Variant),
 *   JEDEC [3] = 1 (the designer is a JEP106 code), DES_1 [2:0] = JEP106
 *   identity code [6:4];
 * PIDR3: REVAND [7:4] ('Matches the PMPIDR3.REVAND field', PMIIDR.Revision),
 *   CMOD [3:0] = 0 (not customer-modified);
 * PIDR4: SIZE [7:4] = 0 (one 4KB block), DES_2 [3:0] = JEP106 continuation
 *   code (PMIIDR.Implementer [11:8]). */
uint32_t coresight_pidr(uint32_t iidr, unsigned n)
{
    const uint32_t part = iidr >> 20 & 0xfff, variant = iidr >> 16 & 0xf,
                   revision = iidr >> 12 & 0xf, code = iidr & 0x7f, cont = iidr >> 8 & 0xf;
    switch (n) {
    case 0:
        return part & 0xff;
    case 1:
        return (code & 0xf) << 4 | part >> 8;
    case 2:
        return variant << 4 | 1u << 3 | code >> 4;
    case 3:
        return revision << 4;
    default:
        return cont;
    }
}

/* CIDR0.PRMBL_0 'Reads as 0x0D' (PMCIDR0); CIDR1: CLASS [7:4] 0x9 (CoreSight
 * component), PRMBL_1 [3:0] 0x0; CIDR2.PRMBL_2 0x05; CIDR3.PRMBL_3 0xB1: the
 * CoreSight component ID 0xB105900D. */
static uint64_t cidr(unsigned n)
{
    static const uint8_t bytes[4] = {0x0D, 0x90, 0x05, 0xB1};
    return bytes[n];
}

#define CIDR_FN(n)                                                                                 \
    EXT_READ_FN(ext_read_CIDR##n)                                                                  \
    {                                                                                              \
        (void)pe;                                                                                  \
        (void)a;                                                                                   \
        (void)m;                                                                                   \
        (void)bits;                                                                                \
        return cidr(n);                                                                            \
    }
CIDR_FN(0)
CIDR_FN(1)
CIDR_FN(2)
CIDR_FN(3)

/* DEVAFF: 'a copy of MPIDR_EL1' (the affinity of the PE the block belongs
 * to); the model has no MPIDR_EL1 register: option mpidr, which the
 * embedder sets per PE. */
EXT_READ_FN(ext_read_DEVAFF)
{
    (void)a;
    (void)m;
    (void)bits;
    return OPTION_VALUE(pe, MPIDR);
}
EXT_READ_FN(ext_read_DEVAFF0)
{
    return ext_read_DEVAFF(pe, a, m, bits) & 0xffffffffu;
}
EXT_READ_FN(ext_read_DEVAFF1)
{
    return ext_read_DEVAFF(pe, a, m, bits) >> 32;
}

void coresight_lar_write(armprof_pe *pe, const armprof_ext_access *a, unsigned component,
                         uint64_t value)
{
    if (!HaveSoftwareLock(pe, component) || !a->memory_mapped) return;
    const bool locked = (value & 0xffffffffu) != 0xC5ACCE55u;
    pe_external *x = &SYSREG_LEVEL(pe)->ext;
    if (component == ARMPROF_EXT_DEBUG)
        x->edlsr_slk = locked;
    else
        x->pmlsr_slk = locked;
}

uint64_t coresight_lsr_read(const armprof_pe *pe, const armprof_ext_access *a, unsigned component)
{
    if (!HaveSoftwareLock(pe, component) || !a->memory_mapped) return 0;
    return (uint64_t)SoftwareLockStatus(pe, a, component) << 1 | 1u;
}

/* A CoreSight register whose fields the model has as 0: EDITCTRL.IME [0]
 * (the model has no integration mode: RAZ/WI), EDDEVID2 (RES0). */
EXT_READ_FN(ext_read_zero)
{
    (void)pe;
    (void)a;
    (void)m;
    (void)bits;
    return 0;
}
