/* SPDX-License-Identifier: BSD-3-Clause */
/* Packets as text and as JSON, with the field names of D18.2. */

#include <string.h>

#include "armprof/decode.h"
#include "spe_packets.h"

/* Text into a fixed buffer as snprintf() would leave it (always terminated
 * when size > 0, len the length the whole text needs), without a format
 * string to interpret: decoding formats millions of packets, and vsnprintf()
 * cost most of the time (issue 16). */
typedef struct out {
    char *buf;
    size_t size;
    int len;
} out;

/* The text cut to the room left: the rare case, out of line. */
static void put_mem_cut(out *o, const char *text, size_t n)
{
    const size_t used = (size_t)o->len;
    if (used + 1 < o->size) {
        const size_t k = o->size - 1 - used;
        memcpy(o->buf + used, text, k < n ? k : n);
        o->buf[used + (k < n ? k : n)] = '\0';
    }
    o->len += (int)n;
}

/* Inline, so that a literal's length and copy are known where it is put. */
static inline void put_mem(out *o, const char *text, size_t n)
{
    const size_t used = (size_t)o->len;
    if (used + n < o->size) {
        memcpy(o->buf + used, text, n);
        o->buf[used + n] = '\0';
        o->len += (int)n;
    } else {
        put_mem_cut(o, text, n);
    }
}

static inline void put(out *o, const char *text)
{
    put_mem(o, text, strlen(text));
}

static void put_u(out *o, unsigned long long v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put_mem(o, digits + sizeof digits - n, n);
}

/* 0x and lower-case hex digits, at least width of them. */
static void put_x(out *o, unsigned long long v, unsigned width)
{
    static const char hex[] = "0123456789abcdef";
    char digits[18];
    size_t n = 0;
    do {
        digits[sizeof digits - 1 - n++] = hex[v & 15];
        v >>= 4;
    } while (v || n < width);
    digits[sizeof digits - 1 - n++] = 'x';
    digits[sizeof digits - 1 - n++] = '0';
    put_mem(o, digits + sizeof digits - n, n);
}

typedef struct style {
    bool json;
} style;

/* A named field: ' NAME=VALUE' as text, ',"name":VALUE' as JSON. */
static void field_u(out *o, style s, const char *text, const char *json, unsigned long long v)
{
    if (s.json) {
        put(o, ",\"");
        put(o, json);
        put(o, "\":");
    } else {
        put(o, " ");
        put(o, text);
        put(o, "=");
    }
    put_u(o, v);
}

static void field_x(out *o, style s, const char *text, const char *json, unsigned long long v)
{
    if (s.json) {
        put(o, ",\"");
        put(o, json);
        put(o, "\":\"");
        put_x(o, v, 1);
        put(o, "\"");
    } else {
        put(o, " ");
        put(o, text);
        put(o, "=");
        put_x(o, v, 1);
    }
}

static void field_s(out *o, style s, const char *text, const char *json, const char *v)
{
    if (s.json) {
        put(o, ",\"");
        put(o, json);
        put(o, "\":\"");
        put(o, v);
        put(o, "\"");
    } else {
        put(o, " ");
        if (text) {
            put(o, text);
            put(o, "=");
        }
        put(o, v);
    }
}

static void describe_address(out *o, style s, const armprof_spe_packet *p)
{
    field_s(o, s, NULL, "name", armprof_spe_address_name(p->index));
    switch (p->index) {
    case ARMPROF_SPE_ADDR_PC:
    case ARMPROF_SPE_ADDR_BRANCH_TARGET:
    case ARMPROF_SPE_ADDR_PREV_BRANCH_TARGET: {
        const armprof_spe_inst_address a = armprof_spe_decode_inst_address(p->payload);
        if (!s.json) {
            put(o, " ");
            put_x(o, a.va, 16);
        }
        if (s.json) field_x(o, s, "VA", "va", a.va);
        field_u(o, s, "EL", "el", a.el);
        field_u(o, s, "NS", "ns", a.ns);
        field_u(o, s, "NSE", "nse", a.nse);
        field_s(o, s, NULL, "security", a.security);
        break;
    }
    case ARMPROF_SPE_ADDR_DATA_VIRTUAL: {
        const armprof_spe_data_va a = armprof_spe_decode_data_va(p->payload);
        if (!s.json) {
            put(o, " ");
            put_x(o, a.va, 16);
        }
        if (s.json) field_x(o, s, "VA", "va", a.va);
        field_x(o, s, "TAG", "tag", a.tag);
        break;
    }
    case ARMPROF_SPE_ADDR_DATA_PHYSICAL: {
        const armprof_spe_data_pa a = armprof_spe_decode_data_pa(p->payload);
        if (!s.json) {
            put(o, " ");
            put_x(o, a.pa, 14);
        }
        if (s.json) field_x(o, s, "PA", "pa", a.pa);
        field_u(o, s, "NS", "ns", a.ns);
        field_u(o, s, "NSE", "nse", a.nse);
        field_u(o, s, "CH", "ch", a.ch);
        field_x(o, s, "PAT", "pat", a.pat);
        field_s(o, s, NULL, "pas", a.pas);
        break;
    }
    default:
        field_u(o, s, "INDEX", "index", p->index);
        field_x(o, s, "value", "value", p->payload);
        break;
    }
}

static void describe_events(out *o, style s, const armprof_spe_packet *p)
{
    field_x(o, s, "E", "e", p->payload);
    if (s.json) put(o, ",\"events\":[");
    bool first = true;
    for (unsigned bit = 0; bit < 8u * p->payload_size; bit++) {
        if (!(p->payload >> bit & 1)) continue;
        const char *name = armprof_spe_event_short_name(bit);
        if (s.json) {
            if (!first) put(o, ",");
            put(o, "\"");
            if (name) {
                put(o, name);
            } else {
                put(o, "E[");
                put_u(o, bit);
                put(o, "]");
            }
            put(o, "\"");
        } else if (name) {
            put(o, " ");
            put(o, name);
        } else {
            put(o, " E[");
            put_u(o, bit);
            put(o, "]");
        }
        first = false;
    }
    if (s.json) put(o, "]");
}

/* D18.2.7 EVL: 32 << EVL bits for 0b000 to 0b110; 0b111 is "More than
 * 2048 bits", not 4096, so it is shown as such (like ETS's whole ZA). */
static void field_evl(out *o, style s, unsigned evl)
{
    if (evl == 7)
        field_s(o, s, "EVL", "evl", ">2048");
    else
        field_u(o, s, "EVL", "evl_bits", 32u << evl);
}

/* The fields of each Operation Type payload type, in the order D18.2.7
 * lists them (EVL and ETS have their own encodings, shown in bits). */
typedef enum op_field {
    F_NONE,
    F_ASE,
    F_FP,
    F_COND,
    F_EVL,
    F_PRED,
    F_ETS,
    F_SG,
    F_AR,
    F_EXCL,
    F_AT,
    F_LDST,
    F_COMM,
    F_CR,
    F_GCS,
    F_IND
} op_field;

static const uint8_t op_fields[][4] = {
    [ARMPROF_SPE_OP_OTHER] = {F_ASE, F_FP, F_COND},
    [ARMPROF_SPE_OP_SVE] = {F_EVL, F_PRED, F_FP},
    [ARMPROF_SPE_OP_SME] = {F_ETS, F_FP},
    [ARMPROF_SPE_OP_LDST_GP] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_SIMDFP] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_UNSPEC] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_TAGS] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_NV2] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_EXT] = {F_AR, F_EXCL, F_AT, F_LDST},
    [ARMPROF_SPE_OP_LDST_SVE_SME] = {F_SG, F_EVL, F_PRED, F_LDST},
    [ARMPROF_SPE_OP_LDST_MEMCPY] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_MEMSET] = {F_LDST},
    [ARMPROF_SPE_OP_LDST_GCS] = {F_COMM, F_LDST},
    [ARMPROF_SPE_OP_BRANCH] = {F_CR, F_GCS, F_IND, F_COND},
    [ARMPROF_SPE_OP_RESERVED] = {F_NONE},
};

static void describe_op_field(out *o, style s, const armprof_spe_op *op, op_field f)
{
    static const struct {
        const char *text, *json;
    } names[] = {
        [F_ASE] = {"ASE", "ase"},    [F_FP] = {"FP", "fp"}, [F_COND] = {"COND", "cond"},
        [F_PRED] = {"PRED", "pred"}, [F_SG] = {"SG", "sg"}, [F_AR] = {"AR", "ar"},
        [F_EXCL] = {"EXCL", "excl"}, [F_AT] = {"AT", "at"}, [F_LDST] = {"LDST", "ldst"},
        [F_COMM] = {"COMM", "comm"}, [F_CR] = {"CR", "cr"}, [F_GCS] = {"GCS", "gcs"},
        [F_IND] = {"IND", "ind"},
    };
    unsigned v = 0;
    switch (f) {
    case F_EVL:
        field_evl(o, s, op->evl);
        return;
    case F_ETS:
        if (op->ets == 15)
            field_s(o, s, "ETS", "ets", "ZA");
        else
            field_u(o, s, "ETS", "ets_bits", 128ull << op->ets);
        return;
    case F_NONE:
        return;
    case F_ASE:
        v = op->ase;
        break;
    case F_FP:
        v = op->fp;
        break;
    case F_COND:
        v = op->cond;
        break;
    case F_PRED:
        v = op->pred;
        break;
    case F_SG:
        v = op->sg;
        break;
    case F_AR:
        v = op->ar;
        break;
    case F_EXCL:
        v = op->excl;
        break;
    case F_AT:
        v = op->at;
        break;
    case F_LDST:
        v = op->ldst;
        break;
    case F_COMM:
        v = op->comm;
        break;
    case F_CR:
        v = op->cr;
        break;
    case F_GCS:
        v = op->gcs;
        break;
    case F_IND:
        v = op->ind;
        break;
    }
    field_u(o, s, names[f].text, names[f].json, v);
}

static void describe_op(out *o, style s, const armprof_spe_packet *p)
{
    const armprof_spe_op op = armprof_spe_decode_op(p->index, (unsigned)p->payload);
    field_u(o, s, "CLASS", "class", p->index);
    field_x(o, s, "SUBCLASS", "subclass", p->payload);
    if (s.json)
        field_s(o, s, NULL, "kind", op.name);
    else {
        put(o, " ");
        put(o, op.name);
    }
    for (unsigned i = 0; i < 4 && op_fields[op.kind][i] != F_NONE; i++)
        describe_op_field(o, s, &op, (op_field)op_fields[op.kind][i]);
}

static void describe(out *o, style s, const armprof_spe_packet *p)
{
    switch (p->type) {
    case ARMPROF_SPE_PKT_TIMESTAMP:
        field_u(o, s, "TS", "ts", p->payload);
        break;
    case ARMPROF_SPE_PKT_ADDRESS:
        describe_address(o, s, p);
        break;
    case ARMPROF_SPE_PKT_COUNTER:
        field_s(o, s, NULL, "name", armprof_spe_counter_name(p->index));
        if (p->index > 4) field_u(o, s, "INDEX", "index", p->index);
        field_u(o, s, "COUNT", "count", p->payload);
        break;
    case ARMPROF_SPE_PKT_CONTEXT: {
        const char *name = spe_packet_index_name(p->type, p->index);
        if (name)
            field_s(o, s, NULL, "name", name);
        else
            field_u(o, s, "INDEX", "index", p->index);
        field_x(o, s, "CONTEXT", "context", p->payload);
        break;
    }
    case ARMPROF_SPE_PKT_DATA_SOURCE:
        field_x(o, s, "SOURCE", "source", p->payload);
        break;
    case ARMPROF_SPE_PKT_EVENTS:
        describe_events(o, s, p);
        break;
    case ARMPROF_SPE_PKT_OP_TYPE:
        describe_op(o, s, p);
        break;
    case ARMPROF_SPE_PKT_UNKNOWN:
        if (p->header_size == 2)
            field_x(o, s, "header", "header", (unsigned)p->header[0] << 8 | p->header[1]);
        else
            field_x(o, s, "header", "header", p->header[0]);
        if (p->payload_size) field_x(o, s, "payload", "payload", p->payload);
        break;
    default: /* Padding, End */
        break;
    }
}

int armprof_spe_packet_text(const armprof_spe_packet *p, char *buf, size_t size)
{
    out o = {buf, size, 0};
    if (size) buf[0] = '\0';
    put(&o, armprof_spe_packet_type_name(p->type));
    describe(&o, (style){false}, p);
    if (p->type == ARMPROF_SPE_PKT_UNKNOWN) put(&o, " (ignored)");
    if (p->reserved) put(&o, " (reserved value, ignored)");
    return o.len;
}

int armprof_spe_packet_json(const armprof_spe_packet *p, char *buf, size_t size)
{
    out o = {buf, size, 0};
    if (size) buf[0] = '\0';
    put(&o, "{\"offset\":");
    put_u(&o, p->offset);
    put(&o, ",\"type\":\"");
    put(&o, armprof_spe_packet_type_name(p->type));
    put(&o, "\",\"size\":");
    put_u(&o, (unsigned)p->header_size + p->payload_size);
    describe(&o, (style){true}, p);
    if (p->reserved || p->type == ARMPROF_SPE_PKT_UNKNOWN) put(&o, ",\"ignored\":true");
    put(&o, "}");
    return o.len;
}
