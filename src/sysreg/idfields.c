/* SPDX-License-Identifier: BSD-3-Clause */
/* Filling ID registers from tables of ID fields (sysreg/idfields.h). */
#include "sysreg/idfields.h"

static uint64_t field_value(const armprof_pe *pe, const id_field *f)
{
    if (f->fn) return f->fn(pe);
    uint64_t v = 0;
    for (unsigned i = 0; i < sizeof f->levels / sizeof f->levels[0] && f->levels[i].feat1; i++)
        if (armprof_config_has(&pe->cfg, (armprof_feature)(f->levels[i].feat1 - 1)))
            v = f->levels[i].value;
    return v;
}

void sysreg_apply_id_fields(armprof_pe *pe, const id_field *rows, unsigned n)
{
    /* Fields with no row read as 0, whatever a previous configuration left. */
    for (unsigned i = 0; i < n; i++)
        *sysreg_slot(pe, rows[i].reg, 0) = 0;
    for (unsigned i = 0; i < n; i++) {
        const id_field *f = &rows[i];
        const uint64_t mask = BITS_MASK(f->lo + f->width - 1, f->lo);
        uint64_t *r = sysreg_slot(pe, f->reg, 0);
        *r |= (field_value(pe, f) << f->lo) & mask;
    }
    /* Absent (FC) fields read as their RES0. */
    for (unsigned i = 0; i < n; i++) {
        const unsigned reg = rows[i].reg;
        *sysreg_slot(pe, reg, 0) &= ~sysreg_info(pe, reg)->res0;
    }
}
