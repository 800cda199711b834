/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: an executable model of the Arm A-profile profiling extensions.
 *
 * A PE instance holds everything (no global state): create one from a
 * configuration, set its context, and drive it with MRS/MSR accesses. */
#ifndef ARMPROF_ARMPROF_H
#define ARMPROF_ARMPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/config.h"
#include "armprof/types.h"
#include "armprof/version.h"

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

/* armprof_pe, the processing element every function takes: types.h. */

#ifdef __cplusplus
/* A struct T versioned by size (armprof_op, armprof_op_run), zeroed with
 * .size set, as a C++ expression (ARMPROF_OP_INIT's). */
#define ARMPROF_SIZED_INIT_(T)                                                                     \
    ([] {                                                                                          \
        T sized_{};                                                                                \
        sized_.size = static_cast<uint32_t>(sizeof(T));                                            \
        return sized_;                                                                             \
    }())
#endif

/* Arguments, in this header and in config.h, memory.h and decode.h:
 * - Pointers must be valid, not NULL, unless the function's comment says
 *   what a NULL one does. pe must never be NULL, except where a comment
 *   says so (armprof_pe_destroy(), the functions that report failure).
 * - A function that reports failure (false, NULL, 0 or -1, as its comment
 *   says) reports it for a NULL pointer argument too, with a message in err
 *   where it takes one, rather than dereferencing it; the exceptions are
 *   marked "must not be NULL". A function whose comment says it does
 *   nothing for an argument out of range does nothing for a NULL pointer
 *   too. tests/defect/null_argument_crashes.c calls each of them so.
 * - err may be NULL, or errlen 0: the function then writes no message.
 * - A value out of range (an Exception level above 3, a value outside its
 *   enum, an unknown register id or an index past a register's instances)
 *   never stands for a valid one: each function's comment says what it
 *   gives instead. */

/* The version of the library the program runs with, "MAJOR.MINOR.PATCH";
 * ARMPROF_VERSION_STRING is the one it was compiled against. */
const char *armprof_version(void);
/* The same as ARMPROF_VERSION_NUMBER computes it. */
unsigned armprof_version_number(void);
/* A digest of the sources this library was built from (32 hexadecimal
 * digits). The version says which interface a library has; this says
 * whether two copies are the same build: a program that meets two copies
 * (a plugin linked with its own, loaded by an emulator linked with the
 * shared one) and passes a PE from one to the other needs the same id. */
const char *armprof_build_id(void);

/* ---- Checkpoints ----
 * The whole state of a PE (registers, context, every unit's state, held
 * records, the PE's physical memory) as bytes, and back: restore into a PE
 * created with the same configuration by the same library build
 * (armprof_build_id(), which the checkpoint carries), in this process or
 * another. What is the embedder's stays with the PE restored into:
 * callbacks, sinks, hooks, the memory observer; an interrupt callback is
 * told the levels the restored state has where they differ.
 *
 * A checkpoint is trusted input. The state is restored byte for byte as
 * this build lays it out; the restore refuses a checkpoint of another
 * build or configuration and one damaged by accident (a checksum), but
 * the checksum is no signature and the state's fields are not checked
 * against their ranges: restoring a checkpoint from an untrusted source
 * is outside what the model promises (docs/embedding.md, "Checkpoints"). */
/* The bytes a checkpoint of pe takes; 0 for a NULL pe. */
size_t armprof_checkpoint_size(const armprof_pe *pe);
/* Writes the checkpoint to buf; returns its size, or 0 when len is smaller
 * or pe or buf is NULL. */
size_t armprof_checkpoint_save(const armprof_pe *pe, void *buf, size_t len);
/* false, with the reason in err and pe unchanged, when buf is not a
 * checkpoint this PE can take (also when pe or buf is NULL): another build
 * saved it, or a PE of another configuration, or it is damaged (a checksum
 * covers every byte). */
bool armprof_checkpoint_restore(armprof_pe *pe, const void *buf, size_t len, char *err,
                                size_t errlen);

/* Creates a PE from a configuration, which is validated first; on failure
 * (cfg NULL among others) returns NULL with the reason in err. The PE
 * starts after a Cold reset, at its highest Exception level, in Non-debug
 * state, powered up. */
armprof_pe *armprof_pe_create(const armprof_config *cfg, char *err, size_t errlen);
/* NULL does nothing. */
void armprof_pe_destroy(armprof_pe *pe);
/* The configuration the PE was created with; NULL for a NULL pe. */
const armprof_config *armprof_pe_config(const armprof_pe *pe);

typedef enum armprof_reset_kind { ARMPROF_RESET_COLD, ARMPROF_RESET_WARM } armprof_reset_kind;
/* Every register takes the reset value its page states; UNKNOWN values take
 * the bits of option unknown_fill. A Cold reset also resets the context. A
 * kind that is neither ARMPROF_RESET_COLD nor ARMPROF_RESET_WARM does
 * nothing. */
void armprof_reset(armprof_pe *pe, armprof_reset_kind kind);

/* ---- PE context ---- */
typedef enum armprof_security_state {
    ARMPROF_SS_NONSECURE,
    ARMPROF_SS_SECURE,
    ARMPROF_SS_REALM,
    ARMPROF_SS_ROOT,
} armprof_security_state;

typedef enum armprof_signal {
    ARMPROF_SIG_DBGEN,
    ARMPROF_SIG_NIDEN,
    ARMPROF_SIG_SPIDEN,
    ARMPROF_SIG_SPNIDEN,
    ARMPROF_SIG_RLPIDEN,
    ARMPROF_SIG_RTPIDEN,
    ARMPROF_SIG_COUNT
} armprof_signal;

/* "Non-secure", "DBGEN", ...; "?" for a value outside the enum. */
const char *armprof_security_state_name(armprof_security_state ss);
const char *armprof_signal_name(armprof_signal sig);

unsigned armprof_current_el(const armprof_pe *pe);
/* CurrentSecurityState(): derived from SCR_EL3.{NSE,NS} below EL3. */
armprof_security_state armprof_current_security_state(const armprof_pe *pe);

/* Each setter checks the request against the configuration and returns
 * false with a message when the PE cannot be in that state (an el above 3,
 * a Security state outside the enum, a NULL pe). */
bool armprof_set_el(armprof_pe *pe, unsigned el, char *err, size_t errlen);
/* With EL3 implemented, writes SCR_EL3.{NSE,NS}: the Security state of the
 * Exception levels below EL3. At EL3 the PE itself stays in Root state
 * (Secure state without FEAT_RME). Without EL3 the state is fixed. The one
 * false return that changes the PE: at EL2, a state in which EL2 is not
 * enabled is taken and the PE moves to EL1; the message says so. */
bool armprof_set_security_state(armprof_pe *pe, armprof_security_state ss, char *err,
                                size_t errlen);
/* Whether Exception level el uses AArch32 (needs FEAT_AA32EL0/EL1). */
bool armprof_set_aarch32(armprof_pe *pe, unsigned el, bool aarch32, char *err, size_t errlen);
/* Whether Exception level el (0..3) uses AArch32; false for an el above 3
 * or a NULL pe. */
bool armprof_el_using_aarch32(const armprof_pe *pe, unsigned el);
/* Debug state (Halted()). Entering latches EDSCR.SDD as the manual says. */
void armprof_set_debug_state(armprof_pe *pe, bool halted);
bool armprof_in_debug_state(const armprof_pe *pe);
void armprof_set_core_power(armprof_pe *pe, bool on);
bool armprof_core_powered(const armprof_pe *pe);
void armprof_set_os_lock(armprof_pe *pe, bool locked);
/* PSTATE.PM (FEAT_EBEP): masks the SPE Profiling exception at the owning
 * Exception level (armprof_spe_exception()). */
void armprof_set_pstate_pm(armprof_pe *pe, bool pm);
bool armprof_os_locked(const armprof_pe *pe);
/* An authentication signal; a sig outside the enum is ignored (set) or
 * low (read). */
void armprof_set_signal(armprof_pe *pe, armprof_signal sig, bool high);
bool armprof_signal_level(const armprof_pe *pe, armprof_signal sig);

/* ---- System register accesses ---- */
typedef enum armprof_outcome_kind {
    ARMPROF_DONE,       /* the access completed: value read or written */
    ARMPROF_UNDEFINED,  /* the instruction is UNDEFINED */
    ARMPROF_TRAP,       /* AArch64.SystemAccessTrap(target_el, ec) */
    ARMPROF_NVMEM,      /* FEAT_NV2: a memory access at VNCR_EL2.BADDR + nv_offset */
    ARMPROF_UNMODELLED, /* an encoding the model does not declare */
} armprof_outcome_kind;

typedef struct armprof_outcome {
    armprof_outcome_kind kind;
    int reg;            /* register id accessed (after any redirection), -1 if none */
    unsigned index;     /* instance of an indexed register */
    uint64_t value;     /* DONE: value read, or value the register holds after the write */
    unsigned target_el; /* TRAP */
    unsigned ec;        /* TRAP: exception class */
    uint32_t iss;       /* TRAP: AArch64.SystemAccessTrapSyndrome() */
    uint64_t esr;       /* TRAP: ESR_ELx value: EC, IL=1, ISS */
    unsigned nv_offset; /* NVMEM */
} armprof_outcome;

/* Encoding as (op0 << 14 | op1 << 11 | CRn << 7 | CRm << 3 | op2). */
static inline uint32_t armprof_sysreg_encoding(unsigned op0, unsigned op1, unsigned crn,
                                               unsigned crm, unsigned op2)
{
    return (op0 & 3u) << 14 | (op1 & 7u) << 11 | (crn & 15u) << 7 | (crm & 15u) << 3 | (op2 & 7u);
}

/* MRS <Xt>, <reg> and MSR <reg>, <Xt> at the PE's current EL and Security
 * state. rt (0..31) goes into a trap's syndrome, which holds its bits 4:0
 * only. An encoding above 16 bits is ARMPROF_UNMODELLED. */
armprof_outcome armprof_mrs(armprof_pe *pe, uint32_t encoding, unsigned rt);
armprof_outcome armprof_msr(armprof_pe *pe, uint32_t encoding, unsigned rt, uint64_t value);
/* The access check of MRS (is_read) or MSR alone: the outcome armprof_mrs()
 * or armprof_msr() would have, and nothing changes. DONE (or NVMEM) means
 * the access would complete; value is 0. For an embedder whose own decoder
 * asks before it reads or writes (QEMU's accessfn), and whose MSR value is
 * not known yet. */
armprof_outcome armprof_sysreg_check(armprof_pe *pe, uint32_t encoding, unsigned rt, bool is_read);

/* ---- What the PE does: operations, events, cycles ---- */

typedef enum armprof_op_class {
    ARMPROF_OP_OTHER,
    ARMPROF_OP_BRANCH,
    ARMPROF_OP_LOAD,
    ARMPROF_OP_STORE,
} armprof_op_class;

/* armprof_pas, the physical address space of an access: types.h. */

/* What kind of load or store a sampled memory operation is: the Operation
 * Type packet's Load/store subclasses (D18.2.7, SPELDSTType). */
typedef enum armprof_ldst_kind {
    ARMPROF_LDST_GENERAL,  /* general-purpose register load or store */
    ARMPROF_LDST_EXTENDED, /* acquire/release, exclusive or atomic (see .acquire_release,
                              .exclusive, .atomic) */
    ARMPROF_LDST_SIMDFP,   /* SIMD&FP register load or store (.simd: vector, otherwise scalar) */
    ARMPROF_LDST_SVE_SME, /* SVE or SME load or store (.vector_length, .predicated, .gather_scatter)
                           */
    ARMPROF_LDST_UNSPECIFIED, /* any other load or store */
    ARMPROF_LDST_TAGS,        /* Allocation Tag load or store (FEAT_MTE) */
    ARMPROF_LDST_MEMCOPY,     /* FEAT_MOPS memory copy */
    ARMPROF_LDST_MEMSET,      /* FEAT_MOPS memory set (always a store) */
    ARMPROF_LDST_GCS,         /* Guarded Control Stack access (FEAT_GCS) */
    ARMPROF_LDST_NV2,         /* FEAT_NV2 register access turned into memory */
} armprof_ldst_kind;

/* The kind of an Other operation (D18.2.7 Other subclasses). */
typedef enum armprof_other_kind {
    ARMPROF_OTHER_GENERAL, /* integer, FP (.fp) or SIMD (.simd) */
    ARMPROF_OTHER_SVE,     /* SVE operation (.vector_length, .predicated, .fp) */
    ARMPROF_OTHER_SME,     /* SME array operation (.tile_size, .fp) */
} armprof_other_kind;

/* The kind of a branch (the pseudocode's BranchType). */
typedef enum armprof_branch_kind {
    ARMPROF_BRANCH_DIRECT,        /* B, B.cond, CBZ, TBZ ... */
    ARMPROF_BRANCH_INDIRECT,      /* BR */
    ARMPROF_BRANCH_DIRECT_CALL,   /* BL */
    ARMPROF_BRANCH_INDIRECT_CALL, /* BLR */
    ARMPROF_BRANCH_RETURN,        /* RET */
    ARMPROF_BRANCH_ERET,          /* exception return */
    ARMPROF_BRANCH_EXCEPTION,     /* exception entry */
} armprof_branch_kind;

/* The Events packet bits an operation can set that are not derived from the
 * other fields of armprof_op (D18.2.6; the PMU event each one stands for is
 * in SPEEvent()). Bits 1 (retired), 2 (L1 access, from .l1d_access), 3 (L1
 * refill or miss, from .l1d_refill), 6 (not taken) and 7 (mispredicted) are
 * derived and ignored here. Bits the configured SPE version does not define
 * are dropped. */
enum {
    ARMPROF_SPE_EV_EXCEPTION = 1u << 0,         /* EXC_TAKEN */
    ARMPROF_SPE_EV_TLB_ACCESS = 1u << 4,        /* L1D_TLB */
    ARMPROF_SPE_EV_TLB_WALK = 1u << 5,          /* DTLB_WALK */
    ARMPROF_SPE_EV_LLC_ACCESS = 1u << 8,        /* LL_CACHE */
    ARMPROF_SPE_EV_LLC_MISS = 1u << 9,          /* LL_CACHE_MISS */
    ARMPROF_SPE_EV_REMOTE = 1u << 10,           /* REMOTE_ACCESS */
    ARMPROF_SPE_EV_MISALIGNED = 1u << 11,       /* LDST_ALIGN_LAT (FEAT_SPEv1p1) */
    ARMPROF_SPE_EV_PARTIAL_PRED = 1u << 17,     /* SVE_PRED_NOT_FULL_SPEC (FEAT_SPEv1p1) */
    ARMPROF_SPE_EV_EMPTY_PRED = 1u << 18,       /* SVE_PRED_EMPTY_SPEC (FEAT_SPEv1p1) */
    ARMPROF_SPE_EV_L2_ACCESS = 1u << 19,        /* L2D_CACHE_RD (FEAT_SPEv1p4) */
    ARMPROF_SPE_EV_L2_MISS = 1u << 20,          /* L2D_CACHE_LMISS_RD (FEAT_SPEv1p4) */
    ARMPROF_SPE_EV_CACHE_MODIFIED = 1u << 21,   /* Lx_CACHE_HITM_RD (FEAT_SPEv1p4) */
    ARMPROF_SPE_EV_RECENTLY_FETCHED = 1u << 22, /* Lx_LFB_HIT_RD (FEAT_SPEv1p4) */
    ARMPROF_SPE_EV_SNOOPED = 1u << 23,          /* DSNP_HIT_RD (FEAT_SPEv1p4) */
    ARMPROF_SPE_EV_STREAMING = 1u << 24,        /* PSTATE.SM (FEAT_SPE_SME) */
    ARMPROF_SPE_EV_SHARED_RESOURCE = 1u << 25, /* executed on an SMCU (SPESampleOnSharedResource) */
};

/* One retired instruction. Initialise it with ARMPROF_OP_INIT (or to zero)
 * and fill what applies: the fields after the first group are what
 * Statistical Profiling records when the operation is sampled (D18).
 *
 * Versioned by size: a later version of the library may add fields at the
 * end. It reads a field added after the first version only when .size
 * (set by ARMPROF_OP_INIT to the size the program was compiled with)
 * covers it, and takes it as zero otherwise; .size 0 means the first
 * version. The fields here are the first version's and are always read.
 *
 * Out-of-range values, which neither armprof_retire() nor
 * armprof_dispatch() can return as an error: each is counted in
 * armprof_invalid_ops(), which a simulator checks (nonzero is a bug in how
 * it fills armprof_op; so is a value of an enum that a newer header adds,
 * passed to an older library).
 * - op_class not an armprof_op_class: the operation is refused. It does
 *   nothing: it is not a member of the sample population, generates no PMU
 *   event and is no PC-sampling candidate.
 * - A kind out of its enum in a field the class uses to describe the
 *   operation (branch_kind for a branch, ldst_kind and pas for a load or
 *   store, other_kind for Other): checked only when the operation is
 *   sampled, to keep the per-operation path cheap. The operation counts as
 *   its class, but its sample is dropped when it completes: no
 *   SAMPLE_FEED, no record (a record would describe an operation that does
 *   not exist). An unsampled branch with such a branch_kind is a plain
 *   branch for previous-branch-target tracking. The kinds of the other
 *   classes are not read. */
typedef struct armprof_op {
    uint32_t size; /* sizeof(armprof_op) as the program knows it, or 0 */
    uint64_t pc;
    armprof_op_class op_class;
    bool mispredicted; /* a branch the PE mispredicted */
    bool taken;        /* a branch that was taken (not a conditional branch that failed) */
    uint64_t target;   /* a taken branch's target: what PC sampling samples (H7.1) */
    bool l1d_access;   /* a load or store that accessed the Level 1 data cache */
    bool l1d_refill;   /* ... and refilled it */

    /* ---- what a sample record of this operation holds ---- */
    uint32_t total_latency;       /* cycles from dispatch to complete (Counter packet 0) */
    uint32_t issue_latency;       /* cycles waiting to be issued (Counter packet 1) */
    uint32_t translation_latency; /* loads and stores: cycles waiting for translation (Counter 2) */
    uint32_t alt_issue_latency;   /* with FEAT_SPE_ALTCLK and .events SHARED_RESOURCE (Counter 4) */
    uint64_t vaddr;               /* loads and stores: data virtual address */
    uint64_t paddr;               /* loads and stores: data physical address */
    armprof_pas pas;              /* ... and its physical address space */
    bool tbi;                     /* EffectiveTBI() for vaddr (the model has no TCR_ELx) */
    bool tag_checked;             /* FEAT_MTE2: the access was Tag Checked */
    bool data_source_valid;       /* loads: the data source is known */
    uint16_t data_source;         /* ... IMPLEMENTATION DEFINED encoding (Data Source packet) */
    uint32_t events;              /* ARMPROF_SPE_EV_* bits, and IMPLEMENTATION DEFINED ones */
    uint16_t impdef_events;       /* Events packet bits 63:48 */
    /* operation type (Operation Type packet) */
    armprof_branch_kind branch_kind;
    armprof_ldst_kind ldst_kind;
    armprof_other_kind other_kind;
    bool conditional; /* a conditional instruction; .taken says whether it passed (branches) */
    bool cond_failed; /* Other: a conditional instruction that failed its condition check */
    bool fp, simd;    /* floating-point / SIMD (D17.8.3): Other, SIMD&FP loads and stores, and the
                         SIMD&FP forms of Extended ones (LDAPUR, STLUR, LDAP1, STL1) */
    bool acquire_release; /* Extended loads and stores */
    bool exclusive;
    bool atomic;         /* an atomic, compare-and-swap or swap (SPEOpType_LoadAtomic if a load) */
    bool predicated;     /* SVE/SME */
    bool gather_scatter; /* SVE/SME loads and stores */
    uint32_t vector_length; /* SVE/SME: effective vector length in bits (evl) */
    uint32_t tile_size;     /* SME array: effective tile size in bits (ets) */

    /* ---- set by armprof_dispatch() ---- */
    bool dispatched;   /* armprof_dispatch() was called for this operation */
    bool spe_selected; /* ... and Statistical Profiling selected it for a sample */

    /* ---- version 2: read only when .size covers them ---- */
    /* An exception entry or exception return (branch_kind EXCEPTION or ERET)
     * changes the Exception level before SPEBranch() runs, so the branch
     * target the record holds, and the previous branch target it leaves,
     * carry the level and Security state it goes to, and whether profiling
     * is enabled there decides whether SPEBranch() records anything. With
     * target_el_valid, target_el is that level; its Security state is the
     * one SCR_EL3 gives it (Root or Secure for EL3). Without it, or for
     * other branches, the current level is taken. */
    bool target_el_valid;
    uint8_t target_el;
    /* A BL or BLR that pushes its return address to the Guarded Control
     * Stack, or a RET that pops it (FEAT_GCS): the branch is also a GCS
     * store (call) or load (return) of vaddr/paddr/pas, which its sample
     * records (SPESampleLoadStore() before SPEBranch(); Operation Type
     * packet GCS bit). Ignored for other branch kinds and classes. */
    bool gcs;
    /* The operation did not retire: it was executed on a misspeculated path
     * and its results were discarded. armprof_retire() then ends it without
     * the architectural events (INST_RETIRED, BR_RETIRED,
     * BR_MIS_PRED_RETIRED, LD_RETIRED, ST_RETIRED; MEM_ACCESS, L1D_CACHE
     * and L1D_CACHE_REFILL still count), without PC sampling and without
     * moving the previous branch target, and Statistical Profiling treats
     * it as option spe_speculative_sampling says (D17.6.7): not a member of
     * the sample population (a sample armprof_dispatch() started for it is
     * abandoned), sampled with its record discarded, or recorded with
     * Events bits 0 and 1 clear. */
    bool misspeculated;

    /* ---- version 3: read only when .size covers it ---- */
    /* The embedder does not know the load's or store's data address (an
     * emulator that cannot see it for this instruction): its record then
     * has no Data Virtual Address or Data Physical Address packet, rather
     * than vaddr and paddr made up (SPESampleLoadStore() leaves those
     * address_valid bits clear). Real hardware always knows the address;
     * docs/spec-notes.md. */
    bool data_address_unknown;

    /* ---- version 4: read only when .size covers it ---- */
    /* The operation generated a synchronous exception that stopped it: it
     * is not Architecturally executed (a load's Data Abort, a trapped
     * System register access, an UNDEFINED instruction; not SVC, HVC or
     * SMC, which complete). It is a member of the Statistical Profiling
     * sample population as any operation (it counts down the interval and
     * may be sampled); a sampled one's Events packet has E[1] clear (it did
     * not retire; with spe_speculative_sampling NOT_SUPPORTED E[1] reads as
     * one, D18.2.6) and E[0] as .events says (ARMPROF_SPE_EV_EXCEPTION).
     * armprof_retire() generates none of its retirement events
     * (INST_RETIRED, BR_RETIRED, BR_MIS_PRED_RETIRED, LD_RETIRED,
     * ST_RETIRED, nor MEM_ACCESS, L1D_CACHE or L1D_CACHE_REFILL: the access
     * was not made), takes no PC sample of it and does not move the
     * previous branch target. misspeculated, when also set, decides. */
    bool not_arch_executed;
} armprof_op;

/* C++ before C++20 has no designated initializer: there the macro is an
 * armprof_op, zeroed, of the same size. */
#ifdef __cplusplus
#define ARMPROF_OP_INIT ARMPROF_SIZED_INIT_(armprof_op)
#else
#define ARMPROF_OP_INIT                                                                            \
    {                                                                                              \
        .size = (uint32_t)sizeof(armprof_op)                                                       \
    }
#endif

/* An instruction retires: generates INST_RETIRED and, by class, BR_RETIRED,
 * BR_MIS_PRED_RETIRED, LD_RETIRED, ST_RETIRED, MEM_ACCESS, L1D_CACHE and
 * L1D_CACHE_REFILL, and is one operation of the Statistical Profiling sample
 * population (SPEStartSample() ... SPECompleteSample(): selected, sampled,
 * filtered and recorded in this one call) unless armprof_dispatch() already
 * counted it. An out-of-range op_class or kind: see armprof_op. pe and op
 * must not be NULL. */
void armprof_retire(armprof_pe *pe, const armprof_op *op);
/* For a simulator that models operations in flight: the operation is
 * dispatched (SPEStartSample()): it is counted in the sample population and
 * may be selected, capturing its PC, context and timestamp now. A sample stays
 * in flight until the same operation is passed to armprof_retire(); an
 * operation selected while one is in flight is a sample collision. Sets
 * op->dispatched and op->spe_selected, and returns op->spe_selected. An
 * operation with an op_class out of range is refused (see armprof_op):
 * both are set false and it returns false. pe and op must not be NULL. */
bool armprof_dispatch(armprof_pe *pe, armprof_op *op);
/* The operations with a value out of range (see armprof_op) that
 * armprof_retire() and armprof_dispatch() refused or whose samples they
 * dropped, since the PE was created: 0 in a simulator that fills
 * armprof_op correctly. A reset does not clear it; it is part of the state
 * a checkpoint holds. */
uint64_t armprof_invalid_ops(const armprof_pe *pe);
/* ---- Skipping ahead: runs of operations ----
 * Most operations only count: SPE's interval counter counts down and the PMU
 * accumulates their events. An embedder can retire such operations in bulk
 * and call armprof_retire() only for the operation where something happens.
 * armprof_ops_until_event() says how many plain operations (below) can
 * retire before that: the next Statistical Profiling sample selection
 * (exactly: through the reload of PMSICR_EL1.COUNT and FEAT_SPE_ERnd's
 * draw of ECOUNT, whose random value it looks at without drawing), or the
 * instruction counter's overflow; UINT64_MAX when nothing counts down. It
 * holds until a
 * register, the context or the configuration changes, or cycles end
 * (armprof_cycles() takes any number of cycles at once already).
 *
 * A run describes ops plain operations in program order: no exception entry
 * or return (branch_kind EXCEPTION or ERET), none misspeculated, not
 * Architecturally executed or dispatched. armprof_retire_run() leaves the PE exactly as
 * armprof_retire() of each of them one at a time would: the counts the PMU events take from
 * (INST_RETIRED, BR_RETIRED, BR_MIS_PRED_RETIRED, LD_RETIRED, ST_RETIRED,
 * MEM_ACCESS, L1D_CACHE, L1D_CACHE_REFILL, SAMPLE_POP), the interval
 * counter, the previous branch target (the last taken branch) and the PC
 * sample (the last branch's next PC, or with option
 * pcsr_sample_all_instructions the last operation's). A run longer than
 * armprof_ops_until_event(), or one that does not add up (more branches
 * than operations, ...), is refused: false, nothing changes; so is a NULL
 * pe or run. */
typedef struct armprof_op_run {
    uint32_t size;              /* sizeof(armprof_op_run) as the program knows it, or 0 */
    uint64_t ops;               /* operations retired */
    uint64_t branches;          /* of them, branches */
    uint64_t mispredicted;      /* ... branches the PE mispredicted */
    uint64_t loads;             /* loads (LD_RETIRED, MEM_ACCESS) */
    uint64_t stores;            /* stores (ST_RETIRED, MEM_ACCESS) */
    uint64_t l1d_access;        /* loads and stores that accessed the L1 data cache */
    uint64_t l1d_refill;        /* ... and refilled it */
    bool any_taken;             /* a branch of the run was taken */
    uint64_t last_taken_target; /* ... the target of the last one */
    bool last_is_branch;        /* the run's last operation is a branch */
    uint64_t last_branch_next;  /* the PC after the run's last branch: its target if taken,
                                   else its pc + 4 (PC sampling) */
    uint64_t last_pc;           /* the pc of the run's last operation */
} armprof_op_run;

#ifdef __cplusplus
#define ARMPROF_OP_RUN_INIT ARMPROF_SIZED_INIT_(armprof_op_run)
#else
#define ARMPROF_OP_RUN_INIT                                                                        \
    {                                                                                              \
        .size = (uint32_t)sizeof(armprof_op_run)                                                   \
    }
#endif

uint64_t armprof_ops_until_event(armprof_pe *pe);
/* The plan of the next events, the PE unchanged: gaps[0] is what
 * armprof_ops_until_event() says now, gaps[i] what it will say after the
 * (i)th operation that takes the full path, provided that only operations
 * retire (no register, context or configuration change, no armprof_dispatch())
 * and that each gap's operations retire as plain operations (a run, or
 * armprof_retire() of each) and the operation after them through
 * armprof_retire(). It follows the interval counter (PMSICR_EL1.COUNT and
 * FEAT_SPE_ERnd's ECOUNT, reloaded from PMSIRR_EL1 with RND's random draws)
 * on copies; an operation whose sample draws a random value itself (a
 * memory copy's load-or-store choice, SPEMultiAccessSample()) ends what the
 * plan can say after it. The instruction counter's overflow ends the plan
 * at the gap it cuts short. Returns how many gaps it filled (at most n; one
 * UINT64_MAX gap while nothing counts down), 0 for a NULL pe or gaps, n 0,
 * or a state it cannot plan (a dispatched operation's sample in flight). */
size_t armprof_event_plan(armprof_pe *pe, uint64_t *gaps, size_t n);
bool armprof_retire_run(armprof_pe *pe, const armprof_op_run *run);
/* Counting goes on inside a run and armprof_cycles(): a run may carry an
 * event counter over its overflow, and the overflow bit and PMUIRQ then
 * appear at the next armprof_cycles(). For an embedder that delivers PMUIRQ
 * near the operation that overflows (a guest's sampling on event counts),
 * armprof_pmu_ops_until_overflow() says how many more operations can retire,
 * each adding at most one to each retirement event and SAMPLE_POP and taking
 * one cycle, before a counter that counts now could overflow: the room below
 * the overflow width (32 bits, or 64: PMCR_EL0.LP, MDCR_EL2.HLP) of each
 * event counter of such an event or CPU_CYCLES, less the events it has
 * accumulated and not counted yet; the cycle counter's cycles before its
 * overflow (through PMCR_EL0.D's divide); and the instruction counter's room
 * (armprof_ops_until_event() has it too). Operations of more cycles reach the
 * cycle-based overflows sooner. CHAIN counters and events retirement does not
 * make (EXC_TAKEN, SW_INCR, ...) do not bound it. 0: the next operation
 * overflows a counter, or the events a counter that counts has already
 * accumulated (of any event) overflow it at the next cycle. UINT64_MAX when nothing
 * bounds it, without FEAT_PMUv3, or for a NULL pe. It holds as
 * armprof_ops_until_event() does. */
uint64_t armprof_pmu_ops_until_overflow(armprof_pe *pe);

/* Any PMU event by number (PMUEvent()). Events accumulate and are counted at
 * the end of the cycle they happen in: call armprof_cycles(). */
void armprof_pmu_event(armprof_pe *pe, uint16_t event, uint64_t count);
/* n cycles end (AArch64.PMUCycle() n times): CPU_CYCLES, the cycle counter,
 * the events accumulated since the last call, overflow, PMUIRQ, and a pending
 * PMU snapshot Capture event completing. */
void armprof_cycles(armprof_pe *pe, uint64_t n);
/* The PMUIRQ output level. */
bool armprof_pmuirq(armprof_pe *pe);

/* ---- Interrupt callbacks ----
 * Besides polling (armprof_pmuirq(), armprof_pmbirq(),
 * armprof_spe_exception()), an embedder can be called when an output
 * changes level: from inside the call that changed it (an MSR, a retired
 * operation, cycles, an external write, a context change, PSB CSYNC, a
 * reset), after the change, with the new level and, for the SPE exception,
 * the Exception level it is taken to. The callback may read the PE
 * (armprof_reg_get(), the polling functions) but must not drive it (retire,
 * cycles, MRS/MSR, context changes); a simulator records the level and
 * takes the interrupt at its next instruction boundary. When installed, fn
 * is called at once for each output already asserted. NULL removes it. ctx
 * is passed to fn as it is (it may be NULL). */
typedef enum armprof_irq {
    ARMPROF_IRQ_PMU,           /* PMUIRQ */
    ARMPROF_IRQ_PMB,           /* PMBIRQ, the Profiling Buffer management interrupt */
    ARMPROF_IRQ_SPE_EXCEPTION, /* an SPE Profiling exception is pending (FEAT_SPE_EXC) */
    ARMPROF_IRQ_COUNT
} armprof_irq;
typedef void (*armprof_irq_fn)(void *ctx, armprof_irq irq, bool level, unsigned target_el);
void armprof_set_irq_callback(armprof_pe *pe, armprof_irq_fn fn, void *ctx);
/* The IMPLEMENTATION DEFINED external snapshot request (RSCLCQ): as a write
 * of 1 to PMSSCR_EL1.SS. */
void armprof_snapshot_request(armprof_pe *pe);
/* The number of a named PMU event ("INST_RETIRED"), -1 if unknown or NULL. */
int armprof_pmu_event_number(const char *name);

/* ---- BRBE ---- */
/* The BRBE freeze state, BRBFCR_EL1.PAUSED: set by a BRBE freeze event (for
 * example on a successful PMU snapshot Capture event with BRBCR_EL1.FZPSS
 * set), cleared by software. false when FEAT_BRBE is not implemented. */
bool armprof_brbe_paused(const armprof_pe *pe);

/* ---- Statistical Profiling: owner and enables ---- */
/* ProfilingBufferEnabled(): PMBLIMITR_EL1.E is 1, profiling is not stopped,
 * the PE (below EL3: SCR_EL3.{NSE,NS}) is in the owning Security state, the
 * owning Exception level uses AArch64 and the PE is in Non-debug state. */
bool armprof_spe_buffer_enabled(const armprof_pe *pe);
/* ProfilingBufferOwner(): the owning Security state and Exception level,
 * stored in *ss and *el (either may be NULL) whether or not the buffer is
 * enabled. Returns ProfilingBufferEnabled(): false when the Profiling Buffer
 * is not enabled, so that it has no owner. *ss is ARMPROF_SS_ROOT when
 * MDCR_EL3.{NSPBE,NSPB} selects no Security state (a reserved value that
 * Unpredictable_RESERVEDNSxB maps to another reserved one). */
bool armprof_spe_buffer_owner(const armprof_pe *pe, armprof_security_state *ss, unsigned *el);
/* StatisticalProfilingEnabled(el): profiling is enabled at Exception level
 * el (0..3) in the current Security state of the ELs below EL3; false for
 * an el above 3 or a NULL pe. As in the pseudocode, UsingAArch32() is the current
 * Exception level's. */
bool armprof_spe_profiling_enabled(const armprof_pe *pe, unsigned el);
/* SPEProfilingStopped() */
bool armprof_spe_profiling_stopped(const armprof_pe *pe);
/* The owning translation regime (D17.7.5, Table D17-4); NONE when the
 * Profiling Buffer is not enabled. */
typedef enum armprof_spe_regime {
    ARMPROF_SPE_REGIME_NONE = 0,
    ARMPROF_SPE_REGIME_EL10 = 1, /* EL1&0 */
    ARMPROF_SPE_REGIME_EL2 = 2,  /* EL2 */
    ARMPROF_SPE_REGIME_EL20 = 3, /* EL2&0 */
} armprof_spe_regime;
armprof_spe_regime armprof_spe_owning_regime(const armprof_pe *pe);
/* One of the above, or an Effective value, by name (the scenario language's
 * `expect spe.NAME`): owner_ss (armprof_security_state), owner_el,
 * buffer_enabled, stopped, regime (armprof_spe_regime), enabled_el0 ..
 * enabled_el3, and effective.REG.FIELD for PMBLIMITR_EL1.nVM, PMSCR_EL1.EE,
 * PMSCR_EL1.PCT and PMSCR_EL2.{EnVM,KE,EE,PCT,TS,PA,CX,E2SPE,E0HSPE}, and
 * stats.NAME for each armprof_spe_stats field. false if the name is unknown
 * or NULL, or value is NULL (*value unchanged). */
bool armprof_spe_value(const armprof_pe *pe, const char *name, uint64_t *value);

/* ---- Statistical Profiling: sample records ---- */
/* Where completed sample records go (SPEWriteToBuffer()). A record is the
 * bytes of D18, padded to PMBIDR_EL1.Align; it is valid only during the
 * call. Without a sink (sink NULL) records are counted (armprof_spe_stats)
 * and dropped. */
typedef void (*armprof_spe_sink)(void *ctx, const uint8_t *record, size_t size);
void armprof_spe_set_sink(armprof_pe *pe, armprof_spe_sink sink, void *ctx);

/* What the sampling unit has done since the last reset. */
typedef struct armprof_spe_stats {
    uint64_t population; /* operations counted while profiling was enabled (SAMPLE_POP) */
    uint64_t selected;   /* operations selected, sampled and completed (SAMPLE_FEED) */
    uint64_t collisions; /* selected while a sample was in flight (SAMPLE_COLLISION) */
    uint64_t filtered;   /* samples that passed the filters (SAMPLE_FILTRATE) */
    uint64_t discarded;  /* ... of which Discard mode wrote nothing */
    uint64_t records;    /* records constructed */
    uint64_t bytes;      /* ... their size, padding included */
    /* The Profiling Buffer: */
    uint64_t written;           /* records written to memory whole */
    uint64_t written_bytes;     /* bytes written to memory */
    uint64_t lost;              /* records not written whole (faults, aborts, discards) */
    uint64_t management_events; /* Profiling Buffer management events */
    uint64_t serrors;           /* External aborts taken as an SError exception */
    uint64_t held;              /* records held in the unit now, awaiting a write */
} armprof_spe_stats;
armprof_spe_stats armprof_spe_get_stats(const armprof_pe *pe);

/* The physical count, PhysicalCountInt(): the generic timer's system counter
 * that SPE timestamps are taken from. The embedder sets it; the model does
 * not advance it. */
void armprof_set_physical_count(armprof_pe *pe, uint64_t count);
/* The count armprof_set_physical_count() set last (0 before). */
uint64_t armprof_get_physical_count(const armprof_pe *pe);

/* ---- The register table ----
 * A register id is 0 .. armprof_reg_count() - 1; for another id, or a NULL
 * pe, the functions below give NULL, 0, -1 or false, or do nothing. */
size_t armprof_reg_count(void);
/* Name of a register ("PMEVCNTSVR<n>_EL1" for an indexed one). */
const char *armprof_reg_name(int reg);
/* Name of one instance of a register ("PMEVCNTR3_EL0"), written into buf
 * (len bytes) for an indexed register; a register that is not indexed
 * returns its name and does not use buf. NULL for an unknown register, an
 * index that is not one of its instances (armprof_reg_instances(); 0 for a
 * register that is not indexed), or an indexed register with buf NULL or
 * len 0. */
const char *armprof_reg_instance_name(int reg, unsigned index, char *buf, size_t len);
/* Id of "PMSCR_EL1", "PMEVCNTSVR3_EL1" or "S3_0_C9_C9_0"; -1 if unknown
 * or name is NULL. *index receives the instance; index may be NULL. */
int armprof_reg_lookup(const char *name, unsigned *index);
/* The MRS/MSR encoding (armprof_sysreg_encoding()) of instance index of a
 * register; 0, which is no System register's, for an unknown register, an
 * index that is not one of its instances, or a register with no MRS/MSR
 * form (PMCCR, an external control kept in the register file). */
uint32_t armprof_reg_encoding(int reg, unsigned index);
/* The instances of an indexed register (PMEVCNTR<n>_EL0: 0 .. n - 1); 1
 * for a register with storage, 0 for an alias (PMSCR_EL12), which has one
 * encoding, index 0; 0 for an unknown register. */
unsigned armprof_reg_instances(int reg);
bool armprof_reg_present(const armprof_pe *pe, int reg);
/* Field position by name; false if the register has no such field or
 * field is NULL. Either of hi and lo may be NULL. */
bool armprof_reg_field(int reg, const char *field, unsigned *hi, unsigned *lo);
/* Calls fn for each bit range of the register, from the declaration. kind is
 * "RW", "RO", "WO", "RES0", "RES1" or "UNKNOWN"; present is false for a field
 * that is RES0 in this PE's configuration. fn NULL does nothing. */
void armprof_reg_foreach_field(const armprof_pe *pe, int reg,
                               void (*fn)(void *ctx, const char *name, unsigned hi, unsigned lo,
                                          const char *kind, bool present),
                               void *ctx);

/* Debugger-style access with no access check and no side effects: get
 * returns the stored value; set stores it with RES0/RES1 applied (fields RES0
 * in this configuration included) and updates the derived Effective values.
 * For an unknown register or an index past its instances (an alias has
 * none: it has no storage) get returns 0 and set does nothing. */
uint64_t armprof_reg_get(const armprof_pe *pe, int reg, unsigned index);
void armprof_reg_set(armprof_pe *pe, int reg, unsigned index, uint64_t value);

/* Registers the embedder owns, such as an emulator's HCR_EL2, SCR_EL3 or
 * CONTEXTIDR_EL1, which the model reads but does not keep: the PE asks fn
 * for their values each time it needs them current, at the start of
 * armprof_set_el(), armprof_sysreg_check(), armprof_mrs(), armprof_msr()
 * and armprof_psb_csync(). fn writes values[i] for instance index[i] of
 * register regs[i] (index NULL: instance 0 of each). Each value is taken
 * as armprof_reg_set() takes it (RES0/RES1 applied), and what derives from
 * them is recomputed only when one of them changed. The embedder owns
 * these registers: an MSR to one of them lasts until the next pull. fn
 * must not call the functions that pull (it would pull again). At most
 * ARMPROF_MAX_PROVIDED_REGS registers; fn NULL removes the provider. False
 * with a message, changing nothing, for an id that is not a register with
 * storage in this PE, an index past its instances, or too many. */
#define ARMPROF_MAX_PROVIDED_REGS 16
typedef void (*armprof_reg_provider_fn)(void *ctx, uint64_t *values);
bool armprof_set_reg_provider(armprof_pe *pe, const int *regs, const unsigned *index, size_t count,
                              armprof_reg_provider_fn fn, void *ctx, char *err, size_t errlen);

/* ---- External (memory-mapped) PMU interface ---- */
/* The Performance Monitors as an external agent sees them (chapter I5, the
 * registers/<NAME>.external.md pages): reads and writes at an offset from the
 * PMU base, with the access permissions the pages give. A location that is a
 * view of a System register shares its storage and side effects. */

/* How an access is made. NULL stands for {ARMPROF_PAS_NONSECURE, false}. */
typedef struct armprof_ext_access {
    armprof_pas pas;
    /* A memory-mapped access by software, subject to the OPTIONAL PMU
     * Software Lock (PMLAR, PMLSR); false for the external debugger. */
    bool memory_mapped;
} armprof_ext_access;

typedef enum armprof_ext_kind {
    ARMPROF_EXT_OK,         /* completed: value read, or write carried out or ignored */
    ARMPROF_EXT_ERROR,      /* the access generates an error response */
    ARMPROF_EXT_UNMODELLED, /* an access size or alignment the model does not define */
} armprof_ext_kind;

typedef struct armprof_ext_outcome {
    armprof_ext_kind kind;
    int reg;        /* external register (armprof_ext_reg_name()), -1 for a reserved location */
    unsigned index; /* instance of an indexed register (PMEVCNTR<n>_EL0) */
    int sysreg;     /* the System register the location is a view of, -1 if none */
    uint64_t value; /* OK: the value read; after a write, the value the location reads as */
    bool ignored;   /* OK write: nothing was written (RO, WI, RAZ/WI, RES0 location) */
    /* Why an access was refused or ignored: the page's condition, such as
     * "!IsCorePowered()", "OSLockStatus()" or "reserved"; NULL otherwise. */
    const char *why;
} armprof_ext_outcome;

/* A read or write of size_bytes (4 or 8) at offset from the PMU base. A
 * 64-bit location takes 8-byte accesses and 4-byte accesses to either word.
 * With FEAT_PCSRv8p2 the PMU block holds the PC sample registers (H7.1.2),
 * also when FEAT_PMUv3 is not implemented (Table H7-1). */
armprof_ext_outcome armprof_external_read(armprof_pe *pe, uint32_t offset, unsigned size_bytes,
                                          const armprof_ext_access *how);
armprof_ext_outcome armprof_external_write(armprof_pe *pe, uint32_t offset, unsigned size_bytes,
                                           uint64_t value, const armprof_ext_access *how);

/* The same at offset from the external debug base (chapter H9, the
 * registers/NAME.external-debug.md pages): the PC sample registers of
 * FEAT_PCSRv8 (EDPCSR, EDCIDSR, EDVIDSR), EDSCR, OSLAR_EL1 (0x300, the OS
 * Lock), EDPRCR, EDPRSR, and the CoreSight management registers (EDITCTRL,
 * EDCLAIMSET/CLR, EDDEVAFF0/1, EDLAR/EDLSR, DBGAUTHSTATUS_EL1, EDDEVARCH,
 * EDDEVID, EDDEVID1, EDDEVID2, EDDEVTYPE, EDPIDR0..4, EDCIDR0..3; the identity
 * is option ed_iidr, the affinity option mpidr). The other external debug
 * registers (breakpoints, watchpoints, the DCC, EDECR, EDESR, EDRCR, ...) are
 * not modelled: an access to them is ARMPROF_EXT_UNMODELLED. */
armprof_ext_outcome armprof_external_debug_read(armprof_pe *pe, uint32_t offset,
                                                unsigned size_bytes, const armprof_ext_access *how);
armprof_ext_outcome armprof_external_debug_write(armprof_pe *pe, uint32_t offset,
                                                 unsigned size_bytes, uint64_t value,
                                                 const armprof_ext_access *how);

/* An embedder that does not give the PE every instruction (an emulator
 * running the guest between visits to the model) says where the PE is when
 * an external agent is about to read a PC sample register: a branch to pc
 * has retired in the PE's current context (set it first: armprof_set_el(),
 * the registers the embedder owns). This is CreatePCSample() of a branch
 * target (H7.1): no PMU event counts and the Statistical Profiling Extension
 * sees no operation. A NULL pe does nothing. */
void armprof_pcsr_observe(armprof_pe *pe, uint64_t pc);

/* The block an external register belongs to. */
typedef enum armprof_ext_component {
    ARMPROF_EXT_PMU,   /* armprof_external_read() / armprof_external_write() */
    ARMPROF_EXT_DEBUG, /* armprof_external_debug_read() / armprof_external_debug_write() */
} armprof_ext_component;

/* The external register table: one entry per encoding the pages give (a
 * register with an EXT32 and an EXT64 layout has two), for both blocks. */
size_t armprof_ext_reg_count(void);
/* The block of a table entry (its offsets are relative to that block's
 * base). Below, an unknown entry gives ARMPROF_EXT_PMU here, NULL, 0,
 * false or -1; armprof_ext_reg_present() is false for a NULL pe. */
armprof_ext_component armprof_ext_reg_component(int reg);
/* "PMCCNTR_EL0[31:0]"; for an indexed register "PMEVCNTR<n>_EL0". */
const char *armprof_ext_reg_name(int reg);
/* The offset from its block's base of instance index; UINT32_MAX, which is
 * no location's, for an unknown register or an index past its instances. */
uint32_t armprof_ext_reg_offset(int reg, unsigned index);
unsigned armprof_ext_reg_width(int reg); /* 32 or 64 bits */
unsigned armprof_ext_reg_instances(int reg);
bool armprof_ext_reg_present(const armprof_pe *pe, int reg);
/* The System register a location is a view of, -1 if none. */
int armprof_ext_reg_sysreg(int reg);
/* "Non-secure", ...; "?" for a value outside the enum. */
const char *armprof_pas_name(armprof_pas pas);

/* The OS Double Lock: OSDLR_EL1.DLK, with DBGPRCR_EL1.CORENPDRQ == 0.
 * DoubleLockStatus() is true when it is locked, FEAT_DoubleLock is
 * implemented and the PE is in Non-debug state. A Warm reset unlocks it. */
void armprof_set_os_double_lock(armprof_pe *pe, bool locked);
bool armprof_os_double_locked(const armprof_pe *pe);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif
#include "armprof/memory.h"

#endif
