/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the public C API (include/armprof/armprof.h, config.h,
 * memory.h, decode.h) driven by a byte string read as a sequence of calls.
 *
 *   configuration  a preset (or an unknown name), then edits: features on
 *                  and off (ids out of range too), options stored raw,
 *                  armprof_config_set() with good and bad names and values;
 *                  validated, and the PE created from it (or, when it is
 *                  refused, from the preset);
 *   calls          one opcode byte each, its arguments from the bytes after
 *                  it (zeros past the end): context changes, MRS/MSR by
 *                  encoding, direct register stores, operations retired and
 *                  dispatched with any field values, cycles and events with
 *                  counts up to 2^64 - 1, external accesses, memory accesses
 *                  near 2^64, regions, checkpoints (and corrupted ones),
 *                  callbacks, sinks and hooks, decoding what the unit wrote.
 *
 * Two macros reach the issue 15 hang classes in a few bytes: SETUP_SPE
 * programs the Profiling Buffer with any PMBIDR_EL1.Align (12..15 are
 * reserved) for the operations after it, and SETUP_FREEZE programs
 * counters near their overflow with PMCR_EL0.FZO or MDCR_EL2.HPMFZO and
 * ends any number of cycles.
 *
 * Any single call that takes more than a second is a finding: the call is
 * named and the harness aborts (libFuzzer's -timeout catches a call that
 * never returns). Besides that it asserts what the headers promise: bad
 * arguments give an error (with a message where the call takes a buffer)
 * and leave the PE as it was, outcomes are well formed, polled interrupt
 * levels agree with the callback's, records decode, checkpoints round-trip.
 *
 * Every piece of state is in a struct on LLVMFuzzerTestOneInput's stack.
 * Also built without libFuzzer (FUZZ_API_MAIN) as the ctest fuzz/api_fixed:
 * pseudo-random inputs, the hang-class inputs and any input files named on
 * the command line; --write-corpus DIR writes the hand-made seeds
 * (tests/fuzz/corpus/api). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* abort() rather than assert(): the checks stay in a release build. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_api: %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* ---- one second per call ----
 * Each call may take at most a second of the calling thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID: a loaded machine that leaves the thread
 * waiting for a core is not the library's slowness; wall time failed a
 * CI run so, 1.3 s for a packet that decodes in microseconds). A
 * call that never returns is caught by a watchdog: a periodic timer whose
 * thread looks at the call in progress and aborts, naming it, once it has
 * run for WATCHDOG_LIMIT_S (the fixed-input ctest has no libFuzzer
 * -timeout). A call stores its name and start time and reads its thread's CPU
 * clock before and after.
 * The watchdog lives in the harness (the timer's sigev_value points to
 * it), not in a global. */

#define CALL_LIMIT_S     1.0
#define WATCHDOG_LIMIT_S 2

typedef struct watchdog {
    timer_t timer;
    bool ok;                     /* the timer exists */
    _Atomic(const char *) call;  /* the call in progress, NULL between calls */
    _Atomic int_least64_t since; /* its start, CLOCK_MONOTONIC seconds */
} watchdog;

static struct timespec now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

static void watchdog_tick(union sigval v)
{
    watchdog *w = v.sival_ptr;
    const char *call = atomic_load(&w->call);
    const int_least64_t since = atomic_load(&w->since);
    if (!call || now().tv_sec - since < WATCHDOG_LIMIT_S + 1) return;
    fprintf(stderr, "fuzz_api: %s has not returned after %d s (a call may take at most 1 s)\n",
            call, WATCHDOG_LIMIT_S);
    abort();
}

static void watchdog_start(watchdog *w)
{
    atomic_store(&w->call, NULL);
    atomic_store(&w->since, 0);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD;
    ev.sigev_notify_function = watchdog_tick;
    ev.sigev_value.sival_ptr = w;
    w->ok = timer_create(CLOCK_MONOTONIC, &ev, &w->timer) == 0;
    if (!w->ok) return;
    struct itimerspec t;
    memset(&t, 0, sizeof t);
    t.it_value.tv_sec = 1;
    t.it_interval.tv_sec = 1;
    timer_settime(w->timer, 0, &t, NULL);
}

static void watchdog_stop(watchdog *w)
{
    if (w->ok) timer_delete(w->timer);
    w->ok = false;
}

static struct timespec cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t;
}

static struct timespec call_begin(watchdog *w, const char *call)
{
    atomic_store(&w->since, (int_least64_t)now().tv_sec);
    atomic_store(&w->call, call);
    return cpu_now();
}

static void call_end(watchdog *w, const struct timespec *t0, const char *call)
{
    atomic_store(&w->call, NULL);
    const struct timespec t1 = cpu_now();
    const double s = (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
    if (s > CALL_LIMIT_S) {
        fprintf(stderr, "fuzz_api: %s took %.3f s (a call may take at most 1 s)\n", call, s);
        abort();
    }
}

/* Every call into the library that can take time goes through CALL (in a
 * function with the harness as h), so a slow one is named. */
#define CALL(name, stmt)                                                                           \
    do {                                                                                           \
        const struct timespec t0_ = call_begin(&h->watchdog, name);                                \
        stmt;                                                                                      \
        call_end(&h->watchdog, &t0_, name);                                                        \
    } while (0)

/* ---- the input ---- */

typedef struct input {
    const uint8_t *data;
    size_t size, pos;
} input;

static uint8_t u8(input *in)
{
    return in->pos < in->size ? in->data[in->pos++] : 0;
}

static uint64_t bytes_le(input *in, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)u8(in) << (8 * i);
    return v;
}

static uint16_t u16(input *in)
{
    return (uint16_t)bytes_le(in, 2);
}

static uint32_t u32(input *in)
{
    return (uint32_t)bytes_le(in, 4);
}

static uint64_t u64(input *in)
{
    return bytes_le(in, 8);
}

static bool flag(input *in)
{
    return u8(in) & 1;
}

/* A value that is often at an edge: 0, 2^64 - 1, near 2^32 or 2^64, a
 * power of two, or anything. */
static uint64_t value(input *in)
{
    switch (u8(in) % 8) {
    case 0:
        return 0;
    case 1:
        return UINT64_MAX;
    case 2:
        return u8(in);
    case 3:
        return u32(in);
    case 4:
        return u64(in);
    case 5:
        return UINT64_MAX - u16(in);
    case 6:
        return 1ull << (u8(in) % 64);
    default:
        return 0xffffffffull - u16(in);
    }
}

/* ---- the harness's state ---- */

typedef struct irq_watch {
    bool installed;
    bool level[ARMPROF_IRQ_COUNT];
    unsigned target_el;
    uint64_t calls;
} irq_watch;

typedef struct sink_watch {
    uint64_t records, bytes;
} sink_watch;

typedef struct hook_ctl {
    armprof_buffer_outcome outcome;
    uint8_t fail_at; /* bytes written before a fault, capped at the write's size */
    uint8_t ec, fsc;
    bool async, ttw;
    uint64_t calls;
} hook_ctl;

typedef struct harness {
    watchdog watchdog;
    armprof_config cfg;
    armprof_pe *pe;
    char err[256];
    irq_watch irq;
    sink_watch sink;
    hook_ctl hook;
    uint64_t observed;
} harness;

/* ---- callbacks: they read the PE but never drive it (armprof.h) ---- */

static void on_irq(void *ctx, armprof_irq irq, bool level, unsigned target_el)
{
    irq_watch *w = ctx;
    REQUIRE((unsigned)irq < ARMPROF_IRQ_COUNT);
    w->level[irq] = level;
    if (irq == ARMPROF_IRQ_SPE_EXCEPTION && level) {
        REQUIRE(target_el >= 1 && target_el <= 3);
        w->target_el = target_el;
    }
    w->calls++;
}

/* "A record is the bytes of D18, padded to PMBIDR_EL1.Align": one whole
 * record, then nothing but Padding. */
static void on_record(void *ctx, const uint8_t *record, size_t size)
{
    sink_watch *s = ctx;
    REQUIRE(record != NULL && size > 0);
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, record, size);
    armprof_spe_record r;
    REQUIRE(armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_OK);
    REQUIRE(r.offset == 0 && r.packets >= 1);
    REQUIRE(armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_EOF);
    s->records++;
    s->bytes += size;
}

static armprof_buffer_result on_buffer_write(void *ctx, const armprof_buffer_write *w)
{
    hook_ctl *h = ctx;
    REQUIRE(w != NULL && w->data != NULL && w->size > 0 && w->size <= 4096);
    /* bytes in one 4KB page */
    REQUIRE((w->address & 0xfffu) + w->size <= 4096);
    h->calls++;
    armprof_buffer_result r = {.outcome = h->outcome};
    r.written = h->outcome == ARMPROF_BUFFER_WRITTEN
                    ? w->size
                    : (h->fail_at < w->size ? h->fail_at : w->size);
    r.ec = h->ec;
    r.fsc = h->fsc;
    r.async = h->async;
    r.ttw = h->ttw;
    return r;
}

static void on_mem_write(void *ctx, int pas, uint64_t pa, const uint8_t *data, size_t size,
                         const armprof_mem_attrs *attrs)
{
    uint64_t *n = ctx;
    REQUIRE(pas >= ARMPROF_PAS_NONSECURE && pas <= ARMPROF_PAS_ROOT);
    REQUIRE(data != NULL && size > 0 && attrs != NULL);
    (void)pa;
    (*n)++;
}

/* ---- what the headers promise, checked after calls ---- */

static void check_outcome(const armprof_outcome *o)
{
    REQUIRE((unsigned)o->kind <= ARMPROF_UNMODELLED);
    switch (o->kind) {
    case ARMPROF_DONE:
        REQUIRE(o->reg >= 0 && (size_t)o->reg < armprof_reg_count());
        REQUIRE(o->index < armprof_reg_instances(o->reg));
        break;
    case ARMPROF_TRAP:
        REQUIRE(o->target_el >= 1 && o->target_el <= 3);
        REQUIRE(o->ec < 64 && o->iss < (1u << 25));
        REQUIRE(o->esr == ((uint64_t)o->ec << 26 | 1u << 25 | o->iss));
        break;
    case ARMPROF_NVMEM:
        /* a doubleword of the VNCR_EL2 page */
        REQUIRE(o->nv_offset < 4096 && o->nv_offset % 8 == 0);
        break;
    default:
        break;
    }
}

static void check_ext(const armprof_ext_outcome *o, uint32_t offset, unsigned size_bytes,
                      bool is_read)
{
    REQUIRE((unsigned)o->kind <= ARMPROF_EXT_UNMODELLED);
    if ((size_bytes != 4 && size_bytes != 8) || offset % size_bytes != 0)
        REQUIRE(o->kind == ARMPROF_EXT_UNMODELLED);
    REQUIRE(o->reg >= -1 && (o->reg < 0 || (size_t)o->reg < armprof_ext_reg_count()));
    REQUIRE(o->sysreg >= -1 && (o->sysreg < 0 || (size_t)o->sysreg < armprof_reg_count()));
    if (o->kind == ARMPROF_EXT_ERROR) REQUIRE(o->why != NULL);
    if (o->kind == ARMPROF_EXT_OK && o->ignored) REQUIRE(!is_read && o->why != NULL);
    if (o->kind == ARMPROF_EXT_OK && is_read && size_bytes == 4) REQUIRE(o->value <= 0xffffffffull);
}

/* Invariants of the state after any call. */
static void check_state(harness *h)
{
    armprof_pe *pe = h->pe;
    REQUIRE(armprof_current_el(pe) <= 3);
    REQUIRE((unsigned)armprof_current_security_state(pe) <= ARMPROF_SS_ROOT);
    armprof_security_state ss = ARMPROF_SS_NONSECURE;
    unsigned el = 0;
    const bool enabled = armprof_spe_buffer_enabled(pe);
    REQUIRE(armprof_spe_buffer_owner(pe, &ss, &el) == enabled);
    REQUIRE(armprof_spe_buffer_owner(pe, NULL, NULL) == enabled);
    const armprof_spe_regime regime = armprof_spe_owning_regime(pe);
    REQUIRE((unsigned)regime <= ARMPROF_SPE_REGIME_EL20);
    if (!enabled) REQUIRE(regime == ARMPROF_SPE_REGIME_NONE);
    uint64_t v = 0;
    REQUIRE(armprof_spe_value(pe, "buffer_enabled", &v) && v == enabled);
    REQUIRE(armprof_spe_value(pe, "regime", &v) && v == (uint64_t)regime);
    const armprof_spe_stats st = armprof_spe_get_stats(pe);
    REQUIRE(armprof_spe_value(pe, "stats.records", &v) && v == st.records);
    REQUIRE(st.discarded <= st.filtered);
    if (h->irq.installed) {
        /* The callback's levels are the polled ones. */
        REQUIRE(h->irq.level[ARMPROF_IRQ_PMU] == armprof_pmuirq(pe));
        REQUIRE(h->irq.level[ARMPROF_IRQ_PMB] == armprof_pmbirq(pe));
        unsigned target = 0;
        const bool exc = armprof_spe_exception(pe, &target);
        REQUIRE(h->irq.level[ARMPROF_IRQ_SPE_EXCEPTION] == exc);
        if (exc) REQUIRE(h->irq.target_el == target);
    }
}

/* ---- register stores by name (the macros) ---- */

static int reg_id(const char *name, unsigned *index)
{
    const int reg = armprof_reg_lookup(name, index);
    REQUIRE(reg >= 0);
    return reg;
}

static void store(harness *h, const char *name, uint64_t v)
{
    unsigned index = 0;
    const int reg = reg_id(name, &index);
    CALL("armprof_reg_set", armprof_reg_set(h->pe, reg, index, v));
}

static void store_field(harness *h, const char *name, const char *field, uint64_t v)
{
    unsigned index = 0, hi = 0, lo = 0;
    const int reg = reg_id(name, &index);
    REQUIRE(armprof_reg_field(reg, field, &hi, &lo) && hi >= lo && hi < 64);
    const uint64_t mask = (hi - lo == 63 ? ~0ull : (1ull << (hi - lo + 1)) - 1) << lo;
    uint64_t r = 0;
    CALL("armprof_reg_get", r = armprof_reg_get(h->pe, reg, index));
    CALL("armprof_reg_set", armprof_reg_set(h->pe, reg, index, (r & ~mask) | (v << lo & mask)));
}

/* ---- the configuration ---- */

static size_t preset_count(void)
{
    size_t n = 0;
    while (armprof_preset_name(n))
        n++;
    return n;
}

/* A name armprof_config_set() may be given: a feature's, an option's, or
 * none. */
static const char *config_name(input *in)
{
    static const char *const junk[] = {"", "FEAT_", "SPE", "no_such_option", "FEAT_SPE ", "EL2"};
    const uint8_t k = u8(in);
    switch (k % 3) {
    case 0: {
        const char *n = armprof_feature_name((armprof_feature)(u8(in) % (ARMPROF_FEAT_COUNT + 2)));
        return n ? n : "FEAT_NONE";
    }
    case 1: {
        const char *n = armprof_option_name((armprof_option)(u8(in) % (ARMPROF_OPT_COUNT + 2)));
        return n ? n : "no_option";
    }
    default:
        return junk[(k / 3) % (sizeof junk / sizeof junk[0])];
    }
}

static const char *config_value(input *in, const char *name, char *buf, size_t len)
{
    static const char *const fixed[] = {
        "on", "off", "1", "0", "2", "-1", "0x", "1__0", "0b1_", "0x_", "99999999999999999999"};
    const uint8_t k = u8(in);
    switch (k % 4) {
    case 0:
        return fixed[(k / 4) % (sizeof fixed / sizeof fixed[0])];
    case 1:
        snprintf(buf, len, "%llu", (unsigned long long)value(in));
        return buf;
    case 2:
        snprintf(buf, len, "0x%llx", (unsigned long long)value(in));
        return buf;
    default: {
        const int o = armprof_option_lookup(name);
        const char *v =
            o >= 0 ? armprof_option_value_at((armprof_option)o, u8(in) % 8, NULL, NULL) : NULL;
        return v ? v : "NO_SUCH_VALUE";
    }
    }
}

static void edit_config(harness *h, input *in)
{
    armprof_config *c = &h->cfg;
    switch (u8(in) % 4) {
    case 0: {
        const armprof_feature f = (armprof_feature)u8(in);
        const bool on = flag(in);
        CALL("armprof_config_set_feature", armprof_config_set_feature(c, f, on));
        if ((unsigned)f < ARMPROF_FEAT_COUNT) REQUIRE(armprof_config_has(c, f) == on);
        break;
    }
    case 1:
        c->options[u8(in) % ARMPROF_OPT_COUNT] = value(in);
        break;
    case 2: {
        char buf[32];
        const char *name = config_name(in);
        const char *val = config_value(in, name, buf, sizeof buf);
        bool ok = false;
        h->err[0] = 0;
        CALL("armprof_config_set", ok = armprof_config_set(c, name, val, h->err, sizeof h->err));
        if (!ok) REQUIRE(h->err[0] != 0);
        const int f = armprof_feature_lookup(name);
        if (ok && f >= 0 && armprof_option_lookup(name) < 0)
            REQUIRE(armprof_config_has(c, (armprof_feature)f) ==
                    (strcmp(val, "on") == 0 || strcmp(val, "1") == 0));
        break;
    }
    default:
        c->features[u8(in) % ARMPROF_FEAT_WORDS] ^= u64(in);
        break;
    }
}

static unsigned highest_el(const armprof_config *c)
{
    return armprof_config_has(c, ARMPROF_FEAT_EL3)   ? 3
           : armprof_config_has(c, ARMPROF_FEAT_EL2) ? 2
                                                     : 1;
}

static armprof_pe *create(harness *h)
{
    bool valid = false;
    armprof_pe *pe = NULL;
    h->err[0] = 0;
    CALL("armprof_config_validate",
         valid = armprof_config_validate(&h->cfg, h->err, sizeof h->err));
    if (!valid) REQUIRE(h->err[0] != 0);
    h->err[0] = 0;
    CALL("armprof_pe_create", pe = armprof_pe_create(&h->cfg, h->err, sizeof h->err));
    /* Validated first: created exactly when valid. */
    REQUIRE((pe != NULL) == valid);
    if (!pe) {
        REQUIRE(h->err[0] != 0);
        return NULL;
    }
    /* After a Cold reset: the highest EL, Non-debug state, powered up. */
    REQUIRE(memcmp(armprof_pe_config(pe), &h->cfg, sizeof h->cfg) == 0);
    REQUIRE(armprof_current_el(pe) == highest_el(&h->cfg));
    REQUIRE(!armprof_in_debug_state(pe) && armprof_core_powered(pe));
    return pe;
}

static bool make_pe(harness *h, input *in)
{
    const size_t presets = preset_count();
    REQUIRE(presets > 0);
    const size_t p = u8(in) % (presets + 1);
    const char *preset = p < presets ? armprof_preset_name(p) : "no-such-preset";
    bool ok = false;
    CALL("armprof_config_preset", ok = armprof_config_preset(&h->cfg, preset));
    REQUIRE(ok == (p < presets));
    if (!ok) {
        REQUIRE(armprof_config_preset(&h->cfg, "armv9.4-all"));
        preset = "armv9.4-all";
    }
    const unsigned edits = u8(in) % 8;
    for (unsigned i = 0; i < edits; i++)
        edit_config(h, in);
    h->pe = create(h);
    if (h->pe) return true;
    /* Refused: the rest of the input drives the preset. */
    REQUIRE(armprof_config_preset(&h->cfg, preset));
    h->pe = create(h);
    return h->pe != NULL;
}

/* ---- calls ---- */

enum {
    OP_SET_EL,
    OP_SET_SS,
    OP_SET_AARCH32,
    OP_CONTEXT_FLAG,
    OP_SET_SIGNAL,
    OP_RESET,
    OP_MRS,
    OP_MSR,
    OP_REG_SET,
    OP_REG_QUERY,
    OP_RETIRE,
    OP_DISPATCH,
    OP_CYCLES,
    OP_PMU_EVENT,
    OP_EXTERNAL,
    OP_MEM_WRITE,
    OP_MEM_READ,
    OP_MEM_REGION,
    OP_CHECKPOINT,
    OP_SPE_MISC,
    OP_QUERIES,
    OP_DECODE,
    OP_SETUP_SPE,
    OP_SETUP_FREEZE,
    OP_CALLBACKS,
    OP_EXT_TABLE,
    OP_RUN,
    OP_COUNT
};

/* An encoding: a register's (any instance, also past the last), or any. */
static uint32_t encoding(input *in)
{
    const uint8_t k = u8(in);
    if (k & 1) return u16(in);
    const int reg = (int)(u16(in) % armprof_reg_count());
    const unsigned index = u8(in) % (armprof_reg_instances(reg) + 2);
    return armprof_reg_encoding(reg, index);
}

static void op_set_el(harness *h, input *in)
{
    const unsigned el = u8(in) % 6, before = armprof_current_el(h->pe);
    bool ok = false;
    h->err[0] = 0;
    CALL("armprof_set_el", ok = armprof_set_el(h->pe, el, h->err, sizeof h->err));
    if (ok) {
        REQUIRE(armprof_current_el(h->pe) == el);
    } else {
        REQUIRE(h->err[0] != 0 && armprof_current_el(h->pe) == before);
    }
}

static void op_set_ss(harness *h, input *in)
{
    const armprof_security_state ss = (armprof_security_state)(u8(in) % 6);
    const armprof_security_state before = armprof_current_security_state(h->pe);
    bool ok = false;
    h->err[0] = 0;
    CALL("armprof_set_security_state",
         ok = armprof_set_security_state(h->pe, ss, h->err, sizeof h->err));
    if ((unsigned)ss > ARMPROF_SS_ROOT) REQUIRE(!ok);
    /* false does not always mean unchanged: the lower ELs' state is set,
     * and a PE at EL2 that the new state has no EL2 for is moved to EL1
     * ("now at EL1"). */
    if (!ok) REQUIRE(h->err[0] != 0);
    if (!ok && (unsigned)ss > ARMPROF_SS_ROOT)
        REQUIRE(armprof_current_security_state(h->pe) == before);
    REQUIRE(armprof_security_state_name(ss) != NULL);
}

static void op_set_aarch32(harness *h, input *in)
{
    const unsigned el = u8(in) % 5;
    const bool a32 = flag(in);
    bool ok = false;
    h->err[0] = 0;
    CALL("armprof_set_aarch32", ok = armprof_set_aarch32(h->pe, el, a32, h->err, sizeof h->err));
    if (el > 3) REQUIRE(!ok);
    if (!ok) REQUIRE(h->err[0] != 0);
    bool using = false;
    CALL("armprof_el_using_aarch32", using = armprof_el_using_aarch32(h->pe, el % 4));
    (void)using;
}

static void op_context_flag(harness *h, input *in)
{
    const uint8_t k = u8(in);
    const bool on = k & 8;
    switch (k % 6) {
    case 0:
        CALL("armprof_set_debug_state", armprof_set_debug_state(h->pe, on));
        REQUIRE(armprof_in_debug_state(h->pe) == on);
        break;
    case 1:
        CALL("armprof_set_core_power", armprof_set_core_power(h->pe, on));
        REQUIRE(armprof_core_powered(h->pe) == on);
        break;
    case 2:
        CALL("armprof_set_os_lock", armprof_set_os_lock(h->pe, on));
        REQUIRE(armprof_os_locked(h->pe) == on);
        break;
    case 3:
        CALL("armprof_set_os_double_lock", armprof_set_os_double_lock(h->pe, on));
        break;
    case 4:
        CALL("armprof_set_pstate_pm", armprof_set_pstate_pm(h->pe, on));
        break;
    default:
        CALL("armprof_set_physical_count", armprof_set_physical_count(h->pe, value(in)));
        break;
    }
}

static void op_set_signal(harness *h, input *in)
{
    const armprof_signal sig = (armprof_signal)(u8(in) % (ARMPROF_SIG_COUNT + 2));
    const bool high = flag(in);
    CALL("armprof_set_signal", armprof_set_signal(h->pe, sig, high));
    if ((unsigned)sig < ARMPROF_SIG_COUNT) REQUIRE(armprof_signal_level(h->pe, sig) == high);
    REQUIRE(armprof_signal_name(sig) != NULL);
}

static void op_reset(harness *h, input *in)
{
    const bool cold = flag(in);
    CALL("armprof_reset", armprof_reset(h->pe, cold ? ARMPROF_RESET_COLD : ARMPROF_RESET_WARM));
    if (cold) {
        REQUIRE(armprof_current_el(h->pe) == highest_el(&h->cfg));
        REQUIRE(!armprof_in_debug_state(h->pe) && armprof_core_powered(h->pe));
    }
}

static void op_mrs_msr(harness *h, input *in, bool write)
{
    const uint32_t enc = encoding(in);
    const unsigned rt = u8(in) % 32;
    armprof_outcome o;
    if (!write) {
        CALL("armprof_mrs", o = armprof_mrs(h->pe, enc, rt));
        check_outcome(&o);
        return;
    }
    const uint64_t v = value(in);
    CALL("armprof_msr", o = armprof_msr(h->pe, enc, rt, v));
    check_outcome(&o);
}

static void op_reg_set(harness *h, input *in)
{
    const int n = (int)armprof_reg_count();
    /* ids and instances a little past the table's too */
    const int reg = (int)(u16(in) % (unsigned)(n + 4)) - 2;
    const unsigned index = u8(in) % (armprof_reg_instances(reg) + 2);
    const uint64_t v = value(in);
    CALL("armprof_reg_set", armprof_reg_set(h->pe, reg, index, v));
    uint64_t got = 0;
    CALL("armprof_reg_get", got = armprof_reg_get(h->pe, reg, index));
    (void)got;
}

typedef struct field_walk {
    unsigned fields;
    uint64_t seen;
} field_walk;

static void on_field(void *ctx, const char *name, unsigned hi, unsigned lo, const char *kind,
                     bool present)
{
    field_walk *w = ctx;
    REQUIRE(name != NULL && kind != NULL && hi >= lo && hi < 64);
    const uint64_t mask = (hi - lo == 63 ? ~0ull : (1ull << (hi - lo + 1)) - 1) << lo;
    REQUIRE((w->seen & mask) == 0); /* each bit in one range */
    w->seen |= mask;
    w->fields++;
    (void)present;
}

/* The register table, for an id that may lie outside it. */
static void op_reg_query(harness *h, input *in)
{
    const int n = (int)armprof_reg_count();
    const int reg = (int)(u16(in) % (unsigned)(n + 4)) - 2;
    const bool inside = reg >= 0 && reg < n;
    const char *name = armprof_reg_name(reg);
    REQUIRE((name != NULL) == inside);
    char small[8], big[64];
    const unsigned index = u8(in) % 4;
    const char *iname = armprof_reg_instance_name(reg, index, small, sizeof small);
    if (iname == small) REQUIRE(memchr(small, 0, sizeof small) != NULL);
    iname = armprof_reg_instance_name(reg, index, big, sizeof big);
    if (!inside) {
        REQUIRE(armprof_reg_instances(reg) == 0 && !armprof_reg_present(h->pe, reg));
        return;
    }
    /* 0 for an alias with no storage of its own (PMSCR_EL12: an access
     * reaches PMSCR_EL1); then armprof_reg_get() reads 0. */
    const unsigned instances = armprof_reg_instances(reg);
    /* An index past the instances (any but 0 for a register that is not
     * indexed, or an alias) has no name and no encoding: no aliasing. */
    if (index >= (instances ? instances : 1)) {
        REQUIRE(iname == NULL && armprof_reg_encoding(reg, index) == 0);
        return;
    }
    REQUIRE(iname != NULL);
    if (instances == 0) REQUIRE(armprof_reg_get(h->pe, reg, 0) == 0);
    if (index < instances) {
        /* a name and an encoding lead back to the register */
        unsigned found = 99;
        REQUIRE(armprof_reg_lookup(iname, &found) == reg && found == index);
    }
    field_walk w = {0, 0};
    CALL("armprof_reg_foreach_field", armprof_reg_foreach_field(h->pe, reg, on_field, &w));
    unsigned hi = 0, lo = 0;
    REQUIRE(!armprof_reg_field(reg, "NO_SUCH_FIELD", &hi, &lo));
}

/* An operation with any field values, enums out of range included. */
static armprof_op make_op(input *in)
{
    armprof_op op = ARMPROF_OP_INIT;
    const uint8_t shape = u8(in);
    if (shape & 1) op.size = shape & 2 ? 0 : u32(in);
    op.pc = value(in);
    op.op_class = (armprof_op_class)(u8(in) % 6);
    const uint32_t bits = u32(in);
    op.mispredicted = bits & 1;
    op.taken = bits >> 1 & 1;
    op.l1d_access = bits >> 2 & 1;
    op.l1d_refill = bits >> 3 & 1;
    op.tbi = bits >> 4 & 1;
    op.tag_checked = bits >> 5 & 1;
    op.data_source_valid = bits >> 6 & 1;
    op.conditional = bits >> 7 & 1;
    op.cond_failed = bits >> 8 & 1;
    op.fp = bits >> 9 & 1;
    op.simd = bits >> 10 & 1;
    op.acquire_release = bits >> 11 & 1;
    op.exclusive = bits >> 12 & 1;
    op.atomic = bits >> 13 & 1;
    op.predicated = bits >> 14 & 1;
    op.gather_scatter = bits >> 15 & 1;
    /* what armprof_dispatch() sets; a caller may leave anything there */
    op.dispatched = bits >> 16 & 1;
    op.spe_selected = bits >> 17 & 1;
    op.not_arch_executed = bits >> 18 & 1; /* version 4 */
    op.branch_kind = (armprof_branch_kind)(bits >> 20 & 15);
    op.ldst_kind = (armprof_ldst_kind)(bits >> 24 & 15);
    op.other_kind = (armprof_other_kind)(bits >> 28 & 7);
    if (shape & 4) {
        op.target = value(in);
        op.vaddr = value(in);
        op.paddr = value(in);
        op.pas = (armprof_pas)(u8(in) % 6);
        op.total_latency = (uint32_t)value(in);
        op.issue_latency = (uint32_t)value(in);
        op.translation_latency = u16(in);
        op.alt_issue_latency = u16(in);
        op.data_source = u16(in);
        op.events = u32(in);
        op.impdef_events = u16(in);
        op.vector_length = (uint32_t)value(in);
        op.tile_size = (uint32_t)value(in);
    }
    return op;
}

static void op_retire(harness *h, input *in)
{
    const armprof_op op = make_op(in);
    const unsigned times = 1 + u8(in) % 64;
    for (unsigned i = 0; i < times; i++)
        CALL("armprof_retire", armprof_retire(h->pe, &op));
}

static void op_dispatch(harness *h, input *in)
{
    armprof_op op = make_op(in);
    op.dispatched = op.spe_selected = false;
    bool selected = false;
    CALL("armprof_dispatch", selected = armprof_dispatch(h->pe, &op));
    /* An op_class outside armprof_op_class is refused: nothing set. */
    const bool valid_class = (unsigned)op.op_class <= ARMPROF_OP_STORE;
    REQUIRE(op.dispatched == valid_class && op.spe_selected == selected);
    REQUIRE(valid_class || !selected);
    const uint8_t k = u8(in);
    /* some cycles in flight, then (usually) the retirement */
    if (k & 1) CALL("armprof_cycles", armprof_cycles(h->pe, k >> 1));
    if (!(k & 2)) CALL("armprof_retire", armprof_retire(h->pe, &op));
}

/* armprof_ops_until_event() and armprof_retire_run() with a run of any
 * counts: one longer than the room, or that does not add up, is refused. */
static void op_run(harness *h, input *in)
{
    uint64_t room = 0;
    CALL("armprof_ops_until_event", room = armprof_ops_until_event(h->pe));
    uint64_t overflow_room = 0;
    CALL("armprof_pmu_ops_until_overflow", overflow_room = armprof_pmu_ops_until_overflow(h->pe));
    /* A question: asking it changes nothing, so asking again gives the same. */
    REQUIRE(overflow_room == armprof_pmu_ops_until_overflow(h->pe));
    armprof_op_run run = ARMPROF_OP_RUN_INIT;
    const uint8_t k = u8(in);
    run.ops = (k & 1) ? value(in) : (room < 256 ? room : u8(in)); /* within the room */
    run.branches = (k & 2) ? value(in) : run.ops / 4;
    run.mispredicted = run.branches / 2;
    run.loads = (k & 4) ? value(in) : (run.ops - run.branches) / 3;
    run.stores =
        (run.ops - run.branches - (run.loads < run.ops - run.branches ? run.loads : 0)) / 4;
    run.l1d_access = (k & 8) ? value(in) : run.loads;
    run.l1d_refill = run.l1d_access / 8;
    run.any_taken = (k & 16) != 0;
    run.last_taken_target = value(in);
    run.last_is_branch = (k & 32) != 0;
    run.last_branch_next = value(in);
    run.last_pc = value(in);
    bool done = false;
    CALL("armprof_retire_run", done = armprof_retire_run(h->pe, &run));
    REQUIRE(!done || run.ops <= room);
}

static void op_cycles(harness *h, input *in)
{
    const uint64_t n = value(in);
    CALL("armprof_cycles", armprof_cycles(h->pe, n));
}

static void op_pmu_event(harness *h, input *in)
{
    const uint16_t ev = u8(in) & 1 ? u16(in) : u8(in);
    const uint64_t count = value(in);
    CALL("armprof_pmu_event", armprof_pmu_event(h->pe, ev, count));
    if (u8(in) & 1) CALL("armprof_cycles", armprof_cycles(h->pe, 1));
}

static void op_external(harness *h, input *in)
{
    const uint8_t k = u8(in);
    uint32_t offset;
    if (k & 4) {
        const int reg = (int)(u16(in) % armprof_ext_reg_count());
        offset = armprof_ext_reg_offset(reg, u8(in) % (armprof_ext_reg_instances(reg) + 1)) +
                 (u8(in) & 1 ? 4 : 0);
    } else {
        offset = k & 8 ? u32(in) : u16(in) & 0x1fffu;
    }
    static const unsigned sizes[] = {4, 8, 4, 8, 0, 1, 2, 3, 16, 0xffffffffu};
    const unsigned size = sizes[u8(in) % 10];
    const armprof_ext_access how = {.pas = (armprof_pas)(u8(in) % 6), .memory_mapped = k & 16};
    const armprof_ext_access *hp = k & 32 ? &how : NULL;
    const bool debug = k & 1, write = k & 2;
    armprof_ext_outcome o;
    if (write) {
        const uint64_t v = value(in);
        if (debug)
            CALL("armprof_external_debug_write",
                 o = armprof_external_debug_write(h->pe, offset, size, v, hp));
        else
            CALL("armprof_external_write", o = armprof_external_write(h->pe, offset, size, v, hp));
    } else {
        if (debug)
            CALL("armprof_external_debug_read",
                 o = armprof_external_debug_read(h->pe, offset, size, hp));
        else
            CALL("armprof_external_read", o = armprof_external_read(h->pe, offset, size, hp));
    }
    check_ext(&o, offset, size, !write);
    REQUIRE(armprof_pas_name(how.pas) != NULL);
}

/* An address near 0, near 2^64 or anywhere, and a size up to three pages. */
static uint64_t address(input *in)
{
    const uint8_t k = u8(in);
    switch (k % 4) {
    case 0:
        return UINT64_MAX - u16(in);
    case 1:
        return u32(in);
    case 2:
        return 0x80000000ull + u16(in);
    default:
        return u64(in);
    }
}

#define MEM_MAX 12288u

static void op_mem_write(harness *h, input *in)
{
    armprof_mem *mem = armprof_pe_memory(h->pe);
    REQUIRE(mem != NULL);
    const int pas = (int)(u8(in) % 8) - 2;
    const uint64_t pa = address(in);
    const size_t size = u16(in) % (MEM_MAX + 1);
    const uint8_t fill = u8(in);
    if (u8(in) & 1) {
        const uint64_t v = value(in);
        CALL("armprof_mem_write64", armprof_mem_write64(mem, pas, pa, v));
        uint64_t back = 0;
        CALL("armprof_mem_read64", back = armprof_mem_read64(mem, pas, pa));
        /* No faults in direct access; a PAS outside armprof_pas is
         * refused (reads give zeros) rather than aliasing one. */
        REQUIRE(back == (pas >= 0 && pas <= 3 ? v : 0));
        return;
    }
    uint8_t *buf = malloc(MEM_MAX);
    REQUIRE(buf != NULL);
    memset(buf, fill, size);
    CALL("armprof_mem_write", armprof_mem_write(mem, pas, pa, buf, size));
    if (pas < 0 || pas > 3) memset(buf, 0, size); /* refused, as above */
    uint8_t *back = malloc(MEM_MAX);
    REQUIRE(back != NULL);
    CALL("armprof_mem_read", armprof_mem_read(mem, pas, pa, back, size));
    REQUIRE(memcmp(buf, back, size) == 0);
    free(back);
    free(buf);
}

static void op_mem_read(harness *h, input *in)
{
    const armprof_mem *mem = armprof_pe_memory(h->pe);
    const int pas = (int)(u8(in) % 8) - 2;
    const uint64_t pa = address(in);
    const size_t size = u16(in) % (MEM_MAX + 1);
    uint8_t *buf = malloc(MEM_MAX);
    REQUIRE(buf != NULL);
    CALL("armprof_mem_read", armprof_mem_read(mem, pas, pa, buf, size));
    free(buf);
    const armprof_mem_region *r = NULL;
    CALL("armprof_mem_region_at", r = armprof_mem_region_at(mem, pas, pa));
    if (r) REQUIRE(pa - r->base <= r->size - 1 && (r->pas == -1 || r->pas == pas));
}

static void op_mem_region(harness *h, input *in)
{
    armprof_mem *mem = armprof_pe_memory(h->pe);
    if (u8(in) % 8 == 0) {
        CALL("armprof_mem_clear_regions", armprof_mem_clear_regions(mem));
        return;
    }
    armprof_mem_region r = {0};
    r.base = address(in);
    r.size = value(in);
    r.pas = (int)(u8(in) % 7) - 2;
    const uint32_t bits = u32(in);
    r.type = (armprof_memtype)(bits & 3);
    r.device = (uint8_t)(bits >> 2 & 7);
    r.cacheability = (uint8_t)(bits >> 5 & 7);
    r.shareability = (uint8_t)(bits >> 8 & 3);
    r.fault = (armprof_mem_fault)(bits >> 10 & 7);
    r.gpi = bits >> 13 & 31;
    r.fault_on_walk = bits >> 18 & 1;
    bool ok = false;
    h->err[0] = 0;
    CALL("armprof_mem_add_region", ok = armprof_mem_add_region(mem, &r, h->err, sizeof h->err));
    if (!ok) REQUIRE(h->err[0] != 0);
    /* malformed regions are refused */
    if (r.size == 0 || r.base + (r.size - 1) < r.base || r.pas < -1 || r.pas > ARMPROF_PAS_ROOT ||
        (unsigned)r.type > ARMPROF_MEM_DEVICE || (unsigned)r.fault > ARMPROF_MEM_FAULT_GPT_WALK ||
        r.device > 3 || r.cacheability > 2)
        REQUIRE(!ok);
    if (ok && (r.pas >= 0)) {
        const armprof_mem_region *at = armprof_mem_region_at(mem, r.pas, r.base);
        REQUIRE(at != NULL && at->base == r.base && at->size == r.size);
    }
}

/* What a checkpoint must bring back, as the API shows it: every register
 * instance, the context, the statistics, the output levels. (Not the
 * checkpoint's bytes: they hold the PE's own bookkeeping too.) */
static uint64_t fingerprint(harness *h)
{
    armprof_pe *pe = h->pe;
    uint64_t f = 0xcbf29ce484222325ull;
#define MIX(v) (f = (f ^ (uint64_t)(v)) * 0x100000001b3ull)
    const int n = (int)armprof_reg_count();
    for (int reg = 0; reg < n; reg++)
        for (unsigned i = 0; i < armprof_reg_instances(reg); i++)
            MIX(armprof_reg_get(pe, reg, i));
    MIX(armprof_current_el(pe));
    MIX(armprof_current_security_state(pe));
    MIX(armprof_in_debug_state(pe));
    MIX(armprof_core_powered(pe));
    MIX(armprof_os_locked(pe));
    for (unsigned s = 0; s < ARMPROF_SIG_COUNT; s++)
        MIX(armprof_signal_level(pe, (armprof_signal)s));
    for (unsigned el = 0; el < 4; el++)
        MIX(armprof_el_using_aarch32(pe, el));
    const armprof_spe_stats st = armprof_spe_get_stats(pe);
    const uint64_t stats[] = {
        st.population,        st.selected, st.collisions, st.filtered,      st.discarded,
        st.records,           st.bytes,    st.written,    st.written_bytes, st.lost,
        st.management_events, st.serrors,  st.held};
    for (size_t i = 0; i < sizeof stats / sizeof stats[0]; i++)
        MIX(stats[i]);
    MIX(armprof_pmuirq(pe));
    MIX(armprof_pmbirq(pe));
    MIX(armprof_checkpoint_size(pe));
#undef MIX
    return f;
}

/* Checkpoints: a size too small writes nothing; a round trip brings the
 * state back; a refused checkpoint leaves the PE as it was (the same
 * checkpoint bytes); a corrupted one is refused or taken, never a crash. */
static void op_checkpoint(harness *h, input *in)
{
    size_t n = 0;
    CALL("armprof_checkpoint_size", n = armprof_checkpoint_size(h->pe));
    REQUIRE(n > 0);
    if (n > (64u << 20)) return;
    uint8_t *orig = malloc(n), *a = malloc(n);
    REQUIRE(orig && a);
    size_t got = 0;
    CALL("armprof_checkpoint_save", got = armprof_checkpoint_save(h->pe, orig, n - 1));
    REQUIRE(got == 0);
    CALL("armprof_checkpoint_save", got = armprof_checkpoint_save(h->pe, orig, n));
    REQUIRE(got == n);
    const uint64_t before = fingerprint(h);
    memcpy(a, orig, n);
    const uint8_t k = u8(in);
    size_t len = n;
    /* A flip anywhere: in the header it is a bad magic, version, size or
     * configuration; after it, the checksum refuses it. */
    if (k & 1) a[u32(in) % n] ^= (uint8_t)(1u << (u8(in) % 8));
    if (k & 2) len = u32(in) % (n + 1);
    if (k & 4) len = n + 1 + u8(in) % 8;
    uint8_t *src = a;
    uint8_t *longer = NULL;
    if (len > n) {
        longer = calloc(1, len);
        REQUIRE(longer != NULL);
        memcpy(longer, a, n);
        src = longer;
    }
    if (k & 32) {
        /* a checkpoint of a PE of another configuration: refused */
        armprof_config other = h->cfg;
        other.options[ARMPROF_OPT_COUNT - 1] ^= 1;
        armprof_pe *pe2 = armprof_pe_create(&other, NULL, 0);
        if (!pe2) {
            other = h->cfg;
            armprof_config_set_feature(&other, ARMPROF_FEAT_SPE,
                                       !armprof_config_has(&other, ARMPROF_FEAT_SPE));
            pe2 = armprof_pe_create(&other, NULL, 0);
        }
        if (pe2) {
            const size_t n2 = armprof_checkpoint_size(pe2);
            uint8_t *b2 = malloc(n2);
            REQUIRE(b2 != NULL && armprof_checkpoint_save(pe2, b2, n2) == n2);
            const uint64_t was = fingerprint(h);
            bool ok2 = true;
            h->err[0] = 0;
            CALL("armprof_checkpoint_restore",
                 ok2 = armprof_checkpoint_restore(h->pe, b2, n2, h->err, sizeof h->err));
            REQUIRE(!ok2 && h->err[0] != 0 && fingerprint(h) == was);
            free(b2);
            armprof_pe_destroy(pe2);
        }
    }
    /* some calls between the save and the restore */
    if (k & 8) CALL("armprof_cycles", armprof_cycles(h->pe, 1000));
    if (k & 16) CALL("armprof_reset", armprof_reset(h->pe, ARMPROF_RESET_COLD));
    const uint64_t changed = fingerprint(h);
    const size_t nc = armprof_checkpoint_size(h->pe);
    uint8_t *pre = malloc(nc);
    REQUIRE(pre != NULL && armprof_checkpoint_save(h->pe, pre, nc) == nc);
    bool ok = false;
    h->err[0] = 0;
    CALL("armprof_checkpoint_restore",
         ok = armprof_checkpoint_restore(h->pe, src, len, h->err, sizeof h->err));
    if (!(k & 7)) REQUIRE(ok);      /* its own checkpoint, untouched */
    if ((k & 7) == 1) REQUIRE(!ok); /* a changed bit is always refused */
    if (!ok) {
        REQUIRE(h->err[0] != 0);
        REQUIRE(fingerprint(h) == changed);
        uint8_t *post = malloc(nc);
        REQUIRE(post != NULL);
        REQUIRE(armprof_checkpoint_size(h->pe) == nc);
        REQUIRE(armprof_checkpoint_save(h->pe, post, nc) == nc && memcmp(pre, post, nc) == 0);
        free(post);
    } else if (!(k & 7)) {
        REQUIRE(fingerprint(h) == before);
    }
    free(pre);
    free(longer);
    free(a);
    free(orig);
}

static void op_spe_misc(harness *h, input *in)
{
    const uint8_t k = u8(in);
    switch (k % 3) {
    case 0:
        CALL("armprof_psb_csync", armprof_psb_csync(h->pe));
        REQUIRE(armprof_spe_get_stats(h->pe).held == 0 || !armprof_spe_buffer_enabled(h->pe));
        break;
    case 1:
        CALL("armprof_snapshot_request", armprof_snapshot_request(h->pe));
        break;
    default: {
        const uint16_t mss = u16(in);
        CALL("armprof_spe_impdef_event", armprof_spe_impdef_event(h->pe, mss));
        break;
    }
    }
}

static void op_queries(harness *h, input *in)
{
    static const char *const names[] = {"owner_ss",
                                        "owner_el",
                                        "buffer_enabled",
                                        "stopped",
                                        "regime",
                                        "enabled_el0",
                                        "enabled_el1",
                                        "enabled_el2",
                                        "enabled_el3",
                                        "enabled_el4",
                                        "effective.PMBLIMITR_EL1.nVM",
                                        "effective.PMSCR_EL2.E2SPE",
                                        "effective.PMSCR_EL1.PCT",
                                        "effective.NO_SUCH.FIELD",
                                        "stats.population",
                                        "stats.held",
                                        "stats.no_such",
                                        "",
                                        "no_such_value",
                                        "effective.",
                                        "stats."};
    const size_t n = sizeof names / sizeof names[0];
    const char *name = names[u8(in) % n];
    uint64_t v = 0;
    bool ok = false;
    CALL("armprof_spe_value", ok = armprof_spe_value(h->pe, name, &v));
    if (strstr(name, "NO_SUCH") || strstr(name, "no_such") || name[0] == 0 ||
        strcmp(name, "effective.") == 0 || strcmp(name, "stats.") == 0 ||
        strcmp(name, "enabled_el4") == 0)
        REQUIRE(!ok);
    const unsigned el = u8(in) % 6;
    bool on = false;
    CALL("armprof_spe_profiling_enabled", on = armprof_spe_profiling_enabled(h->pe, el));
    if (el > 3) REQUIRE(!on);
    CALL("armprof_spe_profiling_stopped", (void)armprof_spe_profiling_stopped(h->pe));
    CALL("armprof_brbe_paused", (void)armprof_brbe_paused(h->pe));
    REQUIRE(armprof_pmu_event_number("NO_SUCH_EVENT") == -1);
    const int ev = armprof_pmu_event_number("CPU_CYCLES");
    REQUIRE(ev >= 0);
}

/* Decodes memory where the Profiling Buffer writes (around PMBPTR_EL1) or
 * anywhere, with the decoder's promises (decode.h): each call consumes at
 * least one byte, and an error's offset lies in the data. */
static void op_decode(harness *h, input *in)
{
    unsigned index = 0;
    const int ptr = reg_id("PMBPTR_EL1", &index);
    uint64_t pa = armprof_reg_get(h->pe, ptr, index);
    const uint8_t k = u8(in);
    if (k & 1) pa = address(in);
    pa -= (k & 2) ? (pa & 0xfff) : 0;
    const size_t size = u16(in) % 4097;
    uint8_t *buf = malloc(4096 + 1);
    REQUIRE(buf != NULL);
    CALL("armprof_mem_read",
         armprof_mem_read(armprof_pe_memory(h->pe), (int)(k >> 2 & 3), pa, buf, size));
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, buf, size);
    armprof_spe_record r;
    armprof_spe_decode_status st;
    for (;;) {
        const size_t before = d.pos;
        CALL("armprof_spe_next_record", st = armprof_spe_next_record(&d, &r));
        if (st == ARMPROF_SPE_DECODE_EOF) break;
        REQUIRE(d.pos > before && d.pos <= size);
        if (st == ARMPROF_SPE_DECODE_ERROR) {
            REQUIRE(d.error != NULL && d.error_offset < size);
            break;
        }
    }
    armprof_spe_decoder_init(&d, buf, size);
    armprof_spe_packet p;
    char text[48];
    for (;;) {
        const size_t before = d.pos;
        CALL("armprof_spe_next_packet", st = armprof_spe_next_packet(&d, &p));
        if (st != ARMPROF_SPE_DECODE_OK) break;
        REQUIRE(d.pos > before && d.pos <= size);
        const int len = armprof_spe_packet_text(&p, text, sizeof text);
        REQUIRE(len > 0 && memchr(text, 0, sizeof text) != NULL);
    }
    free(buf);
}

/* The Profiling Buffer programmed for the operations after it, with any
 * PMBIDR_EL1.Align (12..15 are reserved: issue 15, the padding that never
 * ended), owned by Non-secure EL1. */
static void op_setup_spe(harness *h, input *in)
{
    const uint8_t align = u8(in) % 16;
    const uint8_t k = u8(in);
    const uint64_t base = k & 1 ? 0x80000000ull : (k & 2 ? UINT64_MAX - 0xffffull : u64(in));
    store_field(h, "MDCR_EL3", "NSPB", 3);
    store_field(h, "MDCR_EL2", "E2PB", k & 4 ? 2 : 3);
    store_field(h, "HCR_EL2", "TGE", 0);
    store_field(h, "HCR_EL2", "RW", 1);
    store(h, "PMBPTR_EL1", base);
    store(h, "PMBLIMITR_EL1", ((base + 0x100000ull) & ~0xfffull) | 1);
    store_field(h, "PMBIDR_EL1", "Align", align);
    store(h, "PMSCR_EL1", 3);
    store(h, "PMSIRR_EL1", k & 8 ? 0x100 : (uint64_t)u8(in) << 8);
    store(h, "PMSICR_EL1", 1);
    store(h, "PMBSR_EL1", 0);
    CALL("armprof_set_security_state",
         armprof_set_security_state(h->pe, ARMPROF_SS_NONSECURE, h->err, sizeof h->err));
    CALL("armprof_set_el", armprof_set_el(h->pe, 1, h->err, sizeof h->err));
    CALL("armprof_set_os_lock", armprof_set_os_lock(h->pe, false));
}

/* Counters near their overflow with a freeze on overflow (PMCR_EL0.FZO,
 * MDCR_EL2.HPMFZO), then any number of cycles: issue 15, where
 * armprof_cycles() stepped one cycle at a time. */
static void op_setup_freeze(harness *h, input *in)
{
    const uint8_t k = u8(in);
    const int cycles = armprof_pmu_event_number(k & 1 ? "CPU_CYCLES" : "CHAIN");
    const int cpu = armprof_pmu_event_number("CPU_CYCLES");
    REQUIRE(cycles >= 0 && cpu >= 0);
    char name[32];
    for (unsigned i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "PMEVTYPER%u_EL0", i);
        store(h, name, (uint64_t)(i % 2 ? cycles : cpu));
        snprintf(name, sizeof name, "PMEVCNTR%u_EL0", i);
        store(h, name, k & 2 ? 0xffffffffull - u8(in) : UINT64_MAX - u8(in));
    }
    store(h, "PMCCNTR_EL0", UINT64_MAX - u8(in));
    store_field(h, "MDCR_EL2", "HPMN", 2 + u8(in) % 5);
    store_field(h, "MDCR_EL2", "HPMFZO", k >> 2 & 1);
    store_field(h, "MDCR_EL2", "HLP", k >> 3 & 1);
    store_field(h, "PMCR_EL0", "E", 1);
    store_field(h, "PMCR_EL0", "FZO", (k >> 4 & 1) || !(k >> 2 & 1));
    store_field(h, "PMCR_EL0", "LP", k >> 5 & 1);
    store_field(h, "PMCR_EL0", "D", k >> 6 & 1);
    store(h, "PMCNTENSET_EL0", 0x8000003full);
    store(h, "PMOVSSET_EL0", 0);
    /* Non-secure EL1, where the counters count. */
    CALL("armprof_set_security_state",
         armprof_set_security_state(h->pe, ARMPROF_SS_NONSECURE, h->err, sizeof h->err));
    CALL("armprof_set_el", armprof_set_el(h->pe, 1, h->err, sizeof h->err));
    const uint64_t n = k & 128 ? UINT64_MAX : value(in);
    CALL("armprof_cycles", armprof_cycles(h->pe, n));
}

static void op_callbacks(harness *h, input *in)
{
    const uint8_t k = u8(in);
    const bool on = k & 8;
    switch (k % 4) {
    case 0:
        if (on) memset(h->irq.level, 0, sizeof h->irq.level);
        h->irq.installed = on;
        /* installing calls fn at once for each output already asserted */
        CALL("armprof_set_irq_callback",
             armprof_set_irq_callback(h->pe, on ? on_irq : NULL, &h->irq));
        break;
    case 1:
        CALL("armprof_spe_set_sink", armprof_spe_set_sink(h->pe, on ? on_record : NULL, &h->sink));
        break;
    case 2:
        h->hook.outcome = (armprof_buffer_outcome)(u8(in) % 3);
        h->hook.fail_at = u8(in);
        h->hook.ec = u8(in) & 0x3f;
        h->hook.fsc = u8(in) & 0x3f;
        h->hook.async = k & 16;
        h->hook.ttw = k & 32;
        CALL("armprof_spe_set_buffer_hook",
             armprof_spe_set_buffer_hook(h->pe, on ? on_buffer_write : NULL, &h->hook));
        break;
    default:
        CALL("armprof_mem_set_observer",
             armprof_mem_set_observer(armprof_pe_memory(h->pe), on ? on_mem_write : NULL,
                                      &h->observed));
        break;
    }
}

/* The external register table, for an id that may lie outside it. */
static void op_ext_table(harness *h, input *in)
{
    const int n = (int)armprof_ext_reg_count();
    const int reg = (int)(u16(in) % (unsigned)(n + 4)) - 2;
    const bool inside = reg >= 0 && reg < n;
    REQUIRE((armprof_ext_reg_name(reg) != NULL) == inside);
    const unsigned width = armprof_ext_reg_width(reg);
    REQUIRE(inside ? (width == 32 || width == 64) : width == 0);
    const int sys = armprof_ext_reg_sysreg(reg);
    REQUIRE(sys >= -1 && (sys < 0 || (size_t)sys < armprof_reg_count()));
    if (!inside) {
        REQUIRE(!armprof_ext_reg_present(h->pe, reg) && armprof_ext_reg_instances(reg) == 0);
        return;
    }
    REQUIRE((unsigned)armprof_ext_reg_component(reg) <= ARMPROF_EXT_DEBUG);
    REQUIRE(armprof_ext_reg_instances(reg) >= 1);
}

static void step(harness *h, input *in)
{
    switch (u8(in) % OP_COUNT) {
    case OP_SET_EL:
        op_set_el(h, in);
        break;
    case OP_SET_SS:
        op_set_ss(h, in);
        break;
    case OP_SET_AARCH32:
        op_set_aarch32(h, in);
        break;
    case OP_CONTEXT_FLAG:
        op_context_flag(h, in);
        break;
    case OP_SET_SIGNAL:
        op_set_signal(h, in);
        break;
    case OP_RESET:
        op_reset(h, in);
        break;
    case OP_MRS:
        op_mrs_msr(h, in, false);
        break;
    case OP_MSR:
        op_mrs_msr(h, in, true);
        break;
    case OP_REG_SET:
        op_reg_set(h, in);
        break;
    case OP_REG_QUERY:
        op_reg_query(h, in);
        break;
    case OP_RETIRE:
        op_retire(h, in);
        break;
    case OP_DISPATCH:
        op_dispatch(h, in);
        break;
    case OP_CYCLES:
        op_cycles(h, in);
        break;
    case OP_PMU_EVENT:
        op_pmu_event(h, in);
        break;
    case OP_EXTERNAL:
        op_external(h, in);
        break;
    case OP_MEM_WRITE:
        op_mem_write(h, in);
        break;
    case OP_MEM_READ:
        op_mem_read(h, in);
        break;
    case OP_MEM_REGION:
        op_mem_region(h, in);
        break;
    case OP_CHECKPOINT:
        op_checkpoint(h, in);
        break;
    case OP_SPE_MISC:
        op_spe_misc(h, in);
        break;
    case OP_QUERIES:
        op_queries(h, in);
        break;
    case OP_DECODE:
        op_decode(h, in);
        break;
    case OP_SETUP_SPE:
        op_setup_spe(h, in);
        break;
    case OP_SETUP_FREEZE:
        op_setup_freeze(h, in);
        break;
    case OP_CALLBACKS:
        op_callbacks(h, in);
        break;
    case OP_RUN:
        op_run(h, in);
        break;
    default:
        op_ext_table(h, in);
        break;
    }
}

/* At most this many calls an input: the time of one input stays bounded. */
#define MAX_STEPS 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size, 0};
    harness *h = calloc(1, sizeof *h);
    REQUIRE(h != NULL);
    watchdog_start(&h->watchdog);
    if (make_pe(h, &in)) {
        for (unsigned i = 0; i < MAX_STEPS && in.pos < in.size; i++) {
            step(h, &in);
            check_state(h);
        }
        CALL("armprof_pe_destroy", armprof_pe_destroy(h->pe));
    }
    watchdog_stop(&h->watchdog);
    free(h);
    return 0;
}

#ifdef FUZZ_API_MAIN
/* ---- fixed inputs, without libFuzzer ---- */

/* The hand-made seeds (tests/fuzz/corpus/api), the issue 15 hang classes
 * first. Bytes: preset index, edit count, then opcode and argument bytes
 * as step() reads them. */
typedef struct seed {
    const char *name;
    size_t size;
    uint8_t bytes[96];
} seed;

#define SEED(name, ...)                                                                            \
    {                                                                                              \
        name, sizeof((uint8_t[]){__VA_ARGS__}),                                                    \
        {                                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }

static const seed seeds[] = {
    /* armv9.4-all; SPE with PMBIDR_EL1.Align 12 at 0x8000_0000, interval
     * 256; 240 branches, others, loads and stores retired, PSB CSYNC, then
     * the buffer decoded from its base. */
    SEED("hang_align12", 0, 0, OP_SETUP_SPE, 12, 9, OP_RETIRE, 0, 2, 0x00, 1, 0, 0, 0, 0, 59,
         OP_RETIRE, 0, 2, 0x00, 0, 0, 0, 0, 0, 59, OP_RETIRE, 0, 2, 0x00, 2, 0, 0, 0, 0, 59,
         OP_RETIRE, 0, 2, 0x00, 3, 0, 0, 0, 0, 59, OP_RETIRE, 0, 2, 0x00, 0, 0, 0, 0, 0, 59,
         OP_SPE_MISC, 0, OP_DECODE, 0x01, 2, 0x00, 0x00, 0x00, 0x10),
    /* Align 15, a sink installed, operations dispatched and retired. */
    SEED("hang_align15_sink", 0, 0, OP_CALLBACKS, 9, OP_SETUP_SPE, 15, 9, OP_RETIRE, 0, 2, 0x10, 0,
         0, 0, 0, 0, 63, OP_DISPATCH, 0, 2, 0x00, 3, 0, 0, 0, 0, 0, OP_RETIRE, 0, 2, 0x00, 0, 0, 0,
         0, 0, 63, OP_RETIRE, 0, 2, 0x00, 0, 0, 0, 0, 0, 63, OP_SPE_MISC, 0),
    /* PMCR_EL0.FZO, CPU_CYCLES counters at 2^64 - 1 - x, 2^64 - 1 cycles,
     * twice more. */
    SEED("hang_freeze_fzo", 0, 0, OP_SETUP_FREEZE, 0x81, 1, 2, 3, 4, 5, 6, 7, 0, OP_CYCLES, 1,
         OP_CYCLES, 1),
    /* MDCR_EL2.HPMFZO with 64-bit counters (HLP), CHAIN, PMCR_EL0.D, a
     * CPU_CYCLES event of count 2^64 - 1, then 2^64 - 1 cycles. */
    SEED("hang_freeze_hpmfzo", 0, 0, OP_SETUP_FREEZE, 0xcc, 9, 9, 9, 9, 9, 9, 9, 1, OP_PMU_EVENT, 0,
         0x11, 1, 1, OP_CYCLES, 1),
    /* Runs of operations (armprof_retire_run()) around a retirement, with SPE
     * set up. */
    SEED("run_after_spe_setup", 0, 0, OP_SETUP_SPE, 15, 9, OP_RUN, 0, 0, OP_RETIRE, 0, 2, 0x10, 0,
         OP_RUN, 1, 0x40, 0, 0, 0),
    /* The 32-bit overflow with an interrupt callback, then a checkpoint
     * round trip and a corrupted, truncated one. */
    SEED("freeze_irq_checkpoint", 0, 0, OP_CALLBACKS, 8, OP_SETUP_FREEZE, 0x97, 0, 0, 0, 0, 0, 0, 0,
         4, OP_CYCLES, 5, 0x10, 0, OP_CHECKPOINT, 0, OP_CHECKPOINT, 3, 1, 0, 0, 0, 3, 0x40, 0, 0,
         0),
    /* armv8.2-spe with FEAT_AA32EL1 set by name and an option stored raw,
     * then context changes, MRS and MSR, the register table. */
    SEED("config_context_sysregs", 1, 3, 0, 50, 1, 2, 0, 2, 0, 1, 5, 2, 7, OP_SET_SS, 0, OP_SET_EL,
         1, OP_MRS, 0, 0x10, 0, 0, 3, OP_MSR, 1, 0x48, 0xc9, 5, 1, OP_REG_QUERY, 7, 0, 0,
         OP_SET_AARCH32, 1, 1, OP_CONTEXT_FLAG, 8),
    /* Memory across 2^64, a read near it, a faulting region, an external
     * PMU read and an EDSCR write. */
    SEED("memory_external", 0, 0, OP_MEM_WRITE, 2, 0, 0x10, 0, 0x20, 0x00, 0xab, 0, OP_MEM_READ, 0,
         0, 0xff, 0xff, 0x00, 0x30, OP_MEM_REGION, 1, 2, 0, 0, 6, 12, 2, 0x00, 0x04, 0, 0,
         OP_EXTERNAL, 0x24, 0, 0, 0, 0, 0, 0, OP_EXTERNAL, 0x03, 0x88, 0x00, 0, 0, 2, 5),
    /* minimal, then queries and an operation. */
    SEED("minimal", 4, 0, OP_QUERIES, 2, 1, OP_RETIRE, 5, 0, 0, 0, 0, 0, 0, 0),
    /* An unknown preset name (one past the last), edits, then a reset. */
    SEED("unknown_preset", 5, 2, 3, 1, 0xff, 0, 0, 0, 0, 0, 0, 0, 2, 1, 3, 0, OP_RESET, 1),
};

static int write_corpus(const char *dir)
{
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, seeds[i].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(seeds[i].bytes, 1, seeds[i].size, f) != seeds[i].size) {
            fprintf(stderr, "fuzz_api: cannot write %s\n", path);
            if (f) fclose(f);
            return 1;
        }
        if (fclose(f) != 0) return 1;
    }
    printf("fuzz_api: %zu seeds in %s\n", sizeof seeds / sizeof seeds[0], dir);
    return 0;
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_api: cannot read %s\n", path);
        return 1;
    }
    uint8_t buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0) return write_corpus(argv[2]);
    unsigned runs = 0;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++, runs++)
        LLVMFuzzerTestOneInput(seeds[i].bytes, seeds[i].size);
    /* Random bytes; every other input starts from one of the seeds so that
     * its set-up comes before the random calls. */
    uint64_t s = 0x9E3779B97F4A7C15ull;
    uint8_t buf[768];
    LLVMFuzzerTestOneInput(NULL, 0);
    for (unsigned run = 0; run < 400; run++, runs++) {
        size_t n = 2 + (size_t)(run * 37 % (sizeof buf - 2));
        size_t from = 0;
        if (run & 1) {
            const seed *sd = &seeds[run / 2 % (sizeof seeds / sizeof seeds[0])];
            memcpy(buf, sd->bytes, sd->size);
            from = sd->size;
            if (n < from) n = from;
        }
        for (size_t i = from; i < n; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            buf[i] = (uint8_t)(s >> 24);
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    for (int i = 1; i < argc; i++, runs++)
        if (run_file(argv[i]) != 0) return 1;
    printf("fuzz_api: %u inputs\n", runs);
    return 0;
}
#endif
