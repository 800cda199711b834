/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report of a perf.data file of samples (report_samples.h). One
 * pass over the events counts the samples by task, cpumode and IP (a
 * table of distinct keys: memory grows with the code sampled, not with the
 * file) and keeps the tasks' commands and mappings; then each distinct key
 * gets its symbol: a kernel IP from the kallsyms copy, a user IP from the
 * ELF file its task's MMAP or MMAP2 event maps there (as perf report
 * names them), and the counts are summed by symbol. */
#define _POSIX_C_SOURCE 200809L
#include "cli/report_samples.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/elf.h"
#include "armprof/perfdata.h"
#include "cli/report_kallsyms.h"

/* A distinct sample key and its count. */
typedef struct key_count {
    uint64_t ip;
    uint32_t pid;
    uint16_t cpumode;
    bool used;
    uint64_t count;
} key_count;

/* A task's mapping of an ELF file (symbols opened when first needed). */
typedef struct mapping {
    uint32_t pid;
    uint64_t start, len, pgoff;
    char *path;
    bool tried;
    armprof_elf_symbols *syms;
} mapping;

typedef struct comm {
    uint32_t pid;
    char name[16];
} comm;

typedef struct reading {
    key_count *slot; /* open addressing, cap a power of two */
    size_t cap, used;
    mapping *map;
    size_t nmap, capmap;
    comm *comm;
    size_t ncomm, capcomm;
    uint64_t samples, kernel, user;
    bool nomem;
} reading;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static size_t slot_of(const key_count *slot, size_t cap, const key_count *k)
{
    size_t i = (size_t)mix(k->ip ^ (uint64_t)k->pid << 40 ^ (uint64_t)k->cpumode << 60) & (cap - 1);
    while (slot[i].used &&
           (slot[i].ip != k->ip || slot[i].pid != k->pid || slot[i].cpumode != k->cpumode))
        i = (i + 1) & (cap - 1);
    return i;
}

static bool grow(reading *r)
{
    const size_t cap = r->cap ? 2 * r->cap : 1024;
    key_count *slot = calloc(cap, sizeof *slot);
    if (!slot) return false;
    for (size_t i = 0; i < r->cap; i++)
        if (r->slot[i].used) slot[slot_of(slot, cap, &r->slot[i])] = r->slot[i];
    free(r->slot);
    r->slot = slot;
    r->cap = cap;
    return true;
}

static bool count(reading *r, const armprof_perf_sample *s)
{
    if (4 * (r->used + 1) > 3 * r->cap && !grow(r)) return false;
    const key_count k = {s->ip, s->pid, s->cpumode, true, 0};
    key_count *e = &r->slot[slot_of(r->slot, r->cap, &k)];
    if (!e->used) {
        *e = k;
        r->used++;
    }
    e->count++;
    return true;
}

static bool add_mapping(reading *r, const armprof_perf_event *e)
{
    if (r->nmap == r->capmap) {
        const size_t cap = r->capmap ? 2 * r->capmap : 64;
        mapping *p = realloc(r->map, cap * sizeof *p);
        if (!p) return false;
        r->map = p;
        r->capmap = cap;
    }
    char *path = strdup(e->name);
    if (!path) return false;
    r->map[r->nmap++] = (mapping){e->sample.pid, e->addr, e->len, e->pgoff, path, false, NULL};
    return true;
}

static bool add_comm(reading *r, const armprof_perf_event *e)
{
    for (size_t i = 0; i < r->ncomm; i++)
        if (r->comm[i].pid == e->sample.pid) {
            snprintf(r->comm[i].name, sizeof r->comm[i].name, "%s", e->name);
            return true;
        }
    if (r->ncomm == r->capcomm) {
        const size_t cap = r->capcomm ? 2 * r->capcomm : 64;
        comm *p = realloc(r->comm, cap * sizeof *p);
        if (!p) return false;
        r->comm = p;
        r->capcomm = cap;
    }
    comm *c = &r->comm[r->ncomm++];
    c->pid = e->sample.pid;
    snprintf(c->name, sizeof c->name, "%s", e->name);
    return true;
}

static bool on_event(const armprof_perf_event *e, void *ctx)
{
    reading *r = ctx;
    bool ok = true;
    switch (e->kind) {
    case ARMPROF_PERF_EVENT_SAMPLE:
        r->samples++;
        if (e->sample.cpumode == ARMPROF_PERF_CPUMODE_USER)
            r->user++;
        else
            r->kernel++;
        ok = count(r, &e->sample);
        break;
    case ARMPROF_PERF_EVENT_COMM:
        ok = add_comm(r, e);
        break;
    case ARMPROF_PERF_EVENT_MMAP:
        /* the kernel's own map names no file: its symbols are kallsyms' */
        ok = e->sample.cpumode == ARMPROF_PERF_CPUMODE_USER ? add_mapping(r, e) : true;
        break;
    }
    r->nomem = !ok;
    return ok;
}

/* The symbol of a user IP of pid: its mapping's file's function, the
 * file's "[name]" when no function holds it, NULL outside every mapping. */
static const char *user_symbol(reading *r, uint32_t pid, uint64_t ip, char *buf, size_t size)
{
    for (size_t i = r->nmap; i-- > 0;) {
        mapping *m = &r->map[i];
        if (m->pid != pid || ip < m->start || ip - m->start >= m->len) continue;
        if (!m->tried) {
            m->tried = true;
            uint64_t load;
            char err[256];
            if (armprof_elf_load_bias(m->path, m->start, m->pgoff, &load))
                m->syms = armprof_elf_symbols_open(m->path, load, err, sizeof err);
        }
        const char *name = m->syms ? armprof_elf_symbol_at(m->syms, ip, NULL) : NULL;
        if (name) return name;
        const char *base = strrchr(m->path, '/');
        snprintf(buf, size, "[%s]", base ? base + 1 : m->path);
        return buf;
    }
    return NULL;
}

static const char *comm_of(const reading *r, uint32_t pid, char *buf, size_t size)
{
    for (size_t i = 0; i < r->ncomm; i++)
        if (r->comm[i].pid == pid) return r->comm[i].name;
    /* perf's names: the idle task, else the pid */
    if (pid == 0) return "swapper";
    snprintf(buf, size, ":%" PRIu32, pid);
    return buf;
}

/* A row: a symbol (folded: a command and a symbol) and its samples. */
typedef struct row {
    char *label;
    uint64_t count;
} row;

static int by_label(const void *a, const void *b)
{
    return strcmp(((const row *)a)->label, ((const row *)b)->label);
}

static int by_count(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* The distinct keys as rows, summed by label; NULL if out of memory. */
static row *rows_of(reading *r, const report_kallsyms *k, bool folded, size_t *nrows)
{
    row *rows = calloc(r->used ? r->used : 1, sizeof *rows);
    if (!rows) return NULL;
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; i < r->cap && ok; i++) {
        const key_count *e = &r->slot[i];
        if (!e->used) continue;
        char buf[64], cbuf[32], label[1024];
        const bool user = e->cpumode == ARMPROF_PERF_CPUMODE_USER;
        const char *sym =
            user ? user_symbol(r, e->pid, e->ip, buf, sizeof buf) : report_kallsyms_at(k, e->ip);
        /* as perf report marks them: [.] user, [k] kernel */
        if (!sym) sym = user ? "[unknown]" : "[kernel.kallsyms]";
        if (folded)
            snprintf(label, sizeof label, "%s;%s", comm_of(r, e->pid, cbuf, sizeof cbuf), sym);
        else
            snprintf(label, sizeof label, "[%c] %s", user ? '.' : 'k', sym);
        rows[n].label = strdup(label);
        rows[n].count = e->count;
        ok = rows[n++].label != NULL;
    }
    /* summed by label */
    qsort(rows, n, sizeof *rows, by_label);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && !strcmp(rows[m - 1].label, rows[i].label)) {
            rows[m - 1].count += rows[i].count;
            free(rows[i].label);
        } else
            rows[m++] = rows[i];
    }
    qsort(rows, m, sizeof *rows, by_count);
    *nrows = m;
    if (!ok) {
        for (size_t i = 0; i < m; i++)
            free(rows[i].label);
        free(rows);
        return NULL;
    }
    return rows;
}

static void reading_free(reading *r)
{
    for (size_t i = 0; i < r->nmap; i++) {
        armprof_elf_symbols_close(r->map[i].syms);
        free(r->map[i].path);
    }
    free(r->map);
    free(r->comm);
    free(r->slot);
}

struct report_samples {
    reading r;
    report_kallsyms *k;
    report_samples_options o;
    char *path;
    const char *prog;
};

int report_samples_read(const char *path, const report_samples_options *o, const char *prog,
                        FILE *err, report_samples **out)
{
    char msg[512];
    report_samples *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        fprintf(err, "%s: %s: out of memory\n", prog, path);
        return 2;
    }
    s->o = *o;
    s->prog = prog;
    int rc = 0;
    bool aux = false;
    if (o->kallsyms && !(s->k = report_kallsyms_open(o->kallsyms, msg, sizeof msg))) {
        fprintf(err, "%s: --kallsyms: %s\n", prog, msg);
        rc = 2;
    } else if (!armprof_perf_read_events(path, on_event, &s->r, &aux, msg, sizeof msg)) {
        if (!aux) fprintf(err, "%s: %s\n", prog, s->r.nomem ? "out of memory" : msg);
        rc = aux ? -1 : 2;
    }
    if (rc) {
        reading_free(&s->r);
        report_kallsyms_close(s->k);
        free(s->path);
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int report_samples_write(FILE *out, report_samples *s, FILE *err)
{
    const report_samples_options *o = &s->o;
    size_t n = 0;
    row *rows = rows_of(&s->r, s->k, o->folded, &n);
    int rc = 0;
    if (!rows) {
        fprintf(err, "%s: %s: out of memory\n", s->prog, s->path);
        rc = 2;
    } else if (o->folded) {
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%s %" PRIu64 "\n", rows[i].label, rows[i].count);
    } else {
        const reading *r = &s->r;
        fprintf(out, "%s: %" PRIu64 " samples (%" PRIu64 " kernel, %" PRIu64 " user)\n", s->path,
                r->samples, r->kernel, r->user);
        fprintf(out, "kernel symbols: %s\n",
                o->kallsyms ? o->kallsyms : "none (--kallsyms FILE, a copy of /proc/kallsyms)");
        fprintf(out, "\nsamples by symbol ([k] kernel, [.] user)\n");
        const unsigned top = o->top ? o->top : 10;
        for (size_t i = 0; i < n && i < top; i++)
            fprintf(out, "  %6.2f%%  %10" PRIu64 "  %s\n",
                    r->samples ? 100.0 * (double)rows[i].count / (double)r->samples : 0.0,
                    rows[i].count, rows[i].label);
        if (n > top) fprintf(out, "  (%zu more symbols: --top N)\n", n - top);
    }
    for (size_t i = 0; rows && i < n; i++)
        free(rows[i].label);
    free(rows);
    return rc;
}

void report_samples_free(report_samples *s)
{
    if (!s) return;
    reading_free(&s->r);
    report_kallsyms_close(s->k);
    free(s->path);
    free(s);
}
