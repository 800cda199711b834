/* SPDX-License-Identifier: BSD-3-Clause */
/* Packet framing (D18.1.1, D18.1.3, D18.1.4): which packet a header starts
 * and how many bytes it spans. The size of every packet, known or not,
 * comes from the header alone, so that a stream can be parsed without
 * knowing the alignment or the packet types (D18.1.3). */
#include "armprof/decode.h"
#include "spe_packets.h"

void armprof_spe_decoder_init(armprof_spe_decoder *d, const uint8_t *data, size_t size)
{
    d->data = data;
    d->size = data ? size : 0;
    d->pos = 0;
    d->error = NULL;
    d->error_offset = 0;
}

/* D18.1.3: software ignores packets "containing reserved values in
 * fields": an INDEX (CLASS) that spe_packets.def neither defines nor calls
 * IMPLEMENTATION DEFINED, a payload size that the packet's SZ table does not
 * list (Data Source SZ 0b10 and 0b11, which Table D18-1 leaves free), and
 * an Operation Type SUBCLASS of no payload type of D18.2.7. */
static bool is_reserved(const armprof_spe_packet *p)
{
    if (p->type == ARMPROF_SPE_PKT_UNKNOWN) return false;
    const spe_packet_desc *d = &spe_packet_table[p->type];
    if (p->payload_size < d->min_payload || p->payload_size > d->max_payload) return true;
    if (d->index_bits != 0 && !spe_packet_index_name(p->type, p->index) &&
        !spe_packet_index_impdef(p->type, p->index))
        return true;
    if (p->type == ARMPROF_SPE_PKT_OP_TYPE)
        return armprof_spe_decode_op(p->index, (unsigned)p->payload).kind ==
               ARMPROF_SPE_OP_RESERVED;
    return false;
}

static armprof_spe_decode_status fail(armprof_spe_decoder *d, size_t offset, const char *why)
{
    d->error = why;
    d->error_offset = offset;
    d->pos = d->size; /* nothing after a truncated packet can be framed */
    return ARMPROF_SPE_DECODE_ERROR;
}

armprof_spe_decode_status armprof_spe_next_packet(armprof_spe_decoder *d, armprof_spe_packet *p)
{
    if (d->pos >= d->size) return ARMPROF_SPE_DECODE_EOF;
    const uint8_t *b = d->data + d->pos;
    const size_t left = d->size - d->pos;
    p->offset = d->pos;
    p->index = 0;
    p->header[0] = b[0];
    p->header[1] = 0;
    if (spe_header_is_16bit(b[0])) {
        if (left < 2) return fail(d, p->offset, "16-bit header truncated by the end of the data");
        p->header[1] = b[1];
        p->header_size = 2;
    } else {
        p->header_size = 1;
    }
    p->type = spe_packet_classify(p->header, p->header_size, &p->index);
    p->payload_size = (uint8_t)spe_header_payload_size(p->header[p->header_size - 1]);
    if (left < (size_t)p->header_size + p->payload_size)
        return fail(d, p->offset, "packet payload truncated by the end of the data");
    uint64_t v = 0;
    for (unsigned i = p->payload_size; i-- > 0;)
        v = v << 8 | b[p->header_size + i];
    p->payload = v;
    /* A header whose fixed bits (SZ included) differ from Table D18-1 is
     * not the packet it resembles: the table's MASK covers SZ for Context,
     * Operation Type, Address, Counter and Timestamp. */
    p->reserved = is_reserved(p);
    d->pos += (size_t)p->header_size + p->payload_size;
    return ARMPROF_SPE_DECODE_OK;
}
