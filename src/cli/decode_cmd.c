/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof decode FILE: the packets of an SPE record stream, one a line with
 * the manual's names (D18.2), records separated; --json gives a JSON object
 * a record. Runs of Padding are shown as one line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "cli/commands.h"
#include "cli/output.h"

typedef struct decode_view {
    FILE *out;
    bool json;
    size_t records, packets, ignored;
} decode_view;

/* Padding between records (D18.1.3), shown as one line a run. */
static void show_padding(decode_view *v, size_t start, size_t end)
{
    if (start >= end) return;
    if (v->json)
        fprintf(v->out, "{\"padding\":{\"offset\":%zu,\"size\":%zu}}\n", start, end - start);
    else
        fprintf(v->out, "%08zx  %-30s Padding x%zu\n", start, "00 ...", end - start);
}

static void show_packet(decode_view *v, const armprof_spe_packet *p, const uint8_t *bytes,
                        bool first)
{
    char line[512];
    if (v->json) {
        armprof_spe_packet_json(p, line, sizeof line);
        fprintf(v->out, "%s%s", first ? "" : ",", line);
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

/* The packets of one record, as armprof_spe_next_record() delimited it (a
 * record cut off by an error included: its last packet may be truncated). */
static void show_record(decode_view *v, const uint8_t *data, const armprof_spe_record *r)
{
    if (v->json)
        fprintf(v->out, "{\"record\":%zu,\"offset\":%zu,\"packets\":[", v->records, r->offset);
    else
        fprintf(v->out, "%srecord %zu at 0x%zx\n", v->records ? "\n" : "", v->records, r->offset);
    armprof_spe_decoder in;
    armprof_spe_decoder_init(&in, data + r->offset, r->size);
    armprof_spe_packet p;
    for (bool first = true; armprof_spe_next_packet(&in, &p) == ARMPROF_SPE_DECODE_OK;
         first = false) {
        p.offset += r->offset;
        show_packet(v, &p, data + p.offset, first);
    }
    if (v->json) fprintf(v->out, "]}\n");
    v->packets += r->packets;
    v->ignored += r->ignored;
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
    armprof_spe_record r;
    armprof_spe_decode_status st = ARMPROF_SPE_DECODE_OK;
    size_t end = 0; /* of the previous record */
    /* A large file stops at the first failed write (main() reports it). */
    while (!cli_write_failed(v.out) &&
           (st = armprof_spe_next_record(&d, &r)) != ARMPROF_SPE_DECODE_EOF) {
        show_padding(&v, end, r.offset);
        /* A stream cut inside its first packet has no record to show. */
        if (r.packets || st == ARMPROF_SPE_DECODE_OK) show_record(&v, data, &r);
        if (st == ARMPROF_SPE_DECODE_ERROR) break;
        v.records++; /* ended by End or Timestamp */
        end = r.offset + r.size;
    }
    if (st == ARMPROF_SPE_DECODE_EOF) show_padding(&v, end, size);
    int rc = 0;
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
