/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal ELF64 executable with a symbol table (the System V ABI's
 * object file format), for the demo's code ranges; reading ELF files is
 * armprof/elf.h's. */
#define _POSIX_C_SOURCE 200809L
#include "cli/elf_map.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/outfile.h"

enum {
    EHDR_SIZE = 64,
    PHDR_SIZE = 56,
    SHDR_SIZE = 64,
    SYM_SIZE = 24,
    PT_LOAD = 1,
    PF_X = 1,
    PF_R = 4,
    ET_EXEC = 2,
    EM_AARCH64 = 183,
    SHT_PROGBITS = 1,
    SHT_SYMTAB = 2,
    SHT_STRTAB = 3,
    SHF_ALLOC = 2,
    SHF_EXECINSTR = 4,
    PAGE = 4096,
};

static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* n bytes of v, little-endian */
static void le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The layout of elf_write_symbols()'s file: the ELF header and the one
 * program header in the first page, the text from the second, then the
 * symbol table, the two string tables and the section headers. */
bool elf_write_symbols(const char *path, uint64_t text_start, uint64_t text_size,
                       const elf_symbol *syms, size_t nsyms, char *err, size_t errlen)
{
    static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
    enum { SH_TEXT = 1, SH_SYMTAB = 7, SH_STRTAB = 15, SH_SHSTRTAB = 23 }; /* name offsets */
    if (text_start % PAGE || text_size == 0 || text_size > (64u << 20)) {
        say(err, errlen, "%s: a text of %llu bytes at 0x%llx (4KB-aligned, at most 64MB)", path,
            (unsigned long long)text_size, (unsigned long long)text_start);
        return false;
    }
    size_t strtab_size = 1;
    for (size_t i = 0; i < nsyms; i++) {
        if (syms[i].start < text_start || syms[i].start + syms[i].size > text_start + text_size) {
            say(err, errlen, "%s: symbol %s is outside the text", path, syms[i].name);
            return false;
        }
        strtab_size += strlen(syms[i].name) + 1;
    }
    const uint64_t text_at = PAGE, symtab_at = text_at + text_size;
    const uint64_t symtab_size = (nsyms + 1) * SYM_SIZE;
    const uint64_t strtab_at = symtab_at + symtab_size;
    const uint64_t shstrtab_at = strtab_at + strtab_size;
    const uint64_t shdr_at = (shstrtab_at + sizeof shstrtab + 7) & ~(uint64_t)7;
    const size_t size = (size_t)(shdr_at + 5 * SHDR_SIZE);
    uint8_t *b = calloc(1, size);
    if (!b) {
        say(err, errlen, "%s: out of memory", path);
        return false;
    }
    memcpy(b, "\177ELF\2\1\1", 7); /* 64-bit, little-endian, version 1 */
    le(b + 16, ET_EXEC, 2);
    le(b + 18, EM_AARCH64, 2);
    le(b + 20, 1, 4);
    le(b + 24, text_start, 8); /* entry */
    le(b + 32, EHDR_SIZE, 8);  /* phoff */
    le(b + 40, shdr_at, 8);
    le(b + 52, EHDR_SIZE, 2);
    le(b + 54, PHDR_SIZE, 2);
    le(b + 56, 1, 2);
    le(b + 58, SHDR_SIZE, 2);
    le(b + 60, 5, 2);
    le(b + 62, 4, 2); /* .shstrtab */
    uint8_t *ph = b + EHDR_SIZE;
    le(ph, PT_LOAD, 4);
    le(ph + 4, PF_R | PF_X, 4);
    le(ph + 8, text_at, 8);
    le(ph + 16, text_start, 8);
    le(ph + 24, text_start, 8);
    le(ph + 32, text_size, 8);
    le(ph + 40, text_size, 8);
    le(ph + 48, PAGE, 8);
    for (uint64_t o = 0; o + 4 <= text_size; o += 4)
        le(b + text_at + o, 0xd503201f, 4); /* NOP */
    char *strtab = (char *)b + strtab_at;
    size_t name = 1;
    for (size_t i = 0; i < nsyms; i++) {
        uint8_t *s = b + symtab_at + (i + 1) * SYM_SIZE;
        le(s, name, 4);
        s[4] = 0x12;     /* STB_GLOBAL, STT_FUNC */
        le(s + 6, 1, 2); /* in .text */
        le(s + 8, syms[i].start, 8);
        le(s + 16, syms[i].size, 8);
        strcpy(strtab + name, syms[i].name);
        name += strlen(syms[i].name) + 1;
    }
    memcpy(b + shstrtab_at, shstrtab, sizeof shstrtab);
    /* section headers: null, .text, .symtab, .strtab, .shstrtab */
    const struct {
        uint32_t name, type;
        uint64_t flags, addr, offset, size;
        uint32_t link, info;
        uint64_t align, entsize;
    } sh[5] = {
        {0},
        {SH_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_start, text_at, text_size, 0, 0, 4,
         0},
        {SH_SYMTAB, SHT_SYMTAB, 0, 0, symtab_at, symtab_size, 3, 1, 8, SYM_SIZE},
        {SH_STRTAB, SHT_STRTAB, 0, 0, strtab_at, strtab_size, 0, 0, 1, 0},
        {SH_SHSTRTAB, SHT_STRTAB, 0, 0, shstrtab_at, sizeof shstrtab, 0, 0, 1, 0},
    };
    for (unsigned i = 0; i < 5; i++) {
        uint8_t *s = b + shdr_at + i * SHDR_SIZE;
        le(s, sh[i].name, 4);
        le(s + 4, sh[i].type, 4);
        le(s + 8, sh[i].flags, 8);
        le(s + 16, sh[i].addr, 8);
        le(s + 24, sh[i].offset, 8);
        le(s + 32, sh[i].size, 8);
        le(s + 40, sh[i].link, 4);
        le(s + 44, sh[i].info, 4);
        le(s + 48, sh[i].align, 8);
        le(s + 56, sh[i].entsize, 8);
    }
    armprof_outfile *f = armprof_outfile_open(path, NULL, 0, err, errlen);
    bool ok = f != NULL;
    errno = 0;
    if (ok && fwrite(b, 1, size, armprof_outfile_stream(f)) != size) {
        say(err, errlen, "%s: %s", path, errno ? strerror(errno) : "write error");
        armprof_outfile_abandon(f);
        ok = false;
    } else if (ok) {
        ok = armprof_outfile_commit(f, err, errlen);
    }
    free(b);
    return ok;
}
