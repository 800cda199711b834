/* SPDX-License-Identifier: BSD-3-Clause */
/* `xread` and `xwrite`: accesses to the external PMU block and the
 * external debug block as an external agent or memory-mapped software
 * makes them (docs/scenario-language.md, External accesses). */
#include <stdio.h>
#include <inttypes.h>
#include <string.h>

#include "armprof/armprof.h"
#include "scenario/interpreter.h"

/* ---- External (memory-mapped) accesses: the PMU block and the external debug block ----
 * xread [debug] OFFSET [32|64] [pas P] [mm] [=> VALUE | ok | error | unmodelled]
 * xwrite [debug] OFFSET VALUE [32|64] [pas P] [mm] [=> ok | ignored | error | unmodelled] */
static const char *const ext_kind_names[] = {"ok", "error", "unmodelled"};

/* The access size when none is given: 64 bits at the start of a 64-bit
 * location of this configuration in the block accessed, 32 otherwise. */
static unsigned default_ext_size(const armprof_pe *pe, armprof_ext_component component,
                                 uint64_t offset)
{
    for (int r = 0; r < (int)armprof_ext_reg_count(); r++) {
        if (armprof_ext_reg_width(r) != 64 || !armprof_ext_reg_present(pe, r) ||
            armprof_ext_reg_component(r) != component)
            continue;
        for (unsigned m = 0; m < armprof_ext_reg_instances(r); m++)
            if (armprof_ext_reg_offset(r, m) == offset) return 64;
    }
    return 32;
}

/* "PMEVCNTR<n>_EL0[31:0]" with <n> replaced by the instance. */
static const char *ext_name(const armprof_ext_outcome *o, char *buf, size_t len)
{
    const char *name = o->reg >= 0                 ? armprof_ext_reg_name(o->reg)
                       : o->kind == ARMPROF_EXT_OK ? "reserved"
                                                   : "-";
    const char *n = strstr(name, "<n>");
    if (n)
        snprintf(buf, len, "%.*s%u%s", (int)(n - name), name, o->index, n + 3);
    else
        snprintf(buf, len, "%s", name);
    return buf;
}

static void describe_ext(const armprof_ext_outcome *o, bool is_read, unsigned bits, char *buf,
                         size_t len)
{
    if (o->kind == ARMPROF_EXT_ERROR)
        snprintf(buf, len, "error response (%s)", o->why ? o->why : "");
    else if (o->kind == ARMPROF_EXT_UNMODELLED)
        snprintf(buf, len, "unmodelled (%s)", o->why ? o->why : "");
    else if (is_read)
        snprintf(buf, len, "0x%0*" PRIx64 "%s%s%s", (int)bits / 4, o->value, o->why ? " (" : "",
                 o->why ? o->why : "", o->why ? ")" : "");
    else if (o->ignored)
        snprintf(buf, len, "ignored (%s), reads 0x%0*" PRIx64, o->why ? o->why : "", (int)bits / 4,
                 o->value);
    else
        snprintf(buf, len, "done, reads 0x%0*" PRIx64, (int)bits / 4, o->value);
}

static int do_external(run_state *st, where at, const line_words *lw, const statement_info *self,
                       bool is_read)
{
    const int nargs = lw->arrow >= 0 ? lw->arrow : lw->n;
    /* 'debug' selects the external debug block; the PMU block otherwise. */
    const bool debug = nargs > 1 && !strcmp(lw->w[1], "debug");
    const armprof_ext_component component = debug ? ARMPROF_EXT_DEBUG : ARMPROF_EXT_PMU;
    const int first = debug ? 2 : 1; /* the OFFSET word */
    int i = first + (is_read ? 1 : 2), rc;
    uint64_t offset, value = 0, bits = 0;
    if (nargs < i || !armprof_parse_number(lw->w[first], &offset) ||
        (!is_read && !armprof_parse_number(lw->w[first + 1], &value)))
        return scenario_usage(st, at, self);
    armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    for (; i < nargs; i++) {
        if (!strcmp(lw->w[i], "mm")) {
            how.memory_mapped = true;
        } else if (!strcmp(lw->w[i], "pas") && i + 1 < nargs) {
            static const char *const pas[] = {"nonsecure", "secure", "realm", "root"};
            int p = -1;
            for (int k = 0; k < 4; k++)
                if (!strcmp(lw->w[i + 1], pas[k])) p = k;
            if (p < 0) return scenario_error_at(st, at, "unknown PAS '%s'", lw->w[i + 1]);
            how.pas = (armprof_pas)p;
            i++;
        } else if (armprof_parse_number(lw->w[i], &bits) && (bits == 32 || bits == 64)) {
            continue;
        } else {
            return scenario_usage(st, at, self);
        }
    }
    if ((rc = scenario_need_pe(st, at)) != 0) return rc;
    if (offset > 0xffffffffu)
        return scenario_error_at(st, at, "offset '%s' out of range", lw->w[first]);
    if (bits == 0) bits = default_ext_size(st->pe, component, offset);
    if (bits == 32 && value > 0xffffffffu)
        return scenario_error_at(st, at, "'%s' does not fit a 32-bit access", lw->w[first + 1]);
    const uint32_t off32 = (uint32_t)offset;
    const unsigned size = (unsigned)bits / 8;
    armprof_ext_outcome o;
    if (debug)
        o = is_read ? armprof_external_debug_read(st->pe, off32, size, &how)
                    : armprof_external_debug_write(st->pe, off32, size, value, &how);
    else
        o = is_read ? armprof_external_read(st->pe, off32, size, &how)
                    : armprof_external_write(st->pe, off32, size, value, &how);
    int check = -1;
    char expected[64] = "";
    if (lw->arrow >= 0) {
        const char *w = lw->n - lw->arrow == 1 ? lw->w[lw->arrow] : NULL;
        uint64_t v;
        if (!w) return scenario_usage(st, at, self);
        snprintf(expected, sizeof expected, "%s", w);
        if (!strcmp(w, "ok") || !strcmp(w, "error") || !strcmp(w, "unmodelled"))
            check = !strcmp(w, ext_kind_names[o.kind]);
        else if (!is_read && !strcmp(w, "ignored"))
            check = o.kind == ARMPROF_EXT_OK && o.ignored;
        else if (is_read && armprof_parse_number(w, &v))
            check = o.kind == ARMPROF_EXT_OK && o.value == v;
        else
            return scenario_usage(st, at, self);
        scenario_count(st, check);
    }
    FILE *out = st->opts->out;
    char name[64];
    ext_name(&o, name, sizeof name);
    if (st->opts->json) {
        fprintf(out, "{\"file\":");
        scenario_json_string(out, at.file);
        fprintf(out,
                ",\"line\":%u,\"op\":\"%s\",\"block\":\"%s\",\"offset\":\"0x%03" PRIx64
                "\",\"size\":%u,\"pas\":",
                at.line, is_read ? "xread" : "xwrite", debug ? "debug" : "pmu", offset,
                (unsigned)bits);
        scenario_json_string(out, armprof_pas_name(how.pas));
        fprintf(out, ",\"memory_mapped\":%s,\"outcome\":\"%s\",\"register\":",
                how.memory_mapped ? "true" : "false", ext_kind_names[o.kind]);
        scenario_json_string(out, name);
        if (o.sysreg >= 0) {
            fprintf(out, ",\"sysreg\":");
            scenario_json_string(out, armprof_reg_name(o.sysreg));
        }
        if (o.kind == ARMPROF_EXT_OK)
            fprintf(out, ",\"value\":\"0x%0*" PRIx64 "\",\"ignored\":%s", (int)bits / 4, o.value,
                    o.ignored ? "true" : "false");
        if (o.why) {
            fprintf(out, ",\"why\":");
            scenario_json_string(out, o.why);
        }
        scenario_json_check(out, check, expected);
        return 0;
    }
    char desc[160];
    describe_ext(&o, is_read, (unsigned)bits, desc, sizeof desc);
    if (!st->opts->quiet || check == 0) {
        fprintf(out, "%s:%u: PAS %s%s: %s%s 0x%03" PRIx64 " (%u-bit) %s -> %s", at.file, at.line,
                armprof_pas_name(how.pas), how.memory_mapped ? " mm" : "",
                is_read ? "xread" : "xwrite", debug ? " debug" : "", offset, (unsigned)bits, name,
                desc);
        scenario_text_check(out, check, expected);
    }
    if (check == 0 && st->opts->err != out)
        fprintf(st->opts->err, "%s:%u: expected %s, got %s\n", at.file, at.line, expected, desc);
    return 0;
}

int statement_xread(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_external(st, at, lw, self, true);
}

int statement_xwrite(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_external(st, at, lw, self, false);
}
