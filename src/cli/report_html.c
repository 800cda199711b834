/* SPDX-License-Identifier: BSD-3-Clause */
/* The HTML report: one self-contained page (inline CSS, inline SVG plots,
 * no script, no external resource) so it can be mailed or archived as one
 * file and opened anywhere. */
#include <inttypes.h>

#include "cli/report_render.h"

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* A row of a two- or three-column table; label is escaped. */
static void tr(FILE *out, const char *label, uint64_t n, const uint64_t *whole)
{
    fputs("<tr><td>", out);
    report_escape(out, label);
    fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td>", n);
    if (whole) fprintf(out, "<td class=\"n\">%.1f%%</td>", share(n, *whole));
    fputs("</tr>\n", out);
}

static void head(FILE *out, const char *name)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>armprof report: ",
          out);
    report_escape(out, name);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:2em;color:#222}\n"
          "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
          "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\n"
          "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
          "code{font-size:95%}\n.error{color:#a00;font-weight:bold}\n"
          "</style>\n</head>\n<body>\n<h1>armprof report: ",
          out);
    report_escape(out, name);
    fputs("</h1>\n", out);
}

static void summary(FILE *out, const report_stats *s)
{
    fputs("<h2>Summary</h2>\n<table>\n", out);
    tr(out, "bytes", s->bytes, NULL);
    tr(out, "records", s->records, NULL);
    tr(out, "packets", s->packets, NULL);
    tr(out, "packets ignored (unknown/reserved)", s->ignored, NULL);
    fputs("</table>\n", out);
    if (s->error) {
        fprintf(out, "<p class=\"error\">Decoding stopped at offset 0x%zx: ", s->error_offset);
        report_escape(out, s->error);
        fputs("</p>\n", out);
    }
}

static void op_mix(FILE *out, const report_stats *s)
{
    fputs("<h2>Operation mix</h2>\n<table>\n<tr><th>Operation Type</th><th>records</th>"
          "<th>share</th></tr>\n",
          out);
    for (unsigned k = 0; k <= ARMPROF_SPE_OP_RESERVED; k++)
        if (s->op_kind[k]) tr(out, s->op_name[k], s->op_kind[k], &s->records);
    if (s->no_op) tr(out, "(no Operation Type packet)", s->no_op, &s->records);
    fputs("</table>\n<table>\n", out);
    tr(out, "other operations: Advanced SIMD (ASE)", s->other_ase, NULL);
    tr(out, "other operations: floating-point (FP)", s->other_fp, NULL);
    tr(out, "loads", s->loads, NULL);
    tr(out, "stores", s->stores, NULL);
    tr(out, "branches", s->branches, NULL);
    tr(out, "conditional branches", s->branch_cond, NULL);
    tr(out, "indirect branches", s->branch_indirect, NULL);
    tr(out, "branches with link (CR 0b01)", s->branch_link, NULL);
    tr(out, "procedure returns (CR 0b10)", s->branch_return, NULL);
    tr(out, "mispredicted branches (E[7])", s->branch_mispredicted, NULL);
    tr(out, "not-taken branches (E[6])", s->branch_not_taken, NULL);
    fputs("</table>\n", out);
}

static void hot_pcs(FILE *out, const report_stats *s, unsigned top)
{
    const size_t n = s->pcs.used < top ? s->pcs.used : top;
    char distinct[96], label[96];
    report_distinct(&s->pcs, distinct, sizeof distinct);
    fprintf(out,
            "<h2>Hottest PCs</h2>\n<p>Top %zu of %s PCs; %" PRIu64
            " records with a PC.</p>\n<table>\n<tr><th>PC</th><th>EL</th><th>security</th>"
            "<th>samples</th><th>share</th></tr>\n",
            n, distinct, s->with_pc);
    for (size_t i = 0; i < n; i++) {
        const report_count *c = &s->pc_list[i];
        const armprof_spe_inst_address a = armprof_spe_decode_inst_address(c->key);
        fprintf(out,
                "<tr><td><code>0x%016" PRIx64 "</code></td><td>EL%u</td><td>%s</td>"
                "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%.1f%%</td></tr>\n",
                a.va, a.el, a.security, c->count, share(c->count, s->records));
    }
    if (report_folded_label(&s->pcs, "PCs", label, sizeof label)) {
        fputs("<tr><td colspan=\"3\">", out);
        report_escape(out, label);
        fprintf(out, "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%.1f%%</td></tr>\n",
                s->pcs.folded_samples, share(s->pcs.folded_samples, s->records));
    }
    fputs("</table>\n", out);
}

static void latencies(FILE *out, const report_stats *s)
{
    fputs("<h2>Latency</h2>\n", out);
    for (unsigned i = 0; i < REPORT_LATENCIES; i++) {
        const report_histogram *h = &s->latency[i];
        fprintf(out, "<h3>%s (Counter %u)</h3>\n<p>%" PRIu64 " samples", report_latency_title(i), i,
                h->samples);
        if (h->samples)
            fprintf(out, "; min %u, median %u, p90 %u, max %u, mean %.1f cycles", h->min,
                    report_percentile(h, 50), report_percentile(h, 90), h->max,
                    (double)h->sum / (double)h->samples);
        fputs(".</p>\n", out);
        report_plot_histogram(out, h, report_latency_title(i), 0, 0);
    }
}

static void data_sources(FILE *out, const report_stats *s, unsigned top)
{
    char distinct[96], label[96];
    report_distinct(&s->sources, distinct, sizeof distinct);
    fprintf(out,
            "<h2>Data source</h2>\n<p>%" PRIu64 " records with a Data Source packet, %s "
            "values (IMPLEMENTATION DEFINED meaning).</p>\n<table>\n"
            "<tr><th>SOURCE</th><th>records</th><th>share</th></tr>\n",
            s->with_source, distinct);
    for (size_t i = 0; i < s->sources.used && i < top; i++) {
        snprintf(label, sizeof label, "0x%04" PRIx64, s->source_list[i].key);
        tr(out, label, s->source_list[i].count, &s->with_source);
    }
    if (report_folded_label(&s->sources, "values", label, sizeof label))
        tr(out, label, s->sources.folded_samples, &s->with_source);
    fputs("</table>\n", out);
}

static void events(FILE *out, const report_stats *s)
{
    fprintf(out,
            "<h2>Events</h2>\n<p>%" PRIu64 " records with an Events packet.</p>\n<table>\n"
            "<tr><th>event</th><th>records</th><th>share</th></tr>\n",
            s->with_events);
    for (unsigned b = 0; b < 64; b++) {
        if (!s->event[b]) continue;
        const char *name = armprof_spe_event_name(b);
        char label[80];
        snprintf(label, sizeof label, "E[%u]%s%s", b, name ? " " : "", name ? name : "");
        tr(out, label, s->event[b], &s->with_events);
    }
    fputs("</table>\n", out);
}

static void timestamps(FILE *out, const report_stats *s)
{
    fprintf(out, "<h2>Timestamps</h2>\n<p>%" PRIu64 " records with a Timestamp packet.</p>\n",
            s->with_timestamp);
    if (!s->with_timestamp) return;
    fputs("<table>\n", out);
    tr(out, "first", s->ts_first, NULL);
    tr(out, "last", s->ts_last, NULL);
    tr(out, "span (max - min)", s->ts_max - s->ts_min, NULL);
    tr(out, "steps backwards", s->ts_backwards, NULL);
    fputs("</table>\n", out);
}

static void contexts(FILE *out, const report_stats *s)
{
    fputs("<h2>Context IDs</h2>\n", out);
    for (unsigned i = 0; i < 2; i++) {
        char distinct[96], label[96];
        report_distinct(&s->contexts[i], distinct, sizeof distinct);
        fprintf(out, "<h3>CONTEXTIDR_EL%u</h3>\n<p>%" PRIu64 " records, %s values.</p>\n", i + 1,
                s->with_context[i], distinct);
        if (!s->contexts[i].used) continue;
        fputs("<table>\n<tr><th>value</th><th>records</th><th>share</th></tr>\n", out);
        for (size_t j = 0; j < s->contexts[i].used && j < REPORT_TOP_CONTEXTS; j++) {
            snprintf(label, sizeof label, "0x%08" PRIx64, s->context_list[i][j].key);
            tr(out, label, s->context_list[i][j].count, &s->with_context[i]);
        }
        if (report_folded_label(&s->contexts[i], "values", label, sizeof label))
            tr(out, label, s->contexts[i].folded_samples, &s->with_context[i]);
        fputs("</table>\n", out);
    }
}

void report_render_html(FILE *out, const char *name, const report_stats *s, unsigned top)
{
    head(out, name);
    summary(out, s);
    op_mix(out, s);
    hot_pcs(out, s, top);
    latencies(out, s);
    data_sources(out, s, top);
    events(out, s);
    timestamps(out, s);
    contexts(out, s);
    fputs("</body>\n</html>\n", out);
}
