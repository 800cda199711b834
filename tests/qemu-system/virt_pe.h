/* SPDX-License-Identifier: BSD-3-Clause */
/* The PE the armprof qemu-system-aarch64's glue makes for a vCPU of the
 * virt machine's default CPU (frontends/qemu-system/glue/armprof-glue.c,
 * armprof_glue_realize()), for the host tools that derive what a guest
 * must see (spe_caps.c, pmu_caps.c): PRESET less EL2 and EL3 (no
 * virtualization=, no secure=), less what QEMU's CPU lacks (FEAT_EBEP,
 * FEAT_FGT2, FEAT_PMUv3_EXTPMN), with QEMU's 6 event counters. NULL, with
 * a message naming tool, when it cannot be made. */
#ifndef ARMPROF_TESTS_VIRT_PE_H
#define ARMPROF_TESTS_VIRT_PE_H

#include <stdio.h>

#include "armprof/armprof.h"

static inline armprof_pe *virt_pe_create(const char *tool, const char *preset)
{
    armprof_config c;
    if (!armprof_config_preset(&c, preset)) {
        fprintf(stderr, "%s: no preset %s\n", tool, preset);
        return NULL;
    }
    static const armprof_feature dropped[] = {ARMPROF_FEAT_EL2, ARMPROF_FEAT_EL3, ARMPROF_FEAT_EBEP,
                                              ARMPROF_FEAT_FGT2, ARMPROF_FEAT_PMUv3_EXTPMN};
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
        armprof_config_drop_feature(&c, dropped[i]);
    c.options[ARMPROF_OPT_NUM_EVENT_COUNTERS] = 6;
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    if (!pe) fprintf(stderr, "%s: %s\n", tool, err);
    return pe;
}

#endif
