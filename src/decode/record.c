/* SPDX-License-Identifier: BSD-3-Clause */
/* Records (D18.1.2): a sequence of packets ended by an End packet or a
 * Timestamp packet; only Padding stands between records (D18.1.3). */
#include <string.h>

#include "armprof/decode.h"
#include "spe_packets.h"

/* Stores a known, unreserved packet's value in the record. */
static void record_packet(armprof_spe_record *r, const armprof_spe_packet *p)
{
    switch (p->type) {
    case ARMPROF_SPE_PKT_ADDRESS:
        r->address_valid |= 1u << p->index;
        r->address[p->index] = p->payload;
        break;
    case ARMPROF_SPE_PKT_COUNTER:
        r->counter_valid |= 1u << p->index;
        r->counter[p->index] = (uint16_t)SPE_FIELD_GET(p->payload, COUNTER, COUNT);
        break;
    case ARMPROF_SPE_PKT_CONTEXT:
        r->context_valid |= (uint8_t)(1u << p->index);
        r->context[p->index] = (uint32_t)SPE_FIELD_GET(p->payload, CONTEXT, CONTEXT);
        break;
    case ARMPROF_SPE_PKT_EVENTS:
        r->events_valid = true;
        r->events_size = p->payload_size;
        r->events = p->payload;
        break;
    case ARMPROF_SPE_PKT_DATA_SOURCE:
        r->data_source_valid = true;
        r->data_source_size = p->payload_size;
        r->data_source = (uint16_t)SPE_FIELD_GET(p->payload, DATA_SOURCE, SOURCE);
        break;
    case ARMPROF_SPE_PKT_OP_TYPE:
        r->op_valid = true;
        r->op_class = p->index;
        r->op_subclass = (uint8_t)SPE_FIELD_GET(p->payload, OP, SUBCLASS);
        break;
    case ARMPROF_SPE_PKT_TIMESTAMP:
        r->timestamp_valid = true;
        r->timestamp = SPE_FIELD_GET(p->payload, TIMESTAMP, TS);
        break;
    default:
        break;
    }
}

bool spe_record_add(armprof_spe_record *r, const armprof_spe_packet *p)
{
    /* D18.1.3: Padding only between records. A record whose packets are
     * split by Padding is still one record; count nothing. */
    if (p->type == ARMPROF_SPE_PKT_PADDING) return false;
    if (r->packets++ == 0) r->offset = p->offset;
    if (p->type == ARMPROF_SPE_PKT_UNKNOWN || p->reserved)
        r->ignored++;
    else
        record_packet(r, p);
    r->size = p->offset + p->header_size + p->payload_size - r->offset;
    return p->type == ARMPROF_SPE_PKT_END || p->type == ARMPROF_SPE_PKT_TIMESTAMP;
}

/* The public entry, kept apart from the library's own calls, which a
 * shared library could not otherwise inline (the exported symbol may be
 * interposed). */
bool armprof_spe_record_add_packet(armprof_spe_record *r, const armprof_spe_packet *p)
{
    return r && p && spe_record_add(r, p);
}

armprof_spe_decode_status armprof_spe_next_record(armprof_spe_decoder *d, armprof_spe_record *r)
{
    spe_record_clear(r);
    armprof_spe_packet p;
    armprof_spe_decode_status st;
    /* Padding before the record. */
    for (;;) {
        if (d->pos >= d->size) return ARMPROF_SPE_DECODE_EOF;
        if (d->data[d->pos] != spe_packet_table[ARMPROF_SPE_PKT_PADDING].header) break;
        d->pos++;
    }
    r->offset = d->pos;
    while ((st = armprof_spe_next_packet(d, &p)) == ARMPROF_SPE_DECODE_OK)
        if (spe_record_add(r, &p)) return ARMPROF_SPE_DECODE_OK;
    r->size = d->pos - r->offset;
    if (st == ARMPROF_SPE_DECODE_EOF) {
        d->error = SPE_ERROR_RECORD_NOT_ENDED;
        d->error_offset = r->offset;
    }
    return ARMPROF_SPE_DECODE_ERROR;
}
