/* SPDX-License-Identifier: BSD-3-Clause */
/* System register accesses by name, as an operating system driver written
 * against the model makes them: MSR/MRS at the PE's current Exception level,
 * fields placed by the register declarations, and the accesses a
 * hypervisor traps emulated at EL2. Shared by `armprof demo` and the tests
 * that drive the model like an operating system. */
#ifndef ARMPROF_DRV_REGS_H
#define ARMPROF_DRV_REGS_H

#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"

typedef struct drv_cpu {
    armprof_pe *pe;
    unsigned traps;    /* EL1 accesses trapped to EL2 and emulated there */
    unsigned failures; /* accesses that did not complete even at EL2 */
    /* The first access that failed, for the caller's message. */
    char failure[160];
} drv_cpu;

/* MSR or MRS of the named register ("PMEVTYPER3_EL0"). An access from EL1
 * that traps to EL2 is retried at EL2, as a trap-and-emulate hypervisor
 * does (MDCR_EL2.E2PB 0b10, TPMS, ...). Anything but DONE after that counts
 * in failures. An unknown name is a bug in the caller: it aborts. */
armprof_outcome drv_access(drv_cpu *c, const char *name, bool write, uint64_t value);
void drv_msr(drv_cpu *c, const char *name, uint64_t value);
uint64_t drv_mrs(drv_cpu *c, const char *name);

/* A field's value placed at its position, and a field out of a register
 * value, from the register declaration. An unknown register or field is a
 * bug in the caller: they abort. */
uint64_t drv_fld(const char *reg, const char *field, uint64_t value);
uint64_t drv_get_fld(const char *reg, const char *field, uint64_t reg_value);
/* The mask of a field at its position. */
uint64_t drv_fld_mask(const char *reg, const char *field);

/* Direct stores and loads of a register or field by name, without access
 * checks or side effects (the scenario language's `set`): the set-up a test
 * makes before the software under test runs. The register declaration's
 * RES0/RES1 bits still apply. Unknown names abort. */
void drv_set(armprof_pe *pe, const char *reg, uint64_t value);
/* The register's number for armprof_reg_get()/armprof_reg_set(), and its
 * instance in *index. */
int drv_reg(const char *name, unsigned *index);
uint64_t drv_get(const armprof_pe *pe, const char *reg);
void drv_set_field(armprof_pe *pe, const char *reg, const char *field, uint64_t value);
uint64_t drv_get_field(const armprof_pe *pe, const char *reg, const char *field);

/* Moves the PE to Exception level el; the levels the demo and tests use
 * always exist, so a refusal aborts. */
void drv_set_el(drv_cpu *c, unsigned el);

#endif
