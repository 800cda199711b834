/* SPDX-License-Identifier: BSD-3-Clause */
/* Linux's arm_spe_pmu format attributes (its sysfs "format" folder, which
 * perf's -e arm_spe_0/NAME=VALUE/ names), mapped to the virtual kernel's
 * parameters as the driver maps them to the registers (kernel.h). The
 * enable bits the driver derives (PMSFCR_EL1.FT, FE, FnE, FL) follow from
 * the attributes given, as the driver derives them from the event. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel_internal.h"

typedef enum attr_kind {
    ATTR_TS,      /* PMSCR_EL1.TS */
    ATTR_PA,      /* PMSCR_EL1.PA */
    ATTR_PCT,     /* PMSCR_EL1.PCT */
    ATTR_JITTER,  /* PMSIRR_EL1.RND */
    ATTR_TYPE,    /* a PMSFCR_EL1 type filter bit or its mask bit */
    ATTR_EVENTS,  /* PMSEVFR_EL1 */
    ATTR_NEVENTS, /* PMSNEVFR_EL1 */
    ATTR_LATENCY, /* PMSLATFR_EL1.MINLAT */
    ATTR_DS,      /* PMSDSFR_EL1 */
    ATTR_INV_DS,  /* PMSDSFR_EL1, complemented */
} attr_kind;

static const struct spe_attr {
    const char *name;
    attr_kind kind;
    unsigned bits;     /* the attribute's width in the driver's format */
    const char *field; /* ATTR_TYPE: the PMSFCR_EL1 field */
} attrs[] = {
    {"ts_enable", ATTR_TS, 1, NULL},
    {"pa_enable", ATTR_PA, 1, NULL},
    {"pct_enable", ATTR_PCT, 1, NULL},
    {"jitter", ATTR_JITTER, 1, NULL},
    {"branch_filter", ATTR_TYPE, 1, "B"},
    {"load_filter", ATTR_TYPE, 1, "LD"},
    {"store_filter", ATTR_TYPE, 1, "ST"},
    {"simd_filter", ATTR_TYPE, 1, "SIMD"},
    {"float_filter", ATTR_TYPE, 1, "FP"},
    {"branch_filter_mask", ATTR_TYPE, 1, "Bm"},
    {"load_filter_mask", ATTR_TYPE, 1, "LDm"},
    {"store_filter_mask", ATTR_TYPE, 1, "STm"},
    {"simd_filter_mask", ATTR_TYPE, 1, "SIMDm"},
    {"float_filter_mask", ATTR_TYPE, 1, "FPm"},
    {"event_filter", ATTR_EVENTS, 64, NULL},
    {"inv_event_filter", ATTR_NEVENTS, 64, NULL},
    {"min_latency", ATTR_LATENCY, 12, NULL},
    {"data_src_filter", ATTR_DS, 64, NULL},
    {"inv_data_src_filter", ATTR_INV_DS, 64, NULL},
};
#define NATTRS (sizeof attrs / sizeof attrs[0])

static void list_names(char *out, size_t len)
{
    size_t at = 0;
    for (size_t i = 0; i < NATTRS && at < len; i++) {
        const int n = snprintf(out + at, len - at, "%s%s", i ? ", " : "", attrs[i].name);
        if (n < 0) break;
        at += (size_t)n;
    }
}

/* The type filter bits and their masks: any of them set makes the driver
 * set PMSFCR_EL1.FT. */
static uint64_t type_bits(void)
{
    uint64_t m = 0;
    for (size_t i = 0; i < NATTRS; i++)
        if (attrs[i].kind == ATTR_TYPE) m |= drv_fld_mask("PMSFCR_EL1", attrs[i].field);
    return m;
}

/* The enable bits as the driver derives them from the event's attributes. */
static void derive_enables(armprof_kernel_params *p)
{
    const uint64_t ft = drv_fld_mask("PMSFCR_EL1", "FT"), fe = drv_fld_mask("PMSFCR_EL1", "FE"),
                   fne = drv_fld_mask("PMSFCR_EL1", "FnE"), fl = drv_fld_mask("PMSFCR_EL1", "FL");
    uint64_t r = p->pmsfcr & ~(ft | fe | fne | fl);
    if (r & type_bits()) r |= ft;
    if (p->pmsevfr) r |= fe;
    if (p->pmsnevfr) r |= fne;
    if (drv_get_fld("PMSLATFR_EL1", "MINLAT", p->pmslatfr)) r |= fl;
    p->pmsfcr = r;
}

bool armprof_kernel_spe_attribute(armprof_kernel_params *p, const char *attr, char *err,
                                  size_t errlen)
{
    if (!err) errlen = 0;
    if (!p || !attr) {
        snprintf(err, errlen,
                 "armprof_kernel_spe_attribute: the parameters and the attribute "
                 "are required");
        return false;
    }
    const char *eq = strchr(attr, '=');
    const size_t namelen = eq ? (size_t)(eq - attr) : strlen(attr);
    const struct spe_attr *a = NULL;
    for (size_t i = 0; i < NATTRS && !a; i++)
        if (strlen(attrs[i].name) == namelen && !strncmp(attrs[i].name, attr, namelen))
            a = &attrs[i];
    if (!a) {
        char names[512];
        list_names(names, sizeof names);
        snprintf(err, errlen, "'%.*s' is not an arm_spe_pmu attribute (%s)", (int)namelen, attr,
                 names);
        return false;
    }
    uint64_t v = 1;
    if (eq) {
        char *end;
        errno = 0;
        v = strtoull(eq + 1, &end, 0);
        if (!eq[1] || *end || eq[1] == '-' || errno == ERANGE || (a->bits < 64 && v >> a->bits)) {
            if (a->bits == 1)
                snprintf(err, errlen, "%s: 0 or 1", attr);
            else if (a->bits < 64)
                snprintf(err, errlen, "%s: a number below %llu (%u bits)", attr, 1ull << a->bits,
                         a->bits);
            else
                snprintf(err, errlen, "%s: a 64-bit mask, as 0x%s", attr,
                         a->kind == ATTR_EVENTS || a->kind == ATTR_NEVENTS ? "4" : "1");
            return false;
        }
    }
    const uint64_t fds = drv_fld_mask("PMSFCR_EL1", "FDS");
    switch (a->kind) {
    case ATTR_TS:
        p->timestamps = v;
        break;
    case ATTR_PA:
        p->physical_addr = v;
        break;
    case ATTR_PCT:
        p->physical_time = v;
        break;
    case ATTR_JITTER:
        p->random = v;
        break;
    case ATTR_TYPE: {
        const uint64_t m = drv_fld_mask("PMSFCR_EL1", a->field);
        p->pmsfcr = v ? p->pmsfcr | m : p->pmsfcr & ~m;
        break;
    }
    case ATTR_EVENTS:
        p->pmsevfr = v;
        break;
    case ATTR_NEVENTS:
        p->pmsnevfr = v;
        break;
    case ATTR_LATENCY:
        p->pmslatfr = drv_fld("PMSLATFR_EL1", "MINLAT", v);
        break;
    /* FDS with a filter given; inv_data_src_filter's set bits are the data
     * sources left out, so PMSDSFR_EL1 (1: recorded) is its complement */
    case ATTR_DS:
        p->pmsdsfr = v;
        p->pmsfcr = v ? p->pmsfcr | fds : p->pmsfcr & ~fds;
        break;
    case ATTR_INV_DS:
        p->pmsdsfr = ~v;
        p->pmsfcr = v ? p->pmsfcr | fds : p->pmsfcr & ~fds;
        break;
    }
    derive_enables(p);
    return true;
}
