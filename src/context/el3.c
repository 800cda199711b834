/* Access checks of the EL3 controls (SCR_EL3, MDCR_EL3, SDER32_EL3): each is
 * accessible at EL3 only. */
#include "context/context.h"

/* Accessing SCR_EL3 (MRS and MSR alike) */
sysreg_route access_SCR_EL3(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    if (pe->ctx.el != EL3) return route_undefined();
    return route_reg(SR_SCR_EL3, 0);
}

/* Accessing MDCR_EL3. The MSR form at EL3 first tests
 * 'IsFeatureImplemented(FEAT_FGWTE3) && FGWTE3_EL3.MDCR_EL3 == 1' (trap to
 * EL3): the model has neither FEAT_FGWTE3 nor FGWTE3_EL3, so the test is
 * always false (docs/spec-notes.md). */
sysreg_route access_MDCR_EL3(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    if (pe->ctx.el != EL3) return route_undefined();
    return route_reg(SR_MDCR_EL3, 0);
}

/* Accessing SDER32_EL3 (MRS and MSR alike). The page repeats the presence
 * test as '!HaveEL(EL3) || !IsFeatureImplemented(FEAT_AA32EL1)'. */
sysreg_route access_SDER32_EL3(const armprof_pe *pe, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    if (!HaveEL(pe, EL3) || !IsFeatureImplemented(pe, AA32EL1)) return route_undefined();
    if (pe->ctx.el != EL3) return route_undefined();
    return route_reg(SR_SDER32_EL3, 0);
}
