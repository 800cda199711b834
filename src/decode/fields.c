/* The meaning of payload fields (D18.2): addresses, Operation Type
 * subclasses, Events bits, and the names the manual gives them. */
#include "armprof/decode.h"

static uint64_t sign_extend_55(uint64_t addr)
{
    addr &= (UINT64_C(1) << 56) - 1;
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
    a.ns = payload >> 63 & 1;
    a.el = (uint8_t)(payload >> 61 & 3);
    a.nse = payload >> 60 & 1;
    a.security = security_of(a.nse, a.ns, "Secure");
    return a;
}

/* D18.2.1, Address packet payload (data access virtual address). */
armprof_spe_data_va armprof_spe_decode_data_va(uint64_t payload)
{
    armprof_spe_data_va a;
    a.tag = (uint8_t)(payload >> 56);
    a.va = a.tag ? payload : sign_extend_55(payload);
    return a;
}

/* D18.2.1, Address packet payload (data access physical address). */
armprof_spe_data_pa armprof_spe_decode_data_pa(uint64_t payload)
{
    armprof_spe_data_pa a;
    a.pa = payload & ((UINT64_C(1) << 56) - 1);
    a.ns = payload >> 63 & 1;
    a.ch = payload >> 62 & 1;
    a.nse = payload >> 60 & 1;
    a.pat = (uint8_t)(payload >> 56 & 15);
    a.pas = security_of(a.nse, a.ns, "Secure");
    return a;
}

/* A SUBCLASS pattern of D18.2.7: subclass & mask == value. */
typedef struct op_pattern {
    uint8_t op_class, mask, value;
    armprof_spe_op_kind kind;
    const char *name;
} op_pattern;

/* D18.2.7: the SUBCLASS encodings of each payload type. The patterns of one
 * CLASS do not overlap; that of Load/store, extended (bit [1] set) and of
 * Load/store, SVE or SME (bit [3] set, bit [1] clear) are the wide ones. */
static const op_pattern op_patterns[] = {
    {0, 0xf8, 0x00, ARMPROF_SPE_OP_OTHER, "Other"},
    {0, 0x89, 0x08, ARMPROF_SPE_OP_SVE, "Data processing, SVE vector"},
    {0, 0x89, 0x88, ARMPROF_SPE_OP_SME, "Data processing, SME array"},
    {1, 0xfe, 0x00, ARMPROF_SPE_OP_LDST_GP, "Load/store, general-purpose"},
    {1, 0xfe, 0x04, ARMPROF_SPE_OP_LDST_SIMDFP, "Load/store, SIMD&FP"},
    {1, 0xfe, 0x10, ARMPROF_SPE_OP_LDST_UNSPEC, "Load/store, unspecified"},
    {1, 0xfe, 0x14, ARMPROF_SPE_OP_LDST_TAGS, "Load/store, Allocation Tag"},
    {1, 0xfe, 0x30, ARMPROF_SPE_OP_LDST_NV2, "Load/store, System register (NV2)"},
    {1, 0xe2, 0x02, ARMPROF_SPE_OP_LDST_EXT, "Load/store, extended"},
    {1, 0x0a, 0x08, ARMPROF_SPE_OP_LDST_SVE_SME, "Load/store, SVE or SME"},
    {1, 0xfe, 0x20, ARMPROF_SPE_OP_LDST_MEMCPY, "Load/store, Memory Copy"},
    {1, 0xff, 0x25, ARMPROF_SPE_OP_LDST_MEMSET, "Load/store, Memory Set"},
    {1, 0xfa, 0x40, ARMPROF_SPE_OP_LDST_GCS, "Load/store, GCS"},
    {2, 0xe0, 0x00, ARMPROF_SPE_OP_BRANCH, "Branch"},
};

armprof_spe_op armprof_spe_decode_op(unsigned op_class, unsigned subclass)
{
    armprof_spe_op o = {.kind = ARMPROF_SPE_OP_RESERVED, .name = "reserved"};
    const uint8_t s = (uint8_t)subclass;
    for (size_t i = 0; i < sizeof op_patterns / sizeof op_patterns[0]; i++) {
        const op_pattern *pt = &op_patterns[i];
        if (pt->op_class != op_class || (s & pt->mask) != pt->value) continue;
        o.kind = pt->kind;
        o.name = pt->name;
        break;
    }
    const bool b0 = s & 1, b1 = s >> 1 & 1, b2 = s >> 2 & 1;
    switch (o.kind) {
    case ARMPROF_SPE_OP_OTHER:
        o.ase = b2;
        o.fp = b1;
        o.cond = b0;
        break;
    case ARMPROF_SPE_OP_SVE:
        o.evl = s >> 4 & 7;
        o.pred = b2;
        o.fp = b1;
        break;
    case ARMPROF_SPE_OP_SME:
        o.ets = (uint8_t)((s >> 4 & 7) << 1 | b2);
        o.fp = b1;
        /* ETS 0b1100 to 0b1110 are reserved. */
        if (o.ets >= 12 && o.ets <= 14)
            o = (armprof_spe_op){.kind = ARMPROF_SPE_OP_RESERVED, .name = "reserved"};
        break;
    case ARMPROF_SPE_OP_LDST_EXT:
        o.ar = s >> 4 & 1;
        o.excl = s >> 3 & 1;
        o.at = b2;
        o.ldst = b0;
        break;
    case ARMPROF_SPE_OP_LDST_SVE_SME:
        o.sg = s >> 7 & 1;
        o.evl = s >> 4 & 7;
        o.pred = b2;
        o.ldst = b0;
        break;
    case ARMPROF_SPE_OP_LDST_GCS:
        o.comm = b2;
        o.ldst = b0;
        break;
    case ARMPROF_SPE_OP_LDST_MEMSET:
        o.ldst = true;
        break;
    case ARMPROF_SPE_OP_BRANCH:
        o.cr = s >> 3 & 3;
        o.gcs = b2;
        o.ind = b1;
        o.cond = b0;
        break;
    case ARMPROF_SPE_OP_RESERVED:
        break;
    default: /* the other load/store types: LDST only */
        o.ldst = b0;
        break;
    }
    return o;
}

/* D18.2.6: the Events bits the architecture names. Bits [15:12] and
 * [63:48] are IMPLEMENTATION DEFINED; [47:26] read as zero or are
 * IMPLEMENTATION DEFINED before FEAT_SPEv1p4. */
static const struct {
    const char *name, *short_name;
} event_names[26] = {
    {"Generated exception", "exception"},
    {"Architecturally retired", "retired"},
    {"Level 1 data cache access", "l1d-access"},
    {"Level 1 data cache refill or miss", "l1d-refill"},
    {"TLB access", "tlb-access"},
    {"TLB walk", "tlb-walk"},
    {"Not taken", "not-taken"},
    {"Mispredicted", "mispredicted"},
    {"Last Level cache access", "llc-access"},
    {"Last Level cache miss", "llc-miss"},
    {"Remote access", "remote"},
    {"Misalignment", "misaligned"},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL},
    {"Transactional", "transactional"},
    {"Partial or empty predicate", "partial-pred"},
    {"Empty predicate", "empty-pred"},
    {"Level 2 data cache access", "l2d-access"},
    {"Level 2 data cache miss", "l2d-miss"},
    {"Cache data modified", "cache-modified"},
    {"Recently fetched", "recently-fetched"},
    {"Data snooped", "snooped"},
    {"Streaming SVE mode", "streaming"},
    {"SMCU or external coprocessor operation", "smcu"},
};

const char *armprof_spe_event_name(unsigned bit)
{
    return bit < 26 ? event_names[bit].name : NULL;
}

const char *armprof_spe_event_short_name(unsigned bit)
{
    return bit < 26 ? event_names[bit].short_name : NULL;
}

const char *armprof_spe_address_name(unsigned index)
{
    static const char *const names[] = {"PC", "branch target", "data VA", "data PA",
                                        "previous branch target"};
    if (index < 5) return names[index];
    if (index == 6 || index == 7 || (index >= 16 && index < 32)) return "IMPDEF";
    return "reserved";
}

const char *armprof_spe_counter_name(unsigned index)
{
    static const char *const names[] = {"total latency", "issue latency", "translation latency",
                                        "reserved", "alternate clock issue latency"};
    if (index < 5) return names[index];
    if (index == 6 || index == 7 || (index >= 16 && index < 32)) return "IMPDEF";
    return "reserved";
}

const char *armprof_spe_packet_type_name(armprof_spe_packet_type type)
{
    static const char *const names[] = {"Padding",        "End",     "Timestamp",   "Address",
                                        "Counter",        "Context", "Data Source", "Events",
                                        "Operation Type", "Unknown"};
    return (unsigned)type <= ARMPROF_SPE_PKT_UNKNOWN ? names[type] : "Unknown";
}
