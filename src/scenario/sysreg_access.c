/* SPDX-License-Identifier: BSD-3-Clause */
/* `mrs` and `msr`: System register accesses at the current Exception
 * level and Security state, their outcomes and the expectations on them
 * (docs/scenario-language.md, Register accesses and Expectations). */
#include <stdio.h>
#include <inttypes.h>
#include <string.h>

#include "armprof/armprof.h"
#include "scenario/interpreter.h"

/* ---- Printing outcomes ---- */
static void describe_outcome(const armprof_outcome *o, bool is_read, char *buf, size_t len)
{
    char name[64];
    switch (o->kind) {
    case ARMPROF_DONE:
        if (is_read)
            snprintf(buf, len, "0x%016" PRIx64, o->value);
        else
            snprintf(buf, len, "done, %s = 0x%016" PRIx64,
                     armprof_reg_instance_name(o->reg, o->index, name, sizeof name), o->value);
        break;
    case ARMPROF_UNDEFINED:
        snprintf(buf, len, "UNDEFINED");
        break;
    case ARMPROF_TRAP:
        snprintf(buf, len, "trap to EL%u, EC 0x%02x, ISS 0x%06" PRIx32 " (ESR 0x%08" PRIx64 ")",
                 o->target_el, o->ec, o->iss, o->esr);
        break;
    case ARMPROF_NVMEM:
        snprintf(buf, len, "NVMem[0x%03x]", o->nv_offset);
        break;
    default:
        snprintf(buf, len, "unmodelled encoding");
        break;
    }
}

static const char *const outcome_names[] = {"done", "undefined", "trap", "nvmem", "unmodelled"};

static void print_access(run_state *st, where at, const char *op, bool is_read, const char *regtext,
                         const armprof_outcome *o, int check, const char *expected)
{
    FILE *out = st->opts->out;
    if (st->opts->json) {
        fprintf(out, "{\"file\":");
        scenario_json_string(out, at.file);
        fprintf(out, ",\"line\":%u,\"op\":\"%s\",\"register\":", at.line, op);
        scenario_json_string(out, regtext);
        fprintf(out, ",\"el\":%u,\"security\":", armprof_current_el(st->pe));
        scenario_json_string(out,
                             armprof_security_state_name(armprof_current_security_state(st->pe)));
        fprintf(out, ",\"outcome\":\"%s\"", outcome_names[o->kind]);
        if (o->kind == ARMPROF_DONE) {
            char name[64];
            fprintf(out, ",\"accessed\":");
            scenario_json_string(out,
                                 armprof_reg_instance_name(o->reg, o->index, name, sizeof name));
            fprintf(out, ",\"value\":\"0x%016" PRIx64 "\"", o->value);
        } else if (o->kind == ARMPROF_TRAP) {
            fprintf(out,
                    ",\"target_el\":%u,\"ec\":\"0x%02x\",\"iss\":\"0x%06" PRIx32
                    "\",\"esr\":\"0x%08" PRIx64 "\"",
                    o->target_el, o->ec, o->iss, o->esr);
        } else if (o->kind == ARMPROF_NVMEM) {
            fprintf(out, ",\"nv_offset\":\"0x%03x\"", o->nv_offset);
        }
        scenario_json_check(out, check, expected);
        return;
    }
    if (st->opts->quiet && check != 0) return;
    char desc[160];
    describe_outcome(o, is_read, desc, sizeof desc);
    fprintf(out, "%s:%u: EL%u %s: %s %s -> %s", at.file, at.line, armprof_current_el(st->pe),
            armprof_security_state_name(armprof_current_security_state(st->pe)), op, regtext, desc);
    scenario_text_check(out, check, expected);
}

/* ---- Expectations on an access outcome ---- */
/* Returns 1 when the outcome matches, 0 when not, -2 on a malformed
 * expectation (message already printed). */
static int check_access(run_state *st, where at, const line_words *lw, bool is_read,
                        const armprof_outcome *o, char *expected, size_t len)
{
    const int a = lw->arrow;
    const int n = lw->n - a;
    char *const *w = lw->w + a;
    snprintf(expected, len, "%s", "");
    for (int i = 0; i < n; i++) {
        size_t used = strlen(expected);
        snprintf(expected + used, len - used, "%s%s", i ? " " : "", w[i]);
    }
    if (n == 0) {
        scenario_error_at(st, at, "'=>' with nothing after it");
        return -2;
    }
    uint64_t v;
    if (strcmp(w[0], "done") == 0 && n == 1) return o->kind == ARMPROF_DONE;
    if (strcmp(w[0], "undefined") == 0 && n == 1) return o->kind == ARMPROF_UNDEFINED;
    if (strcmp(w[0], "unmodelled") == 0 && n == 1) return o->kind == ARMPROF_UNMODELLED;
    if (strcmp(w[0], "nvmem") == 0 && n == 2) {
        if (!armprof_parse_number(w[1], &v)) {
            scenario_error_at(st, at, "'%s' is not an NVMem offset", w[1]);
            return -2;
        }
        return o->kind == ARMPROF_NVMEM && o->nv_offset == v;
    }
    if (strcmp(w[0], "trap") == 0) {
        if (n < 2 ||
            (strcmp(w[1], "el2") != 0 && strcmp(w[1], "el3") != 0 && strcmp(w[1], "el1") != 0)) {
            scenario_error_at(st, at, "a trap expectation names its target: 'trap el1|el2|el3'");
            return -2;
        }
        const unsigned el = (unsigned)(w[1][2] - '0');
        uint64_t ec = 0x18, iss = 0;
        bool has_iss = false;
        for (int i = 2; i < n; i += 2) {
            if (i + 1 >= n || !armprof_parse_number(w[i + 1], &v)) {
                scenario_error_at(st, at, "'trap' takes 'ec N' and 'iss N' after the target");
                return -2;
            }
            if (strcmp(w[i], "ec") == 0) {
                ec = v;
            } else if (strcmp(w[i], "iss") == 0) {
                iss = v;
                has_iss = true;
            } else {
                scenario_error_at(st, at, "unknown trap detail '%s' (ec, iss)", w[i]);
                return -2;
            }
        }
        return o->kind == ARMPROF_TRAP && o->target_el == el && o->ec == ec &&
               (!has_iss || o->iss == iss);
    }
    if (n == 1 && armprof_parse_number(w[0], &v)) {
        if (!is_read) {
            scenario_error_at(st, at,
                              "an msr outcome is 'done', 'undefined', 'trap ...' or 'nvmem N'; "
                              "check the register with 'expect'");
            return -2;
        }
        return o->kind == ARMPROF_DONE && o->value == v;
    }
    scenario_error_at(st, at, "unknown expectation '%s'", expected);
    return -2;
}

static int do_access(run_state *st, where at, const line_words *lw, const statement_info *self,
                     bool is_read)
{
    const int nargs = lw->arrow >= 0 ? lw->arrow : lw->n;
    const int want = is_read ? 2 : 3;
    if (nargs != want && nargs != want + 2) return scenario_usage(st, at, self);
    int rc = scenario_need_pe(st, at);
    if (rc) return rc;
    uint32_t enc;
    unsigned rg, index;
    /* A generic encoding may name something the table does not declare. */
    unsigned op0, op1, crn, crm, op2;
    char tail;
    if (sscanf(lw->w[1], "S%u_%u_C%u_C%u_%u%c", &op0, &op1, &crn, &crm, &op2, &tail) == 5) {
        if (op0 > 3 || op1 > 7 || crn > 15 || crm > 15 || op2 > 7)
            return scenario_error_at(st, at, "'%s': encoding field out of range", lw->w[1]);
        enc = armprof_sysreg_encoding(op0, op1, crn, crm, op2);
    } else {
        /* Aliases (PMSCR_EL12) have no storage but have an encoding. */
        const int id = armprof_reg_lookup(lw->w[1], &index);
        if (id < 0)
            return scenario_error_at(st, at, "unknown register '%s' (see 'armprof regs')",
                                     lw->w[1]);
        enc = armprof_reg_encoding(id, index);
        if (enc == 0)
            return scenario_error_at(
                st, at, "'%s' has no MRS/MSR encoding (an external control: use 'set')", lw->w[1]);
    }
    uint64_t value = 0, rt = 0;
    if (!is_read && !armprof_parse_number(lw->w[2], &value))
        return scenario_error_at(st, at, "'%s' is not a 64-bit number", lw->w[2]);
    if (nargs == want + 2) {
        if (strcmp(lw->w[want], "rt") != 0 || !armprof_parse_number(lw->w[want + 1], &rt) ||
            rt > 31)
            return scenario_error_at(st, at, "expected 'rt N' with N in 0..31");
    }
    rg = (unsigned)rt;
    const armprof_outcome o =
        is_read ? armprof_mrs(st->pe, enc, rg) : armprof_msr(st->pe, enc, rg, value);
    int check = -1;
    char expected[256] = "";
    if (lw->arrow >= 0) {
        check = check_access(st, at, lw, is_read, &o, expected, sizeof expected);
        if (check == -2) return SCENARIO_ERROR;
        scenario_count(st, check);
    }
    print_access(st, at, self->name, is_read, lw->w[1], &o, check, expected);
    if (check == 0 && !st->opts->json && st->opts->err != st->opts->out) {
        char desc[160];
        describe_outcome(&o, is_read, desc, sizeof desc);
        fprintf(st->opts->err, "%s:%u: expected %s, got %s\n", at.file, at.line, expected, desc);
    }
    return 0;
}

int statement_mrs(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_access(st, at, lw, self, true);
}

int statement_msr(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_access(st, at, lw, self, false);
}
