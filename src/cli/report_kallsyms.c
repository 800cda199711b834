/* SPDX-License-Identifier: BSD-3-Clause */
/* A copy of /proc/kallsyms, read (report_kallsyms.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/report_kallsyms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ksym {
    uint64_t addr;
    char *name;
} ksym;

struct report_kallsyms {
    ksym *s;
    size_t n, cap;
};

static int by_addr(const void *a, const void *b)
{
    const ksym *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return strcmp(x->name, y->name);
}

static bool add(report_kallsyms *k, uint64_t addr, const char *name)
{
    if (k->n == k->cap) {
        const size_t cap = k->cap ? 2 * k->cap : 4096;
        ksym *p = realloc(k->s, cap * sizeof *p);
        if (!p) return false;
        k->s = p;
        k->cap = cap;
    }
    char *copy = strdup(name);
    if (!copy) return false;
    k->s[k->n++] = (ksym){addr, copy};
    return true;
}

report_kallsyms *report_kallsyms_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    report_kallsyms *k = calloc(1, sizeof *k);
    char line[1024];
    unsigned long lineno = 0;
    bool ok = k != NULL;
    if (!ok) snprintf(err, errlen, "%s: out of memory", path);
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char type, name[512];
        uint64_t addr;
        if (sscanf(line, "%" SCNx64 " %c %511s", &addr, &type, name) != 3) {
            snprintf(err, errlen, "%s:%lu: not a kallsyms line (ADDRESS TYPE NAME)", path, lineno);
            ok = false;
        } else if (strchr("tTwW", type) && addr && !add(k, addr, name)) {
            snprintf(err, errlen, "%s: out of memory", path);
            ok = false;
        }
    }
    if (ok && ferror(f)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        ok = false;
    }
    fclose(f);
    if (ok && k->n == 0) {
        snprintf(err, errlen,
                 "%s: no text symbol with an address (a copy made without the right to see "
                 "them holds zeros: copy it as root, or with kernel.kptr_restrict=0)",
                 path);
        ok = false;
    }
    if (!ok) {
        report_kallsyms_close(k);
        return NULL;
    }
    qsort(k->s, k->n, sizeof *k->s, by_addr);
    return k;
}

const char *report_kallsyms_at(const report_kallsyms *k, uint64_t addr)
{
    if (!k || !k->n || addr < k->s[0].addr) return NULL;
    size_t lo = 0, hi = k->n; /* the last symbol <= addr is in [lo, hi) */
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (k->s[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    return k->s[lo].name;
}

void report_kallsyms_close(report_kallsyms *k)
{
    if (!k) return;
    for (size_t i = 0; i < k->n; i++)
        free(k->s[i].name);
    free(k->s);
    free(k);
}
