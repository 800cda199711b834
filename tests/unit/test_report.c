/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report: the statistics gathered from hand-built records, the
 * text histogram, the HTML and SVG documents, and a malformed stream.
 *
 * The records are written byte by byte from the encodings of D18.2:
 *   Address, short header  0xB0 | INDEX, 8-byte payload; byte 7 is
 *                          NS:EL[1:0]:NSE:0000 for an instruction address
 *   Counter, short header  0x98 | INDEX, 2-byte little-endian COUNT
 *   Operation Type         0x48 | CLASS, 1-byte SUBCLASS
 *   Events                 0x42 | SZ << 4, 1 << SZ payload bytes
 *   Data Source            0x43 | SZ << 4
 *   Context                0x64 | INDEX, 4-byte payload
 *   Timestamp              0x71, 8-byte payload (ends a record)
 *   End                    0x01;  Padding 0x00 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/report.h"
#include "cli/report_stats.h"

typedef struct bytes {
    uint8_t b[512];
    size_t n;
} bytes;

/* report_collect() over bytes in memory. */
static int collect(report_stats *st, const uint8_t *b, size_t n)
{
    record_source src;
    record_source_bytes(&src, b, n);
    return report_collect(st, &src);
}

static void put(bytes *s, size_t n, const uint8_t *v)
{
    memcpy(s->b + s->n, v, n);
    s->n += n;
}

/* Address packet INDEX 0 (PC): va bits [55:0], byte 7 = NS:EL:NSE:0000. */
static void pc(bytes *s, uint64_t va, unsigned el, unsigned ns)
{
    uint8_t p[9] = {0xb0};
    for (unsigned i = 0; i < 7; i++)
        p[1 + i] = (uint8_t)(va >> 8 * i);
    p[8] = (uint8_t)(ns << 7 | el << 5);
    put(s, sizeof p, p);
}

static void counter(bytes *s, unsigned index, uint16_t count)
{
    const uint8_t p[3] = {(uint8_t)(0x98 | index), (uint8_t)count, (uint8_t)(count >> 8)};
    put(s, sizeof p, p);
}

static void op(bytes *s, unsigned op_class, uint8_t subclass)
{
    const uint8_t p[2] = {(uint8_t)(0x48 | op_class), subclass};
    put(s, sizeof p, p);
}

/* Events with a 2-byte payload (SZ 0b01) so that bit 12 can be set. */
static void events(bytes *s, uint16_t e)
{
    const uint8_t p[3] = {0x52, (uint8_t)e, (uint8_t)(e >> 8)};
    put(s, sizeof p, p);
}

static void source(bytes *s, uint8_t v)
{
    const uint8_t p[2] = {0x43, v};
    put(s, sizeof p, p);
}

static void context(bytes *s, unsigned index, uint32_t v)
{
    const uint8_t p[5] = {(uint8_t)(0x64 | index), (uint8_t)v, (uint8_t)(v >> 8),
                          (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(s, sizeof p, p);
}

static void timestamp(bytes *s, uint64_t ts)
{
    uint8_t p[9] = {0x71};
    for (unsigned i = 0; i < 8; i++)
        p[1 + i] = (uint8_t)(ts >> 8 * i);
    put(s, sizeof p, p);
}

static void byte(bytes *s, uint8_t v)
{
    put(s, 1, &v);
}

#define PC_A UINT64_C(0x401000)
#define PC_B UINT64_C(0x402000)
#define PC_K UINT64_C(0xffff800010000000) /* stored as 0x80_0010_0000_0000 */

/* Six records:
 *  0 load   PC_A EL0 NS  total 0,   issue 1, trans 2   E[1]  src 1  ctx1 7  ts 500
 *  1 load   PC_A EL0 NS  total 3,   issue 1            E[1],E[2],E[12]  ctx1 7
 *  2 store  PC_B EL0 NS  total 100                     E[1]  src 1  ctx1 9  ts 300
 *  3 branch PC_K EL1 S   total 65535  cond, mispredicted E[7]            ts 900
 *  4 branch PC_A EL0 NS  total 7  indirect, not taken E[6]   ctx2 0x55
 *  5 SVE data processing, no PC, an unknown packet 0x02, a reserved
 *    Counter INDEX 3, and Padding before it. */
static bytes sample_stream(void)
{
    bytes s = {.n = 0};
    pc(&s, PC_A, 0, 1), op(&s, 1, 0x00), events(&s, 0x0002), counter(&s, 0, 0);
    counter(&s, 1, 1), counter(&s, 2, 2), source(&s, 1), context(&s, 0, 7), timestamp(&s, 500);

    pc(&s, PC_A, 0, 1), op(&s, 1, 0x00), events(&s, 0x1006), counter(&s, 0, 3);
    counter(&s, 1, 1), context(&s, 0, 7), byte(&s, 0x01);

    pc(&s, PC_B, 0, 1), op(&s, 1, 0x01), events(&s, 0x0002), counter(&s, 0, 100);
    source(&s, 1), context(&s, 0, 9), timestamp(&s, 300);

    pc(&s, PC_K, 1, 0), op(&s, 2, 0x01), events(&s, 0x0080), counter(&s, 0, 0xffff);
    timestamp(&s, 900);

    pc(&s, PC_A, 0, 1), op(&s, 2, 0x02), events(&s, 0x0040), counter(&s, 0, 7);
    context(&s, 1, 0x55), byte(&s, 0x01);

    byte(&s, 0x00), byte(&s, 0x00);
    op(&s, 0, 0x08), byte(&s, 0x02), counter(&s, 3, 9), byte(&s, 0x01);
    return s;
}

/* The Operation Type subclasses the report counts beyond the kinds
 * (D18.2.7): Branch CR, byte 0 bits [4:3] (0b01 Branch with link, 0b10
 * Procedure return, 0b11 neither); Other ASE, bit [2], and FP, bit [1].
 * Five records, each an Operation Type packet and End. */
static void test_call_return_simd(void)
{
    bytes s = {.n = 0};
    op(&s, 2, 0x08), byte(&s, 0x01); /* BL: CR 0b01 */
    op(&s, 2, 0x12), byte(&s, 0x01); /* RET: CR 0b10, IND */
    op(&s, 2, 0x19), byte(&s, 0x01); /* B.cond: CR 0b11, COND */
    op(&s, 0, 0x06), byte(&s, 0x01); /* Other: ASE and FP */
    op(&s, 0, 0x04), byte(&s, 0x01); /* Other: ASE */
    report_stats st;
    CHECK(report_stats_init(&st, 0), "init");
    CHECK(collect(&st, s.b, s.n) == 0, "well formed");
    CHECK(st.records == 5 && st.branches == 3, "records %llu", (unsigned long long)st.records);
    CHECK(st.branch_link == 1 && st.branch_return == 1 && st.branch_indirect == 1 &&
              st.branch_cond == 1,
          "link %llu, return %llu", (unsigned long long)st.branch_link,
          (unsigned long long)st.branch_return);
    CHECK(st.other_ase == 2 && st.other_fp == 1, "ASE %llu, FP %llu",
          (unsigned long long)st.other_ase, (unsigned long long)st.other_fp);
    report_stats_free(&st);
}

static void test_statistics(void)
{
    const bytes s = sample_stream();
    report_stats st;
    CHECK(report_stats_init(&st, 0), "init");
    CHECK(collect(&st, s.b, s.n) == 0, "well formed");
    CHECK(report_stats_sort(&st), "sort");
    CHECK(st.bytes == s.n && st.records == 6, "records %llu", (unsigned long long)st.records);
    CHECK(st.ignored == 2, "ignored %llu", (unsigned long long)st.ignored);
    CHECK(st.op_kind[ARMPROF_SPE_OP_LDST_GP] == 3 && st.op_kind[ARMPROF_SPE_OP_BRANCH] == 2 &&
              st.op_kind[ARMPROF_SPE_OP_SVE] == 1 && st.no_op == 0,
          "op mix");
    CHECK(st.loads == 2 && st.stores == 1, "load/store split");
    CHECK(st.branches == 2 && st.branch_cond == 1 && st.branch_indirect == 1 &&
              st.branch_mispredicted == 1 && st.branch_not_taken == 1,
          "branches");

    /* PCs: A three times, then B and K once each, B first by the tie
     * rule (ascending payload). */
    CHECK(st.with_pc == 5 && st.pcs.used == 3, "pcs");
    const armprof_spe_inst_address a0 = armprof_spe_decode_inst_address(st.pc_list[0].key);
    const armprof_spe_inst_address a1 = armprof_spe_decode_inst_address(st.pc_list[1].key);
    const armprof_spe_inst_address a2 = armprof_spe_decode_inst_address(st.pc_list[2].key);
    CHECK(a0.va == PC_A && st.pc_list[0].count == 3 && a0.el == 0 && a0.ns, "top pc");
    CHECK(a1.va == PC_K && a1.el == 1 && !a1.ns && !strcmp(a1.security, "Secure"), "second pc %llx",
          (unsigned long long)a1.va);
    CHECK(a2.va == PC_B && st.pc_list[2].count == 1, "third pc");

    /* Total latency 0, 3, 100, 65535, 7: buckets 0, 2-3, 4-7, 64-127,
     * 32768-65535. Median is the 3rd of 5 (7), p90 the 5th. */
    const report_histogram *t = &st.latency[0];
    CHECK(t->samples == 5 && t->min == 0 && t->max == 65535, "total");
    CHECK(t->bucket[0] == 1 && t->bucket[2] == 1 && t->bucket[3] == 1 && t->bucket[7] == 1 &&
              t->bucket[16] == 1 && t->bucket[1] == 0,
          "total buckets");
    CHECK(report_percentile(t, 50) == 7 && report_percentile(t, 90) == 65535, "percentiles");
    CHECK(t->sum == 0 + 3 + 100 + 65535 + 7, "sum");
    CHECK(st.latency[1].samples == 2 && st.latency[1].bucket[1] == 2, "issue");
    CHECK(st.latency[2].samples == 1 && st.latency[2].bucket[2] == 1, "translation");

    CHECK(st.with_source == 2 && st.sources.used == 1 && st.source_list[0].key == 1, "source");
    CHECK(st.with_events == 5 && st.event[1] == 3 && st.event[2] == 1 && st.event[12] == 1 &&
              st.event[7] == 1 && st.event[6] == 1 && st.event[0] == 0,
          "events");
    CHECK(st.with_timestamp == 3 && st.ts_first == 500 && st.ts_last == 900 &&
              st.ts_max - st.ts_min == 600 && st.ts_backwards == 1,
          "timestamps");
    CHECK(st.with_context[0] == 3 && st.contexts[0].used == 2 && st.context_list[0][0].key == 7 &&
              st.context_list[0][0].count == 2,
          "contextidr_el1");
    CHECK(st.with_context[1] == 1 && st.context_list[1][0].key == 0x55, "contextidr_el2");
    report_stats_free(&st);
}

static void test_buckets(void)
{
    CHECK(report_bucket_of(0) == 0 && report_bucket_of(1) == 1 && report_bucket_of(2) == 2 &&
              report_bucket_of(3) == 2 && report_bucket_of(4) == 3 &&
              report_bucket_of(32767) == 15 && report_bucket_of(65535) == 16,
          "bucket_of");
    char l[16];
    report_bucket_label(16, l, sizeof l);
    CHECK(!strcmp(l, "32768-65535"), "label %s", l);
    report_bucket_label(2, l, sizeof l);
    CHECK(!strcmp(l, "2-3"), "label %s", l);
}

/* The report as a string, by a temporary file (C11 has no memory stream). */
static char *render(const char *name, const bytes *s, report_format format, int *rc)
{
    FILE *f = tmpfile();
    if (!f) return NULL;
    report_options o = {.format = format, .top = 2};
    record_source src;
    record_source_bytes(&src, s->b, s->n);
    *rc = report_write(f, name, &src, &o);
    const long len = ftell(f);
    rewind(f);
    char *text = calloc((size_t)len + 1, 1);
    if (text && fread(text, 1, (size_t)len, f) != (size_t)len) text[0] = 0;
    fclose(f);
    return text;
}

static unsigned occurrences(const char *text, const char *what)
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void test_text(void)
{
    const bytes s = sample_stream();
    int rc;
    char *t = render("sample", &s, REPORT_TEXT, &rc);
    CHECK(t && rc == 0, "text");
    if (!t) return;
    CHECK(strstr(t, "records                                           6"), "records line");
    CHECK(strstr(t, "hottest PCs (top 2 of 3 distinct"), "top 2");
    CHECK(strstr(t, "0x0000000000401000 EL0 Non-secure          3   50.0%"), "pc row");
    CHECK(!strstr(t, "0x0000000000402000"), "--top 2 leaves the third PC out");
    /* The tallest total-latency bucket holds 1: every non-empty bar is 40. */
    CHECK(strstr(t, "32768-65535 cycles          1 |########################################\n"),
          "bar");
    CHECK(strstr(t, "8-15 cycles          0 |\n"), "empty bucket");
    CHECK(strstr(t, "E[12]    "), "unnamed event bit");
    CHECK(strstr(t, "E[7] Mispredicted"), "named event bit");
    CHECK(strstr(t, "median 7, p90 65535, max 65535"), "stats line");
    free(t);
}

static void test_markup(void)
{
    const bytes s = sample_stream();
    int rc;
    char *h = render("a<b>&\"c\"", &s, REPORT_HTML, &rc);
    CHECK(h && rc == 0, "html");
    if (h) {
        CHECK(occurrences(h, "<svg") == REPORT_LATENCIES, "one plot per histogram");
        CHECK(!strstr(h, "http") && !strstr(h, "<script"), "no external reference, no script");
        CHECK(strstr(h, "a&lt;b&gt;&amp;&quot;c&quot;") && !strstr(h, "a<b>"), "escaped name");
        CHECK(strstr(h, "<title>armprof report: a&lt;b"), "title");
        free(h);
    }
    char *v = render("x&y", &s, REPORT_SVG, &rc);
    CHECK(v && rc == 0, "svg");
    if (v) {
        CHECK(!strncmp(v, "<?xml", 5) && occurrences(v, "<svg") == 1 + REPORT_LATENCIES,
              "standalone document with nested plots");
        CHECK(strstr(v, "x&amp;y") && !strstr(v, "x&y"), "escaped in svg");
        CHECK(strstr(v, "Data processing, SVE vector"), "op mix plot");
        free(v);
    }
}

static void test_truncated(void)
{
    bytes s = sample_stream();
    /* Cut the stream inside record 3's total latency Counter packet: the
     * report covers records 0 to 2 and names that packet's offset. */
    size_t cut = 0;
    for (size_t i = 0; i + 2 < s.n; i++)
        if (s.b[i] == 0x98 && s.b[i + 1] == 0xff && s.b[i + 2] == 0xff) cut = i;
    CHECK(cut > 0, "found the packet");
    s.n = cut + 2;
    report_stats st;
    CHECK(report_stats_init(&st, 0), "init");
    CHECK(collect(&st, s.b, s.n) == 1, "malformed");
    CHECK(st.records == 3 && st.error_offset == cut && st.error, "records %llu offset %zu",
          (unsigned long long)st.records, st.error_offset);
    report_stats_free(&st);

    int rc;
    char *t = render("cut", &s, REPORT_TEXT, &rc);
    char want[64];
    snprintf(want, sizeof want, "offset 0x%zx: packet payload truncated", cut);
    CHECK(t && rc == 1 && strstr(t, want), "text says where it stopped");
    free(t);

    /* A record without End or Timestamp: the offset is the record's. */
    bytes open_record = {.n = 0};
    byte(&open_record, 0x00);
    op(&open_record, 1, 0x00);
    report_stats st2;
    CHECK(report_stats_init(&st2, 0), "init");
    CHECK(collect(&st2, open_record.b, open_record.n) == 1 && st2.records == 0 &&
              st2.error_offset == 1,
          "unended record at %zu", st2.error_offset);
    report_stats_free(&st2);
}

static void test_empty(void)
{
    const bytes s = {.n = 0};
    int rc;
    char *t = render("empty", &s, REPORT_TEXT, &rc);
    CHECK(t && rc == 0 && strstr(t, "total latency (Counter 0): 0 samples\n"), "empty");
    free(t);
    char *h = render("empty", &s, REPORT_HTML, &rc);
    CHECK(h && rc == 0 && occurrences(h, "<svg") == REPORT_LATENCIES, "empty html");
    free(h);
}

int main(void)
{
    test_buckets();
    test_statistics();
    test_call_return_simd();
    test_text();
    test_markup();
    test_truncated();
    test_empty();
    return check_summary();
}
