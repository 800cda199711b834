/* armprof decode FILE: the packets of an SPE record stream, one a line with
 * the manual's names (D18.2), records separated; --json gives a JSON object
 * a record. Runs of Padding are shown as one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "cli/commands.h"

typedef struct decode_view {
    FILE *out;
    bool json;
    bool in_record;
    size_t records, packets, ignored;
    size_t padding_start, padding_bytes;
} decode_view;

static void flush_padding(decode_view *v)
{
    if (!v->padding_bytes) return;
    if (v->json)
        fprintf(v->out, "{\"padding\":{\"offset\":%zu,\"size\":%zu}}\n", v->padding_start,
                v->padding_bytes);
    else
        fprintf(v->out, "%08zx  %-30s Padding x%zu\n", v->padding_start, "00 ...",
                v->padding_bytes);
    v->padding_bytes = 0;
}

static void show_packet(decode_view *v, const armprof_spe_packet *p, const uint8_t *bytes)
{
    char line[512];
    if (v->json) {
        armprof_spe_packet_json(p, line, sizeof line);
        fprintf(v->out, "%s%s", v->in_record ? "," : "", line);
        return;
    }
    char raw[40] = "";
    size_t used = 0;
    const unsigned n = (unsigned)p->header_size + p->payload_size;
    for (unsigned i = 0; i < n; i++)
        used += (size_t)snprintf(raw + used, sizeof raw - used, "%s%02x", i ? " " : "", bytes[i]);
    armprof_spe_packet_text(p, line, sizeof line);
    fprintf(v->out, "%08zx  %-30s %s\n", p->offset, raw, line);
}

static void begin_record(decode_view *v, size_t offset)
{
    flush_padding(v);
    if (v->json)
        fprintf(v->out, "{\"record\":%zu,\"offset\":%zu,\"packets\":[", v->records, offset);
    else
        fprintf(v->out, "%srecord %zu at 0x%zx\n", v->records ? "\n" : "", v->records, offset);
}

static void end_record(decode_view *v)
{
    if (v->json) fprintf(v->out, "]}\n");
    v->in_record = false;
    v->records++;
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
        fprintf(stderr, "usage: armprof decode [--json] FILE\n");
        return 2;
    }
    size_t size;
    uint8_t *data = read_file_bytes("armprof decode", path, &size);
    if (!data) return 2;

    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, data, size);
    armprof_spe_packet p;
    armprof_spe_decode_status st;
    size_t record_start = 0;
    while ((st = armprof_spe_next_packet(&d, &p)) == ARMPROF_SPE_DECODE_OK) {
        if (p.type == ARMPROF_SPE_PKT_PADDING && !v.in_record) {
            if (!v.padding_bytes) v.padding_start = p.offset;
            v.padding_bytes++;
            continue;
        }
        if (!v.in_record) {
            begin_record(&v, p.offset);
            record_start = p.offset;
        }
        show_packet(&v, &p, data + p.offset);
        v.in_record = true;
        v.packets++;
        if (p.type == ARMPROF_SPE_PKT_UNKNOWN || p.reserved) v.ignored++;
        if (p.type == ARMPROF_SPE_PKT_END || p.type == ARMPROF_SPE_PKT_TIMESTAMP) end_record(&v);
    }
    flush_padding(&v);
    int rc = 0;
    if (st == ARMPROF_SPE_DECODE_EOF && v.in_record) {
        d.error = "record not ended by an End or Timestamp packet before the end of the data";
        d.error_offset = record_start;
        st = ARMPROF_SPE_DECODE_ERROR;
    }
    if (v.in_record && v.json) fprintf(v.out, "]}\n");
    if (st == ARMPROF_SPE_DECODE_ERROR) {
        if (v.json) fprintf(v.out, "{\"error\":\"%s\",\"offset\":%zu}\n", d.error, d.error_offset);
        fprintf(stderr, "armprof decode: %s: offset 0x%zx: %s\n", path, d.error_offset, d.error);
        rc = 1;
    }
    if (v.json)
        fprintf(v.out,
                "{\"summary\":{\"bytes\":%zu,\"records\":%zu,\"packets\":%zu,\"ignored\":%zu}}\n",
                size, v.records, v.packets, v.ignored);
    else
        fprintf(v.out, "\n%zu bytes, %zu records, %zu packets (%zu ignored)\n", size, v.records,
                v.packets, v.ignored);
    free(data);
    return rc;
}
