/* SPDX-License-Identifier: BSD-3-Clause */
/* The renderers of `armprof report`: each writes a report_stats (sorted by
 * report_stats_sort()) in one format. top is how many PCs and Data Source
 * values to list. */
#ifndef ARMPROF_CLI_REPORT_RENDER_H
#define ARMPROF_CLI_REPORT_RENDER_H

#include <stdio.h>

#include "cli/report_stats.h"

/* How many CONTEXTIDR values each list shows. */
#define REPORT_TOP_CONTEXTS 5

void report_render_text(FILE *out, const char *name, const report_stats *s, unsigned top);
void report_render_html(FILE *out, const char *name, const report_stats *s, unsigned top);
void report_render_svg(FILE *out, const char *name, const report_stats *s);

/* Writes text with &, <, >, " and ' as character references, so that a
 * file name or a decoder message cannot end an element or attribute. */
void report_escape(FILE *out, const char *text);

/* Plot size in SVG user units. */
#define REPORT_PLOT_WIDTH  640
#define REPORT_PLOT_HEIGHT 300

/* One latency histogram as an <svg> bar chart of REPORT_BUCKETS bars with
 * axis titles; at (x, y) when nested in another <svg>. */
void report_plot_histogram(FILE *out, const report_histogram *h, const char *title, int x, int y);

/* What both text and markup call the latency counters. */
const char *report_latency_title(unsigned index);

#endif
