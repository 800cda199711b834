/* SPDX-License-Identifier: BSD-3-Clause */
/* Queries of a register table: fields and registers by name. */
#include "sysreg/sysreg_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const sysreg_field *sysreg_find_field(const sysreg_desc *d, const char *name)
{
    for (unsigned i = 0; i < d->nfields; i++)
        if (d->fields[i].access < FA_RES0 && strcmp(d->fields[i].name, name) == 0)
            return &d->fields[i];
    return NULL;
}

const char *sysreg_instance_name(const sysreg_desc *d, unsigned m, char *buf, unsigned len)
{
    if (d->prefix == NULL) return d->name;
    snprintf(buf, len, "%s%u%s", d->prefix, m, d->suffix);
    return buf;
}

/* "S<op0>_<op1>_C<n>_C<m>_<op2>", the generic System register name. */
static int lookup_generic(const sysreg_catalog *cat, const char *name, unsigned *m)
{
    unsigned op0, op1, crn, crm, op2;
    char tail;
    if (sscanf(name, "S%u_%u_C%u_C%u_%u%c", &op0, &op1, &crn, &crm, &op2, &tail) != 5) return -1;
    if (op0 > 3 || op1 > 7 || crn > 15 || crm > 15 || op2 > 7) return -1;
    const unsigned enc = ENC(op0, op1, crn, crm, op2);
    for (unsigned i = 0; i < cat->count; i++) {
        const sysreg_desc *d = &cat->regs[i];
        unsigned n = d->count ? d->count : 1;
        if (d->enc == ENC_NONE) continue;
        if (enc >= d->enc && enc < d->enc + n) {
            *m = enc - d->enc;
            return (int)i;
        }
    }
    return -1;
}

int sysreg_lookup_name(const sysreg_catalog *cat, const char *name, unsigned *m)
{
    *m = 0;
    for (unsigned i = 0; i < cat->count; i++) {
        const sysreg_desc *d = &cat->regs[i];
        if (d->prefix == NULL) {
            if (strcmp(name, d->name) == 0) return (int)i;
            continue;
        }
        size_t pl = strlen(d->prefix);
        if (strncmp(name, d->prefix, pl) != 0) continue;
        const char *p = name + pl;
        char *end;
        if (*p < '0' || *p > '9') continue;
        unsigned long n = strtoul(p, &end, 10);
        if (end - p > 1 && *p == '0') continue;
        if (strcmp(end, d->suffix) != 0 || n >= d->count) continue;
        *m = (unsigned)n;
        return (int)i;
    }
    return lookup_generic(cat, name, m);
}
