/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report [--html|--svg] [--top N] [--max-distinct N] [-o OUT] FILE
 * armprof report [--kallsyms FILE] [--folded] [--top N] [-o OUT] SAMPLES.perf.data */
#include <sys/stat.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/report.h"
#include "cli/report_input.h"
#include "cli/report_progress.h"
#include "cli/report_samples.h"

#define PROG "armprof report"

static int usage_error(void)
{
    fprintf(stderr, "usage: " PROG " [--html|--svg] [--top N] [--max-distinct N] [--kallsyms FILE] "
                    "[--folded] [-o OUT] FILE|-\n");
    return 2;
}

/* A count from 1 to max. */
static bool parse_count(const char *text, unsigned long max, unsigned long *count)
{
    char *end;
    errno = 0;
    const unsigned long v = strtoul(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v == 0 || v > max) return false;
    *count = v;
    return true;
}

/* A perf.data file of samples (PC samples; docs/pc-sampling.md), which
 * has no SPE records: its samples by symbol. -1 for any other input
 * (standard input is read as SPE records), which the caller reads. */
static int samples_command(const char *path, const char *out_path, const report_samples_options *so,
                           report_format format)
{
    /* only a regular file: the first bytes of a pipe, read here, would be
     * lost to the SPE reader */
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    FILE *f = fopen(path, "rb");
    uint8_t head[8];
    const bool perf = f && fread(head, 1, sizeof head, f) == sizeof head &&
                      armprof_perf_is_perf_data(head, sizeof head);
    if (f) fclose(f);
    if (!perf) return -1;
    report_samples *s = NULL;
    const int rc = report_samples_read(path, so, PROG, stderr, &s);
    if (rc) return rc;
    if (format != REPORT_TEXT) {
        report_samples_free(s);
        fprintf(stderr, PROG ": %s: a file of samples: --html and --svg are for SPE records\n",
                path);
        return 2;
    }
    const char *same_file = path;
    armprof_outfile *file = NULL;
    if (out_path ? !(file = cli_output_open(PROG, out_path, &same_file, 1))
                 : !cli_stdout_allowed(PROG, &same_file, 1)) {
        report_samples_free(s);
        return 2;
    }
    const int wrc = report_samples_write(file ? armprof_outfile_stream(file) : stdout, s, stderr);
    report_samples_free(s);
    return file ? cli_output_close(file, PROG, out_path, wrc) : wrc;
}

int report_command(int argc, char **argv)
{
    report_options o = {.format = REPORT_TEXT, .top = 10, .err = stderr};
    report_samples_options so = {0};
    const char *path = NULL, *out_path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--html"))
            o.format = REPORT_HTML;
        else if (!strcmp(a, "--svg"))
            o.format = REPORT_SVG;
        else if (!strcmp(a, "--folded"))
            so.folded = true;
        else if (!strcmp(a, "--top") || !strcmp(a, "-o") || !strcmp(a, "--max-distinct") ||
                 !strcmp(a, "--kallsyms")) {
            if (i + 1 == argc) {
                fprintf(stderr, PROG ": %s needs a value\n", a);
                return usage_error();
            }
            const char *v = argv[++i];
            unsigned long n = 0;
            if (a[1] == 'o') {
                out_path = v;
            } else if (!strcmp(a, "--kallsyms")) {
                so.kallsyms = v;
            } else if (!strcmp(a, "--top")) {
                if (!parse_count(v, 1000000, &n)) {
                    fprintf(stderr, PROG ": --top wants a positive count, not '%s'\n", v);
                    return 2;
                }
                o.top = (unsigned)n;
            } else {
                if (!parse_count(v, 1000000000, &n)) {
                    fprintf(stderr,
                            PROG ": --max-distinct wants a count from 1 to 1000000000, not '%s'\n",
                            v);
                    return 2;
                }
                o.max_distinct = n;
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
    so.top = o.top;
    const int rc_samples = samples_command(path, out_path, &so, o.format);
    if (rc_samples >= 0) return rc_samples;
    if (so.kallsyms || so.folded) {
        fprintf(stderr, PROG ": --kallsyms and --folded are for a perf.data file of samples (PC "
                             "samples), not for SPE records\n");
        return 2;
    }
    report_input in;
    if (report_input_open(&in, path, PROG, stderr) != 0) return 2;
    /* A perf.data file: every CPU's AUX data, one CPU after another. */
    record_source src;
    if (!report_input_source(&in, &src, RECORD_SOURCE_ALL_CPUS)) {
        fprintf(stderr, PROG ": %s: out of memory\n", in.name);
        report_input_close(&in);
        return 2;
    }
    report_progress progress;
    report_progress_init(&progress, stderr, PROG, in.name, in.size);
    src.progress = &progress;
    /* the input is open: only now may an output be made */
    armprof_outfile *file = NULL;
    if (out_path ? !(file = cli_output_open(PROG, out_path, &in.same_file, 1))
                 : !cli_stdout_allowed(PROG, &in.same_file, 1)) {
        record_source_free(&src);
        report_input_close(&in);
        return 2;
    }
    /* A block of the file at a time: memory does not grow with the file. */
    const int rc = report_write(file ? armprof_outfile_stream(file) : stdout, in.name, &src, &o);
    record_source_free(&src);
    report_input_close(&in);
    /* Standard output is checked in main(), after every command. */
    return file ? cli_output_close(file, PROG, out_path, rc) : rc;
}
