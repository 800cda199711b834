/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report: decode, gather, render (report.h). */
#include "cli/report.h"
#include "cli/report_progress.h"
#include "cli/report_render.h"

#include <string.h>

int report_write(FILE *out, const char *name, record_source *src, const report_options *o)
{
    report_stats s;
    if (!report_stats_init(&s, o->max_distinct)) {
        if (o->err) fprintf(o->err, "armprof report: %s: out of memory\n", name);
        return 2;
    }
    const int rc = report_collect(&s, src);
    report_progress_end(src->progress); /* before the report and its messages */
    if (rc == -2) {
        if (o->err)
            fprintf(o->err, "armprof report: %s: read error after %zu bytes: %s\n", name,
                    src->bytes,
                    src->perf ? armprof_perf_error(src->perf) : strerror(src->read_errno));
        report_stats_free(&s);
        return 2;
    }
    if (rc < 0 || !report_stats_sort(&s)) {
        if (o->err) fprintf(o->err, "armprof report: %s: out of memory\n", name);
        report_stats_free(&s);
        return 2;
    }
    const unsigned top = o->top ? o->top : 10;
    switch (o->format) {
    case REPORT_HTML:
        report_render_html(out, name, &s, top);
        break;
    case REPORT_SVG:
        report_render_svg(out, name, &s);
        break;
    default:
        report_render_text(out, name, &s, top);
        break;
    }
    if (s.error && o->err)
        fprintf(o->err, "armprof report: %s: offset 0x%zx: %s\n", name, s.error_offset, s.error);
    report_stats_free(&s);
    return rc;
}
