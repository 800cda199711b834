/* SPDX-License-Identifier: BSD-3-Clause */
/* Storing one field of a register by name, as a scenario's `set REG.FIELD V`
 * does, for the unit tests that set up a PE through the public API. */
#ifndef ARMPROF_TEST_FIELDS_H
#define ARMPROF_TEST_FIELDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "armprof/armprof.h"

/* REG.FIELD = v (armprof_reg_set(): no access check, no side effects);
 * false when the register or the field does not exist. */
static inline bool set_field_of(armprof_pe *pe, const char *reg, const char *field, uint64_t v)
{
    unsigned idx = 0, hi = 0, lo = 0;
    const int r = armprof_reg_lookup(reg, &idx);
    if (r < 0 || !armprof_reg_field(r, field, &hi, &lo)) return false;
    const uint64_t mask = (~0ull >> (63 - hi)) & (~0ull << lo);
    armprof_reg_set(pe, r, idx, (armprof_reg_get(pe, r, idx) & ~mask) | ((v << lo) & mask));
    return true;
}

/* The PE at Non-secure state, out of the OS Lock with DBGEN high, its
 * Profiling Buffer owned by Non-secure EL1 (MDCR_EL3.NSPB 0b11,
 * MDCR_EL2.E2PB 0b10, HCR_EL2.TGE 0) and enabled over [base, base + size)
 * (size a multiple of 4KB); false, with a message, when the PE refuses
 * Non-secure state. */
static inline bool own_buffer_nonsecure_el1(armprof_pe *pe, uint64_t base, uint64_t size)
{
    char err[160];
    armprof_set_os_lock(pe, false);
    armprof_set_signal(pe, ARMPROF_SIG_DBGEN, true);
    if (!armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err)) {
        fprintf(stderr, "Non-secure state: %s\n", err);
        return false;
    }
    set_field_of(pe, "MDCR_EL3", "NSPB", 3);
    set_field_of(pe, "MDCR_EL2", "E2PB", 2);
    set_field_of(pe, "HCR_EL2", "TGE", 0);
    set_field_of(pe, "PMBSR_EL1", "S", 0);
    set_field_of(pe, "PMBPTR_EL1", "PTR", base);
    set_field_of(pe, "PMBLIMITR_EL1", "LIMIT", (base + size) >> 12);
    set_field_of(pe, "PMBLIMITR_EL1", "E", 1);
    return true;
}

/* A PE of preset, with option = value when option is not NULL, fresh from
 * its Cold reset; the test stops (exit 2) when it cannot be made. */
static inline armprof_pe *new_pe_with_or_exit(const char *preset, const char *option,
                                              const char *value)
{
    armprof_config cfg;
    char err[256] = "not a preset";
    armprof_pe *pe = NULL;
    if (armprof_config_preset(&cfg, preset) &&
        (!option || armprof_config_set(&cfg, option, value, err, sizeof err)))
        pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "%s%s%s: %s\n", preset, option ? " " : "", option ? option : "", err);
        exit(2);
    }
    return pe;
}

static inline armprof_pe *new_pe_or_exit(const char *preset)
{
    return new_pe_with_or_exit(preset, NULL, NULL);
}

#endif
