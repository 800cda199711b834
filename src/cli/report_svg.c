/* SPDX-License-Identifier: BSD-3-Clause */
/* The SVG report: one standalone document with a title, the summary line,
 * the three latency histograms and the operation mix as plots, for viewers
 * and documents that take an image rather than a page. */
#include <inttypes.h>

#include "cli/report_render.h"

#define HEADER  56
#define BAR_ROW 18

/* The operation mix as horizontal bars, one per payload type seen. */
static void op_mix(FILE *out, const report_stats *s, int y)
{
    uint64_t most = 0;
    for (unsigned k = 0; k <= ARMPROF_SPE_OP_RESERVED; k++)
        if (s->op_kind[k] > most) most = s->op_kind[k];
    fprintf(out,
            "<text x=\"16\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">"
            "operation mix (records)</text>\n",
            y + 20);
    int row = y + 34;
    const int left = 250, width = REPORT_PLOT_WIDTH - left - 80;
    for (unsigned k = 0; k <= ARMPROF_SPE_OP_RESERVED; k++) {
        if (!s->op_kind[k]) continue;
        const int w = (int)((uint64_t)width * s->op_kind[k] / most);
        fputs("<text x=\"16\" y=\"", out);
        fprintf(out, "%d\" font-size=\"11\">", row + 12);
        report_escape(out, s->op_name[k]);
        fprintf(out,
                "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#4a78b5\"/>"
                "<text x=\"%d\" y=\"%d\" font-size=\"11\">%" PRIu64 "</text>\n",
                left, row + 2, w, BAR_ROW - 4, left + w + 4, row + 12, s->op_kind[k]);
        row += BAR_ROW;
    }
}

static unsigned op_kinds_seen(const report_stats *s)
{
    unsigned n = 0;
    for (unsigned k = 0; k <= ARMPROF_SPE_OP_RESERVED; k++)
        n += s->op_kind[k] != 0;
    return n;
}

void report_render_svg(FILE *out, const char *name, const report_stats *s)
{
    const int mix_y = HEADER + REPORT_LATENCIES * REPORT_PLOT_HEIGHT;
    const int height = mix_y + 44 + (int)op_kinds_seen(s) * BAR_ROW;
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n<title>armprof report: ",
            REPORT_PLOT_WIDTH, height, REPORT_PLOT_WIDTH, height);
    report_escape(out, name);
    fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
          "<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\">armprof report: ",
          out);
    report_escape(out, name);
    fprintf(out,
            "</text>\n<text x=\"16\" y=\"44\" font-size=\"12\">%zu bytes, %" PRIu64
            " records, %" PRIu64 " packets ignored",
            s->bytes, s->records, s->ignored);
    if (s->error) {
        fprintf(out, "; decoding stopped at offset 0x%zx: ", s->error_offset);
        report_escape(out, s->error);
    }
    fputs("</text>\n", out);
    for (unsigned i = 0; i < REPORT_LATENCIES; i++)
        report_plot_histogram(out, &s->latency[i], report_latency_title(i), 0,
                              HEADER + (int)i * REPORT_PLOT_HEIGHT);
    op_mix(out, s, mix_y);
    fputs("</svg>\n", out);
}
