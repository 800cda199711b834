/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU and NUMA topology features (perfdata/topology.h), in the layout
 * of perf's write_cpu_topology() / process_cpu_topology() and
 * write_numa_topology() / process_numa_topology() (tools/perf/util/
 * header.c): CPU_TOPOLOGY holds the package (cluster) CPU lists, the
 * thread-sibling CPU lists, then per CPU its core and socket numbers (and,
 * on x86 and s390 only, dies, which an arm64 perf does not write);
 * NUMA_TOPOLOGY per node its number, its memory and free memory in kB, and
 * its CPU list. A CPU list is Linux's "0-3,8". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/format.h"
#include "perfdata/message.h"
#include "perfdata/topology.h"

bool perf_topology_init(perf_topology *t, const armprof_perf_writer_config *c, const char *path,
                        char *err, size_t errlen)
{
    *t = (perf_topology){.ncpus = c->ncpus};
    t->cpu = calloc(c->ncpus, sizeof *t->cpu);
    if (!t->cpu) {
        perf_message(err, errlen, "%s: out of memory", path);
        return false;
    }
    uint32_t last = 0;
    for (uint32_t i = 0; i < c->ncpus; i++) {
        t->cpu[i] = c->topology ? c->topology[i] : (armprof_perf_cpu_topology){i, 0, 0};
        if (t->cpu[i].node >= ARMPROF_PERF_MAX_NODES) {
            perf_message(err, errlen, "%s: topology: CPU %u's node is %u (nodes 0 to %u)", path, i,
                         t->cpu[i].node, ARMPROF_PERF_MAX_NODES - 1);
            perf_topology_free(t);
            return false;
        }
        if (t->cpu[i].node > last) last = t->cpu[i].node;
    }
    t->nnodes = last + 1;
    for (uint32_t n = 0; n < t->nnodes; n++) {
        bool used = false;
        for (uint32_t i = 0; i < c->ncpus && !used; i++)
            used = t->cpu[i].node == n;
        if (!used) {
            perf_message(err, errlen,
                         "%s: topology: node %u has no CPU (the nodes must be 0 to %u, each "
                         "with a CPU)",
                         path, n, last);
            perf_topology_free(t);
            return false;
        }
    }
    t->node_memory = calloc(t->nnodes, sizeof *t->node_memory);
    if (!t->node_memory) {
        perf_message(err, errlen, "%s: out of memory", path);
        perf_topology_free(t);
        return false;
    }
    if (c->node_memory) memcpy(t->node_memory, c->node_memory, t->nnodes * sizeof *t->node_memory);
    return true;
}

void perf_topology_free(perf_topology *t)
{
    free(t->cpu);
    free(t->node_memory);
    t->cpu = NULL;
    t->node_memory = NULL;
}

/* Which CPUs a list groups with CPU i. */
typedef bool (*same_fn)(const armprof_perf_cpu_topology *a, const armprof_perf_cpu_topology *b);

static bool same_cluster(const armprof_perf_cpu_topology *a, const armprof_perf_cpu_topology *b)
{
    return a->cluster == b->cluster;
}

/* The threads of one core: no SMT unless two CPUs name the same core */
static bool same_core(const armprof_perf_cpu_topology *a, const armprof_perf_cpu_topology *b)
{
    return a->cluster == b->cluster && a->core == b->core;
}

/* Whether CPU i is the first of its group (its list is written once). */
static bool first_of(const perf_topology *t, same_fn same, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (same(&t->cpu[j], &t->cpu[i])) return false;
    return true;
}

/* The CPU list of the CPUs for which in() holds, as Linux writes it. */
static void put_cpu_list(perf_feature *f, const perf_topology *t, same_fn same, uint32_t of,
                         uint32_t node)
{
    /* "NNNN-NNNN," at most per CPU */
    char *s = malloc((size_t)t->ncpus * 11 + 1);
    if (!s) {
        f->failed = true;
        return;
    }
    size_t len = 0;
    s[0] = '\0';
    for (uint32_t i = 0; i < t->ncpus;) {
        const bool in = same ? same(&t->cpu[i], &t->cpu[of]) : t->cpu[i].node == node;
        if (!in) {
            i++;
            continue;
        }
        uint32_t j = i;
        while (j + 1 < t->ncpus &&
               (same ? same(&t->cpu[j + 1], &t->cpu[of]) : t->cpu[j + 1].node == node))
            j++;
        len += (size_t)(j == i ? sprintf(s + len, "%s%u", len ? "," : "", i)
                               : sprintf(s + len, "%s%u-%u", len ? "," : "", i, j));
        i = j + 1;
    }
    perf_feature_string(f, s);
    free(s);
}

static void put_groups(perf_feature *f, const perf_topology *t, same_fn same)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->ncpus; i++)
        n += first_of(t, same, i);
    perf_feature_u32(f, n);
    for (uint32_t i = 0; i < t->ncpus; i++)
        if (first_of(t, same, i)) put_cpu_list(f, t, same, i, 0);
}

void perf_topology_feature(const perf_topology *t, unsigned bit, perf_feature *f)
{
    switch (bit) {
    case HEADER_TOTAL_MEM: {
        uint64_t kb = 0;
        for (uint32_t n = 0; n < t->nnodes; n++)
            kb += t->node_memory[n] / 1024;
        perf_feature_u64(f, kb);
        break;
    }
    case HEADER_CPU_TOPOLOGY:
        put_groups(f, t, same_cluster);
        put_groups(f, t, same_core);
        for (uint32_t i = 0; i < t->ncpus; i++) {
            perf_feature_u32(f, t->cpu[i].core);
            perf_feature_u32(f, t->cpu[i].cluster);
        }
        break;
    case HEADER_NUMA_TOPOLOGY:
        perf_feature_u32(f, t->nnodes);
        for (uint32_t n = 0; n < t->nnodes; n++) {
            perf_feature_u32(f, n);
            perf_feature_u64(f, t->node_memory[n] / 1024);
            /* free: a model has no other tenant, nor a measure of it */
            perf_feature_u64(f, 0);
            put_cpu_list(f, t, NULL, 0, n);
        }
        break;
    default:
        break;
    }
}

/* ---- reading ---- */

bool perf_topology_read_start(perf_topology *t, uint32_t ncpus)
{
    if (t->cpu) return true;
    t->ncpus = ncpus;
    t->cpu = malloc((ncpus ? ncpus : 1) * sizeof *t->cpu);
    if (!t->cpu) return false;
    for (uint32_t i = 0; i < ncpus; i++)
        t->cpu[i] = (armprof_perf_cpu_topology){UINT32_MAX, UINT32_MAX, UINT32_MAX};
    return true;
}

/* A cursor over a feature's bytes. */
typedef struct cursor {
    const uint8_t *p;
    size_t n, at;
    const char *feature;
    char *err;
    size_t errlen;
} cursor;

static bool short_of(cursor *c, const char *field)
{
    perf_message(c->err, c->errlen, "%s: %s at byte %zu: the feature's %zu bytes end before it",
                 c->feature, field, c->at, c->n);
    return false;
}

static bool get_u32(cursor *c, uint32_t *v, const char *field)
{
    if (c->n - c->at < 4) return short_of(c, field);
    *v = get_le32(c->p + c->at);
    c->at += 4;
    return true;
}

static bool get_u64(cursor *c, uint64_t *v, const char *field)
{
    if (c->n - c->at < 8) return short_of(c, field);
    *v = get_le64(c->p + c->at);
    c->at += 8;
    return true;
}

/* A string: its length, then that many bytes holding a NUL. */
static bool get_string(cursor *c, const char **s, const char *field)
{
    uint32_t len;
    if (!get_u32(c, &len, field)) return false;
    if (len > c->n - c->at) return short_of(c, field);
    if (!memchr(c->p + c->at, '\0', len)) {
        perf_message(c->err, c->errlen, "%s: %s at byte %zu: a string of %u bytes without a NUL",
                     c->feature, field, c->at, len);
        return false;
    }
    *s = (const char *)c->p + c->at;
    c->at += len;
    return true;
}

static bool get_strings(cursor *c, const char *what)
{
    uint32_t n;
    char field[64];
    snprintf(field, sizeof field, "the count of %s", what);
    if (!get_u32(c, &n, field)) return false;
    for (uint32_t i = 0; i < n; i++) {
        const char *s;
        snprintf(field, sizeof field, "%s %u", what, i);
        if (!get_string(c, &s, field)) return false;
    }
    return true;
}

bool perf_topology_read_cpu(perf_topology *t, const uint8_t *p, size_t n, char *err, size_t errlen)
{
    cursor c = {p, n, 0, "HEADER_CPU_TOPOLOGY", err, errlen};
    if (!get_strings(&c, "package CPU list") || !get_strings(&c, "thread sibling list"))
        return false;
    /* perf before 4.1 stopped there */
    if (c.at == n) return true;
    for (uint32_t i = 0; i < t->ncpus; i++) {
        char field[48];
        snprintf(field, sizeof field, "CPU %u's core id", i);
        if (!get_u32(&c, &t->cpu[i].core, field)) return false;
        snprintf(field, sizeof field, "CPU %u's socket id", i);
        if (!get_u32(&c, &t->cpu[i].cluster, field)) return false;
    }
    /* dies (x86 and s390) are not kept */
    return true;
}

/* The CPUs of list s (Linux's "0-3,8"), each given to node; false with a
 * message when s is not a list or names a CPU twice or beyond ncpus. */
static bool read_cpu_list(perf_topology *t, const char *s, uint32_t node, cursor *c)
{
    const char *why = NULL;
    unsigned long bad = 0;
    bool named = false; /* bad is the CPU why is about */
    for (const char *q = s; *q && !why;) {
        char *end;
        if (*q < '0' || *q > '9') {
            why = "not a CPU list";
            break;
        }
        const unsigned long lo = strtoul(q, &end, 10);
        unsigned long hi = lo;
        q = end;
        if (*q == '-') {
            if (q[1] < '0' || q[1] > '9') {
                why = "not a CPU list";
                break;
            }
            hi = strtoul(q + 1, &end, 10);
            q = end;
        }
        if (*q == ',' && q[1])
            q++;
        else if (*q) {
            why = "not a CPU list";
            break;
        }
        if (hi < lo) {
            why = "a range that ends before it starts";
            break;
        }
        for (unsigned long cpu = lo; cpu <= hi; cpu++) {
            if (cpu >= t->ncpus) {
                why = "a CPU beyond HEADER_NRCPUS's available CPUs";
                bad = cpu;
                named = true;
                break;
            }
            if (t->cpu[cpu].node != UINT32_MAX) {
                why = "a CPU of another node too";
                bad = cpu;
                named = true;
                break;
            }
            t->cpu[cpu].node = node;
        }
    }
    if (!why) return true;
    if (named)
        perf_message(c->err, c->errlen, "%s: node %u's CPU list \"%s\": %s (CPU %lu, of %u)",
                     c->feature, node, s, why, bad, t->ncpus);
    else
        perf_message(c->err, c->errlen, "%s: node %u's CPU list \"%s\": %s", c->feature, node, s,
                     why);
    return false;
}

bool perf_topology_read_numa(perf_topology *t, const uint8_t *p, size_t n, char *err, size_t errlen)
{
    cursor c = {p, n, 0, "HEADER_NUMA_TOPOLOGY", err, errlen};
    uint32_t nodes;
    if (!get_u32(&c, &nodes, "the count of nodes")) return false;
    /* each node takes at least 24 bytes: a count beyond that is damage */
    if (nodes > (n - c.at) / 24) {
        perf_message(err, errlen,
                     "HEADER_NUMA_TOPOLOGY: the count of nodes, %u, does not fit "
                     "the feature's %zu bytes",
                     nodes, n);
        return false;
    }
    free(t->node_memory);
    t->node_memory = calloc(nodes ? nodes : 1, sizeof *t->node_memory);
    if (!t->node_memory) {
        perf_message(err, errlen, "out of memory");
        return false;
    }
    t->nnodes = nodes;
    for (uint32_t i = 0; i < nodes; i++) {
        char field[48];
        uint32_t node;
        uint64_t total, avail;
        const char *cpus;
        snprintf(field, sizeof field, "node %u's number", i);
        if (!get_u32(&c, &node, field)) return false;
        snprintf(field, sizeof field, "node %u's memory", node);
        if (!get_u64(&c, &total, field)) return false;
        snprintf(field, sizeof field, "node %u's free memory", node);
        if (!get_u64(&c, &avail, field)) return false;
        snprintf(field, sizeof field, "node %u's CPU list", node);
        if (!get_string(&c, &cpus, field) || !read_cpu_list(t, cpus, node, &c)) return false;
        t->node_memory[i] = total > UINT64_MAX / 1024 ? UINT64_MAX : total * 1024;
    }
    return true;
}
