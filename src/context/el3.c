/* SPDX-License-Identifier: BSD-3-Clause */
/* Access check of SDER32_EL3. SCR_EL3 and MDCR_EL3 are accessible at EL3
 * only, MRS and MSR alike (access_el3_register); SDER32_EL3 also needs
 * AArch32 at EL1. */
#include "context/context.h"

/* Accessing SDER32_EL3 (MRS and MSR alike). The page repeats the presence
 * test as '!HaveEL(EL3) || !IsFeatureImplemented(FEAT_AA32EL1)'. */
sysreg_route access_SDER32_EL3(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    if (!HaveEL(pe, EL3) || !IsFeatureImplemented(pe, AA32EL1)) return route_undefined();
    if (pe->ctx.el != EL3) return route_undefined();
    return route_self(d, 0);
}
