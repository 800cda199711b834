/* SPDX-License-Identifier: BSD-3-Clause */
/* Sample record construction (chapter D18): SPEConstructRecord(),
 * SPEConstructClass() and SPEAddPacketToRecord() of
 * pseudocode/full/arm-J1.1.md, with the 8-bit and 16-bit headers of Tables
 * D18-1 and D18-2 taken from the packet table the decoder reads
 * (src/decode/spe_packets.def), so that what the model writes and what the
 * decoder accepts cannot drift apart. Packets are emitted in the
 * pseudocode's order: Context, Counter, Address, Data Source, Operation
 * Type, Events, then Timestamp or End, then Padding to PMBIDR_EL1.Align. */
#include <string.h>

#include "decode/spe_packets.h"
#include "spe/spe_unit.h"
#include "spe/sample.h"
#include "spe/spe.h"

/* Sample storage keeps addresses and counters at their packet's INDEX. */
#define SAME_INDEX(pos, index) _Static_assert((int)(pos) == (int)(index), #pos)
SAME_INDEX(SPEAddrPosPCVirtual, SPE_INDEX_ADDRESS_PC);
SAME_INDEX(SPEAddrPosBranchTarget, SPE_INDEX_ADDRESS_BRANCH_TARGET);
SAME_INDEX(SPEAddrPosDataVirtual, SPE_INDEX_ADDRESS_DATA_VIRTUAL);
SAME_INDEX(SPEAddrPosDataPhysical, SPE_INDEX_ADDRESS_DATA_PHYSICAL);
SAME_INDEX(SPEAddrPosPrevBranchTarget, SPE_INDEX_ADDRESS_PREV_BRANCH_TARGET);
SAME_INDEX(SPECounterPosTotalLatency, SPE_INDEX_COUNTER_TOTAL);
SAME_INDEX(SPECounterPosIssueLatency, SPE_INDEX_COUNTER_ISSUE);
SAME_INDEX(SPECounterPosTranslationLatency, SPE_INDEX_COUNTER_TRANSLATION);
SAME_INDEX(SPECounterPosAltIssueLatency, SPE_INDEX_COUNTER_ALT_ISSUE);

/* The largest PMBIDR_EL1.Align the architecture defines: 0b1011, 2KB. */
#define PMBIDR_ALIGN_MAX 11
_Static_assert(((size_t)1 << PMBIDR_ALIGN_MAX) <= SPE_MAX_RECORD_SIZE,
               "a record padded to the largest alignment fits the record buffer");

/* SPEAddByteToRecord() */
static void SPEAddByteToRecord(spe_state *u, uint8_t b)
{
    if (u->record_size < SPE_MAX_RECORD_SIZE) u->record[u->record_size++] = b;
}

unsigned SPEGetDataSourcePayloadSize(const armprof_config *cfg)
{
    return (unsigned)cfg->options[ARMPROF_OPT_SPE_DS_PAYLOAD];
}

/* The smallest Events payload that holds every event the configuration can
 * record: bits 63:48 need 8 bytes, 31:16 need 4. */
static unsigned events_payload_needed(const armprof_config *cfg)
{
#define HAS(f) armprof_config_has(cfg, ARMPROF_FEAT_##f)
    if (cfg->options[ARMPROF_OPT_SPE_FILTER_EVENTS] >> 48) return 8;
    if (HAS(SPEv1p4) || HAS(SPE_SME) || HAS(SPEv1p5) || (HAS(SPEv1p1) && HAS(SVE))) return 4;
    if (!HAS(SPEv1p4) && (cfg->options[ARMPROF_OPT_SPE_FILTER_EVENTS] >> 24 & 0xff)) return 4;
    return 2;
#undef HAS
}

unsigned SPEGetEventsPayloadSize(const armprof_config *cfg)
{
    const unsigned chosen = (unsigned)cfg->options[ARMPROF_OPT_SPE_EVENTS_PAYLOAD];
    return chosen ? chosen : events_payload_needed(cfg);
}

/* A packet type's payload size in this configuration's records: the
 * table's where SZ is fixed, the implementation's choice for the two packets
 * whose SZ it picks. */
static unsigned payload_size(const armprof_config *cfg, armprof_spe_packet_type type)
{
    switch (type) {
    case ARMPROF_SPE_PKT_EVENTS:
        return SPEGetEventsPayloadSize(cfg);
    case ARMPROF_SPE_PKT_DATA_SOURCE:
        return SPEGetDataSourcePayloadSize(cfg);
    default:
        return spe_packet_table[type].max_payload;
    }
}

/* Eight bytes, least significant first. */
static inline void store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, sizeof v);
#else
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* SPEAddPacketToRecord()'s general case (an INDEX beyond the layout table,
 * or a record near the largest size): the pseudocode's header_hi:sz:header_lo
 * looked up in the packet table by type and INDEX (CLASS), and for an
 * INDEX beyond the Short format the SPEAddByteToRecord('001000':index<4:3>)
 * SPEConstructRecord() puts before it; the payload follows little-endian. */
static void add_packet_bytes(armprof_pe *pe, armprof_spe_packet_type type, unsigned index,
                             uint64_t payload)
{
    spe_state *u = SPE_STATE(pe);
    const unsigned bytes = payload_size(&pe->cfg, type);
    uint8_t header[2];
    const unsigned header_size = spe_packet_header(type, index, bytes, header);
    for (unsigned i = 0; i < header_size; i++)
        SPEAddByteToRecord(u, header[i]);
    for (unsigned i = 0; i < bytes; i++)
        SPEAddByteToRecord(u, (uint8_t)(payload >> (8 * i)));
}

/* The record being built: SPERecordSize kept in a local until the record
 * is complete. In spe_state it would be stored and loaded again around
 * every byte store, which may alias it (a uint8_t store aliases anything). */
typedef struct record_cursor {
    uint8_t *record;
    size_t size;
} record_cursor;

/* SPEAddPacketToRecord(), inline (a record adds a dozen packets): the
 * layout table's header and payload size for the common case. */
static inline void SPEAddPacketToRecord(armprof_pe *pe, record_cursor *c,
                                        armprof_spe_packet_type type, unsigned index,
                                        uint64_t payload)
{
    spe_state *u = SPE_STATE(pe);
    if (index < SPE_LAYOUT_INDEXES && c->size + 2 + 8 <= SPE_MAX_RECORD_SIZE) {
        /* The common case, from the layout table: the header, then all
         * eight payload bytes (record[] has room past the largest record),
         * of which the packet's payload size count. */
        const spe_packet_layout l = u->layout[type][index];
        uint8_t *p = c->record + c->size;
        memcpy(p, l.header, 2);
        store_le64(p + l.header_size, payload);
        c->size += (size_t)l.header_size + l.payload_size;
        return;
    }
    u->record_size = c->size;
    add_packet_bytes(pe, type, index, payload);
    c->size = u->record_size;
}

void spe_packet_layouts(const armprof_config *cfg,
                        spe_packet_layout layout[ARMPROF_SPE_PKT_UNKNOWN][SPE_LAYOUT_INDEXES])
{
    for (unsigned t = 0; t < ARMPROF_SPE_PKT_UNKNOWN; t++)
        for (unsigned index = 0; index < SPE_LAYOUT_INDEXES; index++) {
            spe_packet_layout *l = &layout[t][index];
            l->payload_size = (uint8_t)payload_size(cfg, (armprof_spe_packet_type)t);
            l->header[1] = 0;
            l->header_size = (uint8_t)spe_packet_header((armprof_spe_packet_type)t, index,
                                                        l->payload_size, l->header);
        }
}

/* Whether a record can hold the previous branch target address (D18.2.1,
 * FEAT_SPE_PBT): a branch's, and any other operation's only with 'SPE get
 * prev br if not br'. Both the record and its size bound follow it. */
static inline bool record_holds_prev_branch_target(const armprof_config *cfg, bool branch)
{
    return armprof_config_has(cfg, ARMPROF_FEAT_SPE_PBT) &&
           (branch || cfg->options[ARMPROF_OPT_SPE_PREV_BR_NOT_BRANCH]);
}

/* The bytes a packet takes in this configuration's records. */
static size_t packet_size(const armprof_config *cfg, armprof_spe_packet_type type, unsigned index)
{
    return spe_packet_header_size(type, index) + payload_size(cfg, type);
}

size_t spe_max_record_size(const armprof_config *cfg)
{
#define HAS(f)         armprof_config_has(cfg, ARMPROF_FEAT_##f)
#define PACKET(t)      packet_size(cfg, ARMPROF_SPE_PKT_##t, 0)
#define INDEXED(t, id) packet_size(cfg, ARMPROF_SPE_PKT_##t, SPE_INDEX_##t##_##id)
    /* Every packet SPEConstructRecord() can add for one kind of operation,
     * at its largest: the largest of these records is the bound. */
    enum { LOAD, STORE, BRANCH, OTHER };
    size_t largest = 0;
    for (int kind = LOAD; kind <= OTHER; kind++) {
        const bool access = kind == LOAD || kind == STORE;
        /* CollectContextIDR1() and CollectContextIDR2() can both hold. */
        size_t size = INDEXED(CONTEXT, EL1) + INDEXED(CONTEXT, EL2);
        /* SPECompleteSample(): translation latency for an operation that
         * accessed memory; the alternate clock's for any operation on a
         * shared resource. */
        size += INDEXED(COUNTER, TOTAL) + INDEXED(COUNTER, ISSUE);
        if (access) size += INDEXED(COUNTER, TRANSLATION);
        if (HAS(SPE_ALTCLK)) size += INDEXED(COUNTER, ALT_ISSUE);
        size += INDEXED(ADDRESS, PC);
        if (access) size += INDEXED(ADDRESS, DATA_VIRTUAL) + INDEXED(ADDRESS, DATA_PHYSICAL);
        if (kind == BRANCH) size += INDEXED(ADDRESS, BRANCH_TARGET);
        if (record_holds_prev_branch_target(cfg, kind == BRANCH))
            size += INDEXED(ADDRESS, PREV_BRANCH_TARGET);
        /* SPEGetDataSource() is reported for loads only (sample.c). */
        if (kind == LOAD && SPEGetDataSourcePayloadSize(cfg) != 0) size += PACKET(DATA_SOURCE);
        size += PACKET(OP_TYPE) + PACKET(EVENTS);
        const size_t timestamp = PACKET(TIMESTAMP), end = PACKET(END);
        size += timestamp > end ? timestamp : end;
        if (size > largest) largest = size;
    }
    const size_t align = (size_t)1 << cfg->options[ARMPROF_OPT_PMBIDR_ALIGN];
    return (largest + align - 1) / align * align;
#undef HAS
#undef PACKET
#undef INDEXED
}

/* The fixed bits of each load/store type's payload (SPE_OP_SUBCLASS rows);
 * GCSSS2 and Unspecified take SPEConstructClass()'s otherwise branch. */
enum { SPELDST_TYPES = SPELDSTType_Unspecified + 1 };
static const uint8_t ldst_type_bits[SPELDST_TYPES] = {
    [SPELDSTType_NV2] = SPE_OP_LDST_NV2_VALUE,
    [SPELDSTType_Extended] = SPE_OP_LDST_EXT_VALUE,
    [SPELDSTType_General] = SPE_OP_LDST_GP_VALUE,
    [SPELDSTType_SIMDFP] = SPE_OP_LDST_SIMDFP_VALUE,
    [SPELDSTType_SVESME] = SPE_OP_LDST_SVE_SME_VALUE,
    [SPELDSTType_Tags] = SPE_OP_LDST_TAGS_VALUE,
    [SPELDSTType_MemCopy] = SPE_OP_LDST_MEMCPY_VALUE,
    [SPELDSTType_MemSet] = SPE_OP_LDST_MEMSET_VALUE,
    [SPELDSTType_GCS] = SPE_OP_LDST_GCS_VALUE,
    [SPELDSTType_GCSSS2] = SPE_OP_LDST_UNSPEC_VALUE,
    [SPELDSTType_Unspecified] = SPE_OP_LDST_UNSPEC_VALUE,
};

/* SPEConstructClass(): (op_class, op_subclass), the payload type's fixed
 * bits (SPE_OP_<type>_VALUE) and fields from the packet table. */
#define PUT(v, payload, id) SPE_FIELD_PUT(v, payload, id)
static unsigned SPEConstructClass(const armprof_pe *pe, const SPEOpAttr *a, unsigned *subclass)
{
    const unsigned cond = a->is_conditional;
    unsigned fp = a->is_floating_point;
    const unsigned ldst = a->op_type == SPEOpType_Store;
    const unsigned ar = a->is_acquire_release;
    const unsigned excl = a->is_exclusive;
    const unsigned at = a->at;
    const unsigned indirect = !a->branch_is_direct;
    const unsigned pred = a->is_predicated;
    const unsigned sg = a->is_gather_scatter;
    const unsigned evl = a->evl & 7u;
    unsigned simd = a->is_simd;
    const unsigned ets = a->ets & 15u;
    /* This implementation samples instructions, not micro-operations: a
     * branch with link or return is never a GCS-format Operation Type
     * packet, so COMMON is 1. */
    const unsigned common = 1;
    switch (a->op_type) {
    case SPEOpType_Other:
        /* D18.2.7: ASE (bit 2) and FP (bit 1) read as zero without
         * FEAT_SPE_FPF; SPEConstructClass() does not gate them, the field
         * descriptions do (docs/spec-notes.md). */
        if (!IsFeatureImplemented(pe, SPE_FPF)) simd = fp = 0;
        *subclass = SPE_OP_OTHER_VALUE | PUT(simd, OP_OTHER, ASE) | PUT(fp, OP_OTHER, FP) |
                    PUT(cond, OP_OTHER, COND);
        return SPE_INDEX_OP_TYPE_OTHER;
    case SPEOpType_OtherSVE:
        *subclass = SPE_OP_SVE_VALUE | PUT(evl, OP_SVE, EVL) | PUT(pred, OP_SVE, PRED) |
                    PUT(fp, OP_SVE, FP);
        return SPE_INDEX_OP_TYPE_OTHER;
    case SPEOpType_OtherSME:
        *subclass = SPE_OP_SME_VALUE | PUT(ets >> 1, OP_SME, ETS_HI) |
                    PUT(ets & 1u, OP_SME, ETS_LO) | PUT(fp, OP_SME, FP);
        return SPE_INDEX_OP_TYPE_OTHER;
    case SPEOpType_Branch: {
        unsigned cr = 0, gcs = 0;
        if (IsFeatureImplemented(pe, SPE_CRR)) {
            if (a->branch_has_link)
                cr = 1;
            else if (a->procedure_return)
                cr = 2;
            else
                cr = 3;
        }
        if (IsFeatureImplemented(pe, GCS) && a->ldst_type == SPELDSTType_GCS &&
            (a->branch_has_link || a->procedure_return))
            gcs = 1;
        *subclass = SPE_OP_BRANCH_VALUE | PUT(cr, OP_BRANCH, CR) | PUT(gcs, OP_BRANCH, GCS) |
                    PUT(indirect, OP_BRANCH, IND) | PUT(cond, OP_BRANCH, COND);
        return SPE_INDEX_OP_TYPE_BRANCH;
    }
    default: { /* Load, Store, LoadAtomic: the payload type's bits, its fields, LDST */
        const unsigned t = a->ldst_type;
        unsigned s = t < SPELDST_TYPES ? ldst_type_bits[t] : SPE_OP_LDST_UNSPEC_VALUE;
        switch (a->ldst_type) {
        case SPELDSTType_Extended:
            s |= PUT(ar, OP_LDST_EXT, AR) | PUT(excl, OP_LDST_EXT, EXCL) | PUT(at, OP_LDST_EXT, AT);
            break;
        case SPELDSTType_SVESME:
            s |= PUT(sg, OP_LDST_SVE_SME, SG) | PUT(evl, OP_LDST_SVE_SME, EVL) |
                 PUT(pred, OP_LDST_SVE_SME, PRED);
            break;
        case SPELDSTType_GCS:
            s |= PUT(common, OP_LDST_GCS, COMM);
            break;
        case SPELDSTType_MemSet:
            /* '00100101', whole: "A store from a Memory Set operation". */
            *subclass = s;
            return SPE_INDEX_OP_TYPE_LDST;
        default:
            break;
        }
        *subclass = s | PUT(ldst, OP_LDST, LDST);
        return SPE_INDEX_OP_TYPE_LDST;
    }
    }
}

#undef PUT

/* SPEConstructRecord() */
void SPEConstructRecord(armprof_pe *pe)
{
    spe_state *u = SPE_STATE(pe);
    spe_sample *s = &u->sample;
    record_cursor cursor = {u->record, 0}, *const c = &cursor; /* SPEEmptyRecord() */
    if (s->context_el1_valid)
        SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_CONTEXT, SPE_INDEX_CONTEXT_EL1, s->context_el1);
    if (s->context_el2_valid)
        SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_CONTEXT, SPE_INDEX_CONTEXT_EL2, s->context_el2);
    /* Counters saturate at 16 bits ('SPE 16bit counters': PMSIDR_EL1.CountSize
     * 0b0011) or 12 bits. */
    const uint32_t saturate =
        OPTION_VALUE(pe, PMSIDR_COUNTSIZE) == ARMPROF_PMSIDR_COUNTSIZE_SATURATING_16 ? 0xffff
                                                                                     : 0xfff;
    for (unsigned i = 0; i < SPE_NUM_COUNTERS; i++)
        if (s->counter_valid >> i & 1)
            SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_COUNTER, i,
                                 s->counter[i] > saturate ? saturate : s->counter[i]);
    /* (Sampling collects the previous branch target only with FEAT_SPE_PBT.) */
    if (!record_holds_prev_branch_target(&pe->cfg, s->opattr.op_type == SPEOpType_Branch))
        s->address_valid &= (uint8_t) ~(1u << SPEAddrPosPrevBranchTarget);
    /* An NV2 access's data virtual address is not collected when profiling
     * is disabled at EL2. */
    if (s->opattr.ldst_type == SPELDSTType_NV2 && !StatisticalProfilingEnabled(pe, EL2))
        s->address_valid &= (uint8_t) ~(1u << SPEAddrPosDataVirtual);
    for (unsigned i = 0; i < SPE_NUM_ADDRS; i++)
        if (s->address_valid >> i & 1)
            SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_ADDRESS, i, s->address[i]);
    if (s->data_source_valid)
        SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_DATA_SOURCE, 0, s->data_source);
    unsigned op_subclass;
    const unsigned op_class = SPEConstructClass(pe, &s->opattr, &op_subclass);
    SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_OP_TYPE, op_class, op_subclass);
    SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_EVENTS, 0, s->events);
    if (s->timestamp_valid)
        SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_TIMESTAMP, 0, s->timestamp);
    else
        SPEAddPacketToRecord(pe, c, ARMPROF_SPE_PKT_END, 0, 0);
    /* Padding to 2^PMBIDR_EL1.Align bytes. The configuration keeps Align at
     * most MaxSize, whose record the buffer-full check (SPEBufferIsFull())
     * leaves room for below the limit. A direct store to the read-only
     * register (armprof_reg_set, the scenario language's `set`) can put a
     * larger or a reserved value there: it pads as 2^MaxSize, never past
     * it, so the padding ends and no write passes the limit
     * (docs/spec-notes.md). */
    const unsigned align_stored = (unsigned)FIELD(pe, PMBIDR_EL1, Align);
    const unsigned max_log2 = (unsigned)OPTION_VALUE(pe, PMSIDR_MAXSIZE);
    const size_t align = (size_t)1 << (align_stored > max_log2 ? max_log2 : align_stored);
    const size_t pad = (align - c->size % align) % align;
    /* SPEAddPacketToRecord(Padding) pad times: each is the one header byte,
     * so they are stored together (a 64-byte alignment can add 63). */
    if (pad) {
        const size_t room = SPE_MAX_RECORD_SIZE - c->size;
        const size_t stored = pad < room ? pad : room; /* SPEAddByteToRecord() stops at the end */
        memset(c->record + c->size, u->layout[ARMPROF_SPE_PKT_PADDING][0].header[0], stored);
        c->size += stored;
    }
    u->record_size = c->size;
}
