/* MRS and MSR: look the encoding up, run the register's access check
 * (its 'Accessing' pseudocode), and carry out what it decided. */
#include <string.h>

#include "core/arch.h"
#include "sysreg/sysreg.h"

void sysreg_build_map(armprof_pe *pe)
{
    memset(pe->enc_map, 0, sizeof pe->enc_map);
    for (unsigned i = 0; i < SR_COUNT; i++) {
        const sysreg_desc *d = &sysreg_table[i];
        const unsigned n = d->count ? d->count : 1;
        for (unsigned m = 0; m < n; m++)
            pe->enc_map[(uint16_t)(d->enc + m)] = (uint16_t)(i + 1);
    }
}

/* Value of a register as stored, after the configuration's RES0/RES1. */
static inline uint64_t stored_value(const armprof_pe *pe, unsigned reg, unsigned m)
{
    const sysreg_pe_info *in = &pe->info[reg];
    return (pe->regs[sysreg_table[reg].storage + m] & ~in->res0) | in->res1;
}

/* The value an MSR leaves in the register: written bits where the field is
 * RW or WO in this configuration, the old value in RO fields, RES0 and RES1
 * applied. */
uint64_t sysreg_merge_write(const armprof_pe *pe, unsigned reg, unsigned m, uint64_t value)
{
    const sysreg_pe_info *in = &pe->info[reg];
    const uint64_t old = pe->regs[sysreg_table[reg].storage + m];
    return (((old & ~in->wmask) | (value & in->wmask)) & ~in->res0) | in->res1;
}

void sysreg_store(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value)
{
    pe->regs[sysreg_table[reg].storage + m] = value;
    if (sysreg_table[reg].flags & SR_CONTEXT) pe_recompute(pe);
}

uint64_t sysreg_read(armprof_pe *pe, unsigned reg, unsigned m)
{
    const sysreg_desc *d = &sysreg_table[reg];
    return d->read ? d->read(pe, reg, m) : stored_value(pe, reg, m);
}

void sysreg_write(armprof_pe *pe, unsigned reg, unsigned m, uint64_t value)
{
    const sysreg_desc *d = &sysreg_table[reg];
    if (d->write)
        d->write(pe, reg, m, value);
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
                          bool is_read, uint64_t value)
{
    *o = (armprof_outcome){.kind = ARMPROF_DONE, .reg = -1};
    const uint16_t enc = (uint16_t)encoding;
    const unsigned slot = pe->enc_map[enc];
    if (slot == 0 || encoding > 0xffffu) {
        o->kind = ARMPROF_UNMODELLED;
        return;
    }
    const unsigned id = slot - 1;
    const sysreg_desc *d = &sysreg_table[id];
    const unsigned m = enc - d->enc;
    /* The leading "feature not implemented: UNDEFINED" test of each
     * Accessing page, and the absence of an MRS or MSR form. */
    if (!pe->info[id].present || (is_read && (d->flags & SR_WO)) ||
        (!is_read && (d->flags & SR_RO) && !(d->flags & SR_ALIAS))) {
        o->kind = ARMPROF_UNDEFINED;
        return;
    }
    const sysreg_route r = d->access(pe, m, is_read);
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
        o->value =
            !is_read && r.index < sysreg_table[r.reg].count ? stored_value(pe, r.reg, r.index) : 0;
        break;
    default:
        o->kind = ARMPROF_DONE;
        o->reg = r.reg;
        o->index = r.index;
        if (is_read) {
            o->value = sysreg_read(pe, r.reg, r.index);
        } else {
            sysreg_write(pe, r.reg, r.index, value);
            pe_controls_changed(pe); /* what the PMU counts, where profiling is enabled */
            o->value = stored_value(pe, r.reg, r.index);
        }
        break;
    }
    return;
}

armprof_outcome armprof_mrs(armprof_pe *pe, uint32_t encoding, unsigned rt)
{
    armprof_outcome o;
    sysreg_access(pe, &o, encoding, rt, true, 0);
    return o;
}

armprof_outcome armprof_msr(armprof_pe *pe, uint32_t encoding, unsigned rt, uint64_t value)
{
    armprof_outcome o;
    sysreg_access(pe, &o, encoding, rt, false, value);
    return o;
}

/* Warm reset: fields with a Warm reset value take it. Cold reset: fields
 * with a Cold reset value too, then the Warm reset. */
void sysreg_reset(armprof_pe *pe, bool cold)
{
    for (unsigned i = 0; i < SR_COUNT; i++) {
        const sysreg_desc *d = &sysreg_table[i];
        const sysreg_pe_info *in = &pe->info[i];
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

/* ---- Table queries for the public API ---- */
size_t armprof_reg_count(void)
{
    return SR_COUNT;
}

const char *armprof_reg_name(int reg)
{
    return reg >= 0 && reg < SR_COUNT ? sysreg_table[reg].name : NULL;
}

const char *armprof_reg_instance_name(int reg, unsigned index, char *buf, size_t len)
{
    if (reg < 0 || reg >= SR_COUNT) return NULL;
    return sysreg_instance_name(&sysreg_table[reg], index, buf, (unsigned)len);
}

int armprof_reg_lookup(const char *name, unsigned *index)
{
    unsigned m = 0;
    const int id = sysreg_lookup_name(name, &m);
    if (index) *index = m;
    return id;
}

uint32_t armprof_reg_encoding(int reg, unsigned index)
{
    return reg >= 0 && reg < SR_COUNT ? (uint32_t)(sysreg_table[reg].enc + index) : 0;
}

unsigned armprof_reg_instances(int reg)
{
    return reg >= 0 && reg < SR_COUNT ? sysreg_table[reg].count : 0;
}

bool armprof_reg_present(const armprof_pe *pe, int reg)
{
    return reg >= 0 && reg < SR_COUNT && pe->info[reg].present;
}

bool armprof_reg_field(int reg, const char *field, unsigned *hi, unsigned *lo)
{
    if (reg < 0 || reg >= SR_COUNT) return false;
    const sysreg_field *f = sysreg_find_field(&sysreg_table[reg], field);
    if (!f) return false;
    *hi = f->hi;
    *lo = f->lo;
    return true;
}

void armprof_reg_foreach_field(const armprof_pe *pe, int reg,
                               void (*fn)(void *ctx, const char *name, unsigned hi, unsigned lo,
                                          const char *kind, bool present),
                               void *ctx)
{
    static const char *const kinds[] = {"RW", "RO", "WO", "RES0", "RES1", "UNKNOWN"};
    if (reg < 0 || reg >= SR_COUNT) return;
    const sysreg_desc *d = &sysreg_table[reg];
    for (unsigned i = 0; i < d->nfields; i++) {
        const sysreg_field *f = &d->fields[i];
        const bool present =
            f->access >= FA_RES0 || (pe->info[reg].res0 & BITS_MASK(f->hi, f->lo)) == 0;
        fn(ctx, f->name, f->hi, f->lo, kinds[f->access], present);
    }
}

uint64_t armprof_reg_get(const armprof_pe *pe, int reg, unsigned index)
{
    if (reg < 0 || reg >= SR_COUNT || index >= sysreg_table[reg].count) return 0;
    return stored_value(pe, (unsigned)reg, index);
}

void armprof_reg_set(armprof_pe *pe, int reg, unsigned index, uint64_t value)
{
    if (reg < 0 || reg >= SR_COUNT || index >= sysreg_table[reg].count) return;
    const sysreg_pe_info *in = &pe->info[reg];
    pe->regs[sysreg_table[reg].storage + index] = (value & ~in->res0) | in->res1;
    pe_recompute(pe);
}
