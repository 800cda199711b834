/* PROVISIONAL access checks for registers whose exact 'Accessing' pseudocode
 * is still to be transliterated: EL2 registers need EL2 or EL3, EL3 registers
 * need EL3. To be replaced register by register. */
#include "sysreg/sysreg_access.h"

static sysreg_route at_least(const armprof_pe *pe, unsigned el, unsigned reg)
{
    return pe->ctx.el >= el ? route_reg(reg, 0) : route_undefined();
}

#define PROVISIONAL(id, el)                                                                        \
    sysreg_route access_##id(const armprof_pe *pe, unsigned m, bool is_read)                      \
    {                                                                                              \
        (void)m;                                                                                   \
        (void)is_read;                                                                             \
        return at_least(pe, el, SR_##id);                                                          \
    }
PROVISIONAL(HCR_EL2, EL2)
PROVISIONAL(MDCR_EL2, EL2)
PROVISIONAL(SCR_EL3, EL3)
PROVISIONAL(MDCR_EL3, EL3)
PROVISIONAL(SDER32_EL3, EL3)
PROVISIONAL(HDFGRTR_EL2, EL2)
PROVISIONAL(HDFGWTR_EL2, EL2)
PROVISIONAL(HDFGRTR2_EL2, EL2)
PROVISIONAL(HDFGWTR2_EL2, EL2)
