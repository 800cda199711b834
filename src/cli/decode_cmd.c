/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof decode FILE: the packets of an SPE record stream, one a line with
 * the manual's names (D18.2), records separated; --json gives a JSON object
 * a record. Runs of Padding are shown as one line. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/report_input.h"
#include "cli/report_progress.h"
#include "cli/report_source.h"

typedef struct decode_view {
    FILE *out;
    bool json;
    bool write_failed; /* cli_write_failed(out) after a flush */
    size_t records, packets, ignored;
    /* The lines, gathered here and written 64 KB at a time: an fwrite() per
     * line (a lock, a copy) was a fifth of the command's time. */
    size_t used;
    char *buf; /* DECODE_BLOCK bytes */
} decode_view;

enum { DECODE_BLOCK = 1 << 16 };

static void view_flush(decode_view *v)
{
    if (!v->used) return;
    fwrite(v->buf, 1, v->used, v->out);
    v->used = 0;
    if (cli_write_failed(v->out)) v->write_failed = true;
}

/* A line of at most 1 KB (every line this command writes is shorter). */
static void emit(decode_view *v, const char *text, size_t n)
{
    if (v->used + n > DECODE_BLOCK) view_flush(v);
    memcpy(v->buf + v->used, text, n);
    v->used += n;
}

static void emitf(decode_view *v, const char *format, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, format);
    const int n = vsnprintf(line, sizeof line, format, ap);
    va_end(ap);
    if (n > 0) emit(v, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* Decimal and hexadecimal digits of v at line + n (hex: at least
 * min_digits of them, lower case); the new length. By hand, with
 * memcpy() for the words: snprintf() for the lines every record and run
 * of Padding has was a tenth of the command's time. */
static size_t put_dec(char *line, size_t n, size_t v)
{
    char digits[24];
    size_t k = 0;
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        line[n++] = digits[--k];
    return n;
}

static size_t put_hex(char *line, size_t n, size_t v, unsigned min_digits)
{
    static const char hex[] = "0123456789abcdef";
    unsigned width = 1;
    for (size_t rest = v >> 4; rest; rest >>= 4)
        width++;
    if (width < min_digits) width = min_digits;
    for (unsigned d = width; d-- > 0;)
        line[n++] = hex[(v >> (4 * d)) & 15];
    return n;
}

static size_t put_str(char *line, size_t n, const char *text, size_t len)
{
    memcpy(line + n, text, len);
    return n + len;
}
#define PUT_LITERAL(line, n, text) put_str(line, n, text, sizeof text - 1)

/* Padding between records (D18.1.3), shown as one line a run. */
static void show_padding(decode_view *v, size_t start, size_t end)
{
    if (start >= end) return;
    char line[96];
    size_t n = 0;
    if (v->json) {
        /* {"padding":{"offset":START,"size":SIZE}} */
        n = PUT_LITERAL(line, n, "{\"padding\":{\"offset\":");
        n = put_dec(line, n, start);
        n = PUT_LITERAL(line, n, ",\"size\":");
        n = put_dec(line, n, end - start);
        n = PUT_LITERAL(line, n, "}}\n");
    } else {
        /* "%08zx  %-30s Padding x%zu" of the offset, "00 ..." and the size */
        n = put_hex(line, n, start, 8);
        n = PUT_LITERAL(line, n, "  00 ...                         Padding x");
        n = put_dec(line, n, end - start);
        line[n++] = '\n';
    }
    emit(v, line, n);
}

/* The packet's bytes come from its header and payload (little-endian,
 * D18.1.2), not from the file: the block they were read in may be gone. */
static void show_packet(decode_view *v, const armprof_spe_packet *p, bool first)
{
    char line[512];
    if (v->json) {
        line[0] = ',';
        const int len = armprof_spe_packet_json(p, line + 1, sizeof line - 1);
        const size_t n = len > 0 && (size_t)len < sizeof line - 1 ? (size_t)len : strlen(line + 1);
        emit(v, first ? line + 1 : line, first ? n : n + 1);
        return;
    }
    /* "%08zx  %-30s %s\n" of the offset, the bytes and the text, formatted
     * by hand: snprintf() per byte was most of the command's time. */
    static const char hex[] = "0123456789abcdef";
    char out[600];
    size_t n = put_hex(out, 0, p->offset, 8);
    out[n++] = ' ';
    out[n++] = ' ';
    const size_t raw_start = n;
    for (unsigned i = 0; i < (unsigned)p->header_size + p->payload_size; i++) {
        const unsigned byte = i < p->header_size
                                  ? p->header[i]
                                  : (unsigned)(p->payload >> 8 * (i - p->header_size)) & 0xff;
        if (i) out[n++] = ' ';
        out[n++] = hex[byte >> 4];
        out[n++] = hex[byte & 15];
    }
    while (n - raw_start < 30)
        out[n++] = ' ';
    out[n++] = ' ';
    const int len = armprof_spe_packet_text(p, out + n, sizeof out - n - 1);
    n += len > 0 && (size_t)len < sizeof out - n - 1 ? (size_t)len : strlen(out + n);
    out[n++] = '\n';
    emit(v, out, n);
}

static void open_record(decode_view *v, size_t offset)
{
    char line[96];
    size_t n = 0;
    if (v->json) {
        /* {"record":N,"offset":OFFSET,"packets":[ */
        n = PUT_LITERAL(line, n, "{\"record\":");
        n = put_dec(line, n, v->records);
        n = PUT_LITERAL(line, n, ",\"offset\":");
        n = put_dec(line, n, offset);
        n = PUT_LITERAL(line, n, ",\"packets\":[");
    } else {
        /* "%srecord %zu at 0x%zx\n" */
        if (v->records) line[n++] = '\n';
        n = PUT_LITERAL(line, n, "record ");
        n = put_dec(line, n, v->records);
        n = PUT_LITERAL(line, n, " at 0x");
        n = put_hex(line, n, offset, 1);
        line[n++] = '\n';
    }
    emit(v, line, n);
}

static void close_record(decode_view *v, const armprof_spe_record *r)
{
    if (v->json) emit(v, "]}\n", 3);
    v->packets += r->packets;
    v->ignored += r->ignored;
}

/* The packets of one stream (the file, or one CPU's AUX data in a
 * perf.data file), packet by packet, a block at a time: memory does not
 * grow with the data. A record's packets are shown as they come. 0, 1 when
 * the data is malformed, 2 on a read error; *bytes counts the stream's. */
static int decode_stream(decode_view *v, record_source *src, const char *what, size_t *bytes)
{
    armprof_spe_stream s;
    armprof_spe_stream_init(&s);
    armprof_spe_record r = {0};
    armprof_spe_packet p;
    armprof_spe_decode_status st = ARMPROF_SPE_DECODE_OK;
    size_t end = 0; /* of the previous record */
    bool in_record = false;
    /* A large file stops at the first failed write (main() reports it). */
    while (!v->write_failed &&
           (st = armprof_spe_stream_next_packet(&s, &p)) != ARMPROF_SPE_DECODE_EOF) {
        if (st == ARMPROF_SPE_DECODE_MORE) {
            if (!record_source_refill(src, &s)) break;
            continue;
        }
        if (st == ARMPROF_SPE_DECODE_ERROR) break;
        if (!in_record) {
            if (p.type == ARMPROF_SPE_PKT_PADDING) continue; /* shown as a run */
            show_padding(v, end, p.offset);
            memset(&r, 0, sizeof r);
            open_record(v, p.offset);
            in_record = true;
        }
        show_packet(v, &p, r.packets == 0);
        if (armprof_spe_record_add_packet(&r, &p)) {
            close_record(v, &r);
            v->records++; /* ended by End or Timestamp */
            end = r.offset + r.size;
            in_record = false;
        }
    }
    const size_t size = src->bytes;
    *bytes += size;
    const char *error = s.error;
    size_t error_offset = s.error_offset;
    if (in_record && st != ARMPROF_SPE_DECODE_OK) {
        close_record(v, &r); /* cut off by the error: what it had is shown */
        if (st == ARMPROF_SPE_DECODE_EOF) {
            /* The packet decoder knows no records: this one is ours to
             * report, in armprof_spe_next_record()'s words. */
            st = ARMPROF_SPE_DECODE_ERROR;
            error = "record not ended by an End or Timestamp packet before the end of the data";
            error_offset = r.offset;
        }
    }
    if (src->read_errno) {
        report_progress_end(src->progress);
        fprintf(stderr, "armprof decode: %s: read error after %zu bytes: %s\n", what, size,
                src->perf ? armprof_perf_error(src->perf) : strerror(src->read_errno));
        return 2;
    }
    if (st == ARMPROF_SPE_DECODE_EOF) {
        show_padding(v, end, size);
    } else if (st == ARMPROF_SPE_DECODE_ERROR) {
        if (v->json) emitf(v, "{\"error\":\"%s\",\"offset\":%zu}\n", error, error_offset);
        report_progress_end(src->progress);
        fprintf(stderr, "armprof decode: %s: offset 0x%zx: %s\n", what, error_offset, error);
        return 1;
    }
    return 0;
}

/* A perf.data file: each CPU's AUX data as a stream of its own, offsets
 * from the start of that CPU's data. */
static int decode_perf_data(decode_view *v, report_input *in, report_progress *progress,
                            size_t *bytes)
{
    const perf_cpu_index *ix = &in->ix;
    int rc = 0;
    for (size_t i = 0; i < ix->ncpus && rc < 2 && !v->write_failed; i++) {
        const size_t events = ix->start[i + 1] - ix->start[i];
        const long long cpu = ix->cpu[i] == UINT32_MAX ? -1 : (long long)ix->cpu[i];
        if (v->json)
            emitf(v, "{\"cpu\":%lld,\"bytes\":%llu,\"aux_events\":%zu}\n", cpu,
                  (unsigned long long)ix->bytes[i], events);
        else
            emitf(v, "%scpu %lld: %llu bytes of AUX data in %zu AUXTRACE event%s\n",
                  v->records ? "\n" : "", cpu, (unsigned long long)ix->bytes[i], events,
                  events == 1 ? "" : "s");
        record_source src;
        if (!report_input_source(in, &src, i)) {
            fprintf(stderr, "armprof decode: out of memory\n");
            rc = 2;
            break;
        }
        src.progress = progress;
        char what[600];
        snprintf(what, sizeof what, "%s: cpu %lld", in->name, cpu);
        const int src_rc = decode_stream(v, &src, what, bytes);
        if (src_rc > rc) rc = src_rc;
        record_source_free(&src);
    }
    return rc;
}

int decode_command(int argc, char **argv)
{
    decode_view v = {.out = stdout};
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            v.json = true;
        else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "armprof decode: unknown option '%s'\n", argv[i]);
            return 2;
        } else if (!path)
            path = argv[i];
        else {
            fprintf(stderr, "armprof decode: one file at a time ('%s')\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: armprof decode [--json] FILE|-\n");
        return 2;
    }
    report_input in;
    if (report_input_open(&in, path, "armprof decode", stderr) != 0) return 2;
    if (!cli_stdout_allowed("armprof decode", &in.same_file, 1)) {
        report_input_close(&in);
        return 2;
    }
    v.buf = malloc(DECODE_BLOCK);
    record_source source, *const src = &source;
    if (!v.buf || (!in.perf && !report_input_source(&in, src, 0))) {
        free(v.buf);
        fprintf(stderr, "armprof decode: out of memory\n");
        report_input_close(&in);
        return 2;
    }
    report_progress progress;
    report_progress_init(&progress, stderr, "armprof decode", in.name, in.size);
    size_t size = 0;
    int rc;
    if (in.perf) {
        rc = decode_perf_data(&v, &in, &progress, &size);
    } else {
        src->progress = &progress;
        rc = decode_stream(&v, src, in.name, &size);
        record_source_free(src);
    }
    report_progress_end(&progress);
    report_input_close(&in);
    if (rc < 2) {
        if (v.json)
            emitf(&v,
                  "{\"summary\":{\"bytes\":%zu,\"records\":%zu,\"packets\":%zu,\"ignored\":%zu}}\n",
                  size, v.records, v.packets, v.ignored);
        else
            emitf(&v, "\n%zu bytes, %zu records, %zu packets (%zu ignored)\n", size, v.records,
                  v.packets, v.ignored);
    }
    view_flush(&v);
    free(v.buf);
    return rc;
}
