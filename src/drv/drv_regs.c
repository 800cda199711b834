/* SPDX-License-Identifier: BSD-3-Clause */
/* System register accesses by name (drv_regs.h). */
#include "drv/drv_regs.h"

#include <stdio.h>
#include <stdlib.h>

int drv_reg(const char *name, unsigned *index)
{
    const int r = armprof_reg_lookup(name, index);
    if (r < 0) {
        fprintf(stderr, "drv: unknown register %s\n", name);
        abort();
    }
    return r;
}

static uint32_t encoding_of(const char *name)
{
    unsigned index = 0;
    const int r = drv_reg(name, &index);
    return armprof_reg_encoding(r, index);
}

static armprof_outcome raw_access(armprof_pe *pe, uint32_t e, bool write, uint64_t value)
{
    return write ? armprof_msr(pe, e, 0, value) : armprof_mrs(pe, e, 0);
}

void drv_set_el(drv_cpu *c, unsigned el)
{
    char err[128];
    if (!armprof_set_el(c->pe, el, err, sizeof err)) {
        fprintf(stderr, "drv: EL%u: %s\n", el, err);
        abort();
    }
}

armprof_outcome drv_access(drv_cpu *c, const char *name, bool write, uint64_t value)
{
    const uint32_t e = encoding_of(name);
    armprof_outcome o = raw_access(c->pe, e, write, value);
    if (o.kind == ARMPROF_TRAP && o.target_el == 2 && armprof_current_el(c->pe) == 1) {
        /* The hypervisor takes the trap and makes the access itself. */
        c->traps++;
        drv_set_el(c, 2);
        o = raw_access(c->pe, e, write, value);
        drv_set_el(c, 1);
    }
    if (o.kind != ARMPROF_DONE) {
        if (c->failures++ == 0)
            snprintf(c->failure, sizeof c->failure, "%s %s at EL%u: outcome %d (EC 0x%x)",
                     write ? "MSR" : "MRS", name, armprof_current_el(c->pe), (int)o.kind, o.ec);
    }
    return o;
}

void drv_msr(drv_cpu *c, const char *name, uint64_t value)
{
    drv_access(c, name, true, value);
}

uint64_t drv_mrs(drv_cpu *c, const char *name)
{
    return drv_access(c, name, false, 0).value;
}

static void field_position(const char *reg, const char *field, unsigned *hi, unsigned *lo)
{
    unsigned index = 0;
    const int r = armprof_reg_lookup(reg, &index);
    if (r < 0 || !armprof_reg_field(r, field, hi, lo)) {
        fprintf(stderr, "drv: unknown field %s.%s\n", reg, field);
        abort();
    }
}

uint64_t drv_fld_mask(const char *reg, const char *field)
{
    unsigned hi, lo;
    field_position(reg, field, &hi, &lo);
    return (~0ull >> (63 - (hi - lo))) << lo;
}

uint64_t drv_fld(const char *reg, const char *field, uint64_t value)
{
    unsigned hi, lo;
    field_position(reg, field, &hi, &lo);
    return (value << lo) & drv_fld_mask(reg, field);
}

uint64_t drv_get_fld(const char *reg, const char *field, uint64_t reg_value)
{
    unsigned hi, lo;
    field_position(reg, field, &hi, &lo);
    return (reg_value >> lo) & (~0ull >> (63 - (hi - lo)));
}

void drv_set(armprof_pe *pe, const char *reg, uint64_t value)
{
    unsigned index = 0;
    const int r = drv_reg(reg, &index);
    armprof_reg_set(pe, r, index, value);
}

uint64_t drv_get(const armprof_pe *pe, const char *reg)
{
    unsigned index = 0;
    const int r = drv_reg(reg, &index);
    return armprof_reg_get(pe, r, index);
}

void drv_set_field(armprof_pe *pe, const char *reg, const char *field, uint64_t value)
{
    const uint64_t mask = drv_fld_mask(reg, field);
    drv_set(pe, reg, (drv_get(pe, reg) & ~mask) | drv_fld(reg, field, value));
}

uint64_t drv_get_field(const armprof_pe *pe, const char *reg, const char *field)
{
    return drv_get_fld(reg, field, drv_get(pe, reg));
}
