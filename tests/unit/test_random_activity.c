/* SPDX-License-Identifier: BSD-3-Clause */
/* Property test over random configurations and random activity (issue 15,
 * "Evidence to add").
 *
 *   test_random_activity [PEs [seed [index]]]
 *
 * PEs (default 10000) configurations are drawn from a preset with random
 * features and options changed, some made invalid on purpose; each one that
 * is accepted becomes a PE that runs 300 to 3000 random steps: context
 * changes, MSR/MRS by encoding (random encodings and real registers, random
 * values and values that set SPE and the PMU up), debugger writes, retired
 * and dispatched operations, cycles (huge counts and the PMU freeze on
 * overflow included), PMU events, external and external debug accesses,
 * PSB CSYNC, the physical count, resets. The Profiling Buffer hook (or, for
 * some PEs, the model's own walker and the memory observer) sees every
 * write, and the record sink every record. Each PE draws from its own
 * generator seeded by (seed, index), so that `test_random_activity 1 SEED
 * INDEX` replays PE INDEX of a run alone: every failure names both.
 *
 * Properties:
 * (a) A configuration with an option outside the range options.def gives
 *     it, or set through armprof_config_set() with an out-of-range value,
 *     an unknown name or a malformed value, is refused with a message
 *     (config.h); armprof_pe_create() accepts exactly what
 *     armprof_config_validate() accepts (armprof.h: "validated first") and
 *     says why when it refuses. Context setters that refuse say why.
 * (b) No call hangs: each call is timed and one that takes over a second
 *     fails the test, naming it. armprof_cycles() promises (pmu.c) a time
 *     independent of n; this is a bound, not a benchmark.
 * (c) D17.8 "The SPU never writes past the PMBLIMITR_EL1 limit pointer",
 *     and writes go up from PMBPTR_EL1: every byte of every Profiling Buffer
 *     write lies in [PMBPTR_EL1 as the call found it, PMBLIMITR_EL1.LIMIT),
 *     and the writes of one call go up, a debugger store of
 *     PMBIDR_EL1.Align above MaxSize included. The Arm ARM has one Profiling
 *     Buffer pointer and limit whatever the owning Exception level (EL2
 *     owns the buffer through PMBPTR_EL1/PMBLIMITR_EL1 too; only PMBSR has
 *     EL2 and EL3 copies, for FEAT_SPE_EXC), so those are the owner's.
 * (d) ProfilingBufferEnabled() and RSXWCP/RVCYWL: a write happens only while
 *     the buffer is enabled and the PE (below EL3: SCR_EL3.{NSE,NS}) is in
 *     the owning Security state, unless Unpredictable_SPE_BUFFER_DISABLED
 *     chose WRITE (and then, for a Security state mismatch, unless
 *     Unpredictable_SPE_SS_MISMATCH chose a WRITE outcome); the write
 *     carries the owner armprof_spe_buffer_owner() reports, the owning
 *     regime and PAS (D17.7.5) and the Effective nVM. A record is made only
 *     by a retired operation whose sample started where
 *     StatisticalProfilingEnabled(EL) held; its PC packet names that EL and
 *     Security state (D18.2.1); it is padded to PMBIDR_EL1.Align (MaxSize
 *     if that is smaller) and no
 *     larger than 2^PMSIDR_EL1.MaxSize (D18.1); and SAMPLE_POP counts an
 *     operation exactly when profiling is enabled at its EL.
 * (e) Accounting (armprof_spe_stats, sample.c, buffer.c), after every call:
 *     - records == written + lost + held: a constructed record is written
 *       whole, held inside the unit, or counted lost (a fault, an abort, a
 *       discard, a bad pointer, a disabled buffer: every early return of
 *       SPEWriteToBuffer() counts it lost);
 *     - filtered == discarded + records + dropped, where dropped counts the
 *       samples that passed the filters but completed (armprof_dispatch()
 *       then armprof_retire()) after the buffer was disabled, with
 *       Unpredictable_SPE_BUFFER_DISABLED = DISCARD: RSXWCP lets such a
 *       sample be "silently discarded" and the model then constructs no
 *       record and counts nothing (no stats field says so; the test counts
 *       them itself, see the report);
 *     - population >= selected + collisions + (a sample in flight): each
 *       selection uses one member of the population and either starts a
 *       sample or collides; a started sample completes at most once;
 *     - selected >= filtered, discarded <= filtered, written_bytes <= bytes;
 *     - records and bytes are the sink's calls and sizes;
 *     - held < spe_held_records (the hold is written when it fills);
 *     - no counter but held goes down (until a reset zeroes them all). */
/* clock_gettime() and CLOCK_THREAD_CPUTIME_ID are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "check.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"

#define DEFAULT_PES     10000u
#define DEFAULT_SEED    0x15A11CE5EEDull
#define MIN_STEPS       300u
#define MAX_STEPS       3000u
#define MEM_BASE        0x10000000ull /* identity-mapped: [MEM_BASE, MEM_BASE + 4MB) */
#define MEM_SIZE        0x400000ull
#define TABLE_BASE      0x20000000ull
#define HANG_NS         1000000000ull /* (b): a call longer than this is a hang */
#define MAX_OUTSTANDING 4u
#define MAX_REPORTS     20u /* failure messages printed per run */

/* The options' ranges, from the public table. */
typedef struct option_range {
    const char *name;
    uint64_t min, max;
} option_range;
static const option_range option_ranges[] = {
#define OPTION(id, name, kind, def, min, max, doc) {name, min, max},
#include "armprof/options.def"
#undef OPTION
};
#define N_OPTIONS (sizeof option_ranges / sizeof option_ranges[0])

typedef struct totals {
    uint64_t pes, created, rejected, steps, records, written, written_bytes, lost, dropped;
    uint64_t collisions, hook_writes, observer_writes, pes_writing, hook_pes, calls, failures;
    uint64_t align_writes; /* writes made with PMBIDR_EL1.Align > MaxSize */
    uint64_t slowest_ns;
    const char *slowest_call;
} totals;

/* A dispatched operation waiting for its retirement, and the context its
 * sample (if selected) started in. */
typedef struct outstanding {
    armprof_op op;
    unsigned el;
    armprof_security_state ss;
    bool enabled;
} outstanding;

typedef struct pe_run {
    armprof_pe *pe;
    uint64_t seed;
    unsigned index, step;
    totals *t;
    rng r;
    /* the configuration's choices the properties depend on */
    unsigned maxsize, align, held_opt;
    uint64_t buffer_disabled_opt, ss_mismatch_opt;
    bool has_el3;
    /* register ids */
    int id_pmbptr, id_pmblimitr, id_pmbsr, id_pmsicr;
    /* (c): the lowest address the next write may have */
    uint64_t floor;
    /* the hook's behaviour: write nothing and report WRITTEN, or sometimes
     * a fault or an abort part-way */
    bool hook_mode;
    unsigned hook_fault_one_in;
    uint64_t hook_failures, offered_bytes;
    /* what the PE was doing when the sink was called */
    bool in_retire;
    unsigned sample_el;
    armprof_security_state sample_ss;
    bool sample_enabled, sample_known;
    uint64_t sink_records, sink_bytes, pc_checked;
    /* (e) */
    armprof_spe_stats prev;
    uint64_t dropped;
    bool in_flight; /* an outstanding operation holds the sample in flight */
    outstanding out[MAX_OUTSTANDING];
    unsigned n_out;
    bool halted;
    /* totals across resets */
    uint64_t base_written, base_written_bytes, base_lost, base_records, base_collisions;
    uint64_t base_dropped;
} pe_run;

/* splitmix64: a PE's generator from (seed, index), never zero */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return x ? x : 1;
}

static void fail(pe_run *c, const char *fmt, ...)
{
    if (c->t->failures++ < MAX_REPORTS) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "seed 0x%" PRIx64 " PE %u step %u: ", c->seed, c->index, c->step);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

/* The calling thread's CPU time: a hang is a call that works for a
 * second, not one whose thread waited for a loaded machine (wall time
 * failed a run at load 5-6 with "took 3.4 s" for a call of 0.02 s alone) */
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* (b): the end of a timed call. */
static void timed(pe_run *c, const char *call, uint64_t start)
{
    const uint64_t ns = now_ns() - start;
    c->t->calls++;
    if (ns > c->t->slowest_ns) {
        c->t->slowest_ns = ns;
        c->t->slowest_call = call;
    }
    if (ns > HANG_NS) fail(c, "(b) %s took %.3f s", call, (double)ns / 1e9);
}

#define TIMED(c, call, ...)                                                                        \
    do {                                                                                           \
        const uint64_t timed_start_ = now_ns();                                                    \
        __VA_ARGS__;                                                                               \
        timed((c), (call), timed_start_);                                                          \
    } while (0)

static int reg_id(const char *name)
{
    unsigned idx = 0;
    return armprof_reg_lookup(name, &idx);
}

static armprof_security_state ss_below_el3(const pe_run *c)
{
    if (!c->has_el3) return armprof_current_security_state(c->pe);
    const unsigned nse = (unsigned)drv_get_field(c->pe, "SCR_EL3", "NSE");
    const unsigned ns = (unsigned)drv_get_field(c->pe, "SCR_EL3", "NS");
    if (nse && ns) return ARMPROF_SS_REALM;
    if (nse) return ARMPROF_SS_ROOT;
    return ns ? ARMPROF_SS_NONSECURE : ARMPROF_SS_SECURE;
}

static int pas_of(armprof_security_state ss)
{
    switch (ss) {
    case ARMPROF_SS_SECURE:
        return ARMPROF_PAS_SECURE;
    case ARMPROF_SS_REALM:
        return ARMPROF_PAS_REALM;
    case ARMPROF_SS_ROOT:
        return ARMPROF_PAS_ROOT;
    default:
        return ARMPROF_PAS_NONSECURE;
    }
}

/* (c) and (d) for one write of [address, address + size). */
static void check_write(pe_run *c, uint64_t address, size_t size, const char *who)
{
    armprof_pe *pe = c->pe;
    const uint64_t limit = armprof_reg_get(pe, c->id_pmblimitr, 0) & ~0xFFFull;
    /* The limit holds because software keeps PMBPTR_EL1 one 2^MaxSize record
     * below it (RHXSYK) and no record is larger: a debugger store of
     * PMBIDR_EL1.Align above MaxSize pads as MaxSize (record.c). Such
     * writes are counted, to show the case is exercised. */
    if (drv_get_field(pe, "PMBIDR_EL1", "Align") > c->maxsize) c->t->align_writes++;
    if (size == 0 || address < c->floor || limit < size || address > limit - size)
        fail(c, "(c) %s: write [0x%" PRIx64 ", +%zu) outside [0x%" PRIx64 ", 0x%" PRIx64 ")", who,
             address, size, c->floor, limit);
    if (address + size > address) c->floor = address + size;
    const bool write_when_disabled =
        c->buffer_disabled_opt == ARMPROF_UNPRED_SPE_BUFFER_DISABLED_WRITE;
    if (!armprof_spe_buffer_enabled(pe) && !write_when_disabled)
        fail(c, "(d) %s: write while the Profiling Buffer is disabled", who);
    armprof_security_state owner;
    armprof_spe_buffer_owner(pe, &owner, NULL);
    const armprof_security_state now = ss_below_el3(c);
    const bool mismatch_writes =
        write_when_disabled && (c->ss_mismatch_opt == ARMPROF_UNPRED_SPE_SS_MISMATCH_WRITE_OWNING ||
                                c->ss_mismatch_opt == ARMPROF_UNPRED_SPE_SS_MISMATCH_WRITE_SCR);
    if (owner != now && !mismatch_writes)
        fail(c, "(d) %s: write in Security state %s, owner %s", who,
             armprof_security_state_name(now), armprof_security_state_name(owner));
}

static armprof_buffer_result hook(void *ctx, const armprof_buffer_write *w)
{
    pe_run *c = ctx;
    armprof_pe *pe = c->pe;
    c->t->hook_writes++;
    c->offered_bytes += w->size;
    /* The write is at PMBPTR_EL1 ("address: PMBPTR_EL1 of the first byte"). */
    const uint64_t ptr = armprof_reg_get(pe, c->id_pmbptr, 0);
    if (w->address != ptr)
        fail(c, "(c) hook: write at 0x%" PRIx64 ", PMBPTR_EL1 0x%" PRIx64, w->address, ptr);
    /* Bytes in one 4KB page (memory.h). */
    if (w->size == 0 || (w->address & 0xFFF) + w->size > 0x1000)
        fail(c, "(c) hook: write [0x%" PRIx64 ", +%zu) crosses a 4KB page", w->address, w->size);
    check_write(c, w->address, w->size, "hook");
    armprof_security_state owner;
    unsigned owner_el = 0;
    const bool enabled = armprof_spe_buffer_owner(pe, &owner, &owner_el);
    if (w->owning_ss != (int)owner || w->owning_el != owner_el)
        fail(c, "(d) hook: write owned by %d EL%u, armprof_spe_buffer_owner() %d EL%u",
             w->owning_ss, w->owning_el, (int)owner, owner_el);
    if (enabled) {
        uint64_t nvm = 0;
        armprof_spe_value(pe, "effective.PMBLIMITR_EL1.nVM", &nvm);
        if (w->regime != (int)armprof_spe_owning_regime(pe) || w->nvm != (nvm != 0) ||
            w->pas != pas_of(owner))
            fail(c, "(d) hook: regime %d nvm %d pas %d, expected %d %d %d", w->regime, w->nvm,
                 w->pas, (int)armprof_spe_owning_regime(pe), nvm != 0, pas_of(owner));
    }
    armprof_buffer_result res = {.outcome = ARMPROF_BUFFER_WRITTEN, .written = w->size};
    if (c->hook_fault_one_in && chance(&c->r, c->hook_fault_one_in)) {
        c->hook_failures++;
        res.written = below(&c->r, (unsigned)w->size);
        if (chance(&c->r, 4)) {
            res.outcome = ARMPROF_BUFFER_EXTERNAL_ABORT;
            res.ec = 0x24;
            res.fsc = 0x10;
            res.async = chance(&c->r, 2);
            res.ttw = !res.async && chance(&c->r, 2);
            if (res.async) res.written = w->size;
        } else {
            res.outcome = ARMPROF_BUFFER_FAULT;
            static const uint8_t fscs[] = {0x04, 0x05, 0x07, 0x09, 0x0D, 0x21};
            res.ec = chance(&c->r, 3) ? 0x25 : 0x24;
            res.fsc = fscs[below(&c->r, sizeof fscs)];
        }
        /* A failed chunk ends the record: later ones start at the pointer
         * the model leaves, which (c) still bounds by the call's start. */
        c->floor = w->address + res.written;
    }
    return res;
}

static void observer(void *ctx, int pas, uint64_t pa, const uint8_t *data, size_t size,
                     const armprof_mem_attrs *attrs)
{
    pe_run *c = ctx;
    (void)pas;
    (void)pa;
    (void)data;
    (void)attrs;
    c->t->observer_writes++;
    c->offered_bytes += size;
    /* The model's walker translates PMBPTR_EL1; the observer is told the
     * PA, so the buffer address is the pointer, which moves on after the
     * write (buffer.c keeps it at the chunk's first byte until then). */
    check_write(c, armprof_reg_get(c->pe, c->id_pmbptr, 0), size, "observer");
}

static void sink(void *ctx, const uint8_t *record, size_t size)
{
    pe_run *c = ctx;
    armprof_pe *pe = c->pe;
    c->sink_records++;
    c->sink_bytes += size;
    if (!c->in_retire) fail(c, "(d) a record made outside armprof_retire()");
    /* Padded to PMBIDR_EL1.Align as the register reads, but never past
     * 2^MaxSize: a debugger store (armprof_reg_set) can raise Align above
     * the configuration's, or to a reserved value, and it then pads as
     * MaxSize does (record.c). The packets themselves fit 2^MaxSize (the
     * configuration is refused otherwise). */
    unsigned align = (unsigned)drv_get_field(pe, "PMBIDR_EL1", "Align");
    if (align > c->maxsize) align = c->maxsize;
    const size_t max = (size_t)1 << c->maxsize;
    if (size == 0 || size > max || size % ((size_t)1 << align) != 0)
        fail(c, "(d) record of %zu bytes: MaxSize %u, PMBIDR_EL1.Align %u", size, c->maxsize,
             align);
    if (!c->sample_known || !c->sample_enabled)
        fail(c, "(d) a record of a sample started where profiling was disabled (EL%u)",
             c->sample_el);
    if (!armprof_spe_buffer_enabled(pe) &&
        c->buffer_disabled_opt == ARMPROF_UNPRED_SPE_BUFFER_DISABLED_DISCARD)
        fail(c, "(d) a record made while the buffer is disabled (DISCARD)");
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, record, size);
    armprof_spe_record rec;
    if (armprof_spe_next_record(&d, &rec) != ARMPROF_SPE_DECODE_OK) {
        fail(c, "(d) the record does not decode: %s", d.error ? d.error : "?");
        return;
    }
    if (rec.address_valid & 1u << ARMPROF_SPE_ADDR_PC) {
        c->pc_checked++;
        const armprof_spe_inst_address a =
            armprof_spe_decode_inst_address(rec.address[ARMPROF_SPE_ADDR_PC]);
        const bool ns = c->sample_ss != ARMPROF_SS_SECURE;
        const bool nse = c->sample_ss == ARMPROF_SS_REALM;
        if (a.el != c->sample_el || a.ns != ns || a.nse != nse)
            fail(c, "(d) PC packet EL%u NS %d NSE %d, sample started at EL%u in %s", a.el, a.ns,
                 a.nse, c->sample_el, armprof_security_state_name(c->sample_ss));
    }
}

/* ---- (e) ---- */

static void check_stats(pe_run *c, const char *call)
{
    const armprof_spe_stats s = armprof_spe_get_stats(c->pe);
    const armprof_spe_stats *p = &c->prev;
    if (s.records != s.written + s.lost + s.held)
        fail(c,
             "(e) after %s: records %" PRIu64 " != written %" PRIu64 " + lost %" PRIu64
             " + held %" PRIu64,
             call, s.records, s.written, s.lost, s.held);
    if (s.filtered != s.discarded + s.records + c->dropped)
        fail(c,
             "(e) after %s: filtered %" PRIu64 " != discarded %" PRIu64 " + records %" PRIu64
             " + dropped %" PRIu64,
             call, s.filtered, s.discarded, s.records, c->dropped);
    if (s.population < s.selected + s.collisions + c->in_flight)
        fail(c,
             "(e) after %s: population %" PRIu64 " < selected %" PRIu64 " + collisions %" PRIu64
             " + in flight %d",
             call, s.population, s.selected, s.collisions, c->in_flight);
    if (s.selected < s.filtered || s.filtered < s.discarded || s.written_bytes > s.bytes)
        fail(c,
             "(e) after %s: selected %" PRIu64 " filtered %" PRIu64 " discarded %" PRIu64
             " written_bytes %" PRIu64 " bytes %" PRIu64,
             call, s.selected, s.filtered, s.discarded, s.written_bytes, s.bytes);
    if (s.records != c->sink_records || s.bytes != c->sink_bytes)
        fail(c,
             "(e) after %s: records %" PRIu64 " bytes %" PRIu64 ", the sink saw %" PRIu64
             " and %" PRIu64,
             call, s.records, s.bytes, c->sink_records, c->sink_bytes);
    if (s.held >= (c->held_opt ? c->held_opt : 1))
        fail(c, "(e) after %s: %" PRIu64 " records held, spe_held_records %u", call, s.held,
             c->held_opt);
    if (s.written_bytes > c->offered_bytes ||
        (c->hook_mode && c->hook_failures == 0 && s.written_bytes != c->offered_bytes))
        fail(c, "(e) after %s: written_bytes %" PRIu64 ", the hook/observer saw %" PRIu64, call,
             s.written_bytes, c->offered_bytes);
    if (s.population < p->population || s.selected < p->selected || s.collisions < p->collisions ||
        s.filtered < p->filtered || s.discarded < p->discarded || s.records < p->records ||
        s.bytes < p->bytes || s.written < p->written || s.written_bytes < p->written_bytes ||
        s.lost < p->lost || s.management_events < p->management_events || s.serrors < p->serrors)
        fail(c, "(e) after %s: a counter went down", call);
    c->prev = s;
}

/* ---- Configurations ---- */

static bool nonempty(const char *err)
{
    return err[0] != '\0';
}

static void set_option(pe_run *c, armprof_config *cfg, const char *name, uint64_t v)
{
    char value[32], err[256] = "";
    snprintf(value, sizeof value, "%" PRIu64, v);
    if (!armprof_config_set(cfg, name, value, err, sizeof err))
        fail(c, "(a) %s = %s refused in range: %s", name, value, err);
}

/* Returns whether the configuration was made invalid on purpose. */
static bool random_config(pe_run *c, armprof_config *cfg)
{
    rng *r = &c->r;
    char err[256], value[48];
    size_t n_presets = 0;
    while (armprof_preset_name(n_presets))
        n_presets++;
    const char *preset =
        chance(r, 3) ? armprof_preset_name(below(r, (unsigned)n_presets)) : "armv9.4-all";
    if (!armprof_config_preset(cfg, preset)) fail(c, "(a) preset %s refused", preset);
    if (armprof_config_preset(cfg, "no-such-preset")) fail(c, "(a) an unknown preset accepted");
    armprof_config_preset(cfg, preset);
    bool invalid = false;

    /* The SPE choices the properties depend on, in range. */
    if (chance(r, 2)) {
        const unsigned maxsize = chance(r, 8) ? 6 : 7 + below(r, 5);
        set_option(c, cfg, "pmsidr_maxsize", maxsize);
        set_option(c, cfg, "pmbidr_align", chance(r, 2) ? 0 : below(r, maxsize + 1));
    }
    static const unsigned helds[] = {0, 0, 0, 0, 1, 3, 8, 16};
    set_option(c, cfg, "spe_held_records", helds[below(r, 8)]);
    set_option(c, cfg, "Unpredictable_SPE_BADPTR", below(r, 6));
    set_option(c, cfg, "Unpredictable_SPE_BUFFER_DISABLED", chance(r, 4) ? below(r, 3) : 1);
    set_option(c, cfg, "Unpredictable_SPE_SS_MISMATCH", below(r, 4));
    set_option(c, cfg, "Unpredictable_SPE_PAGE_MISMATCH", below(r, 4));
    if (chance(r, 4)) set_option(c, cfg, "pmbidr_ea", below(r, 3));
    set_option(c, cfg, "spe_random_seed", rnd(r));

    const unsigned mutations = below(r, 5);
    for (unsigned m = 0; m < mutations; m++) {
        err[0] = '\0';
        switch (below(r, 9)) {
        case 0: /* a feature on or off: valid or not, validation decides */
            armprof_config_set_feature(cfg, (armprof_feature)below(r, ARMPROF_FEAT_COUNT),
                                       chance(r, 2));
            break;
        case 1:
        case 2: { /* an option in range, by name */
            const option_range *o = &option_ranges[below(r, N_OPTIONS)];
            uint64_t v = o->min + rnd(r) % 4;
            if (v > o->max) v = o->max;
            if (chance(r, 4)) v = o->max;
            set_option(c, cfg, o->name, v);
            break;
        }
        case 3: { /* an option out of range, by name */
            const option_range *o = &option_ranges[below(r, N_OPTIONS)];
            if (o->max == UINT64_MAX && o->min == 0) break;
            const uint64_t v = o->max != UINT64_MAX ? o->max + 1 + rnd(r) % 1000 : o->min - 1;
            snprintf(value, sizeof value, "%" PRIu64, v);
            if (armprof_config_set(cfg, o->name, value, err, sizeof err) || !nonempty(err))
                fail(c, "(a) %s = %s (range %" PRIu64 "..%" PRIu64 ") accepted or no message",
                     o->name, value, o->min, o->max);
            break;
        }
        case 4: /* an option out of range in the structure itself */
        {
            const unsigned o = below(r, N_OPTIONS);
            if (option_ranges[o].max == UINT64_MAX && option_ranges[o].min == 0) break;
            cfg->options[o] = option_ranges[o].max != UINT64_MAX ? option_ranges[o].max + 1
                                                                 : option_ranges[o].min - 1;
            break;
        }
        case 5: { /* unknown names and malformed values */
            static const char *const names[] = {"FEAT_NOPE", "no_such_option", "", "FEAT_SPE_",
                                                "pmsidr_maxsize "};
            static const char *const values[] = {"1", "on", "", "0x", "-1", "1__0", "maybe"};
            const char *name = names[below(r, 5)], *v = values[below(r, 7)];
            if (armprof_config_set(cfg, name, v, err, sizeof err) || !nonempty(err))
                fail(c, "(a) unknown name '%s' = '%s' accepted or no message", name, v);
            break;
        }
        case 6: { /* a feature with a malformed value */
            const char *f = armprof_feature_name((armprof_feature)below(r, ARMPROF_FEAT_COUNT));
            if (armprof_config_set(cfg, f, chance(r, 2) ? "2" : "yes please", err, sizeof err) ||
                !nonempty(err))
                fail(c, "(a) %s with a malformed value accepted or no message", f);
            break;
        }
        default: { /* a numeric option with a malformed number */
            const option_range *o = &option_ranges[below(r, N_OPTIONS)];
            static const char *const bad[] = {"0x", "1 ",  " 1",   "+1",
                                              "_1", "0b2", "0x1g", "99999999999999999999999"};
            const char *v = bad[below(r, 8)];
            if (armprof_config_set(cfg, o->name, v, err, sizeof err) || !nonempty(err))
                fail(c, "(a) %s = '%s' accepted or no message", o->name, v);
            break;
        }
        }
    }
    /* A later change may have put a value back in range: the options as
     * they stand decide. */
    for (size_t o = 0; o < N_OPTIONS; o++)
        if (cfg->options[o] < option_ranges[o].min || cfg->options[o] > option_ranges[o].max)
            invalid = true;
    return invalid;
}

/* ---- Set-up that makes SPE write somewhere ---- */

/* Identity map of [MEM_BASE, MEM_BASE + MEM_SIZE) for the 4KB granule and
 * a 48-bit VA (T0SZ 16): level 0 and level 1 tables, then 2MB level 2
 * blocks, in every PAS a walk may read (NS 0 keeps a Secure walk's output
 * Secure). */
static void identity_map(armprof_mem *mem)
{
    const uint64_t l1 = TABLE_BASE + 0x1000, l2 = TABLE_BASE + 0x2000;
    for (int pas = ARMPROF_PAS_NONSECURE; pas <= ARMPROF_PAS_ROOT; pas++) {
        armprof_mem_write64(mem, pas, TABLE_BASE + 8 * ((MEM_BASE >> 39) & 511), l1 | 3);
        armprof_mem_write64(mem, pas, l1 + 8 * ((MEM_BASE >> 30) & 511), l2 | 3);
        for (uint64_t a = MEM_BASE; a < MEM_BASE + MEM_SIZE; a += 1ull << 21)
            armprof_mem_write64(mem, pas, l2 + 8 * ((a >> 21) & 511),
                                a | 1u << 10 /* AF */ | 3u << 8 /* Inner Shareable */ | 1);
    }
}

static void program_buffer(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    const uint64_t base = MEM_BASE + (uint64_t)below(r, 512) * 4096;
    const uint64_t limit = base + (uint64_t)(1 + below(r, 8)) * 4096;
    uint64_t ptr = base + rnd(r) % (limit - base);
    if (!chance(r, 8)) ptr &= ~((1ull << c->align) - 1);
    uint64_t lim = limit | 1;          /* E */
    if (chance(r, 4)) lim |= 1u << 7;  /* nVM */
    if (chance(r, 10)) lim |= 2u << 1; /* FM Discard */
    armprof_reg_set(pe, c->id_pmblimitr, 0, lim);
    armprof_reg_set(pe, c->id_pmbptr, 0, ptr);
    c->floor = ptr; /* software moved the pointer: writes may start there */
}

static void random_enables(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    drv_set_field(pe, "PMSCR_EL1", "E0SPE", !chance(r, 4));
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", !chance(r, 4));
    drv_set_field(pe, "PMSCR_EL2", "E0HSPE", !chance(r, 3));
    drv_set_field(pe, "PMSCR_EL2", "E2SPE", !chance(r, 3));
    drv_set_field(pe, "PMSCR_EL1", "PA", chance(r, 2));
    drv_set_field(pe, "PMSCR_EL2", "PA", chance(r, 2));
    drv_set_field(pe, "PMSCR_EL1", "TS", chance(r, 2));
    drv_set_field(pe, "PMSCR_EL1", "CX", chance(r, 2));
}

static void random_context(pe_run *c)
{
    char err[160] = "";
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    const armprof_security_state ss = (armprof_security_state)below(r, 4);
    bool ok;
    TIMED(c, "armprof_set_security_state",
          ok = armprof_set_security_state(pe, ss, err, sizeof err));
    if (!ok && !nonempty(err)) fail(c, "(a) armprof_set_security_state refused without a message");
    static const unsigned els[] = {0, 0, 1, 1, 1, 2, 2, 3};
    err[0] = '\0';
    const unsigned el = els[below(r, 8)];
    TIMED(c, "armprof_set_el", ok = armprof_set_el(pe, el, err, sizeof err));
    if (!ok && !nonempty(err)) fail(c, "(a) armprof_set_el(%u) refused without a message", el);
}

static void spe_setup(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    drv_set_field(pe, "MDCR_EL3", "NSPBE", chance(r, 4));
    drv_set_field(pe, "MDCR_EL3", "NSPB", below(r, 4));
    drv_set_field(pe, "SCR_EL3", "EEL2", chance(r, 2));
    static const unsigned e2pbs[] = {0, 2, 3};
    drv_set_field(pe, "MDCR_EL2", "E2PB", e2pbs[below(r, 3)]);
    const bool e2h = chance(r, 2);
    drv_set_field(pe, "HCR_EL2", "E2H", e2h);
    drv_set_field(pe, "HCR_EL2", "TGE", chance(r, 5));
    drv_set_field(pe, "HCR_EL2", "VM", 0);
    drv_set_field(pe, "HCR_EL2", "RW", 1);
    drv_set_field(pe, "PMSCR_EL2", "EnVM", chance(r, 2));
    /* TCR: T0SZ 16, WB inner and outer, Inner Shareable, 4KB granule, IPS
     * 48 bits (EPD1 for the EL1&0 and EL2&0 layout). */
    const uint64_t tcr = 16 | 1u << 8 | 1u << 10 | 3u << 12 | 1u << 23 | 5ull << 32;
    const uint64_t tcr_el2 = 16 | 1u << 8 | 1u << 10 | 3u << 12 | 5u << 16;
    drv_set(pe, "TCR_EL1", tcr);
    drv_set(pe, "TCR_EL2", e2h ? tcr : tcr_el2);
    drv_set(pe, "TTBR0_EL1", TABLE_BASE);
    drv_set(pe, "TTBR0_EL2", TABLE_BASE);
    drv_set(pe, "MAIR_EL1", 0xFF);
    drv_set(pe, "MAIR_EL2", 0xFF);
    const bool s1 = chance(r, 2);
    drv_set_field(pe, "SCTLR_EL1", "M", s1);
    drv_set_field(pe, "SCTLR_EL2", "M", s1);
    drv_set(pe, "PMSIRR_EL1", (uint64_t)(1 + below(r, 3)) << 8 | chance(r, 4));
    drv_set(pe, "PMSICR_EL1", below(r, 4));
    drv_set(pe, "PMSFCR_EL1", chance(r, 6) ? rnd(r) & 0x7000F : 0);
    drv_set(pe, "PMSEVFR_EL1", rnd(r));
    drv_set(pe, "PMSLATFR_EL1", below(r, 8));
    drv_set(pe, "PMBSR_EL1", 0);
    program_buffer(c);
    random_enables(c);
    random_context(c);
}

/* ---- Steps ---- */

static void random_op(rng *r, armprof_op *op)
{
    const armprof_op init = ARMPROF_OP_INIT;
    *op = init;
    const uint64_t x = rnd(r), y = rnd(r);
    op->pc = chance(r, 8) ? rnd(r) : 0x400000 + ((x >> 8) & 0xffffc);
    op->op_class = (armprof_op_class)(x & 3);
    op->mispredicted = (x >> 2) & 1;
    op->taken = (x >> 3) & 1;
    op->target = chance(r, 8) ? rnd(r) : op->pc + ((y & 0xff) << 2);
    op->l1d_access = (x >> 4) & 1;
    op->l1d_refill = (x >> 5) & 1;
    op->total_latency = chance(r, 16) ? (uint32_t)rnd(r) : (uint32_t)(y >> 58);
    op->issue_latency = (uint32_t)(y >> 60);
    op->translation_latency = (uint32_t)(y >> 61);
    op->alt_issue_latency = (uint32_t)(y >> 40);
    op->vaddr = chance(r, 4) ? rnd(r) : 0x7000000 + ((x >> 20) & 0xfff8);
    op->paddr = chance(r, 4) ? rnd(r) : op->vaddr;
    op->pas = (armprof_pas)below(r, 4);
    op->tbi = (x >> 6) & 1;
    op->tag_checked = (x >> 7) & 1;
    op->data_source_valid = (x >> 9) & 1;
    op->data_source = (uint16_t)(y >> 16);
    op->events = chance(r, 2) ? (uint32_t)rnd(r) : 0;
    op->impdef_events = (uint16_t)(x >> 48);
    op->branch_kind = (armprof_branch_kind)below(r, 7);
    op->ldst_kind = (armprof_ldst_kind)below(r, 10);
    op->other_kind = (armprof_other_kind)below(r, 3);
    op->conditional = (x >> 10) & 1;
    op->cond_failed = (x >> 11) & 1;
    op->fp = (x >> 12) & 1;
    op->simd = (x >> 13) & 1;
    op->acquire_release = (x >> 14) & 1;
    op->exclusive = (x >> 15) & 1;
    op->atomic = (x >> 16) & 1;
    op->predicated = (x >> 17) & 1;
    op->gather_scatter = (x >> 18) & 1;
    op->vector_length = chance(r, 8) ? (uint32_t)rnd(r) : 128u << below(r, 5);
    op->tile_size = chance(r, 8) ? (uint32_t)rnd(r) : 128u << below(r, 8);
}

/* The context now, for the sink and SAMPLE_POP. */
static void note_context(pe_run *c, unsigned *el, armprof_security_state *ss, bool *enabled)
{
    *el = armprof_current_el(c->pe);
    *ss = armprof_current_security_state(c->pe);
    *enabled = armprof_spe_profiling_enabled(c->pe, *el);
}

static void step_retire(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    if (chance(r, 3)) armprof_reg_set(pe, c->id_pmsicr, 0, 1 + below(r, 2));
    armprof_op op;
    random_op(r, &op);
    const armprof_spe_stats before = armprof_spe_get_stats(pe);
    unsigned el;
    armprof_security_state ss;
    bool enabled;
    note_context(c, &el, &ss, &enabled);
    c->sample_el = el;
    c->sample_ss = ss;
    c->sample_enabled = enabled;
    c->sample_known = true;
    c->in_retire = true;
    TIMED(c, "armprof_retire", armprof_retire(pe, &op));
    c->in_retire = false;
    c->sample_known = false;
    const armprof_spe_stats after = armprof_spe_get_stats(pe);
    if (after.population - before.population != (uint64_t)enabled)
        fail(c,
             "(d) SAMPLE_POP went up by %" PRIu64 " for an operation at EL%u where profiling "
             "is %s",
             after.population - before.population, el, enabled ? "enabled" : "disabled");
}

static void step_dispatch(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    if (c->n_out == MAX_OUTSTANDING) return;
    if (chance(r, 3)) armprof_reg_set(pe, c->id_pmsicr, 0, 1 + below(r, 2));
    outstanding *o = &c->out[c->n_out];
    random_op(r, &o->op);
    const armprof_spe_stats before = armprof_spe_get_stats(pe);
    note_context(c, &o->el, &o->ss, &o->enabled);
    bool selected;
    TIMED(c, "armprof_dispatch", selected = armprof_dispatch(pe, &o->op));
    const armprof_spe_stats after = armprof_spe_get_stats(pe);
    if (after.population - before.population != (uint64_t)o->enabled)
        fail(c, "(d) SAMPLE_POP went up by %" PRIu64 " for a dispatch at EL%u (%s)",
             after.population - before.population, o->el, o->enabled ? "enabled" : "disabled");
    if (!o->op.dispatched || selected != o->op.spe_selected)
        fail(c, "armprof_dispatch: dispatched %d spe_selected %d returned %d", o->op.dispatched,
             o->op.spe_selected, selected);
    if (selected && c->in_flight) fail(c, "(e) a second sample in flight");
    if (selected) c->in_flight = true;
    c->n_out++;
}

static void step_retire_dispatched(pe_run *c)
{
    armprof_pe *pe = c->pe;
    if (c->n_out == 0) return;
    const unsigned i = below(&c->r, c->n_out);
    outstanding o = c->out[i];
    c->out[i] = c->out[--c->n_out];
    const armprof_spe_stats before = armprof_spe_get_stats(pe);
    const bool buffer_enabled = armprof_spe_buffer_enabled(pe);
    c->sample_el = o.el;
    c->sample_ss = o.ss;
    c->sample_enabled = o.enabled;
    c->sample_known = o.op.spe_selected;
    c->in_retire = true;
    TIMED(c, "armprof_retire (dispatched)", armprof_retire(pe, &o.op));
    c->in_retire = false;
    c->sample_known = false;
    if (o.op.spe_selected) c->in_flight = false;
    const armprof_spe_stats after = armprof_spe_get_stats(pe);
    const uint64_t unaccounted = (after.filtered - before.filtered) -
                                 (after.discarded - before.discarded) -
                                 (after.records - before.records);
    /* RSXWCP's DISCARD outcome: see (e) above. */
    if (unaccounted && o.op.spe_selected && !buffer_enabled &&
        c->buffer_disabled_opt == ARMPROF_UNPRED_SPE_BUFFER_DISABLED_DISCARD)
        c->dropped += unaccounted;
    if (after.population != before.population)
        fail(c, "(d) retiring a dispatched operation counted it in the population again");
}

/* An MSR or MRS: a real register (mostly) or any encoding, any value. */
static void step_sysreg(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    uint32_t enc;
    if (chance(r, 5)) {
        enc = (uint32_t)rnd(r) & 0xFFFF;
    } else {
        const int reg = (int)below(r, (unsigned)armprof_reg_count());
        const unsigned n = armprof_reg_instances(reg);
        enc = armprof_reg_encoding(reg, n ? below(r, n) : 0);
    }
    armprof_outcome o;
    const unsigned rt = below(r, 32);
    if (chance(r, 2)) {
        TIMED(c, "armprof_mrs", o = armprof_mrs(pe, enc, rt));
    } else {
        uint64_t v;
        switch (below(r, 4)) {
        case 0:
            v = 0;
            break;
        case 1:
            v = ~0ull;
            break;
        case 2:
            v = rnd(r) & rnd(r);
            break;
        default:
            v = rnd(r);
            break;
        }
        TIMED(c, "armprof_msr", o = armprof_msr(pe, enc, rt, v));
    }
    if (o.kind > ARMPROF_UNMODELLED)
        fail(c, "MSR/MRS 0x%04x: outcome kind %d", (unsigned)enc, (int)o.kind);
    if (o.kind == ARMPROF_TRAP && (o.target_el < 1 || o.target_el > 3))
        fail(c, "MSR/MRS 0x%04x: trap to EL%u", (unsigned)enc, o.target_el);
}

static void step_reg_set(pe_run *c)
{
    rng *r = &c->r;
    const int reg = (int)below(r, (unsigned)armprof_reg_count());
    const unsigned n = armprof_reg_instances(reg);
    const uint64_t v =
        chance(r, 2) ? rnd(r) : armprof_reg_get(c->pe, reg, 0) ^ (1ull << below(r, 64));
    TIMED(c, "armprof_reg_set", armprof_reg_set(c->pe, reg, n ? below(r, n) : 0, v));
}

/* The PMU counting, sometimes near overflow and with freeze on overflow. */
static void step_pmu_setup(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    drv_set_field(pe, "PMCR_EL0", "E", 1);
    drv_set_field(pe, "PMCR_EL0", "FZO", chance(r, 2));
    drv_set_field(pe, "PMCR_EL0", "LP", chance(r, 2));
    drv_set_field(pe, "PMCR_EL0", "LC", chance(r, 2));
    drv_set_field(pe, "MDCR_EL2", "HPMFZO", chance(r, 2));
    drv_set_field(pe, "MDCR_EL2", "HPME", chance(r, 2));
    drv_set(pe, "PMCNTENSET_EL0", rnd(r));
    drv_set(pe, "PMINTENSET_EL1", rnd(r));
    drv_set(pe, "PMOVSCLR_EL0", chance(r, 2) ? ~0ull : 0);
    static const uint16_t events[] = {0x11, 0x11, 0x08, 0x1E, 0x4000, 0x4001, 0x8000};
    for (unsigned i = 0; i < 6; i++) {
        char name[32];
        snprintf(name, sizeof name, "PMEVTYPER%u_EL0", i);
        drv_set(pe, name, events[below(r, 7)]);
        snprintf(name, sizeof name, "PMEVCNTR%u_EL0", i);
        drv_set(pe, name, chance(r, 2) ? 0xFFFFFFF0ull + below(r, 16) : rnd(r));
    }
    drv_set(pe, "PMCCNTR_EL0", chance(r, 2) ? ~0ull - below(r, 100) : rnd(r));
}

static void step_external(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    const armprof_ext_access how = {(armprof_pas)below(r, 4), chance(r, 2)};
    const armprof_ext_access *h = chance(r, 4) ? NULL : &how;
    const uint32_t offset = chance(r, 4) ? (uint32_t)rnd(r) : (uint32_t)below(r, 0x1000) & ~3u;
    static const unsigned sizes[] = {4, 8, 4, 8, 1, 2, 0, 16};
    const unsigned size = sizes[below(r, 8)];
    const uint64_t v = rnd(r);
    armprof_ext_outcome o;
    switch (below(r, 4)) {
    case 0:
        TIMED(c, "armprof_external_read", o = armprof_external_read(pe, offset, size, h));
        break;
    case 1:
        TIMED(c, "armprof_external_write", o = armprof_external_write(pe, offset, size, v, h));
        break;
    case 2:
        TIMED(c, "armprof_external_debug_read",
              o = armprof_external_debug_read(pe, offset, size, h));
        break;
    default:
        TIMED(c, "armprof_external_debug_write",
              o = armprof_external_debug_write(pe, offset, size, v, h));
        break;
    }
    if (o.kind > ARMPROF_EXT_UNMODELLED)
        fail(c, "external access 0x%x/%u: kind %d", offset, size, (int)o.kind);
}

static void step_context(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    char err[160] = "";
    bool ok;
    switch (below(r, 12)) {
    case 0:
    case 1:
    case 2:
        random_context(c);
        break;
    case 3: {
        const unsigned el = below(r, 4);
        const bool a32 = chance(r, 2);
        TIMED(c, "armprof_set_aarch32", ok = armprof_set_aarch32(pe, el, a32, err, sizeof err));
        if (!ok && !nonempty(err)) fail(c, "(a) armprof_set_aarch32 refused without a message");
        break;
    }
    case 4:
        c->halted = c->halted ? !chance(r, 2) : chance(r, 4);
        TIMED(c, "armprof_set_debug_state", armprof_set_debug_state(pe, c->halted));
        break;
    case 5:
        TIMED(c, "armprof_set_os_lock", armprof_set_os_lock(pe, chance(r, 3)));
        break;
    case 6:
        TIMED(c, "armprof_set_os_double_lock", armprof_set_os_double_lock(pe, chance(r, 4)));
        break;
    case 7:
        TIMED(c, "armprof_set_pstate_pm", armprof_set_pstate_pm(pe, chance(r, 2)));
        break;
    case 8:
        TIMED(c, "armprof_set_core_power", armprof_set_core_power(pe, !chance(r, 4)));
        break;
    case 9:
        TIMED(c, "armprof_set_signal",
              armprof_set_signal(pe, (armprof_signal)below(r, ARMPROF_SIG_COUNT), !chance(r, 4)));
        break;
    case 10:
        random_enables(c);
        break;
    default:
        TIMED(c, "armprof_set_physical_count", armprof_set_physical_count(pe, rnd(r)));
        break;
    }
}

/* A buffer management interrupt handler: PSB CSYNC, maybe a new buffer,
 * PMBSR_EL1 cleared. */
static void step_handler(pe_run *c)
{
    TIMED(c, "armprof_psb_csync", armprof_psb_csync(c->pe));
    check_stats(c, "armprof_psb_csync");
    c->floor = armprof_reg_get(c->pe, c->id_pmbptr, 0);
    if (chance(&c->r, 2)) program_buffer(c);
    armprof_reg_set(c->pe, c->id_pmbsr, 0, 0);
    drv_set(c->pe, "PMBSR_EL2", 0);
    drv_set(c->pe, "PMBSR_EL3", 0);
}

static void step_reset(pe_run *c)
{
    const armprof_spe_stats s = armprof_spe_get_stats(c->pe);
    c->base_records += s.records;
    c->base_written += s.written;
    c->base_written_bytes += s.written_bytes;
    c->base_lost += s.lost;
    c->base_collisions += s.collisions;
    c->base_dropped += c->dropped;
    const armprof_reset_kind kind = chance(&c->r, 2) ? ARMPROF_RESET_COLD : ARMPROF_RESET_WARM;
    TIMED(c, "armprof_reset", armprof_reset(c->pe, kind));
    /* The reset ends every sample and zeroes the statistics. */
    c->n_out = 0;
    c->in_flight = false;
    c->dropped = 0;
    c->sink_records = c->sink_bytes = 0;
    c->offered_bytes = 0;
    c->hook_failures = 0;
    memset(&c->prev, 0, sizeof c->prev);
    c->halted = armprof_in_debug_state(c->pe);
}

static const char *one_step(pe_run *c)
{
    armprof_pe *pe = c->pe;
    rng *r = &c->r;
    const unsigned k = below(r, 100);
    if (k < 45) {
        step_retire(c);
        return "armprof_retire";
    }
    if (k < 52) {
        step_dispatch(c);
        return "armprof_dispatch";
    }
    if (k < 59) {
        step_retire_dispatched(c);
        return "armprof_retire (dispatched)";
    }
    if (k < 67) {
        step_sysreg(c);
        return "MSR/MRS";
    }
    if (k < 69) {
        step_reg_set(c);
        return "armprof_reg_set";
    }
    if (k < 75) {
        step_context(c);
        return "a context change";
    }
    if (k < 78) {
        const uint64_t n = chance(r, 3) ? rnd(r) >> below(r, 64) : below(r, 1000);
        TIMED(c, "armprof_cycles", armprof_cycles(pe, n));
        return "armprof_cycles";
    }
    if (k < 79) {
        step_pmu_setup(c);
        return "PMU set-up";
    }
    if (k < 81) {
        const uint16_t ev = chance(r, 2) ? (uint16_t)rnd(r) : (uint16_t)below(r, 0x40);
        const uint64_t n = chance(r, 4) ? rnd(r) : below(r, 10);
        TIMED(c, "armprof_pmu_event", armprof_pmu_event(pe, ev, n));
        return "armprof_pmu_event";
    }
    if (k < 85) {
        step_external(c);
        return "an external access";
    }
    if (k < 88) {
        TIMED(c, "armprof_psb_csync", armprof_psb_csync(pe));
        return "armprof_psb_csync";
    }
    if (k < 95) {
        /* the handler, mostly when the buffer has stopped */
        if ((armprof_reg_get(pe, c->id_pmbsr, 0) >> 17 & 1) || chance(r, 4)) step_handler(c);
        return "the buffer handler";
    }
    if (k < 97) {
        spe_setup(c);
        return "SPE set-up";
    }
    if (k < 98) {
        TIMED(c, "armprof_snapshot_request", armprof_snapshot_request(pe));
        return "armprof_snapshot_request";
    }
    if (k < 99) {
        TIMED(c, "armprof_spe_impdef_event", armprof_spe_impdef_event(pe, (uint16_t)rnd(r)));
        return "armprof_spe_impdef_event";
    }
    if (chance(r, 10)) {
        step_reset(c);
        return "armprof_reset";
    }
    unsigned target = 0;
    TIMED(c, "polling", (void)armprof_pmuirq(pe); (void)armprof_pmbirq(pe);
          (void)armprof_spe_exception(pe, &target));
    return "polling";
}

static uint64_t option_of(const armprof_config *cfg, const char *name)
{
    const int o = armprof_option_lookup(name);
    return o >= 0 ? cfg->options[o] : 0;
}

static void run_pe(uint64_t seed, unsigned index, totals *t)
{
    pe_run *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    c->seed = seed;
    c->index = index;
    c->t = t;
    c->r.s = mix(seed ^ mix(index));
    t->pes++;

    armprof_config cfg;
    const bool invalid = random_config(c, &cfg);
    char err[256] = "";
    const bool valid = armprof_config_validate(&cfg, err, sizeof err);
    if (invalid && valid) fail(c, "(a) an option outside its range was accepted");
    if (!valid && !nonempty(err)) fail(c, "(a) armprof_config_validate refused without a message");
    err[0] = '\0';
    armprof_pe *pe;
    TIMED(c, "armprof_pe_create", pe = armprof_pe_create(&cfg, err, sizeof err));
    if ((pe != NULL) != valid)
        fail(c, "(a) armprof_pe_create %s what armprof_config_validate %s: %s",
             pe ? "accepted" : "refused", valid ? "accepts" : "refuses", err);
    if (!pe) {
        if (!nonempty(err)) fail(c, "(a) armprof_pe_create refused without a message");
        t->rejected++;
        free(c);
        return;
    }
    t->created++;
    c->pe = pe;
    c->maxsize = (unsigned)option_of(&cfg, "pmsidr_maxsize");
    c->align = (unsigned)option_of(&cfg, "pmbidr_align");
    c->held_opt = (unsigned)option_of(&cfg, "spe_held_records");
    c->buffer_disabled_opt = option_of(&cfg, "Unpredictable_SPE_BUFFER_DISABLED");
    c->ss_mismatch_opt = option_of(&cfg, "Unpredictable_SPE_SS_MISMATCH");
    c->has_el3 = armprof_config_has(&cfg, ARMPROF_FEAT_EL3);
    c->id_pmbptr = reg_id("PMBPTR_EL1");
    c->id_pmblimitr = reg_id("PMBLIMITR_EL1");
    c->id_pmbsr = reg_id("PMBSR_EL1");
    c->id_pmsicr = reg_id("PMSICR_EL1");

    armprof_spe_set_sink(pe, sink, c);
    c->hook_mode = !chance(&c->r, 4);
    if (c->hook_mode) {
        t->hook_pes++;
        c->hook_fault_one_in = chance(&c->r, 3) ? 20 + below(&c->r, 200) : 0;
        armprof_spe_set_buffer_hook(pe, hook, c);
    } else {
        identity_map(armprof_pe_memory(pe));
        armprof_mem_set_observer(armprof_pe_memory(pe), observer, c);
    }
    c->halted = armprof_in_debug_state(pe);
    if (!chance(&c->r, 5)) spe_setup(c);
    if (chance(&c->r, 3)) step_pmu_setup(c);
    check_stats(c, "the set-up");

    const unsigned steps = MIN_STEPS + below(&c->r, MAX_STEPS - MIN_STEPS + 1);
    for (c->step = 0; c->step < steps; c->step++) {
        c->floor = armprof_reg_get(pe, c->id_pmbptr, 0);
        const char *what = one_step(c);
        check_stats(c, what);
    }
    t->steps += steps;

    const armprof_spe_stats s = armprof_spe_get_stats(pe);
    t->records += c->base_records + s.records;
    t->written += c->base_written + s.written;
    t->written_bytes += c->base_written_bytes + s.written_bytes;
    t->lost += c->base_lost + s.lost;
    t->collisions += c->base_collisions + s.collisions;
    t->dropped += c->base_dropped + c->dropped;
    t->pes_writing += c->base_written + s.written > 0;
    TIMED(c, "armprof_pe_destroy", armprof_pe_destroy(pe));
    free(c);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    return armprof_parse_number(s, out);
}

int main(int argc, char **argv)
{
    uint64_t pes = DEFAULT_PES, seed = DEFAULT_SEED, only = UINT64_MAX;
    if ((argc > 1 && !parse_u64(argv[1], &pes)) || (argc > 2 && !parse_u64(argv[2], &seed)) ||
        (argc > 3 && !parse_u64(argv[3], &only)) || argc > 4) {
        fprintf(stderr, "usage: %s [PEs [seed [index]]]\n", argv[0]);
        return 2;
    }
    totals t;
    memset(&t, 0, sizeof t);
    const uint64_t start = now_ns();
    if (only != UINT64_MAX) {
        run_pe(seed, (unsigned)only, &t);
    } else {
        for (uint64_t i = 0; i < pes; i++)
            run_pe(seed, (unsigned)i, &t);
    }
    const double secs = (double)(now_ns() - start) / 1e9;

    printf("random_activity: seed 0x%" PRIx64 ": %" PRIu64 " PEs, %" PRIu64 " created, %" PRIu64
           " configurations rejected, %" PRIu64 " steps, %" PRIu64 " records, %" PRIu64
           " written (%" PRIu64 " bytes), %" PRIu64 " lost, %" PRIu64 " dropped, %" PRIu64
           " collisions; %" PRIu64 " PEs wrote records; %" PRIu64
           " writes with Align > MaxSize; %" PRIu64 " calls, slowest %s %.3f ms; %.1f s\n",
           seed, t.pes, t.created, t.rejected, t.steps, t.records, t.written, t.written_bytes,
           t.lost, t.dropped, t.collisions, t.pes_writing, t.align_writes, t.calls,
           t.slowest_call ? t.slowest_call : "-", (double)t.slowest_ns / 1e6, secs);

    CHECK(t.failures == 0, "%" PRIu64 " property violations (seed 0x%" PRIx64 ")", t.failures,
          seed);
    /* The generator must reach what the properties are about. */
    if (only == UINT64_MAX && pes >= 100) {
        CHECK(t.rejected > 0 && t.created > t.pes / 2, "created %" PRIu64 ", rejected %" PRIu64,
              t.created, t.rejected);
        CHECK(t.pes_writing * 5 > t.created, "%" PRIu64 " of %" PRIu64 " PEs wrote records",
              t.pes_writing, t.created);
        CHECK(t.lost > 0 && t.hook_writes > 0 && t.observer_writes > 0, "coverage");
    }
    return check_summary();
}
