/* SPDX-License-Identifier: BSD-3-Clause */
/* The scenario interpreter. One statement per line; see
 * docs/scenario-language.md. */
#define _POSIX_C_SOURCE 200809L
#include "scenario/interpreter.h"

#include <sys/stat.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"

#define SPE_RECORD_WORDS_MAX 512
#define MAX_LINE             4096
#define MAX_INCLUDE_DEPTH    16
#define MAX_FILE_SIZE        (16u << 20)

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

static char *dup_string(const char *s)
{
    const size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

int scenario_error_at(run_state *st, where at, const char *fmt, ...)
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

/* A statement's arguments do not fit it: its synopsis (statements.def). */
int scenario_usage(run_state *st, where at, const statement_info *self)
{
    return scenario_error_at(st, at, "usage: %s%s%s", self->name, *self->synopsis ? " " : "",
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
int scenario_need_pe(run_state *st, where at)
{
    if (st->pe) return 0;
    char err[256];
    st->pe = armprof_pe_create(&st->cfg, err, sizeof err);
    if (!st->pe) return scenario_error_at(st, at, "configuration rejected: %s", err);
    armprof_spe_set_sink(st->pe, keep_record, st);
    return 0;
}

static int config_statement_allowed(run_state *st, where at, const char *what)
{
    if (st->pe)
        return scenario_error_at(st, at,
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
    if (strlen(text) >= sizeof name) return scenario_error_at(st, at, "register name too long");
    strcpy(name, text);
    char *dot = strchr(name, '.');
    r->has_field = false;
    if (dot) {
        if (!allow_field)
            return scenario_error_at(st, at, "'%s': a register, not a field, is needed", text);
        *dot = 0;
        snprintf(r->field, sizeof r->field, "%s", dot + 1);
        r->has_field = true;
    }
    r->reg = armprof_reg_lookup(name, &r->index);
    if (r->reg < 0)
        return scenario_error_at(st, at, "unknown register '%s' (see 'armprof regs')", name);
    if (r->has_field && !armprof_reg_field(r->reg, r->field, &r->hi, &r->lo))
        return scenario_error_at(st, at, "register %s has no field '%s'", name, r->field);
    if (armprof_reg_instances(r->reg) == 0)
        return scenario_error_at(
            st, at, "%s is an alias with no storage; name the register it aliases", name);
    if (st->pe && !armprof_reg_present(st->pe, r->reg))
        return scenario_error_at(st, at, "%s is not implemented in this configuration", name);
    return 0;
}

static uint64_t field_mask(unsigned hi, unsigned lo)
{
    return (~0ull >> (63 - hi)) & (~0ull << lo);
}

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
void scenario_json_string(FILE *f, const char *text)
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

void scenario_json_check(FILE *out, int check, const char *expected)
{
    if (check >= 0) {
        fprintf(out, ",\"check\":\"%s\"", check ? "pass" : "fail");
        if (!check) {
            fprintf(out, ",\"expected\":");
            scenario_json_string(out, expected);
        }
    }
    fprintf(out, "}\n");
}

void scenario_text_check(FILE *out, int check, const char *expected)
{
    if (check == 1) fprintf(out, "  [ok]");
    if (check == 0) fprintf(out, "  [FAILED: expected %s]", expected);
    fputc('\n', out);
}

void scenario_count(run_state *st, int ok)
{
    if (ok)
        st->passed++;
    else
        st->failed++;
}

int statement_set(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (lw->n != 3 || lw->arrow >= 0) return scenario_usage(st, at, self);
    int rc = scenario_need_pe(st, at);
    if (rc) return rc;
    reg_ref r;
    if ((rc = parse_reg_ref(st, at, lw->w[1], true, &r)) != 0) return rc;
    uint64_t v;
    if (!armprof_parse_number(lw->w[2], &v))
        return scenario_error_at(st, at, "'%s' is not a number", lw->w[2]);
    uint64_t cur = armprof_reg_get(st->pe, r.reg, r.index);
    if (r.has_field) {
        const unsigned width = r.hi - r.lo + 1;
        if (width < 64 && v >> width)
            return scenario_error_at(st, at, "%s is %u bits wide: %s does not fit", lw->w[1], width,
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
            return scenario_error_at(
                st, at, "%s is RES0 or RES1 in this configuration: the value cannot be set",
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
        if (len % 2 != 0)
            return scenario_error_at(st, at, "expect record: '%s' is not whole bytes", h);
        for (size_t k = 0; k < len; k += 2) {
            const int hi = hex_digit(h[k]), lo = hex_digit(h[k + 1]);
            if (hi < 0 || lo < 0)
                return scenario_error_at(st, at, "expect record: '%s' is not hex", h);
            if (want_n == sizeof want)
                return scenario_error_at(st, at, "expect record: too many bytes");
            want[want_n++] = (uint8_t)(hi << 4 | lo);
        }
    }
    if (want_n == 0) return scenario_error_at(st, at, "usage: expect record HEXBYTES...");
    int rc = scenario_need_pe(st, at);
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
    scenario_count(st, ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        scenario_json_string(st->opts->out, at.file);
        fprintf(st->opts->out, ",\"line\":%u,\"op\":\"expect\",\"record\":", at.line);
        scenario_json_string(st->opts->out, got_text);
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
int statement_memory(run_state *st, where at, line_words *lw, const statement_info *self)
{
    (void)self;
    int rc = scenario_need_pe(st, at);
    if (rc) return rc;
    memory_check check;
    char err[256] = "";
    if (scenario_memory_statement(st->pe, &st->tables, lw->w, lw->n, &check, err, sizeof err) !=
        MEMORY_HANDLED)
        return scenario_error_at(st, at, "%s", err);
    if (!check.is_check) return 0;
    scenario_count(st, check.ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        scenario_json_string(st->opts->out, at.file);
        fprintf(st->opts->out, ",\"line\":%u,\"op\":\"expect\",\"memory\":", at.line);
        scenario_json_string(st->opts->out, check.got);
        fprintf(st->opts->out, ",\"check\":\"%s\"}\n", check.ok ? "pass" : "fail");
    } else if (!check.ok) {
        fprintf(st->opts->err, "%s:%u: expected other memory contents, got %s\n", at.file, at.line,
                check.got);
    } else if (!st->opts->quiet) {
        fprintf(st->opts->out, "%s:%u: memory %s  [ok]\n", at.file, at.line, check.got);
    }
    return 0;
}

int statement_expect(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (scenario_is_memory_statement(lw->w, lw->n)) return statement_memory(st, at, lw, self);
    if (lw->n >= 2 && strcmp(lw->w[1], "record") == 0) return do_expect_record(st, at, lw);
    if (lw->n != 4 || strcmp(lw->w[2], "==") != 0 || lw->arrow >= 0)
        return scenario_error_at(st, at, "usage: expect REG[.FIELD] == VALUE");
    int rc = scenario_need_pe(st, at);
    if (rc) return rc;
    uint64_t v, got;
    if (!armprof_parse_number(lw->w[3], &v))
        return scenario_error_at(st, at, "'%s' is not a number", lw->w[3]);
    if (!output_value(st, lw->w[1], &got)) {
        reg_ref r;
        if ((rc = parse_reg_ref(st, at, lw->w[1], true, &r)) != 0) return rc;
        got = armprof_reg_get(st->pe, r.reg, r.index);
        if (r.has_field) got = (got & field_mask(r.hi, r.lo)) >> r.lo;
    }
    const int ok = got == v;
    scenario_count(st, ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        scenario_json_string(st->opts->out, at.file);
        fprintf(st->opts->out, ",\"line\":%u,\"op\":\"expect\",\"register\":", at.line);
        scenario_json_string(st->opts->out, lw->w[1]);
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

int statement_validate(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (st->pe) return scenario_error_at(st, at, "'validate' after the PE was created");
    char err[256] = "";
    const bool valid = armprof_config_validate(&st->cfg, err, sizeof err);
    if (lw->arrow < 0) {
        if (lw->n != 1) return scenario_usage(st, at, self);
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
        return scenario_error_at(st, at, "usage: validate => ok | validate => error \"text\"");
    scenario_count(st, ok);
    if (st->opts->json) {
        fprintf(st->opts->out, "{\"file\":");
        scenario_json_string(st->opts->out, at.file);
        fprintf(st->opts->out,
                ",\"line\":%u,\"op\":\"validate\",\"valid\":%s,\"message\":", at.line,
                valid ? "true" : "false");
        scenario_json_string(st->opts->out, err);
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

static int run_lines(run_state *st, const char *file, char *text);

/* Runs the file at path (relative to the file of at). */
static int include_file(run_state *st, where at, const char *file)
{
    if (st->depth >= MAX_INCLUDE_DEPTH)
        return scenario_error_at(st, at, "includes nested deeper than %d (a cycle?)",
                                 MAX_INCLUDE_DEPTH);
    char path[1024];
    const char *slash = strrchr(at.file, '/');
    if (file[0] != '/' && slash) {
        int dirlen = (int)(slash - at.file);
        if ((size_t)snprintf(path, sizeof path, "%.*s/%s", dirlen, at.file, file) >= sizeof path)
            return scenario_error_at(st, at, "include path too long");
    } else {
        snprintf(path, sizeof path, "%s", file);
    }
    /* Only regular files: a device or a FIFO could block or never end. */
    struct stat sb;
    if (stat(path, &sb) != 0)
        return scenario_error_at(st, at, "cannot open '%s': %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return scenario_error_at(st, at, "'%s' is not a regular file", path);
    if (sb.st_size > (off_t)MAX_FILE_SIZE)
        return scenario_error_at(st, at, "'%s' is larger than %u MiB", path, MAX_FILE_SIZE >> 20);
    FILE *f = fopen(path, "rb");
    if (!f) return scenario_error_at(st, at, "cannot open '%s': %s", path, strerror(errno));
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
        return scenario_error_at(st, at, "cannot read '%s': %s", path, strerror(read_errno));
    }
    if (!buf) return scenario_error_at(st, at, "out of memory reading '%s'", path);
    buf[len] = 0;
    if (memchr(buf, 0, len)) {
        free(buf);
        return scenario_error_at(st, at, "'%s' is not a text file", path);
    }
    st->depth++;
    char *name = dup_string(path);
    const int rc = name ? run_lines(st, name, buf) : scenario_error_at(st, at, "out of memory");
    st->depth--;
    free(name);
    free(buf);
    return rc;
}

int statement_include(run_state *st, where at, line_words *lw, const statement_info *self)
{
    if (lw->n != 2) return scenario_usage(st, at, self);
    return include_file(st, at, lw->w[1]);
}

/* ---- Configuration and output ---- */
int statement_preset(run_state *st, where at, line_words *lw, const statement_info *self)
{
    int rc;
    if (lw->n != 2) return scenario_usage(st, at, self);
    if ((rc = config_statement_allowed(st, at, self->name)) != 0) return rc;
    if (!armprof_config_preset(&st->cfg, lw->w[1]))
        return scenario_error_at(st, at, "unknown preset '%s' (see 'armprof presets')", lw->w[1]);
    st->cfg_started = true;
    return 0;
}

/* `feature NAME VALUE` and `option NAME VALUE`: known is whether the
 * configuration has a feature or option of that name. */
static int config_setting(run_state *st, where at, const line_words *lw, const statement_info *self,
                          bool known, const char *unknown)
{
    int rc;
    if (lw->n != 3) return scenario_usage(st, at, self);
    if ((rc = config_statement_allowed(st, at, self->name)) != 0) return rc;
    if (!known) return scenario_error_at(st, at, unknown, lw->w[1]);
    if (!st->cfg_started) {
        /* options start from their defaults even without a preset */
        for (int i = 0; i < ARMPROF_OPT_COUNT; i++)
            st->cfg.options[i] = armprof_option_default((armprof_option)i);
        st->cfg_started = true;
    }
    char err[256];
    if (!armprof_config_set(&st->cfg, lw->w[1], lw->w[2], err, sizeof err))
        return scenario_error_at(st, at, "%s", err);
    return 0;
}

int statement_feature(run_state *st, where at, line_words *lw, const statement_info *self)
{
    const bool known = lw->n == 3 && armprof_feature_lookup(lw->w[1]) >= 0;
    return config_setting(st, at, lw, self, known, "unknown feature '%s' (see 'armprof features')");
}

int statement_option(run_state *st, where at, line_words *lw, const statement_info *self)
{
    const bool known = lw->n == 3 && armprof_option_lookup(lw->w[1]) >= 0;
    return config_setting(st, at, lw, self, known,
                          "unknown option '%s' (see docs/configuration.md)");
}

int statement_print(run_state *st, where at, line_words *lw, const statement_info *self)
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
typedef struct statement {
    statement_info info;
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
        return scenario_error_at(st, at, "'=>' can follow only %s",
                                 scenario_expectation_statements(names, sizeof names));
    }
    if (!s) return scenario_error_at(st, at, "unknown statement '%s'", lw->w[0]);
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
            return scenario_error_at(st, at,
                                     "CR line endings are not supported: a carriage return not "
                                     "followed by a line feed (use LF or CRLF line ends)");
        if (strlen(p) > MAX_LINE)
            return scenario_error_at(st, at, "line longer than %d characters", MAX_LINE);
        line_words lw;
        const char *problem = NULL;
        if (!split_words(p, &lw, &problem)) return scenario_error_at(st, at, "%s", problem);
        if (lw.n > 0) {
            const int rc = run_statement(st, at, &lw);
            if (rc) return rc;
        } else if (lw.arrow >= 0) {
            return scenario_error_at(st, at, "'=>' with no statement before it");
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
