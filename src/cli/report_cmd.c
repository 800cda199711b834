/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report [--html|--svg] [--top N] [-o OUT] FILE */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/report.h"

#define PROG "armprof report"

static int usage_error(void)
{
    fprintf(stderr, "usage: " PROG " [--html|--svg] [--top N] [-o OUT] FILE\n");
    return 2;
}

static bool parse_top(const char *text, unsigned *top)
{
    char *end;
    errno = 0;
    const unsigned long v = strtoul(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v == 0 || v > 1000000) return false;
    *top = (unsigned)v;
    return true;
}

int report_command(int argc, char **argv)
{
    report_options o = {.format = REPORT_TEXT, .top = 10, .err = stderr};
    const char *path = NULL, *out_path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--html"))
            o.format = REPORT_HTML;
        else if (!strcmp(a, "--svg"))
            o.format = REPORT_SVG;
        else if (!strcmp(a, "--top") || !strcmp(a, "-o")) {
            if (i + 1 == argc) {
                fprintf(stderr, PROG ": %s needs a value\n", a);
                return usage_error();
            }
            const char *v = argv[++i];
            if (a[1] == 'o')
                out_path = v;
            else if (!parse_top(v, &o.top)) {
                fprintf(stderr, PROG ": --top wants a positive count, not '%s'\n", v);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, PROG ": unknown option '%s'\n", a);
            return usage_error();
        } else if (!path)
            path = a;
        else {
            fprintf(stderr, PROG ": one file at a time ('%s')\n", a);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, PROG ": no record file given\n");
        return usage_error();
    }
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
        return 2;
    }
    /* A perf.data file: every CPU's AUX data, one CPU after another. The
     * first bytes tell; a pipe cannot be read again, so they are kept. */
    uint8_t head[8];
    const size_t head_size = fread(head, 1, sizeof head, in);
    armprof_perf_file *perf = NULL;
    uint32_t *cpus = NULL;
    record_source src;
    bool made;
    if (armprof_perf_is_perf_data(head, head_size)) {
        char err[512];
        fclose(in);
        in = NULL;
        if (!(perf = armprof_perf_open(path, err, sizeof err))) {
            fprintf(stderr, PROG ": %s\n", err);
            return 2;
        }
        const armprof_perf_file_info *info = armprof_perf_info(perf);
        cpus = malloc((info->nchunks ? info->nchunks : 1) * sizeof *cpus);
        made = cpus && record_source_perf(&src, perf, RECORD_SOURCE_ALL_CPUS, cpus,
                                          record_source_perf_cpus(info, cpus));
    } else {
        made = record_source_file_after(&src, in, head, head_size);
    }
    if (!made) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        if (in) fclose(in);
        free(cpus);
        armprof_perf_close(perf);
        return 2;
    }
    /* the input is open: only now may an output be made */
    armprof_outfile *file = NULL;
    if (out_path ? !(file = cli_output_open(PROG, out_path, &path, 1))
                 : !cli_stdout_allowed(PROG, &path, 1)) {
        record_source_free(&src);
        if (in) fclose(in);
        free(cpus);
        armprof_perf_close(perf);
        return 2;
    }
    /* A block of the file at a time: memory does not grow with the file. */
    const int rc = report_write(file ? armprof_outfile_stream(file) : stdout, path, &src, &o);
    record_source_free(&src);
    if (in) fclose(in);
    free(cpus);
    armprof_perf_close(perf);
    /* Standard output is checked in main(), after every command. */
    return file ? cli_output_close(file, PROG, out_path, rc) : rc;
}
