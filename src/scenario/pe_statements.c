/* SPDX-License-Identifier: BSD-3-Clause */
/* The statements that set the PE's context (`el`, `security`, `debug`,
 * `signal`, `reset`, ...) and say what it does (`cycles`, `event`,
 * `retire`, `dispatch`, barriers, ...): docs/scenario-language.md, Context
 * and What the PE does. */
#include <inttypes.h>
#include <string.h>

#include "armprof/armprof.h"
#include "scenario/interpreter.h"
#include "scenario/op_words.h"
#include "scenario/retire_repeat.h"

static int on_off(run_state *st, where at, const char *word, bool *out)
{
    if (!strcmp(word, "on") || !strcmp(word, "high") || !strcmp(word, "1")) {
        *out = true;
        return 0;
    }
    if (!strcmp(word, "off") || !strcmp(word, "low") || !strcmp(word, "0")) {
        *out = false;
        return 0;
    }
    return scenario_error_at(st, at, "'%s' is not on/off (or high/low)", word);
}

/* ---- The PE's context ---- */
int statement_el(run_state *st, where at, line_words *lw, const statement_info *self)
{
    char err[256];
    uint64_t el;
    int rc;
    if (lw->n != 2 || !armprof_parse_number(lw->w[1], &el)) return scenario_usage(st, at, self);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    if (!armprof_set_el(st->pe, (unsigned)(el > 3 ? 4 : el), err, sizeof err))
        return scenario_error_at(st, at, "el %s: %s", lw->w[1], err);
    return 0;
}

int statement_security(run_state *st, where at, line_words *lw, const statement_info *self)
{
    static const char *const names[] = {"nonsecure", "secure", "realm", "root"};
    char err[256];
    int rc;
    if (lw->n != 2) return scenario_usage(st, at, self);
    int ss = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(lw->w[1], names[i])) ss = i;
    if (ss < 0) return scenario_error_at(st, at, "unknown Security state '%s'", lw->w[1]);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    if (!armprof_set_security_state(st->pe, (armprof_security_state)ss, err, sizeof err))
        return scenario_error_at(st, at, "security %s: %s", lw->w[1], err);
    return 0;
}

int statement_aarch32(run_state *st, where at, line_words *lw, const statement_info *self)
{
    char err[256];
    uint64_t el;
    bool b = false;
    int rc;
    if (lw->n != 3 || !armprof_parse_number(lw->w[1], &el)) return scenario_usage(st, at, self);
    if ((rc = on_off(st, at, lw->w[2], &b)) != 0) return rc;
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    if (!armprof_set_aarch32(st->pe, (unsigned)(el > 3 ? 4 : el), b, err, sizeof err))
        return scenario_error_at(st, at, "aarch32: %s", err);
    return 0;
}

/* `debug`, `power`, `oslock`, `doublelock`: a state of the PE set on or off. */
static int on_off_statement(run_state *st, where at, const line_words *lw,
                            const statement_info *self, void (*set)(armprof_pe *, bool))
{
    bool b = false;
    int rc;
    if (lw->n != 2) return scenario_usage(st, at, self);
    if ((rc = on_off(st, at, lw->w[1], &b)) != 0) return rc;
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    set(st->pe, b);
    return 0;
}

int statement_debug(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_debug_state);
}

int statement_power(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_core_power);
}

int statement_oslock(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_os_lock);
}

int statement_doublelock(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_os_double_lock);
}

int statement_signal(run_state *st, where at, line_words *lw, const statement_info *self)
{
    bool b = false;
    int rc;
    if (lw->n != 3) return scenario_usage(st, at, self);
    int sig = -1;
    for (int i = 0; i < ARMPROF_SIG_COUNT; i++)
        if (!strcmp(lw->w[1], armprof_signal_name((armprof_signal)i))) sig = i;
    if (sig < 0)
        return scenario_error_at(
            st, at, "unknown signal '%s' (DBGEN NIDEN SPIDEN SPNIDEN RLPIDEN RTPIDEN)", lw->w[1]);
    if ((rc = on_off(st, at, lw->w[2], &b)) != 0) return rc;
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_set_signal(st->pe, (armprof_signal)sig, b);
    return 0;
}

int statement_reset(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    const bool cold = lw->n == 2 && !strcmp(lw->w[1], "cold");
    if (lw->n != 2 || (!cold && strcmp(lw->w[1], "warm"))) return scenario_usage(st, at, self);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_reset(st->pe, cold ? ARMPROF_RESET_COLD : ARMPROF_RESET_WARM);
    return 0;
}

/* ---- What the PE does: cycles, events, retired instructions, snapshot requests ---- */
int statement_cycles(run_state *st, where at, line_words *lw, const statement_info *self)
{
    uint64_t n;
    int rc;
    if (lw->n != 2 || !armprof_parse_number(lw->w[1], &n)) return scenario_usage(st, at, self);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_cycles(st->pe, n);
    return 0;
}

int statement_event(run_state *st, where at, line_words *lw, const statement_info *self)
{
    uint64_t number, n = 1;
    int rc;
    if (lw->n != 2 && lw->n != 3) return scenario_usage(st, at, self);
    const int named = armprof_pmu_event_number(lw->w[1]);
    if (named >= 0)
        number = (uint64_t)named;
    else if (!armprof_parse_number(lw->w[1], &number) || number > 0xffff)
        return scenario_error_at(st, at, "unknown PMU event '%s' (a name or a 16-bit number)",
                                 lw->w[1]);
    if (lw->n == 3 && !armprof_parse_number(lw->w[2], &n))
        return scenario_error_at(st, at, "'%s' is not a count", lw->w[2]);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_pmu_event(st->pe, (uint16_t)number, n);
    return 0;
}

int statement_retire(run_state *st, where at, line_words *lw, const statement_info *self)
{
    armprof_op op;
    uint64_t n;
    int rc;
    if (lw->n == 2 && !strcmp(lw->w[1], "dispatched")) {
        if (st->dispatched_n == 0)
            return scenario_error_at(st, at, "retire dispatched: no operation was dispatched");
        if ((rc = scenario_need_pe(st, at)) != 0) return rc;
        op = st->dispatched[0];
        memmove(st->dispatched, st->dispatched + 1, --st->dispatched_n * sizeof op);
        armprof_retire(st->pe, &op);
        return 0;
    }
    char err[160];
    if (!scenario_parse_op(lw->w + 1, lw->n - 1, &op, &n, err, sizeof err))
        return scenario_error_at(st, at, "%s: %s (docs/scenario-language.md, Operations)",
                                 self->name, err);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    const uint64_t limit = st->opts->max_operations;
    if (limit && (n > limit || st->operations > limit - n))
        return scenario_error_at(st, at, "retire: more than %llu operations in one run",
                                 (unsigned long long)limit);
    st->operations += n;
    scenario_retire_repeat(st->pe, &op, n);
    return 0;
}

int statement_dispatch(run_state *st, where at, line_words *lw, const statement_info *self)
{
    enum { IN_FLIGHT = sizeof st->dispatched / sizeof st->dispatched[0] };
    armprof_op op;
    uint64_t n;
    int rc;
    char err[160];
    if (!scenario_parse_op(lw->w + 1, lw->n - 1, &op, &n, err, sizeof err))
        return scenario_error_at(st, at, "%s: %s (docs/scenario-language.md, Operations)",
                                 self->name, err);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    if (n != 1) return scenario_error_at(st, at, "dispatch: one operation at a time (no xN)");
    if (st->dispatched_n == IN_FLIGHT)
        return scenario_error_at(st, at, "dispatch: more than %u operations in flight",
                                 (unsigned)IN_FLIGHT);
    armprof_dispatch(st->pe, &op);
    st->dispatched[st->dispatched_n++] = op;
    return 0;
}

int statement_counter(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    uint64_t n;
    int rc;
    if (lw->n != 2 || !armprof_parse_number(lw->w[1], &n))
        return scenario_error_at(st, at,
                                 "usage: counter N (the physical count, PhysicalCountInt())");
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_set_physical_count(st->pe, n);
    return 0;
}

int statement_psb(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 2 || strcmp(lw->w[1], "csync")) return scenario_usage(st, at, self);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_psb_csync(st->pe);
    return 0;
}

/* `isb` and `dsb [OPTION]`: the model applies each MSR at once and writes
 * memory in program order, so both barriers are accepted and change nothing
 * (docs/scenario-language.md). */
static int barrier(run_state *st, where at, bool takes_option, int n)
{
    if (n != 1 && !(n == 2 && takes_option))
        return scenario_error_at(st, at, "usage: isb | dsb [OPTION]");
    return scenario_need_pe(st, at);
}

int statement_isb(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    return barrier(st, at, false, lw->n);
}

int statement_dsb(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    return barrier(st, at, true, lw->n);
}

int statement_pstate_pm(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 2 || (strcmp(lw->w[1], "0") && strcmp(lw->w[1], "1")))
        return scenario_usage(st, at, self);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_set_pstate_pm(st->pe, !strcmp(lw->w[1], "1"));
    return 0;
}

int statement_snapshot_request(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 1) return scenario_usage(st, at, self);
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    armprof_snapshot_request(st->pe);
    return 0;
}
