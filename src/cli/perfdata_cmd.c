/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof perf-data [-o OUT] [--perf-version V] [--elf PATH[@LOADADDR]]...
 *                   [--comm PID=NAME]... [--midr HEX] [--interval N] IN.spe...
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
    "       [--midr HEX] [--interval N] IN.spe...\n"

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
    bool chosen = false; /* --perf-version given */
    if (!elfs || !comms || !in) {
        fprintf(stderr, PROG ": out of memory\n");
        goto done;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const bool takes = !strcmp(a, "-o") || !strcmp(a, "--perf-version") ||
                           !strcmp(a, "--elf") || !strcmp(a, "--comm") || !strcmp(a, "--midr") ||
                           !strcmp(a, "--interval");
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
    free(elfs);
    free(comms);
    free(in);
    return rc;
}
