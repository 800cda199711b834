/* SPDX-License-Identifier: BSD-3-Clause */
/* MRS and MSR: look the encoding up, run the register's access check
 * (its 'Accessing' pseudocode), and carry out what it decided. */
#include <string.h>

#include "core/arch.h"
#include "sysreg/sysreg.h"

void sysreg_configure(armprof_pe *pe)
{
    sysreg_level *l = SYSREG_LEVEL(pe);
    l->desc = l->catalog->regs;
    l->enc_map = l->catalog->enc_map;
    l->catalog->configure(&pe->cfg, l->info);
    external_configure(pe);
}

/* The value an MSR leaves in the register: written bits where the field is
 * RW or WO in this configuration, the old value in RO fields, RES0 and RES1
 * applied. */
uint64_t sysreg_merge_write(const armprof_pe *pe, unsigned reg, unsigned m, uint64_t value)
{
    const sysreg_pe_info *in = &SYSREG_LEVEL(pe)->info[reg];
    const uint64_t old = pe->regs[sysreg_desc_of(pe, reg)->storage + m];
    return (((old & ~in->wmask) | (value & in->wmask)) & ~in->res0) | in->res1;
}

void sysreg_store(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value)
{
    pe->regs[sysreg_desc_of(pe, reg)->storage + m] = value;
    if (sysreg_desc_of(pe, reg)->flags & SR_CONTEXT) pe_recompute(pe);
}

uint64_t sysreg_read(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m)
{
    const sysreg_desc *d = sysreg_desc_of(pe, reg);
    return d->read ? d->read(pe, ext, reg, m) : sysreg_stored_value(pe, reg, m);
}

void sysreg_write(armprof_pe *pe, const armprof_ext_access *ext, unsigned reg, unsigned m,
                  uint64_t value)
{
    const sysreg_desc *d = sysreg_desc_of(pe, reg);
    if (d->write)
        d->write(pe, ext, reg, m, value);
    else
        sysreg_store(pe, reg, m, sysreg_merge_write(pe, reg, m, value));
}

/* AArch64.SystemAccessTrapSyndrome() for EC 0x18: Op0, Op2, Op1, CRn, Rt, CRm
 * and Direction (1 for a read). */
static uint32_t system_access_trap_iss(uint16_t enc, unsigned rt, bool is_read)
{
    return (uint32_t)ENC_OP0(enc) << 20 | (uint32_t)ENC_OP2(enc) << 17 |
           (uint32_t)ENC_OP1(enc) << 14 | (uint32_t)ENC_CRN(enc) << 10 | (rt & 31u) << 5 |
           (uint32_t)ENC_CRM(enc) << 1 | (is_read ? 1u : 0u);
}

/* Fills *o, the caller's return value, in place: building the outcome in a
 * local and copying it out costs more than the access check itself. */
static void sysreg_access(armprof_pe *pe, armprof_outcome *o, uint32_t encoding, unsigned rt,
                          bool is_read, uint64_t value, bool check_only)
{
    *o = (armprof_outcome){.kind = ARMPROF_DONE, .reg = -1};
    const uint16_t enc = (uint16_t)encoding;
    const unsigned slot = SYSREG_LEVEL(pe)->enc_map[enc];
    if (slot == 0 || encoding > 0xffffu) {
        o->kind = ARMPROF_UNMODELLED;
        return;
    }
    const unsigned id = slot - 1;
    const sysreg_desc *d = sysreg_desc_of(pe, id);
    const unsigned m = enc - d->enc;
    /* The leading "feature not implemented: UNDEFINED" test of each
     * Accessing page, and the absence of an MRS or MSR form. */
    if (!SYSREG_LEVEL(pe)->info[id].present || (is_read && (d->flags & SR_WO)) ||
        (!is_read && (d->flags & SR_RO) && !(d->flags & SR_ALIAS))) {
        o->kind = ARMPROF_UNDEFINED;
        return;
    }
    const sysreg_route r = d->access(pe, d, m, is_read);
    if (check_only && r.kind != ROUTE_UNDEFINED && r.kind != ROUTE_TRAP) {
        /* it would complete (or go to memory): no value, no change */
        o->kind = r.kind == ROUTE_NVMEM ? ARMPROF_NVMEM : ARMPROF_DONE;
        o->reg = r.kind == ROUTE_NVMEM ? -1 : (int)r.reg;
        o->index = r.index;
        o->nv_offset = r.kind == ROUTE_NVMEM ? r.index : 0;
        return;
    }
    switch (r.kind) {
    case ROUTE_UNDEFINED:
        o->kind = ARMPROF_UNDEFINED;
        break;
    case ROUTE_TRAP:
        o->kind = ARMPROF_TRAP;
        o->target_el = r.el;
        o->ec = r.ec;
        o->iss = system_access_trap_iss(enc, rt, is_read);
        o->esr = (uint64_t)r.ec << 26 | 1ull << 25 | o->iss;
        break;
    case ROUTE_NVMEM:
        o->kind = ARMPROF_NVMEM;
        o->nv_offset = r.index;
        o->value = value;
        break;
    case ROUTE_RAZWI:
        /* RAZ/WI: done, reading 0; a write leaves the register as it was
         * (an alias or an instance with no storage reports 0). */
        o->kind = ARMPROF_DONE;
        o->reg = r.reg;
        o->index = r.index;
        o->value = !is_read && r.index < sysreg_desc_of(pe, r.reg)->count
                       ? sysreg_stored_value(pe, r.reg, r.index)
                       : 0;
        break;
    default:
        o->kind = ARMPROF_DONE;
        o->reg = r.reg;
        o->index = r.index;
        if (is_read) {
            o->value = sysreg_read(pe, NULL, r.reg, r.index);
        } else {
            sysreg_write(pe, NULL, r.reg, r.index, value);
            /* What the PMU counts, where profiling is enabled. */
            if (!(sysreg_desc_of(pe, r.reg)->flags & SR_STATE)) pe_controls_changed(pe);
            o->value = sysreg_stored_value(pe, r.reg, r.index);
        }
        break;
    }
    return;
}

enum { PROVIDED_STATE, PROVIDED_CONTROLS, PROVIDED_CONTEXT };

sysreg_provided sysreg_provided_of(const armprof_pe *pe, unsigned reg, unsigned m)
{
    const sysreg_desc *d = sysreg_desc_of(pe, reg);
    const sysreg_pe_info *in = sysreg_info(pe, reg);
    return (sysreg_provided){
        .res0 = in->res0,
        .res1 = in->res1,
        .slot = (uint16_t)(d->storage + m),
        .changes = (d->flags & SR_CONTEXT) ? PROVIDED_CONTEXT
                   : (d->flags & SR_STATE) ? PROVIDED_STATE
                                           : PROVIDED_CONTROLS,
    };
}

/* Each pulled value stored as armprof_reg_set() stores it; what derives
 * from them recomputed once, and only if one changed (an embedder that
 * pulls before every access pays a load and a compare per register). */
void sysreg_pull_provided(armprof_pe *pe)
{
    const sysreg_provider *p = &SYSREG_LEVEL(pe)->provider;
    uint64_t values[ARMPROF_MAX_PROVIDED_REGS];
    p->fn(p->ctx, values);
    unsigned changes = 0;
    for (unsigned i = 0; i < p->count; i++) {
        const sysreg_provided *r = &p->reg[i];
        const uint64_t v = (values[i] & ~r->res0) | r->res1;
        if (pe->regs[r->slot] == v) continue;
        pe->regs[r->slot] = v;
        if (r->changes > changes) changes = r->changes;
    }
    if (changes == PROVIDED_CONTEXT)
        pe_recompute(pe); /* which also marks every cache stale */
    else if (changes == PROVIDED_CONTROLS)
        pe_controls_changed(pe);
    if (changes) sysreg_notify(pe);
}

armprof_outcome armprof_mrs(armprof_pe *pe, uint32_t encoding, unsigned rt)
{
    armprof_outcome o;
    sysreg_pull(pe);
    sysreg_access(pe, &o, encoding, rt, true, 0, false);
    return o;
}

armprof_outcome armprof_sysreg_check(armprof_pe *pe, uint32_t encoding, unsigned rt, bool is_read)
{
    armprof_outcome o;
    sysreg_pull(pe);
    sysreg_access(pe, &o, encoding, rt, is_read, 0, true);
    return o;
}

armprof_outcome armprof_msr(armprof_pe *pe, uint32_t encoding, unsigned rt, uint64_t value)
{
    armprof_outcome o;
    sysreg_pull(pe);
    sysreg_access(pe, &o, encoding, rt, false, value, false);
    sysreg_notify(pe);
    return o;
}

/* Warm reset: fields with a Warm reset value take it. Cold reset: fields
 * with a Cold reset value too, then the Warm reset. */
void sysreg_reset(armprof_pe *pe, bool cold)
{
    for (unsigned i = 0; i < SYSREG_LEVEL(pe)->catalog->count; i++) {
        const sysreg_desc *d = sysreg_desc_of(pe, i);
        const sysreg_pe_info *in = &SYSREG_LEVEL(pe)->info[i];
        uint64_t mask = in->warm_mask, val = in->warm_value;
        if (cold) {
            mask |= in->cold_mask;
            val = (val & in->warm_mask) | (in->cold_value & ~in->warm_mask);
        }
        for (unsigned m = 0; m < d->count; m++) {
            uint64_t *r = &pe->regs[d->storage + m];
            if (cold) *r = 0; /* bits with no reset value at all start as 0 */
            *r = (((*r & ~mask) | (val & mask)) & ~in->res0) | in->res1;
        }
    }
}

/* ---- Register access for the public API ---- */
bool armprof_reg_present(const armprof_pe *pe, int reg)
{
    return pe && reg >= 0 && (unsigned)reg < SYSREG_LEVEL(pe)->catalog->count &&
           sysreg_info(pe, reg)->state;
}

void armprof_reg_foreach_field(const armprof_pe *pe, int reg,
                               void (*fn)(void *ctx, const char *name, unsigned hi, unsigned lo,
                                          const char *kind, bool present),
                               void *ctx)
{
    static const char *const kinds[] = {"RW", "RO", "WO", "RES0", "RES1", "UNKNOWN"};
    if (!pe || !fn || reg < 0 || (unsigned)reg >= SYSREG_LEVEL(pe)->catalog->count) return;
    const sysreg_desc *d = sysreg_desc_of(pe, reg);
    for (unsigned i = 0; i < d->nfields; i++) {
        const sysreg_field *f = &d->fields[i];
        const bool present =
            f->access >= FA_RES0 || (sysreg_info(pe, reg)->res0 & BITS_MASK(f->hi, f->lo)) == 0;
        fn(ctx, f->name, f->hi, f->lo, kinds[f->access], present);
    }
}

uint64_t armprof_reg_get(const armprof_pe *pe, int reg, unsigned index)
{
    if (!pe || reg < 0 || (unsigned)reg >= SYSREG_LEVEL(pe)->catalog->count ||
        index >= sysreg_desc_of(pe, reg)->count)
        return 0;
    return sysreg_stored_value(pe, (unsigned)reg, index);
}

void armprof_reg_set(armprof_pe *pe, int reg, unsigned index, uint64_t value)
{
    if (!pe || reg < 0 || (unsigned)reg >= SYSREG_LEVEL(pe)->catalog->count ||
        index >= sysreg_desc_of(pe, reg)->count)
        return;
    const sysreg_pe_info *in = sysreg_info(pe, reg);
    const sysreg_desc *d = sysreg_desc_of(pe, reg);
    pe->regs[d->storage + index] = (value & ~in->res0) | in->res1;
    if (d->flags & SR_CONTEXT)
        pe_recompute(pe); /* which also marks every cache stale */
    else if (!(d->flags & SR_STATE))
        pe_controls_changed(pe);
    sysreg_notify(pe);
}
