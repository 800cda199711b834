/* Sample record construction (chapter D18): SPEConstructRecord(),
 * SPEConstructClass() and SPEAddPacketToRecord() of
 * pseudocode/full/arm-J1.1.md, with the 8-bit and 16-bit headers of Tables
 * D18-1 and D18-2. Packets are emitted in the pseudocode's order: Context,
 * Counter, Address, Data Source, Operation Type, Events, then Timestamp or
 * End, then Padding to PMBIDR_EL1.Align. */
#include "core/pe.h"
#include "spe/sample.h"
#include "spe/spe.h"

/* SPEAddByteToRecord() */
static void SPEAddByteToRecord(spe_state *u, uint8_t b)
{
    if (u->record_size < SPE_MAX_RECORD_SIZE) u->record[u->record_size++] = b;
}

/* SPEAddPacketToRecord(header_hi, header_lo, payload): the header is
 * header_hi:sz:header_lo with sz the log2 of the payload's byte count; the
 * payload follows little-endian. */
static void SPEAddPacketToRecord(spe_state *u, unsigned header_hi, unsigned header_lo,
                                 uint64_t payload, unsigned bytes)
{
    const unsigned sz = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3;
    SPEAddByteToRecord(u, (uint8_t)(header_hi << 6 | sz << 4 | (header_lo & 15u)));
    for (unsigned i = 0; i < bytes; i++)
        SPEAddByteToRecord(u, (uint8_t)(payload >> (8 * i)));
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

size_t spe_max_record_size(const armprof_config *cfg)
{
#define HAS(f) armprof_config_has(cfg, ARMPROF_FEAT_##f)
    size_t size = 2 * 5;                   /* two Context packets */
    size += 3 * (HAS(SPE_ALTCLK) ? 4 : 3); /* Counter packets */
    /* A load or store: PC, data virtual and physical address; a branch: PC,
     * target and previous target; with the option, a load keeps the
     * previous target too. */
    const size_t addresses =
        cfg->options[ARMPROF_OPT_SPE_PREV_BR_NOT_BRANCH] && HAS(SPE_PBT) ? 4 : 3;
    size += 9 * addresses;
    const unsigned ds = SPEGetDataSourcePayloadSize(cfg);
    if (ds) size += 1 + ds;
    size += 2;                                /* Operation Type */
    size += 1 + SPEGetEventsPayloadSize(cfg); /* Events */
    size += 9;                                /* Timestamp */
    const size_t align = (size_t)1 << cfg->options[ARMPROF_OPT_PMBIDR_ALIGN];
    return (size + align - 1) / align * align;
#undef HAS
}

/* SPEConstructClass(): (op_class, op_subclass) */
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
        if (!IMPLEMENTED(pe, SPE_FPF)) simd = fp = 0;
        *subclass = simd << 2 | fp << 1 | cond;
        return 0;
    case SPEOpType_OtherSVE:
        *subclass = evl << 4 | 1u << 3 | pred << 2 | fp << 1;
        return 0;
    case SPEOpType_OtherSME:
        *subclass = 1u << 7 | (ets >> 1) << 4 | 1u << 3 | (ets & 1u) << 2 | fp << 1;
        return 0;
    case SPEOpType_Branch: {
        unsigned cr = 0, gcs = 0;
        if (IMPLEMENTED(pe, SPE_CRR)) {
            if (a->branch_has_link)
                cr = 1;
            else if (a->procedure_return)
                cr = 2;
            else
                cr = 3;
        }
        if (IMPLEMENTED(pe, GCS) && a->ldst_type == SPELDSTType_GCS &&
            (a->branch_has_link || a->procedure_return))
            gcs = 1;
        *subclass = cr << 3 | gcs << 2 | indirect << 1 | cond;
        return 2;
    }
    default: /* Load, Store, LoadAtomic */
        switch (a->ldst_type) {
        case SPELDSTType_NV2:
            *subclass = 0x30u | ldst; /* '0011000':ldst */
            break;
        case SPELDSTType_Extended:
            *subclass = ar << 4 | excl << 3 | at << 2 | 1u << 1 | ldst;
            break;
        case SPELDSTType_General:
            *subclass = ldst;
            break;
        case SPELDSTType_SIMDFP:
            *subclass = 0x04u | ldst; /* '0000010':ldst */
            break;
        case SPELDSTType_SVESME:
            *subclass = sg << 7 | evl << 4 | 1u << 3 | pred << 2 | ldst;
            break;
        case SPELDSTType_Tags:
            *subclass = 0x14u | ldst; /* '0001010':ldst */
            break;
        case SPELDSTType_MemCopy:
            *subclass = 0x20u | ldst; /* '0010000':ldst */
            break;
        case SPELDSTType_MemSet:
            *subclass = 0x25u; /* '00100101' */
            break;
        case SPELDSTType_GCS:
            *subclass = 0x40u | common << 2 | ldst; /* '01000':common:'0':ldst */
            break;
        default:                      /* SPELDSTType_Unspecified */
            *subclass = 0x10u | ldst; /* '0001000':ldst */
            break;
        }
        return 1;
    }
}

/* Adds an Address or Counter packet: the Short format header for index 0 to
 * 7, the Extended format ('001000':index<4:3> first) above. */
static void add_indexed(spe_state *u, unsigned index, unsigned kind, uint64_t payload,
                        unsigned bytes)
{
    if (index >= 8) SPEAddByteToRecord(u, (uint8_t)(0x20u | (index >> 3 & 3u)));
    SPEAddPacketToRecord(u, 2, kind << 3 | (index & 7u), payload, bytes);
}

/* SPEConstructRecord() */
void SPEConstructRecord(armprof_pe *pe)
{
    spe_state *u = &pe->spe;
    spe_sample *s = &u->sample;
    u->record_size = 0; /* SPEEmptyRecord() */
    if (s->context_el1_valid) SPEAddPacketToRecord(u, 1, 4, s->context_el1, 4);
    if (s->context_el2_valid) SPEAddPacketToRecord(u, 1, 5, s->context_el2, 4);
    /* Counters saturate at 16 bits ('SPE 16bit counters': PMSIDR_EL1.CountSize
     * 0b0011) or 12 bits. */
    const uint32_t saturate =
        OPTION_VALUE(pe, PMSIDR_COUNTSIZE) == ARMPROF_PMSIDR_COUNTSIZE_SATURATING_16 ? 0xffff
                                                                                     : 0xfff;
    for (unsigned i = 0; i < SPE_NUM_COUNTERS; i++)
        if (s->counter_valid >> i & 1)
            add_indexed(u, i, 1, s->counter[i] > saturate ? saturate : s->counter[i], 2);
    if (IMPLEMENTED(pe, SPE_PBT) && s->opattr.op_type != SPEOpType_Branch &&
        !OPTION_VALUE(pe, SPE_PREV_BR_NOT_BRANCH))
        s->address_valid &= (uint8_t) ~(1u << SPEAddrPosPrevBranchTarget);
    /* An NV2 access's data virtual address is not collected when profiling
     * is disabled at EL2. */
    if (!StatisticalProfilingEnabled(pe, EL2) && s->opattr.ldst_type == SPELDSTType_NV2)
        s->address_valid &= (uint8_t) ~(1u << SPEAddrPosDataVirtual);
    for (unsigned i = 0; i < SPE_NUM_ADDRS; i++)
        if (s->address_valid >> i & 1) add_indexed(u, i, 0, s->address[i], 8);
    if (s->data_source_valid) {
        const unsigned ds_payload_size = SPEGetDataSourcePayloadSize(&pe->cfg);
        SPEAddPacketToRecord(u, 1, 3, s->data_source, ds_payload_size);
    }
    unsigned op_subclass;
    const unsigned op_class = SPEConstructClass(pe, &s->opattr, &op_subclass);
    SPEAddPacketToRecord(u, 1, 8u | op_class, op_subclass, 1);
    SPEAddPacketToRecord(u, 1, 2, s->events, SPEGetEventsPayloadSize(&pe->cfg));
    if (s->timestamp_valid)
        SPEAddPacketToRecord(u, 1, 1, s->timestamp, 8);
    else
        SPEAddByteToRecord(u, 0x01); /* End */
    const size_t align = (size_t)1 << FIELD(pe, PMBIDR_EL1, Align);
    while (u->record_size % align != 0)
        SPEAddByteToRecord(u, 0x00); /* Padding */
}
