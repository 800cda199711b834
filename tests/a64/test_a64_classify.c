/* SPDX-License-Identifier: BSD-3-Clause */
/* The A64 classifier against tests/a64/insns.txt.
 *
 *   test_a64_classify WORDS TABLE
 *
 * WORDS holds the table's instructions assembled in order, one
 * little-endian 32-bit word each (tests/a64_classify.cmake makes it with the
 * cross assembler and objcopy -O binary). Each table line is
 *
 *   <assembly> | <class name> | <fields>
 *
 * and each field is "name=value", "flag" (true) or "!flag" (false); only
 * the fields listed are checked. Blank lines and lines starting with '#'
 * are not instructions. Every mismatch is printed with the line's assembly
 * text. Beyond the fields, every line checks that armprof_a64_fill_op()
 * copies the classification into an armprof_op. */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/a64.h"
#include "../unit/check.h"

#define NONE 0xff

static const char *const cond_names[16] = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
                                           "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"};
static const char *const ext_names[] = {"none", "uxtw", "lsl", "sxtw", "sxtx"};
static const char *const ldst_names[] = {"general", "extended", "simdfp", "svesme", "unspecified",
                                         "tags",    "memcopy",  "memset", "gcs",    "nv2"};
static const char *const other_names[] = {"general", "sve", "sme"};
static const char *const branch_names[] = {"direct", "indirect", "call",     "indcall",
                                           "return", "eret",     "exception"};
static const char *const class_names[] = {"other", "branch", "load", "store"};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The index of name in names[], or -1. */
static int lookup(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) return (int)i;
    return -1;
}
#define LOOKUP(names, name) lookup(names, sizeof names / sizeof names[0], name)

/* A register field: a number, "sp" (31) or "-" (none). */
static bool parse_reg(const char *v, long *out)
{
    if (strcmp(v, "-") == 0) {
        *out = NONE;
        return true;
    }
    if (strcmp(v, "sp") == 0 || strcmp(v, "xzr") == 0) {
        *out = 31;
        return true;
    }
    char *end;
    *out = strtol(v, &end, 0);
    return *end == '\0';
}

typedef struct line_ctx {
    const char *text;
    int lineno;
} line_ctx;

static void check_value(const line_ctx *l, const char *name, long got, long want)
{
    CHECK(got == want, "line %d: %s: %s is %ld, not %ld", l->lineno, l->text, name, got, want);
}

static void check_flag(const line_ctx *l, const char *name, bool got, bool want)
{
    CHECK(got == want, "line %d: %s: %s is %s", l->lineno, l->text, name, got ? "set" : "clear");
}

/* One "name=value" or "[!]flag" field. */
static void check_field(const line_ctx *l, const armprof_a64_insn *d, char *field)
{
    bool want = true;
    char *value = strchr(field, '=');
    if (value) *value++ = '\0';
    if (!value && field[0] == '!') {
        want = false;
        field++;
    }
    if (!value) {
        static const struct {
            const char *name;
            size_t off;
        } flags[] = {
#define FLAG(n, f) {n, offsetof(armprof_a64_insn, f)}
            FLAG("undef", undefined),
            FLAG("cond", conditional),
            FLAG("fp", fp),
            FLAG("simd", simd),
            FLAG("sve", sve),
            FLAG("sme", sme),
            FLAG("ar", acquire_release),
            FLAG("excl", exclusive),
            FLAG("atomic", atomic),
            FLAG("pred", predicated),
            FLAG("gather", gather_scatter),
            FLAG("gcs", gcs),
            FLAG("pauth", pauth),
            FLAG("prefetch", prefetch),
            FLAG("ff", first_fault),
            FLAG("nf", non_fault),
            FLAG("system", system),
            FLAG("exc", exception_gen),
            FLAG("sysva", sys_va),
            FLAG("wb", writeback),
            FLAG("post", post_index),
            FLAG("pcrel", pc_relative),
            FLAG("vl", offset_vl),
            FLAG("vbase", vector_base),
            FLAG("vindex", vector_index),
#undef FLAG
        };
        for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
            if (strcmp(flags[i].name, field) == 0) {
                const bool got = *(const bool *)((const char *)d + flags[i].off);
                check_flag(l, field, got, want);
                return;
            }
        }
        CHECK(false, "line %d: unknown flag '%s'", l->lineno, field);
        return;
    }
    long v = 0;
    bool ok = true;
    if (strcmp(field, "size") == 0) { /* bytes per element, "?" for none */
        const long got = d->size_log2 == ARMPROF_A64_SIZE_UNKNOWN ? -1 : 1L << d->size_log2;
        check_value(l, "size", got, strcmp(value, "?") == 0 ? -1 : strtol(value, NULL, 0));
    } else if (strcmp(field, "bytes") == 0) {
        check_value(l, field, d->bytes, strtol(value, NULL, 0));
    } else if (strcmp(field, "regs") == 0) {
        check_value(l, field, d->regs, strtol(value, NULL, 0));
    } else if (strcmp(field, "offset") == 0) {
        check_value(l, field, (long)d->offset, strtol(value, NULL, 0));
    } else if (strcmp(field, "shift") == 0) {
        check_value(l, field, d->shift, strtol(value, NULL, 0));
    } else if (strcmp(field, "stage") == 0) {
        check_value(l, field, d->mops_stage, strtol(value, NULL, 0));
    } else if (strcmp(field, "bit") == 0) {
        check_value(l, field, d->test_bit, strtol(value, NULL, 0));
    } else if (strcmp(field, "cond") == 0) {
        v = LOOKUP(cond_names, value);
        if (v < 0) v = strtol(value, NULL, 0);
        check_value(l, field, d->cond, v);
    } else if (strcmp(field, "ext") == 0) {
        ok = (v = LOOKUP(ext_names, value)) >= 0;
        if (ok) check_value(l, field, d->extend, v);
    } else if (strcmp(field, "class") == 0) {
        ok = (v = LOOKUP(class_names, value)) >= 0;
        if (ok) check_value(l, field, d->op_class, v);
    } else if (strcmp(field, "ldst") == 0) {
        ok = (v = LOOKUP(ldst_names, value)) >= 0;
        if (ok) check_value(l, field, d->ldst_kind, v);
    } else if (strcmp(field, "other") == 0) {
        ok = (v = LOOKUP(other_names, value)) >= 0;
        if (ok) check_value(l, field, d->other_kind, v);
    } else if (strcmp(field, "branch") == 0) {
        ok = (v = LOOKUP(branch_names, value)) >= 0;
        if (ok) check_value(l, field, d->branch_kind, v);
    } else {
        static const struct {
            const char *name;
            size_t off;
        } regs[] = {
#define REG(n, f) {n, offsetof(armprof_a64_insn, f)}
            REG("base", base_reg), REG("index", index_reg), REG("rt", rt),
            REG("rt2", rt2),       REG("rs", rs),           REG("target", target_reg),
#undef REG
        };
        size_t i = 0;
        while (i < sizeof regs / sizeof regs[0] && strcmp(regs[i].name, field) != 0)
            i++;
        ok = i < sizeof regs / sizeof regs[0] && parse_reg(value, &v);
        if (ok) check_value(l, field, *((const uint8_t *)d + regs[i].off), v);
    }
    CHECK(ok, "line %d: bad field '%s=%s'", l->lineno, field, value);
}

/* armprof_a64_fill_op() copies what the decoder says. */
static void check_fill_op(const line_ctx *l, const armprof_a64_insn *d)
{
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0x1234; /* left alone */
    armprof_a64_fill_op(d, &op);
    bool same = op.pc == 0x1234;
    if (d->undefined) {
        same = same && op.op_class == ARMPROF_OP_OTHER && op.other_kind == ARMPROF_OTHER_GENERAL;
    } else {
        same = same && op.op_class == d->op_class && op.conditional == d->conditional &&
               op.fp == d->fp && op.simd == d->simd && op.acquire_release == d->acquire_release &&
               op.exclusive == d->exclusive && op.atomic == d->atomic &&
               op.predicated == d->predicated && op.gather_scatter == d->gather_scatter;
        if (d->op_class == ARMPROF_OP_BRANCH) same = same && op.branch_kind == d->branch_kind;
        if (d->op_class == ARMPROF_OP_LOAD || d->op_class == ARMPROF_OP_STORE)
            same = same && op.ldst_kind == d->ldst_kind;
        if (d->op_class == ARMPROF_OP_OTHER) same = same && op.other_kind == d->other_kind;
    }
    CHECK(same, "line %d: %s: armprof_a64_fill_op() differs from the decoder", l->lineno, l->text);
}

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s WORDS TABLE\n", argv[0]);
        return 2;
    }
    size_t nbytes = 0;
    unsigned char *words = read_file(argv[1], &nbytes);
    FILE *table = fopen(argv[2], "r");
    if (!words || !table) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], words ? argv[2] : argv[1]);
        return 2;
    }
    char buf[1024];
    int lineno = 0;
    size_t index = 0, lines = 0;
    while (fgets(buf, sizeof buf, table)) {
        lineno++;
        char *s = trim(buf);
        if (*s == '\0' || *s == '#') continue;
        char *cls = strchr(s, '|');
        char *fields = cls ? strchr(cls + 1, '|') : NULL;
        if (!cls) {
            CHECK(false, "line %d: no class: %s", lineno, s);
            continue;
        }
        *cls++ = '\0';
        if (fields) *fields++ = '\0';
        const line_ctx l = {trim(s), lineno};
        lines++;
        if (4 * index + 4 > nbytes) {
            CHECK(false, "line %d: %s: no word assembled for it", lineno, l.text);
            break;
        }
        const unsigned char *p = words + 4 * index++;
        const uint32_t insn =
            (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        armprof_a64_insn d;
        const bool ok = armprof_a64_decode(insn, &d);
        const char *want = trim(cls);
        const char *got = armprof_a64_class_name(&d);
        CHECK(strcmp(got, want) == 0, "line %d: %s (0x%08x): class %s, not %s", lineno, l.text,
              insn, got, want);
        CHECK(ok == !d.undefined && d.insn == insn, "line %d: %s: return value", lineno, l.text);
        check_fill_op(&l, &d);
        for (char *f = fields ? strtok(fields, " \t") : NULL; f; f = strtok(NULL, " \t"))
            check_field(&l, &d, f);
    }
    fclose(table);
    CHECK(4 * index == nbytes, "%zu words assembled, %zu table lines", nbytes / 4, lines);
    free(words);
    printf("a64_classify: %zu instructions\n", lines);
    return check_summary();
}
