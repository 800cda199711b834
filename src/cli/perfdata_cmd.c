/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof perf-data [-o OUT] [--perf-version V] [--elf PATH[@LOADADDR]]...
 *                   [--comm PID=NAME]... [--midr HEX] [--interval N]
 *                   [--topology CLUSTER:NODE,...] [--node-memory BYTES,...] IN.spe...
 * The record files (one per CPU, in order) as a perf.data file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/perf_export.h"

#define PROG "armprof perf-data"
#define USAGE                                                                                      \
    "usage: " PROG                                                                                 \
    " [-o OUT] [--perf-version V] [--elf PATH[@LOADADDR]]... [--comm PID=NAME]...\n"               \
    "       [--midr HEX] [--interval N] [--topology CLUSTER:NODE,...] [--node-memory BYTES,...]\n" \
    "       IN.spe...\n"

static int usage_error(void)
{
    fputs(USAGE, stderr);
    return 2;
}

static bool parse_u64(const char *text, int base, uint64_t *v)
{
    char *end;
    errno = 0;
    const unsigned long long n = strtoull(text, &end, base);
    if (errno || end == text || *end || text[0] == '-') return false;
    *v = n;
    return true;
}

/* PID=NAME */
static bool parse_comm(char *text, perf_export_comm *c)
{
    char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1]) return false;
    *eq = '\0';
    uint64_t pid;
    if (!parse_u64(text, 0, &pid) || pid > UINT32_MAX) return false;
    c->pid = (uint32_t)pid;
    c->name = eq + 1;
    return true;
}

/* PATH[@LOADADDR] */
static bool parse_elf(char *text, perf_export_elf *e)
{
    char *at = strrchr(text, '@');
    e->path = text;
    e->load = 0;
    if (!at) return true;
    *at = '\0';
    return at != text && parse_u64(at + 1, 0, &e->load);
}

/* The number of comma-separated items of text. */
static size_t items(const char *text)
{
    size_t n = 1;
    for (; *text; text++)
        n += *text == ',';
    return n;
}

/* A number of at most max at *p that ends at one of the characters of
 * stops, *p moved past that character; false if there is none. */
static bool take_number(const char **p, const char *stops, uint64_t max, uint64_t *v)
{
    if (**p < '0' || **p > '9') return false;
    char *end;
    errno = 0;
    *v = strtoull(*p, &end, 0);
    if (errno || *v > max || !strchr(stops, *end)) return false;
    *p = *end ? end + 1 : end;
    return true;
}

/* CLUSTER:NODE,...: each CPU's cluster and node, in CPU order; its core is
 * its place among the CPUs of its cluster. *n gets the count. */
static armprof_perf_cpu_topology *parse_topology(const char *text, size_t *n)
{
    armprof_perf_cpu_topology *t = calloc(items(text), sizeof *t);
    if (!t) return NULL;
    *n = 0;
    for (const char *p = text; *n == 0 || p[-1] == ',';) {
        uint64_t cluster, node;
        if (!take_number(&p, ":", UINT32_MAX, &cluster) ||
            !take_number(&p, ",", UINT32_MAX, &node)) {
            free(t);
            return NULL;
        }
        t[*n] = (armprof_perf_cpu_topology){
            .core = 0, .cluster = (uint32_t)cluster, .node = (uint32_t)node};
        for (size_t j = 0; j < *n; j++)
            t[*n].core += t[j].cluster == t[*n].cluster;
        ++*n;
    }
    return t;
}

/* BYTES,...: each node's memory. *n gets the count. */
static uint64_t *parse_sizes(const char *text, size_t *n)
{
    uint64_t *v = calloc(items(text), sizeof *v);
    if (!v) return NULL;
    *n = 0;
    for (const char *p = text; *n == 0 || p[-1] == ',';)
        if (!take_number(&p, ",", UINT64_MAX, &v[(*n)++])) {
            free(v);
            return NULL;
        }
    return v;
}

int perfdata_command(int argc, char **argv)
{
    perf_export_options o = {.out = "perf.data"};
    armprof_perf_writer_config_init(&o.config);
    /* at most one of each per argument */
    perf_export_elf *elfs = calloc((size_t)argc + 1, sizeof *elfs);
    perf_export_comm *comms = calloc((size_t)argc + 1, sizeof *comms);
    perf_export_input *in = calloc((size_t)argc + 1, sizeof *in);
    int rc = 2;
    size_t nin = 0;
    armprof_perf_cpu_topology *topology = NULL;
    uint64_t *node_memory = NULL;
    size_t ntopology = 0, nmemory = 0;
    bool chosen = false; /* --perf-version given */
    if (!elfs || !comms || !in) {
        fprintf(stderr, PROG ": out of memory\n");
        goto done;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const bool takes = !strcmp(a, "-o") || !strcmp(a, "--perf-version") ||
                           !strcmp(a, "--elf") || !strcmp(a, "--comm") || !strcmp(a, "--midr") ||
                           !strcmp(a, "--interval") || !strcmp(a, "--topology") ||
                           !strcmp(a, "--node-memory");
        if (takes && i + 1 == argc) {
            fprintf(stderr, PROG ": %s needs a value\n", a);
            rc = usage_error();
            goto done;
        }
        char *v = takes ? argv[++i] : NULL;
        if (!strcmp(a, "-o")) {
            o.out = v;
        } else if (!strcmp(a, "--perf-version")) {
            chosen = true;
            if (!perf_export_metadata_for(v, &o.config.metadata)) {
                fprintf(stderr, PROG ": --perf-version wants MAJOR.MINOR (6.1, 7.3), not '%s'\n",
                        v);
                goto done;
            }
        } else if (!strcmp(a, "--elf")) {
            if (!parse_elf(v, &elfs[o.nelfs])) {
                fprintf(stderr, PROG ": --elf wants PATH or PATH@LOADADDR, not '%s'\n", v);
                goto done;
            }
            o.nelfs++;
        } else if (!strcmp(a, "--comm")) {
            if (!parse_comm(v, &comms[o.ncomms])) {
                fprintf(stderr, PROG ": --comm wants PID=NAME, not '%s'\n", v);
                goto done;
            }
            o.ncomms++;
        } else if (!strcmp(a, "--midr")) {
            if (!parse_u64(v, 16, &o.config.midr) || o.config.midr > UINT32_MAX) {
                fprintf(stderr, PROG ": --midr wants MIDR_EL1 in hex (32 bits), not '%s'\n", v);
                goto done;
            }
        } else if (!strcmp(a, "--interval")) {
            if (!parse_u64(v, 0, &o.config.sample_period) || o.config.sample_period == 0) {
                fprintf(stderr, PROG ": --interval wants a positive count, not '%s'\n", v);
                goto done;
            }
        } else if (!strcmp(a, "--topology")) {
            free(topology);
            if (!(topology = parse_topology(v, &ntopology))) {
                fprintf(stderr,
                        PROG ": --topology wants CLUSTER:NODE for each CPU, comma-separated "
                             "(0:0,0:0,1:1,1:1), not '%s'\n",
                        v);
                goto done;
            }
        } else if (!strcmp(a, "--node-memory")) {
            free(node_memory);
            if (!(node_memory = parse_sizes(v, &nmemory))) {
                fprintf(stderr,
                        PROG ": --node-memory wants each node's memory in bytes, "
                             "comma-separated, not '%s'\n",
                        v);
                goto done;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, PROG ": unknown option '%s'\n", a);
            rc = usage_error();
            goto done;
        } else {
            in[nin++].path = a;
        }
    }
    if (nin == 0) {
        fprintf(stderr, PROG ": no record file\n");
        rc = usage_error();
        goto done;
    }
    if (topology && ntopology != nin) {
        fprintf(stderr, PROG ": --topology places %zu CPU%s; %zu record file%s (one a CPU)\n",
                ntopology, ntopology == 1 ? "" : "s", nin, nin == 1 ? "" : "s");
        goto done;
    }
    if (node_memory) {
        /* the writer reads a size for each node the topology numbers */
        uint32_t nodes = 1;
        for (size_t i = 0; topology && i < ntopology; i++)
            if (topology[i].node >= nodes) nodes = topology[i].node + 1;
        if (nmemory != nodes) {
            fprintf(stderr, PROG ": --node-memory gives %zu size%s for %u node%s\n", nmemory,
                    nmemory == 1 ? "" : "s", nodes, nodes == 1 ? "" : "s");
            goto done;
        }
    }
    o.config.topology = topology;
    o.config.node_memory = node_memory;
    if (!chosen) {
        /* the layout the perf on PATH reads (docs/perf.md): said, since
         * another perf may find no samples in it */
        char why[320];
        o.config.metadata = armprof_perf_metadata_for_path_perf(why, sizeof why);
        fprintf(stderr, PROG ": %s (--perf-version V for another perf)\n", why);
    }
    o.elfs = elfs;
    o.comms = comms;
    perf_export_result res;
    rc = perf_export(&o, in, nin, &res, PROG, stderr);
    if (rc == 0)
        printf("%s: %llu records (%llu bytes) of %zu CPU%s in %llu AUX events, %zu tasks, arm_spe "
               "metadata version %d\n",
               o.out, (unsigned long long)res.records, (unsigned long long)res.bytes, nin,
               nin == 1 ? "" : "s", (unsigned long long)res.aux_events, res.tasks,
               (int)o.config.metadata);
done:
    free(topology);
    free(node_memory);
    free(elfs);
    free(comms);
    free(in);
    return rc;
}
