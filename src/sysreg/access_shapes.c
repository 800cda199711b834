/* SPDX-License-Identifier: BSD-3-Clause */
/* The access checks several pages share (sysreg_access.h describes each):
 * the register each is for comes from its declaration, so one function
 * serves every register whose page has that shape. */
#include "sysreg/sysreg_access.h"

sysreg_route access_el2_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    (void)m;
    (void)is_read;
    return el2_register_shape(pe, route_self(d, 0), route_self(d, 0));
}

sysreg_route access_el2_register_nvmem(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                       bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        if (nvx_1x1(pe)) return route_page_nvmem(d); /* IN {'1x1'} */
        return el2_register_at_el1(pe);              /* IN {'xx1'}: trap; else UNDEFINED */
    default:
        return route_self(d, 0);
    }
}

sysreg_route access_el3_register(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                 bool is_read)
{
    (void)m;
    (void)is_read;
    return pe->ctx.el == EL3 ? route_self(d, 0) : route_undefined();
}

sysreg_route access_no_encoding(const armprof_pe *pe, const sysreg_desc *d, unsigned m,
                                bool is_read)
{
    (void)pe;
    (void)d;
    (void)m;
    (void)is_read;
    return route_undefined();
}

sysreg_route access_el12_alias(const armprof_pe *pe, const sysreg_desc *d, unsigned m, bool is_read)
{
    (void)m;
    (void)is_read;
    switch (pe->ctx.el) {
    case EL0:
        return route_undefined();
    case EL1:
        return el12_alias_at_el1(pe, d);
    default:
        return ELIsInHost(pe, EL2) ? route_alias_target(d) : route_undefined();
    }
}
