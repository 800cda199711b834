/* SPDX-License-Identifier: BSD-3-Clause */
/* The meaning of payload fields (D18.2): addresses, Operation Type
 * subclasses, Events bits, and the names the manual gives them. */
#include "armprof/decode.h"
#include "spe_packets.h"

/* ADDR, bits [55:0] of every Address payload, sign-extended from bit 55. */
static uint64_t sign_extend_55(uint64_t payload)
{
    const uint64_t addr = SPE_FIELD_GET(payload, INST_ADDR, ADDR);
    return addr >> 55 & 1 ? addr | UINT64_C(0xff) << 56 : addr;
}

/* The NSE:NS tables of D18.2.1: Root has no encoding because records are
 * not generated at EL3. Without FEAT_RME NSE reads as zero. */
static const char *security_of(bool nse, bool ns, const char *secure)
{
    if (!nse) return ns ? "Non-secure" : secure;
    return ns ? "Realm" : "reserved";
}

/* D18.2.1, Address packet payload (instruction virtual address or branch
 * target address). */
armprof_spe_inst_address armprof_spe_decode_inst_address(uint64_t payload)
{
    armprof_spe_inst_address a;
    a.va = sign_extend_55(payload);
    a.ns = SPE_FIELD_GET(payload, INST_ADDR, NS);
    a.el = (uint8_t)SPE_FIELD_GET(payload, INST_ADDR, EL);
    a.nse = SPE_FIELD_GET(payload, INST_ADDR, NSE);
    a.security = security_of(a.nse, a.ns, "Secure");
    return a;
}

/* D18.2.1, Address packet payload (data access virtual address). */
armprof_spe_data_va armprof_spe_decode_data_va(uint64_t payload)
{
    armprof_spe_data_va a;
    a.tag = (uint8_t)SPE_FIELD_GET(payload, DATA_VA, TAG);
    a.va = a.tag ? payload : sign_extend_55(payload);
    return a;
}

/* D18.2.1, Address packet payload (data access physical address). */
armprof_spe_data_pa armprof_spe_decode_data_pa(uint64_t payload)
{
    armprof_spe_data_pa a;
    a.pa = SPE_FIELD_GET(payload, DATA_PA, ADDR);
    a.ns = SPE_FIELD_GET(payload, DATA_PA, NS);
    a.ch = SPE_FIELD_GET(payload, DATA_PA, CH);
    a.nse = SPE_FIELD_GET(payload, DATA_PA, NSE);
    a.pat = (uint8_t)SPE_FIELD_GET(payload, DATA_PA, PAT);
    a.pas = security_of(a.nse, a.ns, "Secure");
    return a;
}

/* A SUBCLASS pattern of D18.2.7: subclass & mask == value. */
typedef struct op_pattern {
    uint8_t op_class, mask, value;
    armprof_spe_op_kind kind;
    const char *name;
} op_pattern;

/* D18.2.7: the SUBCLASS encodings of each payload type (spe_packets.def). */
static const op_pattern op_patterns[] = {
#define SPE_OP_SUBCLASS(id, op_class, mask, value, name)                                           \
    {SPE_INDEX_OP_TYPE_##op_class, (mask), (value), ARMPROF_SPE_OP_##id, (name)},
#include "spe_packets.def"
};

armprof_spe_op armprof_spe_decode_op(unsigned op_class, unsigned subclass)
{
    armprof_spe_op o = {.kind = ARMPROF_SPE_OP_RESERVED, .name = "reserved"};
    const uint8_t s = (uint8_t)SPE_FIELD_GET(subclass, OP, SUBCLASS);
    for (size_t i = 0; i < sizeof op_patterns / sizeof op_patterns[0]; i++) {
        const op_pattern *pt = &op_patterns[i];
        if (pt->op_class != op_class || (s & pt->mask) != pt->value) continue;
        o.kind = pt->kind;
        o.name = pt->name;
        break;
    }
    switch (o.kind) {
    case ARMPROF_SPE_OP_OTHER:
        o.ase = SPE_FIELD_GET(s, OP_OTHER, ASE);
        o.fp = SPE_FIELD_GET(s, OP_OTHER, FP);
        o.cond = SPE_FIELD_GET(s, OP_OTHER, COND);
        break;
    case ARMPROF_SPE_OP_SVE:
        o.evl = (uint8_t)SPE_FIELD_GET(s, OP_SVE, EVL);
        o.pred = SPE_FIELD_GET(s, OP_SVE, PRED);
        o.fp = SPE_FIELD_GET(s, OP_SVE, FP);
        break;
    case ARMPROF_SPE_OP_SME:
        o.ets = (uint8_t)(SPE_FIELD_GET(s, OP_SME, ETS_HI) << 1 | SPE_FIELD_GET(s, OP_SME, ETS_LO));
        o.fp = SPE_FIELD_GET(s, OP_SME, FP);
        /* ETS 0b1100 to 0b1110 are reserved. */
        if (o.ets >= 12 && o.ets <= 14)
            o = (armprof_spe_op){.kind = ARMPROF_SPE_OP_RESERVED, .name = "reserved"};
        break;
    case ARMPROF_SPE_OP_LDST_EXT:
        o.ar = SPE_FIELD_GET(s, OP_LDST_EXT, AR);
        o.excl = SPE_FIELD_GET(s, OP_LDST_EXT, EXCL);
        o.at = SPE_FIELD_GET(s, OP_LDST_EXT, AT);
        o.ldst = SPE_FIELD_GET(s, OP_LDST, LDST);
        break;
    case ARMPROF_SPE_OP_LDST_SVE_SME:
        o.sg = SPE_FIELD_GET(s, OP_LDST_SVE_SME, SG);
        o.evl = (uint8_t)SPE_FIELD_GET(s, OP_LDST_SVE_SME, EVL);
        o.pred = SPE_FIELD_GET(s, OP_LDST_SVE_SME, PRED);
        o.ldst = SPE_FIELD_GET(s, OP_LDST, LDST);
        break;
    case ARMPROF_SPE_OP_LDST_GCS:
        o.comm = SPE_FIELD_GET(s, OP_LDST_GCS, COMM);
        o.ldst = SPE_FIELD_GET(s, OP_LDST, LDST);
        break;
    case ARMPROF_SPE_OP_LDST_MEMSET:
        o.ldst = true;
        break;
    case ARMPROF_SPE_OP_BRANCH:
        o.cr = (uint8_t)SPE_FIELD_GET(s, OP_BRANCH, CR);
        o.gcs = SPE_FIELD_GET(s, OP_BRANCH, GCS);
        o.ind = SPE_FIELD_GET(s, OP_BRANCH, IND);
        o.cond = SPE_FIELD_GET(s, OP_BRANCH, COND);
        break;
    case ARMPROF_SPE_OP_RESERVED:
        break;
    default: /* the other load/store types: LDST only */
        o.ldst = SPE_FIELD_GET(s, OP_LDST, LDST);
        break;
    }
    return o;
}

/* D18.2.6: the Events bits the architecture names (spe_packets.def). */
static const struct {
    const char *name, *short_name;
} event_names[64] = {
#define SPE_EVENT(bit, name, short_name) [bit] = {name, short_name},
#include "spe_packets.def"
};

const char *armprof_spe_event_name(unsigned bit)
{
    return bit < 64 ? event_names[bit].name : NULL;
}

const char *armprof_spe_event_short_name(unsigned bit)
{
    return bit < 64 ? event_names[bit].short_name : NULL;
}

/* The table's name of a defined INDEX; "IMPDEF" or "reserved" otherwise. */
static const char *index_name(armprof_spe_packet_type t, unsigned index)
{
    const char *name = spe_packet_index_name(t, index);
    if (name) return name;
    return spe_packet_index_impdef(t, index) ? "IMPDEF" : "reserved";
}

const char *armprof_spe_address_name(unsigned index)
{
    return index_name(ARMPROF_SPE_PKT_ADDRESS, index);
}

const char *armprof_spe_counter_name(unsigned index)
{
    return index_name(ARMPROF_SPE_PKT_COUNTER, index);
}

const char *armprof_spe_packet_type_name(armprof_spe_packet_type type)
{
    return (unsigned)type < ARMPROF_SPE_PKT_UNKNOWN ? spe_packet_table[type].name : "Unknown";
}
