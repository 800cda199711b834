/* SPDX-License-Identifier: BSD-3-Clause */
/* The Statistical Profiling Extension (chapter D17): the sampling layer.
 *
 * sample.c transliterates the pseudocode that takes a member of the sample
 * population to a sample record: SPEStartSample(), SPEToCollectSample(),
 * SPEResetSampleCounter(), SPEBranch(), SPECompleteSample() and the
 * SPESample* callbacks; filter.c has SPECollectRecord() and its filters,
 * record.c SPEConstructRecord(), timestamp.c CollectTimeStamp(). The
 * pseudocode's global sample storage is spe_state, one per PE. */
#ifndef ARMPROF_SPE_SAMPLE_H
#define ARMPROF_SPE_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "core/siblings.h"

/* SPEOpType */
typedef enum SPEOpType {
    SPEOpType_Load,
    SPEOpType_Store,
    SPEOpType_LoadAtomic,
    SPEOpType_Branch,
    SPEOpType_OtherSVE,
    SPEOpType_OtherSME,
    SPEOpType_Other,
    SPEOpType_Invalid,
} SPEOpType;

/* SPELDSTType */
typedef enum SPELDSTType {
    SPELDSTType_NV2,
    SPELDSTType_Extended,
    SPELDSTType_General,
    SPELDSTType_SIMDFP,
    SPELDSTType_SVESME,
    SPELDSTType_Tags,
    SPELDSTType_MemCopy,
    SPELDSTType_MemSet,
    SPELDSTType_GCS,
    SPELDSTType_GCSSS2,
    SPELDSTType_Unspecified,
} SPELDSTType;

/* SPEOpAttr */
typedef struct SPEOpAttr {
    SPEOpType op_type;
    SPELDSTType ldst_type;
    bool branch_is_direct, branch_has_link, procedure_return;
    bool is_conditional, is_floating_point, is_simd, cond_pass;
    bool at, is_acquire_release, is_predicated, is_gather_scatter, is_exclusive;
    uint8_t evl; /* bits(3) */
    uint8_t ets; /* bits(4) */
    bool addr_valid;
} SPEOpAttr;

/* Order of addresses and counters in sample storage: the architectural
 * index values of the Address and Counter packets. */
enum {
    SPEAddrPosPCVirtual = 0,
    SPEAddrPosBranchTarget = 1,
    SPEAddrPosDataVirtual = 2,
    SPEAddrPosDataPhysical = 3,
    SPEAddrPosPrevBranchTarget = 4,
    SPE_NUM_ADDRS = 5,
};
enum {
    SPECounterPosTotalLatency = 0,
    SPECounterPosIssueLatency = 1,
    SPECounterPosTranslationLatency = 2,
    SPECounterPosAltIssueLatency = 4,
    SPE_NUM_COUNTERS = 5,
};
/* SPEMaxRecordSize */
#define SPE_MAX_RECORD_SIZE 2048

/* The sample storage of one sampled operation. */
typedef struct spe_sample {
    uint64_t address[SPE_NUM_ADDRS];
    uint32_t counter[SPE_NUM_COUNTERS];
    uint8_t address_valid; /* bit i: SPESampleAddressValid[i] */
    uint8_t counter_valid; /* bit i: SPESampleCounterValid[i] */
    bool context_el1_valid, context_el2_valid;
    uint32_t context_el1, context_el2;
    bool data_source_valid;
    uint16_t data_source;
    bool timestamp_valid;
    uint64_t timestamp;
    uint64_t events;
    SPEOpAttr opattr;
} spe_sample;

/* A packet's bytes before its payload, and the payload's size, in this
 * configuration's records (record.c): computed once from the packet table,
 * for the INDEX values below SPE_LAYOUT_INDEXES. */
#define SPE_LAYOUT_INDEXES 8
/* The IMPLEMENTATION DEFINED generator of SPEGetRandomInterval() and
 * SPEGetRandomBoolean() (D17.3.2): xorshift64*, seeded from option
 * spe_random_seed so that runs are repeatable. Its next state, and a
 * state's output: spe_ops_until_event() looks at the next interval without
 * drawing it. */
static inline uint64_t spe_random_step(uint64_t x)
{
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x;
}
static inline uint64_t spe_random_output(uint64_t state)
{
    return state * 0x2545F4914F6CDD1Dull;
}

typedef struct spe_packet_layout {
    uint8_t header[2];
    uint8_t header_size;
    uint8_t payload_size;
} spe_packet_layout;

/* What a sample reads of the controls, cached with the rest of
 * spe_refresh()'s values (the functions named are in sample.c, buffer.c and
 * timestamp.c). */
typedef struct spe_sample_controls {
    bool collect_context1; /* CollectContextIDR1() */
    bool collect_context2; /* CollectContextIDR2() */
    bool collect_pa;       /* CollectPhysicalAddress() */
    bool enabled_at_el2;   /* StatisticalProfilingEnabled(EL2) (NV2 accesses) */
    bool buffer_enabled;   /* ProfilingBufferEnabled() */
    bool discard;          /* FEAT_SPEv1p2 and PMBLIMITR_EL1.FM discard */
    uint8_t timestamp;     /* CollectTimeStamp() */
} spe_sample_controls;

typedef struct spe_state {
    /* Cached: recomputed after any MSR or context change (spe_refresh()). */
    uint32_t seen_gen; /* armprof_pe.controls_gen the cache was computed at */
    bool enabled;      /* StatisticalProfilingEnabled() at PSTATE.EL */
    bool pbt;          /* FEAT_SPE_PBT: SPEBranch() tracks the previous target */
    bool ernd_rnd;     /* PMSIRR_EL1.RND == 1 and FEAT_SPE_ERnd */
    bool reload_rnd;   /* PMSIRR_EL1.RND == 1 without FEAT_SPE_ERnd: a random
                        * COUNT<7:0> at SPEResetSampleCounter() */
    uint32_t reload;   /* PMSIRR_EL1.INTERVAL << 8: SPEResetSampleCounter() */
    bool pop_counted;  /* some event counter counts SAMPLE_POP */
    uint64_t pbt_tag;  /* SPESamplePreviousBranchAddress<63:56> here: ns:el:nse */
    spe_sample_controls sc;
    bool in_flight; /* SPESampleInFlight */
    spe_sample sample;
    uint64_t prev_branch;   /* SPESamplePreviousBranchAddress */
    bool prev_branch_valid; /* SPESamplePreviousBranchAddressValid */
    uint64_t rng;           /* state of SPEGetRandomInterval()/SPEGetRandomBoolean() */
    uint64_t physical_count;
    armprof_spe_sink sink;
    void *sink_ctx;
    armprof_spe_stats stats;
    /* Samples dropped for an operation kind out of range (SPECompleteSample());
     * a reset keeps the count. */
    uint64_t invalid_ops;
    size_t record_size; /* SPERecordSize */
    /* Eight bytes beyond the largest record: a payload is stored whole and
     * the size advanced by its length (record.c). */
    uint8_t record[SPE_MAX_RECORD_SIZE + 8];
    /* From the configuration, kept by a reset. */
    spe_packet_layout layout[ARMPROF_SPE_PKT_UNKNOWN][SPE_LAYOUT_INDEXES];
    uint64_t filter_mask; /* SPEFilterByEvents()'s mask (filter.c) */
    /* Cached with the rest (spe_refresh()), but last, so that the fields the
     * per-operation path reads keep their places: pmu_event_filter(), the
     * events a sample may generate for a counter (spe_event()). */
    uint64_t pmu_filter;
} spe_state;

struct armprof_pe;

/* Resets the sampling unit (a Warm or Cold reset): nothing in flight,
 * previous branch invalid, the random generator reseeded. */
void spe_sample_reset(struct armprof_pe *pe);
/* The parts of spe_retire() (spe/spe_retire.h) that are not inline. */
void spe_refresh(struct armprof_pe *pe);
bool SPEStartSample(struct armprof_pe *pe, uint64_t pc);
/* SPEToCollectSample(): the interval counter's step for one member of the
 * population; TRUE when the operation is selected. Runs of operations call
 * it for the operations at the counter's boundaries (spe_retire_run()). */
bool SPEToCollectSample(struct armprof_pe *pe);
/* armprof_event_plan()'s Statistical Profiling part: up to n gaps from the
 * interval counter and generator as they are (UINT64_MAX while profiling
 * is disabled), the PE unchanged; 0 when it cannot plan. */
size_t spe_event_plan(struct armprof_pe *pe, uint64_t *gaps, size_t n);
void SPEBranch(struct armprof_pe *pe, const armprof_op *op, bool sampled);
/* An operation that did not retire (armprof_op.misspeculated). */
void spe_retire_misspeculated(struct armprof_pe *pe, const armprof_op *op);
/* armprof_op.misspeculated, when the operation's version has it. */
#define op_misspeculated(op) (OP_HAS(op, misspeculated) && (op)->misspeculated)
/* An operation a synchronous exception stopped (armprof_op.not_arch_executed). */
void spe_retire_not_arch_executed(struct armprof_pe *pe, const armprof_op *op);
/* armprof_op.not_arch_executed, when the operation's version has it. */
#define op_not_arch_executed(op) (OP_HAS(op, not_arch_executed) && (op)->not_arch_executed)
void SPECompleteSample(struct armprof_pe *pe, const armprof_op *op);
/* The samples SPECompleteSample() dropped because the operation had a kind
 * out of range for its class (armprof_invalid_ops()). */
uint64_t spe_invalid_ops(const struct armprof_pe *pe);
/* SPEBufferIsFull()-independent record size bound for the configuration:
 * the largest record the configured packets can make, padded. */
size_t spe_max_record_size(const armprof_config *cfg);
/* The configuration rules that are SPE's (config_check.c). */
bool spe_config_validate(const armprof_config *c, char *err, size_t errlen);

/* filter.c: SPECollectRecord() */
bool SPECollectRecord(struct armprof_pe *pe, uint64_t events, uint32_t total_latency,
                      SPEOpType optype);
/* record.c: SPEConstructRecord() into SPE_STATE(pe)->record */
void SPEConstructRecord(struct armprof_pe *pe);
/* record.c: the packet layouts of the configuration's records. */
void spe_packet_layouts(const armprof_config *cfg,
                        spe_packet_layout layout[ARMPROF_SPE_PKT_UNKNOWN][SPE_LAYOUT_INDEXES]);
/* record.c: SPEGetEventsPayloadSize(), SPEGetDataSourcePayloadSize() */
unsigned SPEGetEventsPayloadSize(const armprof_config *cfg);
unsigned SPEGetDataSourcePayloadSize(const armprof_config *cfg);
/* timestamp.c: SPESampleAddTimeStamp(), with CollectTimeStamp() from
 * spe_refresh()'s cache, and CollectTimeStamp() for that cache. */
void SPESampleAddTimeStamp(struct armprof_pe *pe);
unsigned CollectTimeStamp(const struct armprof_pe *pe);
/* filter.c: the Events packet bits the event filters check, a function of
 * the configuration (spe_state.filter_mask). */
uint64_t spe_filter_mask(const struct armprof_pe *pe);

#endif
