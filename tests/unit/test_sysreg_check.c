/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_sysreg_check() (issue 25: QEMU's accessfn asks before the access):
 * for every System register encoding the model declares, at every
 * Exception level of two presets with and without EL2 and EL3, the check
 * gives the outcome that armprof_mrs() and armprof_msr() then give (kind,
 * target Exception level, syndrome), and changes nothing: every register
 * reads the same after the checks. The expected outcome is the access
 * itself, whose access checks are the registers' Accessing pseudocode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

static const char *const presets[] = {"armv9.4-all", "armv8.2-spe"};

static armprof_pe *make(const char *preset, bool el2, bool el3, unsigned el)
{
    armprof_config c;
    armprof_config_preset(&c, preset);
    if (!el2) armprof_config_drop_feature(&c, ARMPROF_FEAT_EL2);
    if (!el3) armprof_config_drop_feature(&c, ARMPROF_FEAT_EL3);
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s: %s", preset, err);
    if (pe && !armprof_set_el(pe, el, err, sizeof err)) {
        armprof_pe_destroy(pe);
        return NULL; /* an EL this configuration does not have */
    }
    return pe;
}

static bool same(const armprof_outcome *a, const armprof_outcome *b)
{
    if (a->kind != b->kind) return false;
    if (a->kind == ARMPROF_TRAP) return a->target_el == b->target_el && a->esr == b->esr;
    if (a->kind == ARMPROF_NVMEM) return a->nv_offset == b->nv_offset;
    return true;
}

int main(void)
{
    unsigned compared = 0, traps = 0, undefined = 0;
    for (unsigned p = 0; p < 2; p++)
        for (unsigned levels = 0; levels < 4; levels++)
            for (unsigned el = 0; el <= 3; el++) {
                const bool el2 = levels & 1, el3 = levels & 2;
                armprof_pe *pe = make(presets[p], el2, el3, el);
                if (!pe) continue;
                uint64_t *before = calloc(armprof_reg_count() * 64, sizeof *before);
                for (size_t r = 0; r < armprof_reg_count(); r++)
                    for (unsigned i = 0; i < armprof_reg_instances((int)r) && i < 64; i++)
                        before[r * 64 + i] = armprof_reg_get(pe, (int)r, i);
                for (size_t r = 0; r < armprof_reg_count(); r++) {
                    const unsigned n = armprof_reg_instances((int)r);
                    for (unsigned i = 0; i < (n ? n : 1); i++) {
                        const uint32_t enc = armprof_reg_encoding((int)r, i);
                        if (!enc) continue;
                        const armprof_outcome cr = armprof_sysreg_check(pe, enc, 7, true);
                        const armprof_outcome cw = armprof_sysreg_check(pe, enc, 7, false);
                        /* the reads on this PE, each write on a fresh one */
                        const armprof_outcome mr = armprof_mrs(pe, enc, 7);
                        armprof_pe *w = make(presets[p], el2, el3, el);
                        const armprof_outcome mw = armprof_msr(w, enc, 7, 0);
                        armprof_pe_destroy(w);
                        char name[64];
                        armprof_reg_instance_name((int)r, i, name, sizeof name);
                        CHECK(same(&cr, &mr),
                              "%s EL%u (EL2 %d, EL3 %d): MRS %s: check %d, access %d", presets[p],
                              el, el2, el3, name, cr.kind, mr.kind);
                        CHECK(same(&cw, &mw),
                              "%s EL%u (EL2 %d, EL3 %d): MSR %s: check %d, access %d", presets[p],
                              el, el2, el3, name, cw.kind, mw.kind);
                        compared += 2;
                        traps += (cr.kind == ARMPROF_TRAP) + (cw.kind == ARMPROF_TRAP);
                        undefined +=
                            (cr.kind == ARMPROF_UNDEFINED) + (cw.kind == ARMPROF_UNDEFINED);
                    }
                }
                /* the checks and the reads changed nothing */
                for (size_t r = 0; r < armprof_reg_count(); r++)
                    for (unsigned i = 0; i < armprof_reg_instances((int)r) && i < 64; i++)
                        CHECK(armprof_reg_get(pe, (int)r, i) == before[r * 64 + i],
                              "%s EL%u: %s[%u] changed by the checks", presets[p], el,
                              armprof_reg_name((int)r), i);
                free(before);
                armprof_pe_destroy(pe);
            }
    printf("%u outcomes compared (%u traps, %u UNDEFINED)\n", compared, traps, undefined);
    CHECK(traps > 0 && undefined > 0, "both kinds seen");
    return check_summary();
}
