/* SPDX-License-Identifier: BSD-3-Clause */
/* A latency histogram as an SVG bar chart, shared by the HTML page (inline)
 * and the standalone SVG document (nested). Plain SVG 1.1 shapes and text:
 * no script, no external resource, so any viewer draws it. */
#include <inttypes.h>

#include "cli/report_render.h"

/* Margins leave room for the tick labels and the axis titles. */
#define LEFT   70
#define RIGHT  16
#define TOP    34
#define BOTTOM 78

const char *report_latency_title(unsigned index)
{
    static const char *const titles[REPORT_LATENCIES] = {"total latency", "issue latency",
                                                         "translation latency"};
    return index < REPORT_LATENCIES ? titles[index] : "latency";
}

static void y_axis(FILE *out, uint64_t most, int plot_h)
{
    /* Ticks at 0, half and the tallest bar, which is the scale's top. */
    for (unsigned t = 0; t <= 2; t++) {
        const uint64_t v = most * t / 2;
        /* Below 2 the middle tick would repeat 0 or 1 at a fractional height. */
        if (t == 1 && most < 2) continue;
        const int y = TOP + plot_h - (int)(most ? (uint64_t)plot_h * v / most : 0);
        fprintf(out,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>"
                "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%" PRIu64 "</text>\n",
                LEFT, y, REPORT_PLOT_WIDTH - RIGHT, y, LEFT - 6, y + 4, v);
    }
    fprintf(out,
            "<text transform=\"translate(16 %d) rotate(-90)\" font-size=\"12\" "
            "text-anchor=\"middle\">samples</text>\n",
            TOP + plot_h / 2);
}

void report_plot_histogram(FILE *out, const report_histogram *h, const char *title, int x, int y)
{
    const int plot_w = REPORT_PLOT_WIDTH - LEFT - RIGHT;
    const int plot_h = REPORT_PLOT_HEIGHT - TOP - BOTTOM;
    const int slot = plot_w / REPORT_BUCKETS;
    fprintf(out,
            "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "role=\"img\" font-family=\"sans-serif\">\n<title>",
            x, y, REPORT_PLOT_WIDTH, REPORT_PLOT_HEIGHT, REPORT_PLOT_WIDTH, REPORT_PLOT_HEIGHT);
    report_escape(out, title);
    fprintf(out, "</title>\n<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", LEFT);
    report_escape(out, title);
    fprintf(out, " (%" PRIu64 " samples)</text>\n", h->samples);
    uint64_t most = 0;
    for (unsigned b = 0; b < REPORT_BUCKETS; b++)
        if (h->bucket[b] > most) most = h->bucket[b];
    y_axis(out, most, plot_h);
    for (unsigned b = 0; b < REPORT_BUCKETS; b++) {
        char label[16];
        report_bucket_label(b, label, sizeof label);
        const int bx = LEFT + (int)b * slot;
        const int bh = (int)(most ? (uint64_t)plot_h * h->bucket[b] / most : 0);
        const int bottom = TOP + plot_h;
        /* A <title> in the bar gives the exact count on hover, without
         * script. */
        fprintf(out,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#4a78b5\">"
                "<title>%s cycles: %" PRIu64 "</title></rect>\n",
                bx + 2, bottom - bh, slot - 4, bh, label, h->bucket[b]);
        fprintf(out,
                "<text transform=\"translate(%d %d) rotate(-50)\" font-size=\"10\" "
                "text-anchor=\"end\">%s</text>\n",
                bx + slot / 2 + 3, bottom + 12, label);
    }
    fprintf(out,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n"
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">"
            "latency, cycles (power-of-two buckets)</text>\n</svg>\n",
            LEFT, TOP + plot_h, REPORT_PLOT_WIDTH - RIGHT, TOP + plot_h, LEFT + plot_w / 2,
            REPORT_PLOT_HEIGHT - 8);
}
