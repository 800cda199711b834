/* SPDX-License-Identifier: BSD-3-Clause */
/* The streaming decoder (decode.h): the whole-data decoder applied to each
 * chunk in place, with the few bytes of a packet that a chunk boundary cuts
 * carried over. A packet's size comes from its header alone (D18.1.3), so
 * the carry never holds more than one packet: two header bytes and eight of
 * payload. */
#include <string.h>

#include "armprof/decode.h"
#include "spe_packets.h"

void armprof_spe_stream_init(armprof_spe_stream *s)
{
    if (s) memset(s, 0, sizeof *s);
}

bool armprof_spe_stream_feed(armprof_spe_stream *s, const uint8_t *data, size_t size)
{
    if (!s || s->finished || s->chunk_pos < s->chunk_size || (!data && size)) return false;
    s->chunk_offset += s->chunk_size;
    s->chunk = data;
    s->chunk_size = size;
    s->chunk_pos = 0;
    return true;
}

void armprof_spe_stream_finish(armprof_spe_stream *s)
{
    if (s) s->finished = true;
}

/* Bytes of the packet whose first `have` bytes are b, or 0 while its header
 * is incomplete. */
static size_t packet_span(const uint8_t *b, size_t have)
{
    if (!spe_header_is_16bit(b[0])) return 1 + spe_header_payload_size(b[0]);
    return have < 2 ? 0 : 2 + spe_header_payload_size(b[1]);
}

/* Nothing after a truncated packet can be framed: the stream ends here. */
static armprof_spe_decode_status fail(armprof_spe_stream *s, size_t offset, const char *why)
{
    s->error = why;
    s->error_offset = offset;
    s->chunk_pos = s->chunk_size;
    s->carry_size = 0;
    s->finished = true;
    return ARMPROF_SPE_DECODE_ERROR;
}

/* The stream ended inside the carried packet: the whole-data decoder names
 * how, so that both report the same error. */
static armprof_spe_decode_status truncated(armprof_spe_stream *s)
{
    armprof_spe_decoder d;
    armprof_spe_packet p;
    armprof_spe_decoder_init(&d, s->carry, s->carry_size);
    armprof_spe_next_packet(&d, &p);
    return fail(s, s->carry_offset, d.error);
}

static size_t stream_end(const armprof_spe_stream *s)
{
    return s->chunk_offset + s->chunk_size;
}

armprof_spe_decode_status armprof_spe_stream_next_packet(armprof_spe_stream *s,
                                                         armprof_spe_packet *p)
{
    if (!s) return ARMPROF_SPE_DECODE_ERROR;
    if (!p) return fail(s, s->chunk_offset + s->chunk_pos, "no packet to decode into (NULL)");
    if (s->carry_size) {
        size_t need;
        while (!(need = packet_span(s->carry, s->carry_size)) || s->carry_size < need) {
            if (s->chunk_pos == s->chunk_size)
                return s->finished ? truncated(s) : ARMPROF_SPE_DECODE_MORE;
            s->carry[s->carry_size++] = s->chunk[s->chunk_pos++];
        }
        armprof_spe_decoder d;
        armprof_spe_decoder_init(&d, s->carry, s->carry_size);
        armprof_spe_next_packet(&d, p); /* whole: cannot fail */
        p->offset = s->carry_offset;
        s->carry_size = 0;
        return ARMPROF_SPE_DECODE_OK;
    }
    if (s->chunk_pos == s->chunk_size)
        return s->finished ? ARMPROF_SPE_DECODE_EOF : ARMPROF_SPE_DECODE_MORE;
    const size_t left = s->chunk_size - s->chunk_pos;
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, s->chunk + s->chunk_pos, left);
    if (armprof_spe_next_packet(&d, p) == ARMPROF_SPE_DECODE_OK) {
        p->offset += s->chunk_offset + s->chunk_pos;
        s->chunk_pos += d.pos;
        return ARMPROF_SPE_DECODE_OK;
    }
    /* Cut by the end of the chunk: fewer bytes than one packet spans. */
    s->carry_offset = s->chunk_offset + s->chunk_pos;
    memcpy(s->carry, s->chunk + s->chunk_pos, left);
    s->carry_size = (uint8_t)left;
    s->chunk_pos = s->chunk_size;
    return s->finished ? truncated(s) : ARMPROF_SPE_DECODE_MORE;
}

armprof_spe_decode_status armprof_spe_stream_next_record(armprof_spe_stream *s,
                                                         armprof_spe_record *r)
{
    if (!s) return ARMPROF_SPE_DECODE_ERROR;
    if (!r) return fail(s, s->chunk_offset + s->chunk_pos, "no record to decode into (NULL)");
    if (!s->in_record) {
        /* Padding before the record, a byte at a time without framing. */
        while (!s->carry_size && s->chunk_pos < s->chunk_size &&
               s->chunk[s->chunk_pos] == spe_packet_table[ARMPROF_SPE_PKT_PADDING].header)
            s->chunk_pos++;
        /* A record whole in this chunk, decoded in place into *r: the
         * common case, without the copy from s->record. One cut by the
         * chunk's end (or malformed) is decoded again below, packet by
         * packet, from the same position. */
        if (!s->carry_size && s->chunk_pos < s->chunk_size) {
            armprof_spe_decoder d;
            armprof_spe_decoder_init(&d, s->chunk + s->chunk_pos, s->chunk_size - s->chunk_pos);
            if (armprof_spe_next_record(&d, r) == ARMPROF_SPE_DECODE_OK) {
                r->offset += s->chunk_offset + s->chunk_pos;
                s->chunk_pos += d.pos;
                return ARMPROF_SPE_DECODE_OK;
            }
        }
        spe_record_clear(&s->record);
    }
    armprof_spe_packet p;
    armprof_spe_decode_status st;
    while ((st = armprof_spe_stream_next_packet(s, &p)) == ARMPROF_SPE_DECODE_OK) {
        const bool ended = spe_record_add(&s->record, &p);
        s->in_record = s->record.packets != 0;
        if (ended) {
            spe_record_copy(r, &s->record);
            s->in_record = false;
            return ARMPROF_SPE_DECODE_OK;
        }
    }
    if (st == ARMPROF_SPE_DECODE_MORE || (st == ARMPROF_SPE_DECODE_EOF && !s->in_record)) return st;
    spe_record_copy(r, &s->record);
    if (!s->in_record) r->offset = s->error_offset; /* its first packet is cut */
    r->size = stream_end(s) - r->offset;
    s->in_record = false;
    if (st == ARMPROF_SPE_DECODE_EOF) return fail(s, r->offset, SPE_ERROR_RECORD_NOT_ENDED);
    return st;
}
