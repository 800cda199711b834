/* SPDX-License-Identifier: BSD-3-Clause */
/* The scenario interpreter. One statement per line; see
 * docs/scenario-language.md. */
#define _POSIX_C_SOURCE 200809L
#include "scenario/memory_words.h"
#include "scenario/scenario.h"

#include <sys/stat.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "scenario/op_words.h"
#include "scenario/retire_repeat.h"
#include "scenario/statements.h"

#define MAX_WORDS            64
#define SPE_RECORD_WORDS_MAX 512
#define MAX_LINE             4096
#define MAX_INCLUDE_DEPTH    16
#define MAX_FILE_SIZE        (16u << 20)

typedef struct run_state {
    const scenario_options *opts;
    uint64_t operations; /* retired so far, against opts->max_operations */
    armprof_config cfg;
    bool cfg_started; /* a preset, feature or option statement was seen */
    armprof_pe *pe;
    unsigned passed, failed;
    int depth;
    /* Sample records the PE made and `expect record` has not yet checked,
     * oldest first, each a length byte pair then the bytes. */
    uint8_t *records;
    size_t records_len, records_cap;
    unsigned records_pending;
    bool records_overflow;
    /* Operations given to `dispatch` and not yet retired, oldest first. */
    armprof_op dispatched[8];
    unsigned dispatched_n;
    scenario_tables tables; /* where `map` takes table pages from */
} run_state;

/* The scenario's Statistical Profiling sink: keeps each record for
 * `expect record`, up to a bound (a scenario that makes more than it checks
 * is told so rather than growing without limit). */
static void keep_record(void *ctx, const uint8_t *record, size_t size)
{
    run_state *st = ctx;
    const size_t need = st->records_len + 2 + size;
    if (size > 0xffff || need > (16u << 20)) {
        st->records_overflow = true;
        return;
    }
    if (need > st->records_cap) {
        size_t cap = st->records_cap ? st->records_cap * 2 : 4096;
        while (cap < need)
            cap *= 2;
        uint8_t *grown = realloc(st->records, cap);
        if (!grown) {
            st->records_overflow = true;
            return;
        }
        st->records = grown;
        st->records_cap = cap;
    }
    st->records[st->records_len++] = (uint8_t)(size & 0xff);
    st->records[st->records_len++] = (uint8_t)(size >> 8);
    memcpy(st->records + st->records_len, record, size);
    st->records_len += size;
    st->records_pending++;
}

/* Where a statement is, for messages. */
typedef struct where {
    const char *file;
    unsigned line;
} where;

typedef struct line_words {
    char *w[MAX_WORDS];
    bool quoted[MAX_WORDS];
    int n;
    int arrow; /* index of the first word after "=>", or -1 */
} line_words;

static char *dup_string(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static int error_at(run_state *st, where at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (at.line)
        fprintf(st->opts->err, "%s:%u: ", at.file, at.line);
    else
        fprintf(st->opts->err, "armprof: ");
    vfprintf(st->opts->err, fmt, ap);
    fputc('\n', st->opts->err);
    va_end(ap);
    return SCENARIO_ERROR;
}

typedef scenario_statement_info statement_info;

/* A statement's arguments do not fit it: its synopsis (statements.def). */
static int usage(run_state *st, where at, const statement_info *self)
{
    return error_at(st, at, "usage: %s%s%s", self->name, *self->synopsis ? " " : "",
                    self->synopsis);
}

/* Splits a line into words in place. '#' at the start or after whitespace
 * begins a comment; "..." is one word. Returns false on an unterminated
 * quote or too many words. */
static bool split_words(char *s, line_words *lw, const char **problem)
{
    lw->n = 0;
    lw->arrow = -1;
    char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p == 0 || *p == '#') return true;
        if (lw->n == MAX_WORDS) {
            *problem = "too many words on one line";
            return false;
        }
        if (*p == '"') {
            char *start = ++p;
            while (*p && *p != '"')
                p++;
            if (*p != '"') {
                *problem = "unterminated quoted text";
                return false;
            }
            *p++ = 0;
            lw->quoted[lw->n] = true;
            lw->w[lw->n++] = start;
            continue;
        }
        char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            p++;
        const bool end = *p == 0;
        *p = 0;
        if (strcmp(start, "=>") == 0 && lw->arrow < 0) {
            lw->arrow = lw->n;
        } else {
            lw->quoted[lw->n] = false;
            lw->w[lw->n++] = start;
        }
        if (end) return true;
        p++;
    }
}

/* The PE is created at the first statement that needs it. */
static int need_pe(run_state *st, where at)
{
    if (st->pe) return 0;
    char err[256];
    st->pe = armprof_pe_create(&st->cfg, err, sizeof err);
    if (!st->pe) return error_at(st, at, "configuration rejected: %s", err);
    armprof_spe_set_sink(st->pe, keep_record, st);
    return 0;
}

static int config_statement_allowed(run_state *st, where at, const char *what)
{
    if (st->pe)
        return error_at(st, at,
                        "'%s' after the PE was created: configuration statements "
                        "must come before the first statement that uses the PE",
                        what);
    return 0;
}

/* ---- Register names: REG or REG.FIELD ---- */
typedef struct reg_ref {
    int reg;
    unsigned index;
    bool has_field;
    unsigned hi, lo;
    char field[64];
} reg_ref;

static int parse_reg_ref(run_state *st, where at, const char *text, bool allow_field, reg_ref *r)
{
    char name[128];
    if (strlen(text) >= sizeof name) return error_at(st, at, "register name too long");
    strcpy(name, text);
    char *dot = strchr(name, '.');
    r->has_field = false;
    if (dot) {
        if (!allow_field) return error_at(st, at, "'%s': a register, not a field, is needed", text);
        *dot = 0;
        snprintf(r->field, sizeof r->field, "%s", dot + 1);
        r->has_field = true;
    }
    r->reg = armprof_reg_lookup(name, &r->index);
    if (r->reg < 0) return error_at(st, at, "unknown register '%s' (see 'armprof regs')", name);
    if (r->has_field && !armprof_reg_field(r->reg, r->field, &r->hi, &r->lo))
        return error_at(st, at, "register %s has no field '%s'", name, r->field);
    if (armprof_reg_instances(r->reg) == 0)
        return error_at(st, at, "%s is an alias with no storage; name the register it aliases",
                        name);
    if (st->pe && !armprof_reg_present(st->pe, r->reg))
        return error_at(st, at, "%s is not implemented in this configuration", name);
    return 0;
}

static uint64_t field_mask(unsigned hi, unsigned lo)
{
    return (~0ull >> (63 - hi)) & (~0ull << lo);
}

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

/* The length of the well-formed UTF-8 sequence at s (Unicode 15, Table
 * 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_length(const unsigned char *s)
{
    const unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0;
        if (c == 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return n;
}

/* A JSON string (RFC 8259) of text: always valid UTF-8, whatever text holds (a
 * file name or a word of the scenario may not be): a byte that does not
 * begin a well-formed UTF-8 sequence is written as U+FFFD. */
static void json_string(FILE *f, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    fputc('"', f);
    while (*s) {
        const unsigned char c = *s;
        const size_t n = utf8_length(s);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (n == 0)
            fputs("\\ufffd", f);
        else
            fwrite(s, 1, n, f);
        s += n ? n : 1;
    }
    fputc('"', f);
}

static void print_access(run_state *st, where at, const char *op, bool is_read, const char *regtext,
                         const armprof_outcome *o, int check, const char *expected)
{
    FILE *out = st->opts->out;
    if (st->opts->json) {
        fprintf(out, "{\"file\":");
        json_string(out, at.file);
        fprintf(out, ",\"line\":%u,\"op\":\"%s\",\"register\":", at.line, op);
        json_string(out, regtext);
        fprintf(out, ",\"el\":%u,\"security\":", armprof_current_el(st->pe));
        json_string(out, armprof_security_state_name(armprof_current_security_state(st->pe)));
        fprintf(out, ",\"outcome\":\"%s\"", outcome_names[o->kind]);
        if (o->kind == ARMPROF_DONE) {
            char name[64];
            fprintf(out, ",\"accessed\":");
            json_string(out, armprof_reg_instance_name(o->reg, o->index, name, sizeof name));
            fprintf(out, ",\"value\":\"0x%016" PRIx64 "\"", o->value);
        } else if (o->kind == ARMPROF_TRAP) {
            fprintf(out,
                    ",\"target_el\":%u,\"ec\":\"0x%02x\",\"iss\":\"0x%06" PRIx32
                    "\",\"esr\":\"0x%08" PRIx64 "\"",
                    o->target_el, o->ec, o->iss, o->esr);
        } else if (o->kind == ARMPROF_NVMEM) {
            fprintf(out, ",\"nv_offset\":\"0x%03x\"", o->nv_offset);
        }
        if (check >= 0) {
            fprintf(out, ",\"check\":\"%s\"", check ? "pass" : "fail");
            if (!check) {
                fprintf(out, ",\"expected\":");
                json_string(out, expected);
            }
        }
        fprintf(out, "}\n");
        return;
    }
    if (st->opts->quiet && check != 0) return;
    char desc[160];
    describe_outcome(o, is_read, desc, sizeof desc);
    fprintf(out, "%s:%u: EL%u %s: %s %s -> %s", at.file, at.line, armprof_current_el(st->pe),
            armprof_security_state_name(armprof_current_security_state(st->pe)), op, regtext, desc);
    if (check == 1) fprintf(out, "  [ok]");
    if (check == 0) fprintf(out, "  [FAILED: expected %s]", expected);
    fputc('\n', out);
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
        error_at(st, at, "'=>' with nothing after it");
        return -2;
    }
    uint64_t v;
    if (strcmp(w[0], "done") == 0 && n == 1) return o->kind == ARMPROF_DONE;
    if (strcmp(w[0], "undefined") == 0 && n == 1) return o->kind == ARMPROF_UNDEFINED;
    if (strcmp(w[0], "unmodelled") == 0 && n == 1) return o->kind == ARMPROF_UNMODELLED;
    if (strcmp(w[0], "nvmem") == 0 && n == 2) {
        if (!armprof_parse_number(w[1], &v)) {
            error_at(st, at, "'%s' is not an NVMem offset", w[1]);
            return -2;
        }
        return o->kind == ARMPROF_NVMEM && o->nv_offset == v;
    }
    if (strcmp(w[0], "trap") == 0) {
        if (n < 2 ||
            (strcmp(w[1], "el2") != 0 && strcmp(w[1], "el3") != 0 && strcmp(w[1], "el1") != 0)) {
            error_at(st, at, "a trap expectation names its target: 'trap el1|el2|el3'");
            return -2;
        }
        const unsigned el = (unsigned)(w[1][2] - '0');
        uint64_t ec = 0x18, iss = 0;
        bool has_iss = false;
        for (int i = 2; i < n; i += 2) {
            if (i + 1 >= n || !armprof_parse_number(w[i + 1], &v)) {
                error_at(st, at, "'trap' takes 'ec N' and 'iss N' after the target");
                return -2;
            }
            if (strcmp(w[i], "ec") == 0) {
                ec = v;
            } else if (strcmp(w[i], "iss") == 0) {
                iss = v;
                has_iss = true;
            } else {
                error_at(st, at, "unknown trap detail '%s' (ec, iss)", w[i]);
                return -2;
            }
        }
        return o->kind == ARMPROF_TRAP && o->target_el == el && o->ec == ec &&
               (!has_iss || o->iss == iss);
    }
    if (n == 1 && armprof_parse_number(w[0], &v)) {
        if (!is_read) {
            error_at(st, at,
                     "an msr outcome is 'done', 'undefined', 'trap ...' or 'nvmem N'; "
                     "check the register with 'expect'");
            return -2;
        }
        return o->kind == ARMPROF_DONE && o->value == v;
    }
    error_at(st, at, "unknown expectation '%s'", expected);
    return -2;
}

static void count(run_state *st, int ok)
{
    if (ok)
        st->passed++;
    else
        st->failed++;
}

static int do_access(run_state *st, where at, const line_words *lw, const statement_info *self,
                     bool is_read)
{
    const int nargs = lw->arrow >= 0 ? lw->arrow : lw->n;
    const int want = is_read ? 2 : 3;
    if (nargs != want && nargs != want + 2) return usage(st, at, self);
    int rc = need_pe(st, at);
    if (rc) return rc;
    reg_ref r;
    uint32_t enc;
    unsigned rg;
    /* A generic encoding may name something the table does not declare. */
    unsigned op0, op1, crn, crm, op2;
    char tail;
    if (sscanf(lw->w[1], "S%u_%u_C%u_C%u_%u%c", &op0, &op1, &crn, &crm, &op2, &tail) == 5) {
        if (op0 > 3 || op1 > 7 || crn > 15 || crm > 15 || op2 > 7)
            return error_at(st, at, "'%s': encoding field out of range", lw->w[1]);
        enc = armprof_sysreg_encoding(op0, op1, crn, crm, op2);
    } else {
        /* Aliases (PMSCR_EL12) have no storage but have an encoding. */
        const int id = armprof_reg_lookup(lw->w[1], &r.index);
        if (id < 0) return error_at(st, at, "unknown register '%s' (see 'armprof regs')", lw->w[1]);
        enc = armprof_reg_encoding(id, r.index);
        if (enc == 0)
            return error_at(st, at, "'%s' has no MRS/MSR encoding (an external control: use 'set')",
                            lw->w[1]);
    }
    uint64_t value = 0, rt = 0;
    if (!is_read && !armprof_parse_number(lw->w[2], &value))
        return error_at(st, at, "'%s' is not a 64-bit number", lw->w[2]);
    if (nargs == want + 2) {
        if (strcmp(lw->w[want], "rt") != 0 || !armprof_parse_number(lw->w[want + 1], &rt) ||
            rt > 31)
            return error_at(st, at, "expected 'rt N' with N in 0..31");
    }
    rg = (unsigned)rt;
    const armprof_outcome o =
        is_read ? armprof_mrs(st->pe, enc, rg) : armprof_msr(st->pe, enc, rg, value);
    int check = -1;
    char expected[256] = "";
    if (lw->arrow >= 0) {
        check = check_access(st, at, lw, is_read, &o, expected, sizeof expected);
        if (check == -2) return SCENARIO_ERROR;
        count(st, check);
    }
    print_access(st, at, self->name, is_read, lw->w[1], &o, check, expected);
    if (check == 0 && !st->opts->json && st->opts->err != st->opts->out) {
        char desc[160];
        describe_outcome(&o, is_read, desc, sizeof desc);
        fprintf(st->opts->err, "%s:%u: expected %s, got %s\n", at.file, at.line, expected, desc);
    }
    return 0;
}

static int do_mrs(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_access(st, at, lw, self, true);
}

static int do_msr(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_access(st, at, lw, self, false);
}

static int do_set(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (lw->n != 3 || lw->arrow >= 0) return usage(st, at, self);
    int rc = need_pe(st, at);
    if (rc) return rc;
    reg_ref r;
    if ((rc = parse_reg_ref(st, at, lw->w[1], true, &r)) != 0) return rc;
    uint64_t v;
    if (!armprof_parse_number(lw->w[2], &v))
        return error_at(st, at, "'%s' is not a number", lw->w[2]);
    uint64_t cur = armprof_reg_get(st->pe, r.reg, r.index);
    if (r.has_field) {
        const unsigned width = r.hi - r.lo + 1;
        if (width < 64 && v >> width)
            return error_at(st, at, "%s is %u bits wide: %s does not fit", lw->w[1], width,
                            lw->w[2]);
        cur = (cur & ~field_mask(r.hi, r.lo)) | (v << r.lo);
    } else {
        cur = v;
    }
    armprof_reg_set(st->pe, r.reg, r.index, cur);
    if (r.has_field) {
        const uint64_t got =
            (armprof_reg_get(st->pe, r.reg, r.index) & field_mask(r.hi, r.lo)) >> r.lo;
        if (got != v)
            return error_at(st, at,
                            "%s is RES0 or RES1 in this configuration: the value cannot be set",
                            lw->w[1]);
    }
    return 0;
}

/* The outputs `expect` can name besides registers. */
static bool output_value(run_state *st, const char *name, uint64_t *value)
{
    if (strcmp(name, "pmuirq") == 0) {
        *value = armprof_pmuirq(st->pe);
        return true;
    }
    if (strcmp(name, "pmbirq") == 0) {
        *value = armprof_pmbirq(st->pe);
        return true;
    }
    if (strcmp(name, "spe.exception") == 0 || strcmp(name, "spe.exception_el") == 0) {
        /* spe.exception: 1 if an SPE Profiling exception would be taken now;
         * spe.exception_el: where (0 when none) */
        unsigned el = 0;
        const bool taken = armprof_spe_exception(st->pe, &el);
        *value = name[13] == '_' ? (taken ? el : 0) : taken;
        return true;
    }
    /* aarch32.elN: ELUsingAArch32(N) (armprof_el_using_aarch32()) */
    if (strncmp(name, "aarch32.el", 10) == 0 && name[10] >= '0' && name[10] <= '3' &&
        name[11] == '\0') {
        *value = armprof_el_using_aarch32(st->pe, (unsigned)(name[10] - '0'));
        return true;
    }
    if (strcmp(name, "records") == 0) { /* records made and not yet checked */
        if (st->records_overflow) return false;
        *value = st->records_pending;
        return true;
    }
    /* spe.NAME: the SPE owner, enables and Effective values (armprof_spe_value()) */
    if (strncmp(name, "spe.", 4) == 0) return armprof_spe_value(st->pe, name + 4, value);
    return false;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* expect record HEX...: the oldest record not yet checked has these bytes,
 * in memory order; each word is an even number of hex digits. */
static int do_expect_record(run_state *st, where at, const line_words *lw)
{
    uint8_t want[SPE_RECORD_WORDS_MAX];
    size_t want_n = 0;
    for (int i = 2; i < lw->n; i++) {
        const char *h = lw->w[i];
        const size_t len = strlen(h);
        if (len % 2 != 0) return error_at(st, at, "expect record: '%s' is not whole bytes", h);
        for (size_t k = 0; k < len; k += 2) {
            const int hi = hex_digit(h[k]), lo = hex_digit(h[k + 1]);
            if (hi < 0 || lo < 0) return error_at(st, at, "expect record: '%s' is not hex", h);
            if (want_n == sizeof want) return error_at(st, at, "expect record: too many bytes");
            want[want_n++] = (uint8_t)(hi << 4 | lo);
        }
    }
    if (want_n == 0) return error_at(st, at, "usage: expect record HEXBYTES...");
    int rc = need_pe(st, at);
    if (rc) return rc;
    char got_text[3 * 256 + 8] = "(no record)";
    bool ok = false;
    if (st->records_pending > 0) {
        const size_t size = (size_t)st->records[0] | (size_t)st->records[1] << 8;
        const uint8_t *got = st->records + 2;
        ok = size == want_n && memcmp(got, want, size) == 0;
        size_t pos = 0;
        for (size_t k = 0; k < size && pos + 4 < sizeof got_text; k++)
            pos += (size_t)snprintf(got_text + pos, sizeof got_text - pos, "%s%02x", k ? " " : "",
                                    got[k]);
        memmove(st->records, st->records + 2 + size, st->records_len - 2 - size);
        st->records_len -= 2 + size;
        st->records_pending--;
    }
    count(st, ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        json_string(st->opts->out, at.file);
        fprintf(st->opts->out, ",\"line\":%u,\"op\":\"expect\",\"record\":", at.line);
        json_string(st->opts->out, got_text);
        fprintf(st->opts->out, ",\"check\":\"%s\"}\n", ok ? "pass" : "fail");
    } else if (!ok) {
        fprintf(st->opts->err, "%s:%u: expected a different record, got %s\n", at.file, at.line,
                got_text);
    } else if (!st->opts->quiet) {
        fprintf(st->opts->out, "%s:%u: record %s  [ok]\n", at.file, at.line, got_text);
    }
    return 0;
}

/* Memory statements (scenario/memory_words.c): `memory`, `pagetables`,
 * `map` and `expect memory`; the checks among them are counted and
 * reported like any expectation. */
static int do_memory(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    int rc = need_pe(st, at);
    if (rc) return rc;
    memory_check check;
    char err[256] = "";
    if (scenario_memory_statement(st->pe, &st->tables, lw->w, lw->n, &check, err, sizeof err) !=
        MEMORY_HANDLED)
        return error_at(st, at, "%s", err);
    if (!check.is_check) return 0;
    count(st, check.ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        json_string(st->opts->out, at.file);
        fprintf(st->opts->out, ",\"line\":%u,\"op\":\"expect\",\"memory\":", at.line);
        json_string(st->opts->out, check.got);
        fprintf(st->opts->out, ",\"check\":\"%s\"}\n", check.ok ? "pass" : "fail");
    } else if (!check.ok) {
        fprintf(st->opts->err, "%s:%u: expected other memory contents, got %s\n", at.file, at.line,
                check.got);
    } else if (!st->opts->quiet) {
        fprintf(st->opts->out, "%s:%u: memory %s  [ok]\n", at.file, at.line, check.got);
    }
    return 0;
}

static int do_expect(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (scenario_is_memory_statement(lw->w, lw->n)) return do_memory(st, at, lw, self);
    if (lw->n >= 2 && strcmp(lw->w[1], "record") == 0) return do_expect_record(st, at, lw);
    if (lw->n != 4 || strcmp(lw->w[2], "==") != 0 || lw->arrow >= 0)
        return error_at(st, at, "usage: expect REG[.FIELD] == VALUE");
    int rc = need_pe(st, at);
    if (rc) return rc;
    uint64_t v, got;
    if (!armprof_parse_number(lw->w[3], &v))
        return error_at(st, at, "'%s' is not a number", lw->w[3]);
    if (!output_value(st, lw->w[1], &got)) {
        reg_ref r;
        if ((rc = parse_reg_ref(st, at, lw->w[1], true, &r)) != 0) return rc;
        got = armprof_reg_get(st->pe, r.reg, r.index);
        if (r.has_field) got = (got & field_mask(r.hi, r.lo)) >> r.lo;
    }
    const int ok = got == v;
    count(st, ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        json_string(st->opts->out, at.file);
        fprintf(st->opts->out, ",\"line\":%u,\"op\":\"expect\",\"register\":", at.line);
        json_string(st->opts->out, lw->w[1]);
        fprintf(st->opts->out,
                ",\"value\":\"0x%" PRIx64 "\",\"expected\":\"0x%" PRIx64 "\",\"check\":\"%s\"}\n",
                got, v, ok ? "pass" : "fail");
    } else if (!ok) {
        fprintf(st->opts->err, "%s:%u: expected %s == 0x%" PRIx64 ", got 0x%" PRIx64 "\n", at.file,
                at.line, lw->w[1], v, got);
    } else if (!st->opts->quiet) {
        fprintf(st->opts->out, "%s:%u: %s == 0x%" PRIx64 "  [ok]\n", at.file, at.line, lw->w[1],
                got);
    }
    return 0;
}

static int do_validate(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (st->pe) return error_at(st, at, "'validate' after the PE was created");
    char err[256] = "";
    const bool valid = armprof_config_validate(&st->cfg, err, sizeof err);
    if (lw->arrow < 0) {
        if (lw->n != 1) return usage(st, at, self);
        fprintf(st->opts->out, "%s:%u: configuration %s%s\n", at.file, at.line,
                valid ? "valid" : "rejected: ", valid ? "" : err);
        return 0;
    }
    const int n = lw->n - lw->arrow;
    char *const *w = lw->w + lw->arrow;
    int ok;
    if (n == 1 && strcmp(w[0], "ok") == 0)
        ok = valid;
    else if (n == 2 && strcmp(w[0], "error") == 0 && lw->quoted[lw->arrow + 1])
        ok = !valid && strstr(err, w[1]) != NULL;
    else
        return error_at(st, at, "usage: validate => ok | validate => error \"text\"");
    count(st, ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        json_string(st->opts->out, at.file);
        fprintf(st->opts->out,
                ",\"line\":%u,\"op\":\"validate\",\"valid\":%s,\"message\":", at.line,
                valid ? "true" : "false");
        json_string(st->opts->out, err);
        fprintf(st->opts->out, ",\"check\":\"%s\"}\n", ok ? "pass" : "fail");
    } else if (!ok) {
        fprintf(st->opts->err, "%s:%u: expected %s%s%s, got %s%s\n", at.file, at.line, w[0],
                n == 2 ? " " : "", n == 2 ? w[1] : "", valid ? "valid" : "rejected: ", err);
    } else if (!st->opts->quiet) {
        fprintf(st->opts->out, "%s:%u: configuration %s%s  [ok]\n", at.file, at.line,
                valid ? "valid" : "rejected: ", err);
    }
    return 0;
}

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
    return error_at(st, at, "'%s' is not on/off (or high/low)", word);
}

/* ---- The PE's context ---- */
static int do_el(run_state *st, where at, line_words *lw, const statement_info *self)
{
    char err[256];
    uint64_t el;
    int rc;
    if (lw->n != 2 || !armprof_parse_number(lw->w[1], &el)) return usage(st, at, self);
    if ((rc = need_pe(st, at)) != 0) return rc;
    if (!armprof_set_el(st->pe, (unsigned)(el > 3 ? 4 : el), err, sizeof err))
        return error_at(st, at, "el %s: %s", lw->w[1], err);
    return 0;
}

static int do_security(run_state *st, where at, line_words *lw, const statement_info *self)
{
    static const char *const names[] = {"nonsecure", "secure", "realm", "root"};
    char err[256];
    int rc;
    if (lw->n != 2) return usage(st, at, self);
    int ss = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(lw->w[1], names[i])) ss = i;
    if (ss < 0) return error_at(st, at, "unknown Security state '%s'", lw->w[1]);
    if ((rc = need_pe(st, at)) != 0) return rc;
    if (!armprof_set_security_state(st->pe, (armprof_security_state)ss, err, sizeof err))
        return error_at(st, at, "security %s: %s", lw->w[1], err);
    return 0;
}

static int do_aarch32(run_state *st, where at, line_words *lw, const statement_info *self)
{
    char err[256];
    uint64_t el;
    bool b;
    int rc;
    if (lw->n != 3 || !armprof_parse_number(lw->w[1], &el)) return usage(st, at, self);
    if ((rc = on_off(st, at, lw->w[2], &b)) != 0) return rc;
    if ((rc = need_pe(st, at)) != 0) return rc;
    if (!armprof_set_aarch32(st->pe, (unsigned)(el > 3 ? 4 : el), b, err, sizeof err))
        return error_at(st, at, "aarch32: %s", err);
    return 0;
}

/* `debug`, `power`, `oslock`, `doublelock`: a state of the PE set on or off. */
static int on_off_statement(run_state *st, where at, const line_words *lw,
                            const statement_info *self, void (*set)(armprof_pe *, bool))
{
    bool b;
    int rc;
    if (lw->n != 2) return usage(st, at, self);
    if ((rc = on_off(st, at, lw->w[1], &b)) != 0) return rc;
    if ((rc = need_pe(st, at)) != 0) return rc;
    set(st->pe, b);
    return 0;
}

static int do_debug(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_debug_state);
}

static int do_power(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_core_power);
}

static int do_oslock(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_os_lock);
}

static int do_doublelock(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return on_off_statement(st, at, lw, self, armprof_set_os_double_lock);
}

static int do_signal(run_state *st, where at, line_words *lw, const statement_info *self)
{
    bool b;
    int rc;
    if (lw->n != 3) return usage(st, at, self);
    int sig = -1;
    for (int i = 0; i < ARMPROF_SIG_COUNT; i++)
        if (!strcmp(lw->w[1], armprof_signal_name((armprof_signal)i))) sig = i;
    if (sig < 0)
        return error_at(st, at, "unknown signal '%s' (DBGEN NIDEN SPIDEN SPNIDEN RLPIDEN RTPIDEN)",
                        lw->w[1]);
    if ((rc = on_off(st, at, lw->w[2], &b)) != 0) return rc;
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_set_signal(st->pe, (armprof_signal)sig, b);
    return 0;
}

static int do_reset(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    const bool cold = lw->n == 2 && !strcmp(lw->w[1], "cold");
    if (lw->n != 2 || (!cold && strcmp(lw->w[1], "warm"))) return usage(st, at, self);
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_reset(st->pe, cold ? ARMPROF_RESET_COLD : ARMPROF_RESET_WARM);
    return 0;
}

static int run_lines(run_state *st, const char *file, char *text);

/* ---- What the PE does: cycles, events, retired instructions, snapshot requests ---- */
static int do_cycles(run_state *st, where at, line_words *lw, const statement_info *self)
{
    uint64_t n;
    int rc;
    if (lw->n != 2 || !armprof_parse_number(lw->w[1], &n)) return usage(st, at, self);
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_cycles(st->pe, n);
    return 0;
}

static int do_event(run_state *st, where at, line_words *lw, const statement_info *self)
{
    uint64_t number, n = 1;
    int rc;
    if (lw->n != 2 && lw->n != 3) return usage(st, at, self);
    const int named = armprof_pmu_event_number(lw->w[1]);
    if (named >= 0)
        number = (uint64_t)named;
    else if (!armprof_parse_number(lw->w[1], &number) || number > 0xffff)
        return error_at(st, at, "unknown PMU event '%s' (a name or a 16-bit number)", lw->w[1]);
    if (lw->n == 3 && !armprof_parse_number(lw->w[2], &n))
        return error_at(st, at, "'%s' is not a count", lw->w[2]);
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_pmu_event(st->pe, (uint16_t)number, n);
    return 0;
}

static int do_retire(run_state *st, where at, line_words *lw, const statement_info *self)
{
    armprof_op op;
    uint64_t n;
    int rc;
    if (lw->n == 2 && !strcmp(lw->w[1], "dispatched")) {
        if (st->dispatched_n == 0)
            return error_at(st, at, "retire dispatched: no operation was dispatched");
        if ((rc = need_pe(st, at)) != 0) return rc;
        op = st->dispatched[0];
        memmove(st->dispatched, st->dispatched + 1, --st->dispatched_n * sizeof op);
        armprof_retire(st->pe, &op);
        return 0;
    }
    char err[160];
    if (!scenario_parse_op(lw->w + 1, lw->n - 1, &op, &n, err, sizeof err))
        return error_at(st, at, "%s: %s (docs/scenario-language.md, Operations)", self->name, err);
    if ((rc = need_pe(st, at)) != 0) return rc;
    const uint64_t limit = st->opts->max_operations;
    if (limit && (n > limit || st->operations > limit - n))
        return error_at(st, at, "retire: more than %llu operations in one run",
                        (unsigned long long)limit);
    st->operations += n;
    scenario_retire_repeat(st->pe, &op, n);
    return 0;
}

static int do_dispatch(run_state *st, where at, line_words *lw, const statement_info *self)
{
    enum { IN_FLIGHT = sizeof st->dispatched / sizeof st->dispatched[0] };
    armprof_op op;
    uint64_t n;
    int rc;
    char err[160];
    if (!scenario_parse_op(lw->w + 1, lw->n - 1, &op, &n, err, sizeof err))
        return error_at(st, at, "%s: %s (docs/scenario-language.md, Operations)", self->name, err);
    if ((rc = need_pe(st, at)) != 0) return rc;
    if (n != 1) return error_at(st, at, "dispatch: one operation at a time (no xN)");
    if (st->dispatched_n == IN_FLIGHT)
        return error_at(st, at, "dispatch: more than %u operations in flight", (unsigned)IN_FLIGHT);
    armprof_dispatch(st->pe, &op);
    st->dispatched[st->dispatched_n++] = op;
    return 0;
}

static int do_counter(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    uint64_t n;
    int rc;
    if (lw->n != 2 || !armprof_parse_number(lw->w[1], &n))
        return error_at(st, at, "usage: counter N (the physical count, PhysicalCountInt())");
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_set_physical_count(st->pe, n);
    return 0;
}

static int do_psb(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 2 || strcmp(lw->w[1], "csync")) return usage(st, at, self);
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_psb_csync(st->pe);
    return 0;
}

/* `isb` and `dsb [OPTION]`: the model applies each MSR at once and writes
 * memory in program order, so both barriers are accepted and change nothing
 * (docs/scenario-language.md). */
static int barrier(run_state *st, where at, bool takes_option, int n)
{
    if (n != 1 && !(n == 2 && takes_option)) return error_at(st, at, "usage: isb | dsb [OPTION]");
    return need_pe(st, at);
}

static int do_isb(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    return barrier(st, at, false, lw->n);
}

static int do_dsb(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    return barrier(st, at, true, lw->n);
}

static int do_pstate_pm(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 2 || (strcmp(lw->w[1], "0") && strcmp(lw->w[1], "1"))) return usage(st, at, self);
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_set_pstate_pm(st->pe, !strcmp(lw->w[1], "1"));
    return 0;
}

static int do_snapshot_request(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 1) return usage(st, at, self);
    if ((rc = need_pe(st, at)) != 0) return rc;
    armprof_snapshot_request(st->pe);
    return 0;
}

/* Runs the file at path (relative to the file of at). */
static int include_file(run_state *st, where at, const char *file)
{
    if (st->depth >= MAX_INCLUDE_DEPTH)
        return error_at(st, at, "includes nested deeper than %d (a cycle?)", MAX_INCLUDE_DEPTH);
    char path[1024];
    const char *slash = strrchr(at.file, '/');
    if (file[0] != '/' && slash) {
        int dirlen = (int)(slash - at.file);
        if ((size_t)snprintf(path, sizeof path, "%.*s/%s", dirlen, at.file, file) >= sizeof path)
            return error_at(st, at, "include path too long");
    } else {
        snprintf(path, sizeof path, "%s", file);
    }
    /* Only regular files: a device or a FIFO could block or never end. */
    struct stat sb;
    if (stat(path, &sb) != 0)
        return error_at(st, at, "cannot open '%s': %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return error_at(st, at, "'%s' is not a regular file", path);
    if (sb.st_size > (off_t)MAX_FILE_SIZE)
        return error_at(st, at, "'%s' is larger than %u MiB", path, MAX_FILE_SIZE >> 20);
    FILE *f = fopen(path, "rb");
    if (!f) return error_at(st, at, "cannot open '%s': %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    errno = 0;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    /* A read error would otherwise run the part read so far as if it were
     * the whole file. */
    const int read_errno = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (read_errno) {
        free(buf);
        return error_at(st, at, "cannot read '%s': %s", path, strerror(read_errno));
    }
    if (!buf) return error_at(st, at, "out of memory reading '%s'", path);
    buf[len] = 0;
    if (memchr(buf, 0, len)) {
        free(buf);
        return error_at(st, at, "'%s' is not a text file", path);
    }
    st->depth++;
    char *name = dup_string(path);
    const int rc = name ? run_lines(st, name, buf) : error_at(st, at, "out of memory");
    st->depth--;
    free(name);
    free(buf);
    return rc;
}

static int do_include(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (lw->n != 2) return usage(st, at, self);
    return include_file(st, at, lw->w[1]);
}

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
        return usage(st, at, self);
    armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    for (; i < nargs; i++) {
        if (!strcmp(lw->w[i], "mm")) {
            how.memory_mapped = true;
        } else if (!strcmp(lw->w[i], "pas") && i + 1 < nargs) {
            static const char *const pas[] = {"nonsecure", "secure", "realm", "root"};
            int p = -1;
            for (int k = 0; k < 4; k++)
                if (!strcmp(lw->w[i + 1], pas[k])) p = k;
            if (p < 0) return error_at(st, at, "unknown PAS '%s'", lw->w[i + 1]);
            how.pas = (armprof_pas)p;
            i++;
        } else if (armprof_parse_number(lw->w[i], &bits) && (bits == 32 || bits == 64)) {
            continue;
        } else {
            return usage(st, at, self);
        }
    }
    if ((rc = need_pe(st, at)) != 0) return rc;
    if (offset > 0xffffffffu) return error_at(st, at, "offset '%s' out of range", lw->w[first]);
    if (bits == 0) bits = default_ext_size(st->pe, component, offset);
    if (bits == 32 && value > 0xffffffffu)
        return error_at(st, at, "'%s' does not fit a 32-bit access", lw->w[first + 1]);
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
        if (!w) return usage(st, at, self);
        snprintf(expected, sizeof expected, "%s", w);
        if (!strcmp(w, "ok") || !strcmp(w, "error") || !strcmp(w, "unmodelled"))
            check = !strcmp(w, ext_kind_names[o.kind]);
        else if (!is_read && !strcmp(w, "ignored"))
            check = o.kind == ARMPROF_EXT_OK && o.ignored;
        else if (is_read && armprof_parse_number(w, &v))
            check = o.kind == ARMPROF_EXT_OK && o.value == v;
        else
            return usage(st, at, self);
        count(st, check);
    }
    FILE *out = st->opts->out;
    char name[64];
    ext_name(&o, name, sizeof name);
    if (st->opts->json) {
        fprintf(out, "{\"file\":");
        json_string(out, at.file);
        fprintf(out,
                ",\"line\":%u,\"op\":\"%s\",\"block\":\"%s\",\"offset\":\"0x%03" PRIx64
                "\",\"size\":%u,\"pas\":",
                at.line, is_read ? "xread" : "xwrite", debug ? "debug" : "pmu", offset,
                (unsigned)bits);
        json_string(out, armprof_pas_name(how.pas));
        fprintf(out, ",\"memory_mapped\":%s,\"outcome\":\"%s\",\"register\":",
                how.memory_mapped ? "true" : "false", ext_kind_names[o.kind]);
        json_string(out, name);
        if (o.sysreg >= 0) {
            fprintf(out, ",\"sysreg\":");
            json_string(out, armprof_reg_name(o.sysreg));
        }
        if (o.kind == ARMPROF_EXT_OK)
            fprintf(out, ",\"value\":\"0x%0*" PRIx64 "\",\"ignored\":%s", (int)bits / 4, o.value,
                    o.ignored ? "true" : "false");
        if (o.why) {
            fprintf(out, ",\"why\":");
            json_string(out, o.why);
        }
        if (check >= 0) {
            fprintf(out, ",\"check\":\"%s\"", check ? "pass" : "fail");
            if (!check) {
                fprintf(out, ",\"expected\":");
                json_string(out, expected);
            }
        }
        fprintf(out, "}\n");
        return 0;
    }
    char desc[160];
    describe_ext(&o, is_read, (unsigned)bits, desc, sizeof desc);
    if (!st->opts->quiet || check == 0) {
        fprintf(out, "%s:%u: PAS %s%s: %s%s 0x%03" PRIx64 " (%u-bit) %s -> %s", at.file, at.line,
                armprof_pas_name(how.pas), how.memory_mapped ? " mm" : "",
                is_read ? "xread" : "xwrite", debug ? " debug" : "", offset, (unsigned)bits, name,
                desc);
        if (check == 1) fprintf(out, "  [ok]");
        if (check == 0) fprintf(out, "  [FAILED: expected %s]", expected);
        fputc('\n', out);
    }
    if (check == 0 && st->opts->err != out)
        fprintf(st->opts->err, "%s:%u: expected %s, got %s\n", at.file, at.line, expected, desc);
    return 0;
}

static int do_xread(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_external(st, at, lw, self, true);
}

static int do_xwrite(run_state *st, where at, line_words *lw, const statement_info *self)
{
    return do_external(st, at, lw, self, false);
}

/* ---- Configuration and output ---- */
static int do_preset(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 2) return usage(st, at, self);
    if ((rc = config_statement_allowed(st, at, self->name)) != 0) return rc;
    if (!armprof_config_preset(&st->cfg, lw->w[1]))
        return error_at(st, at, "unknown preset '%s' (see 'armprof presets')", lw->w[1]);
    st->cfg_started = true;
    return 0;
}

/* `feature NAME VALUE` and `option NAME VALUE`: known is whether the
 * configuration has a feature or option of that name. */
static int config_setting(run_state *st, where at, const line_words *lw, const statement_info *self,
                          bool known, const char *unknown)
{
    int rc;
    if (lw->n != 3) return usage(st, at, self);
    if ((rc = config_statement_allowed(st, at, self->name)) != 0) return rc;
    if (!known) return error_at(st, at, unknown, lw->w[1]);
    if (!st->cfg_started) {
        /* options start from their defaults even without a preset */
        for (int i = 0; i < ARMPROF_OPT_COUNT; i++)
            st->cfg.options[i] = armprof_option_default((armprof_option)i);
        st->cfg_started = true;
    }
    char err[256];
    if (!armprof_config_set(&st->cfg, lw->w[1], lw->w[2], err, sizeof err))
        return error_at(st, at, "%s", err);
    return 0;
}

static int do_feature(run_state *st, where at, line_words *lw, const statement_info *self)
{
    const bool known = lw->n == 3 && armprof_feature_lookup(lw->w[1]) >= 0;
    return config_setting(st, at, lw, self, known, "unknown feature '%s' (see 'armprof features')");
}

static int do_option(run_state *st, where at, line_words *lw, const statement_info *self)
{
    const bool known = lw->n == 3 && armprof_option_lookup(lw->w[1]) >= 0;
    return config_setting(st, at, lw, self, known,
                          "unknown option '%s' (see docs/configuration.md)");
}

static int do_print(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)at;
    (void)self;
    if (st->opts->json || st->opts->quiet) return 0;
    for (int i = 1; i < lw->n; i++)
        fprintf(st->opts->out, "%s%s", i > 1 ? " " : "", lw->w[i]);
    fputc('\n', st->opts->out);
    return 0;
}

/* ---- The statement table (statements.def) ---- */
typedef int statement_fn(run_state *st, where at, line_words *lw, const statement_info *self);

typedef struct statement {
    statement_info info; /* first: a statement_info * of the table is its statement */
    statement_fn *run;
} statement;

static const statement statements[] = {
#define STATEMENT(name, handler, expects, synopsis, doc)                                           \
    {{name, SCENARIO_EXPECTS_##expects, synopsis, doc}, handler},
#include "scenario/statements.def"
#undef STATEMENT
};
enum { STATEMENT_COUNT = sizeof statements / sizeof statements[0] };

static int compare_name(const void *key, const void *entry)
{
    return strcmp(key, ((const statement *)entry)->info.name);
}

static const statement *find_statement(const char *name)
{
    return bsearch(name, statements, STATEMENT_COUNT, sizeof statements[0], compare_name);
}

const scenario_statement_info *scenario_statement_at(size_t i)
{
    return i < STATEMENT_COUNT ? &statements[i].info : NULL;
}

const scenario_statement_info *scenario_statement_find(const char *name)
{
    const statement *s = find_statement(name);
    return s ? &s->info : NULL;
}

const char *scenario_expectation_statements(char *buf, size_t len)
{
    static const scenario_expects order[] = {SCENARIO_EXPECTS_OUTCOME, SCENARIO_EXPECTS_VERDICT};
    const statement *list[STATEMENT_COUNT];
    size_t n = 0, used = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        for (size_t i = 0; i < STATEMENT_COUNT; i++)
            if (statements[i].info.expects == order[k]) list[n++] = &statements[i];
    buf[0] = 0;
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                 i == 0       ? ""
                                 : i + 1 == n ? " and "
                                              : ", ",
                                 list[i]->info.name);
    return buf;
}

static int run_statement(run_state *st, where at, line_words *lw)
{
    const statement *s = find_statement(lw->w[0]);
    if (lw->arrow >= 0 && (!s || s->info.expects == SCENARIO_EXPECTS_NOTHING)) {
        char names[128];
        return error_at(st, at, "'=>' can follow only %s",
                        scenario_expectation_statements(names, sizeof names));
    }
    if (!s) return error_at(st, at, "unknown statement '%s'", lw->w[0]);
    return s->run(st, at, lw, &s->info);
}

/* Lines end with LF or CRLF. A UTF-8 byte-order mark at the start of the
 * text is skipped; a CR not followed by LF (old Mac line ends, or a stray
 * one) is an error, since the lines it separates would otherwise run
 * together into one statement. */
static int run_lines(run_state *st, const char *file, char *text)
{
    unsigned lineno = 0;
    char *p = text;
    if (!strncmp(p, "\xef\xbb\xbf", 3)) p += 3;
    while (*p) {
        char *eol = strchr(p, '\n');
        if (eol) *eol = 0;
        lineno++;
        const where at = {file, lineno};
        char *cr = strchr(p, '\r');
        if (cr && cr[1] == 0 && eol)
            *cr = 0; /* CRLF */
        else if (cr)
            return error_at(st, at,
                            "CR line endings are not supported: a carriage return not "
                            "followed by a line feed (use LF or CRLF line ends)");
        if (strlen(p) > MAX_LINE)
            return error_at(st, at, "line longer than %d characters", MAX_LINE);
        line_words lw;
        const char *problem = NULL;
        if (!split_words(p, &lw, &problem)) return error_at(st, at, "%s", problem);
        if (lw.n > 0) {
            const int rc = run_statement(st, at, &lw);
            if (rc) return rc;
        } else if (lw.arrow >= 0) {
            return error_at(st, at, "'=>' with no statement before it");
        }
        if (!eol) break;
        p = eol + 1;
    }
    return 0;
}

static int finish(run_state *st, int rc)
{
    if (st->pe) armprof_pe_destroy(st->pe);
    free(st->records);
    if (st->opts->json)
        fprintf(st->opts->out, "{\"summary\":{\"passed\":%u,\"failed\":%u,\"error\":%s}}\n",
                st->passed, st->failed, rc == SCENARIO_ERROR ? "true" : "false");
    else
        fprintf(st->opts->out, "%u passed, %u failed\n", st->passed, st->failed);
    if (rc) return rc;
    return st->failed ? SCENARIO_FAILED : SCENARIO_PASSED;
}

int scenario_run_text(const char *name, const char *text, const scenario_options *opts)
{
    run_state st;
    memset(&st, 0, sizeof st);
    st.opts = opts;
    char *copy = dup_string(text);
    if (!copy) {
        fprintf(opts->err, "%s: out of memory\n", name);
        return SCENARIO_ERROR;
    }
    const int rc = run_lines(&st, name, copy);
    free(copy);
    return finish(&st, rc);
}

int scenario_run_file(const char *path, const scenario_options *opts)
{
    run_state st;
    memset(&st, 0, sizeof st);
    st.opts = opts;
    const where at = {"", 0};
    const int rc = include_file(&st, at, path);
    return finish(&st, rc);
}
