/* SPDX-License-Identifier: BSD-3-Clause */
/* ELF64 little-endian as far as profiling tools need it (armprof/elf.h):
 * the program headers, and the symbol tables. */
#define _POSIX_C_SOURCE 200809L
#include "armprof/elf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    EHDR_SIZE = 64,
    PHDR_SIZE = 56,
    SHDR_SIZE = 64,
    SYM_SIZE = 24,
    PT_LOAD = 1,
    PF_X = 1,
    ET_DYN = 3,
    SHT_SYMTAB = 2,
    SHT_DYNSYM = 11,
    SHF_EXECINSTR = 4,
    STT_NOTYPE = 0,
    STT_FUNC = 2,
    PAGE = 4096,
    /* a table larger than this is not a symbol table we read */
    MAX_TABLE = 256 << 20,
};

struct armprof_elf_symbols {
    struct sym {
        uint64_t start, end;
        const char *name;
    } * sym;
    size_t n;
    char *strings;
};

static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static uint64_t get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    while (n--)
        v = v << 8 | p[n];
    return v;
}

static bool read_at(FILE *f, uint64_t offset, void *buf, size_t n)
{
    return fseek(f, (long)offset, SEEK_SET) == 0 && fread(buf, 1, n, f) == n;
}

/* The file open with its ELF header read and checked. */
static FILE *open_elf(const char *path, uint8_t e[EHDR_SIZE], char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        say(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fread(e, 1, EHDR_SIZE, f) != EHDR_SIZE || memcmp(e, "\177ELF", 4) != 0) {
        say(err, errlen, "%s: not an ELF file", path);
        fclose(f);
        return NULL;
    }
    if (e[4] != 2 || e[5] != 1) {
        say(err, errlen, "%s: a %s-bit %s-endian ELF file (only 64-bit little-endian is read)",
            path, e[4] == 1 ? "32" : "64", e[5] == 2 ? "big" : "little");
        fclose(f);
        return NULL;
    }
    return f;
}

/* Calls fn for each program header until it returns false. */
static bool each_phdr(FILE *f, const uint8_t e[EHDR_SIZE], const char *path, char *err,
                      size_t errlen, bool (*fn)(void *ctx, const uint8_t *ph), void *ctx)
{
    const uint64_t phoff = get(e + 32, 8);
    const unsigned phentsize = (unsigned)get(e + 54, 2), phnum = (unsigned)get(e + 56, 2);
    if (phentsize < PHDR_SIZE || phnum == 0) {
        say(err, errlen, "%s: no program headers (an object file, not an executable?)", path);
        return false;
    }
    for (unsigned i = 0; i < phnum; i++) {
        uint8_t ph[PHDR_SIZE];
        if (!read_at(f, phoff + (uint64_t)i * phentsize, ph, sizeof ph)) {
            say(err, errlen, "%s: program header %u is past the end of the file", path, i);
            return false;
        }
        if (!fn(ctx, ph)) break;
    }
    return true;
}

typedef struct seg_ctx {
    uint64_t load;
    armprof_elf_segment *seg;
    size_t *nseg;
    bool too_many;
} seg_ctx;

static bool add_segment(void *ctx, const uint8_t *ph)
{
    seg_ctx *c = ctx;
    if (get(ph, 4) != PT_LOAD || !(get(ph + 4, 4) & PF_X)) return true;
    if (*c->nseg == ARMPROF_ELF_MAX_SEGMENTS) {
        c->too_many = true;
        return false;
    }
    const uint64_t offset = get(ph + 8, 8), vaddr = get(ph + 16, 8) + c->load;
    const uint64_t memsz = get(ph + 40, 8);
    armprof_elf_segment *s = &c->seg[(*c->nseg)++];
    s->start = vaddr & ~(uint64_t)(PAGE - 1);
    s->pgoff = offset & ~(uint64_t)(PAGE - 1);
    s->len = ((vaddr + memsz + PAGE - 1) & ~(uint64_t)(PAGE - 1)) - s->start;
    return true;
}

bool armprof_elf_exec_segments(const char *path, uint64_t load, armprof_elf_segment *seg,
                               size_t *nseg, bool *dynamic, char *err, size_t errlen)
{
    *nseg = 0;
    uint8_t e[EHDR_SIZE];
    FILE *f = open_elf(path, e, err, errlen);
    if (!f) return false;
    if (dynamic) *dynamic = get(e + 16, 2) == ET_DYN;
    seg_ctx c = {load, seg, nseg, false};
    bool ok = each_phdr(f, e, path, err, errlen, add_segment, &c);
    fclose(f);
    if (ok && c.too_many) {
        say(err, errlen, "%s: more than %d executable segments", path, ARMPROF_ELF_MAX_SEGMENTS);
        ok = false;
    }
    if (ok && *nseg == 0) {
        say(err, errlen, "%s: no executable (PF_X) PT_LOAD segment", path);
        ok = false;
    }
    return ok;
}

typedef struct bias_ctx {
    uint64_t start, pgoff, load;
    bool found;
} bias_ctx;

static bool find_bias(void *ctx, const uint8_t *ph)
{
    bias_ctx *c = ctx;
    if (get(ph, 4) != PT_LOAD || (get(ph + 8, 8) & ~(uint64_t)(PAGE - 1)) != c->pgoff) return true;
    c->load = c->start - (get(ph + 16, 8) & ~(uint64_t)(PAGE - 1));
    c->found = true;
    return false;
}

bool armprof_elf_load_bias(const char *path, uint64_t start, uint64_t pgoff, uint64_t *load)
{
    char err[8];
    uint8_t e[EHDR_SIZE];
    FILE *f = open_elf(path, e, err, sizeof err);
    if (!f) return false;
    bias_ctx c = {start, pgoff, 0, false};
    each_phdr(f, e, path, err, sizeof err, find_bias, &c);
    fclose(f);
    if (c.found) *load = c.load;
    return c.found;
}

bool armprof_elf_entry(const char *path, uint64_t *entry)
{
    char err[8];
    uint8_t e[EHDR_SIZE];
    FILE *f = open_elf(path, e, err, sizeof err);
    if (!f) return false;
    fclose(f);
    *entry = get(e + 24, 8);
    return true;
}

static int by_start(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* The header of the first section of type want, copied to sh. */
static bool find_section(unsigned want, uint8_t sh[SHDR_SIZE], const uint8_t *shdrs, unsigned shnum)
{
    for (unsigned i = 0; i < shnum; i++)
        if (get(shdrs + (size_t)i * SHDR_SIZE + 4, 4) == want) {
            memcpy(sh, shdrs + (size_t)i * SHDR_SIZE, SHDR_SIZE);
            return true;
        }
    return false;
}

armprof_elf_symbols *armprof_elf_symbols_open(const char *path, uint64_t load, char *err,
                                              size_t errlen)
{
    uint8_t e[EHDR_SIZE];
    FILE *f = open_elf(path, e, err, errlen);
    if (!f) return NULL;
    const uint64_t shoff = get(e + 40, 8);
    const unsigned shentsize = (unsigned)get(e + 58, 2), shnum = (unsigned)get(e + 60, 2);
    armprof_elf_symbols *s = NULL;
    uint8_t *shdrs = NULL, *table = NULL;
    uint8_t sh[SHDR_SIZE], strsh[SHDR_SIZE];
    if (shentsize != SHDR_SIZE || shnum == 0 || shnum > 65535) {
        say(err, errlen, "%s: no section headers", path);
        goto out;
    }
    shdrs = malloc((size_t)shnum * SHDR_SIZE);
    if (!shdrs || !read_at(f, shoff, shdrs, (size_t)shnum * SHDR_SIZE)) {
        say(err, errlen, "%s: the section headers are past the end of the file", path);
        goto out;
    }
    if (!find_section(SHT_SYMTAB, sh, shdrs, shnum) &&
        !find_section(SHT_DYNSYM, sh, shdrs, shnum)) {
        say(err, errlen, "%s: no symbol table (.symtab or .dynsym)", path);
        goto out;
    }
    const unsigned link = (unsigned)get(sh + 40, 4);
    const uint64_t size = get(sh + 32, 8),
                   strsize = link < shnum ? get(shdrs + (size_t)link * SHDR_SIZE + 32, 8) : 0;
    if (link >= shnum || size > MAX_TABLE || strsize > MAX_TABLE || strsize == 0) {
        say(err, errlen, "%s: a malformed symbol table", path);
        goto out;
    }
    memcpy(strsh, shdrs + (size_t)link * SHDR_SIZE, SHDR_SIZE);
    s = calloc(1, sizeof *s);
    table = malloc(size ? size : 1);
    if (s) s->strings = malloc(strsize + 1);
    if (s) s->sym = malloc((size / SYM_SIZE + 1) * sizeof *s->sym);
    if (!s || !table || !s->strings || !s->sym || !read_at(f, get(sh + 24, 8), table, size) ||
        !read_at(f, get(strsh + 24, 8), s->strings, strsize)) {
        say(err, errlen, "%s: the symbol table cannot be read", path);
        armprof_elf_symbols_close(s);
        s = NULL;
        goto out;
    }
    s->strings[strsize] = 0;
    for (uint64_t at = 0; at + SYM_SIZE <= size; at += SYM_SIZE) {
        const uint8_t *y = table + at;
        const unsigned type = y[4] & 0xf, shndx = (unsigned)get(y + 6, 2);
        const uint64_t name = get(y, 4), value = get(y + 8, 8), symsize = get(y + 16, 8);
        if (name == 0 || name >= strsize || shndx == 0 || shndx >= shnum || value == 0) continue;
        const bool exec = get(shdrs + (size_t)shndx * SHDR_SIZE + 8, 8) & SHF_EXECINSTR;
        if (!exec || (type != STT_FUNC && type != STT_NOTYPE)) continue;
        /* $x, $d: AArch64 mapping symbols, not functions */
        if (s->strings[name] == '$') continue;
        s->sym[s->n++] =
            (struct sym){value + load, symsize ? value + load + symsize : 0, s->strings + name};
    }
    qsort(s->sym, s->n, sizeof *s->sym, by_start);
    /* a symbol of size 0 reaches to the next one */
    for (size_t i = 0; i < s->n; i++)
        if (!s->sym[i].end) s->sym[i].end = i + 1 < s->n ? s->sym[i + 1].start : UINT64_MAX;
out:
    free(shdrs);
    free(table);
    fclose(f);
    return s;
}

const char *armprof_elf_symbol_at(const armprof_elf_symbols *s, uint64_t addr, uint64_t *offset)
{
    size_t lo = 0, hi = s ? s->n : 0;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (s->sym[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    /* lo - 1 is the last symbol starting at or below addr; a symbol with a
     * size may end before addr while an earlier, larger one covers it */
    for (size_t i = lo; i-- > 0;) {
        if (addr < s->sym[i].end) {
            if (offset) *offset = addr - s->sym[i].start;
            return s->sym[i].name;
        }
        if (lo - i > 8) break;
    }
    return NULL;
}

size_t armprof_elf_symbol_count(const armprof_elf_symbols *s)
{
    return s ? s->n : 0;
}

void armprof_elf_symbols_close(armprof_elf_symbols *s)
{
    if (!s) return;
    free(s->sym);
    free(s->strings);
    free(s);
}
