/* SPDX-License-Identifier: BSD-3-Clause */
/* The text report: sections of aligned columns, histograms drawn with '#'. */
#include <inttypes.h>

#include "cli/report_render.h"

#define BAR_WIDTH 40

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void row(FILE *out, const char *label, uint64_t n)
{
    fprintf(out, "  %-40s %10" PRIu64 "\n", label, n);
}

static void row_share(FILE *out, const char *label, uint64_t n, uint64_t whole)
{
    fprintf(out, "  %-40s %10" PRIu64 "  %5.1f%%\n", label, n, share(n, whole));
}

static void summary(FILE *out, const char *name, const report_stats *s)
{
    fprintf(out, "armprof report: %s\n\n", name);
    row(out, "bytes", s->bytes);
    row(out, "records", s->records);
    row(out, "packets", s->packets);
    row(out, "packets ignored (unknown/reserved)", s->ignored);
    if (s->error)
        fprintf(out, "  %-40s offset 0x%zx: %s\n", "decoding stopped", s->error_offset, s->error);
}

static void op_mix(FILE *out, const report_stats *s)
{
    fprintf(out, "\noperation mix (Operation Type)\n");
    for (unsigned k = 0; k <= ARMPROF_SPE_OP_RESERVED; k++) {
        if (!s->op_kind[k]) continue;
        row_share(out, s->op_name[k], s->op_kind[k], s->records);
    }
    if (s->no_op) row_share(out, "(no Operation Type packet)", s->no_op, s->records);
    if (s->op_kind[ARMPROF_SPE_OP_OTHER]) {
        row(out, "other: Advanced SIMD (ASE)", s->other_ase);
        row(out, "other: floating-point (FP)", s->other_fp);
    }
    row(out, "loads", s->loads);
    row(out, "stores", s->stores);
    row(out, "branches", s->branches);
    row(out, "  conditional", s->branch_cond);
    row(out, "  indirect", s->branch_indirect);
    row(out, "  with link (CR 0b01)", s->branch_link);
    row(out, "  procedure return (CR 0b10)", s->branch_return);
    row(out, "  mispredicted (E[7])", s->branch_mispredicted);
    row(out, "  not taken (E[6])", s->branch_not_taken);
}

static void hot_pcs(FILE *out, const report_stats *s, unsigned top)
{
    const size_t n = s->pcs.used < top ? s->pcs.used : top;
    char distinct[96], label[96];
    report_distinct(&s->pcs, distinct, sizeof distinct);
    fprintf(out, "\nhottest PCs (top %zu of %s, %" PRIu64 " records with a PC)\n", n, distinct,
            s->with_pc);
    if (!n) return;
    fprintf(out, "  %-18s %-3s %-10s %10s  %6s\n", "PC", "EL", "security", "samples", "share");
    for (size_t i = 0; i < n; i++) {
        const report_count *c = &s->pc_list[i];
        const armprof_spe_inst_address a = armprof_spe_decode_inst_address(c->key);
        fprintf(out, "  0x%016" PRIx64 " EL%u %-10s %10" PRIu64 "  %5.1f%%\n", a.va, a.el,
                a.security, c->count, share(c->count, s->records));
    }
    /* under the PC, EL and security columns */
    if (report_folded_label(&s->pcs, "PCs", label, sizeof label))
        fprintf(out, "  %-33s %10" PRIu64 "  %5.1f%%\n", label, s->pcs.folded_samples,
                share(s->pcs.folded_samples, s->records));
}

static void histogram(FILE *out, unsigned index, const report_histogram *h)
{
    fprintf(out, "\n%s (Counter %u): %" PRIu64 " samples", report_latency_title(index), index,
            h->samples);
    if (!h->samples) {
        fprintf(out, "\n");
        return;
    }
    fprintf(out, ", min %u, median %u, p90 %u, max %u, mean %.1f\n", h->min,
            report_percentile(h, 50), report_percentile(h, 90), h->max,
            (double)h->sum / (double)h->samples);
    uint64_t most = 0;
    for (unsigned b = 0; b < REPORT_BUCKETS; b++)
        if (h->bucket[b] > most) most = h->bucket[b];
    /* Only the buckets from the lowest to the highest value: the empty
     * ones outside that range would say nothing. */
    const unsigned first = report_bucket_of(h->min), last = report_bucket_of(h->max);
    for (unsigned b = first; b <= last; b++) {
        char label[16];
        report_bucket_label(b, label, sizeof label);
        /* Rounded up so that any non-empty bucket shows at least one '#'. */
        const uint64_t len = (h->bucket[b] * BAR_WIDTH + most - 1) / most;
        fprintf(out, "  %11s cycles %10" PRIu64 " |", label, h->bucket[b]);
        for (uint64_t i = 0; i < len; i++)
            fputc('#', out);
        fputc('\n', out);
    }
}

static void data_sources(FILE *out, const report_stats *s, unsigned top)
{
    char distinct[96], label[96];
    report_distinct(&s->sources, distinct, sizeof distinct);
    fprintf(out,
            "\ndata source (IMPLEMENTATION DEFINED values): %" PRIu64
            " records with a Data Source packet, %s\n",
            s->with_source, distinct);
    for (size_t i = 0; i < s->sources.used && i < top; i++) {
        snprintf(label, sizeof label, "SOURCE 0x%04" PRIx64, s->source_list[i].key);
        row_share(out, label, s->source_list[i].count, s->with_source);
    }
    if (report_folded_label(&s->sources, "values", label, sizeof label))
        row_share(out, label, s->sources.folded_samples, s->with_source);
}

static void events(FILE *out, const report_stats *s)
{
    fprintf(out, "\nevents: %" PRIu64 " records with an Events packet\n", s->with_events);
    for (unsigned b = 0; b < 64; b++) {
        if (!s->event[b]) continue;
        const char *name = armprof_spe_event_name(b);
        char label[80];
        snprintf(label, sizeof label, "E[%u]%s%s", b, name ? " " : "", name ? name : "");
        row_share(out, label, s->event[b], s->with_events);
    }
}

static void timestamps(FILE *out, const report_stats *s)
{
    fprintf(out, "\ntimestamps: %" PRIu64 " records with a Timestamp packet\n", s->with_timestamp);
    if (!s->with_timestamp) return;
    row(out, "first", s->ts_first);
    row(out, "last", s->ts_last);
    row(out, "span (max - min)", s->ts_max - s->ts_min);
    if (s->ts_backwards) row(out, "steps backwards", s->ts_backwards);
}

static void contexts(FILE *out, const report_stats *s)
{
    fprintf(out, "\ncontext IDs\n");
    for (unsigned i = 0; i < 2; i++) {
        char distinct[96], label[96];
        report_distinct(&s->contexts[i], distinct, sizeof distinct);
        fprintf(out, "  CONTEXTIDR_EL%u: %" PRIu64 " records, %s\n", i + 1, s->with_context[i],
                distinct);
        for (size_t j = 0; j < s->contexts[i].used && j < REPORT_TOP_CONTEXTS; j++) {
            snprintf(label, sizeof label, "  0x%08" PRIx64, s->context_list[i][j].key);
            row_share(out, label, s->context_list[i][j].count, s->with_context[i]);
        }
        if (report_folded_label(&s->contexts[i], "values", label, sizeof label))
            row_share(out, label, s->contexts[i].folded_samples, s->with_context[i]);
    }
}

void report_render_text(FILE *out, const char *name, const report_stats *s, unsigned top)
{
    summary(out, name, s);
    op_mix(out, s);
    hot_pcs(out, s, top);
    for (unsigned i = 0; i < REPORT_LATENCIES; i++)
        histogram(out, i, &s->latency[i]);
    data_sources(out, s, top);
    events(out, s);
    timestamps(out, s);
    contexts(out, s);
}
