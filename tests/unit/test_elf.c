/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof/elf.h on files of known layout, written by the command's
 * elf_write_symbols() (src/cli/elf_map.c: one PT_LOAD R+X of the text at
 * file offset 4096, at its address; .symtab with one STT_FUNC symbol each):
 * - the executable segment, page-aligned as mmap() maps it (System V ABI,
 *   program header: p_offset, p_vaddr, p_memsz), moved by a load bias;
 * - the load bias a mapping implies (start - the page of p_vaddr whose
 *   p_offset page is pgoff);
 * - symbols by address: inside, at the start, at the last byte, past the
 *   end of the last, between two, below the first;
 * - errors name the file and the problem. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/elf.h"
#include "check.h"
#include "cli/elf_map.h"

#define TEXT 0x400000ull

int main(void)
{
    char path[] = "/tmp/armprof-test-elf-XXXXXX", err[256];
    const int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0) return check_summary();
    close(fd);
    const elf_symbol syms[] = {{"alpha", TEXT + 0x100, 0x40}, {"beta", TEXT + 0x200, 0x10}};
    CHECK(elf_write_symbols(path, TEXT, 0x1800, syms, 2, err, sizeof err), "%s", err);

    armprof_elf_segment seg[ARMPROF_ELF_MAX_SEGMENTS];
    size_t n = 0;
    bool dyn = true;
    CHECK(armprof_elf_exec_segments(path, 0x10000, seg, &n, &dyn, err, sizeof err), "%s", err);
    CHECK(n == 1 && !dyn, "%zu segments, dynamic %d", n, dyn);
    CHECK(seg[0].start == TEXT + 0x10000 && seg[0].pgoff == 0x1000 && seg[0].len == 0x2000,
          "segment 0x%llx+0x%llx @0x%llx", (unsigned long long)seg[0].start,
          (unsigned long long)seg[0].len, (unsigned long long)seg[0].pgoff);
    uint64_t load = 0;
    CHECK(armprof_elf_load_bias(path, TEXT + 0x5000, 0x1000, &load) && load == 0x5000,
          "bias 0x%llx", (unsigned long long)load);
    CHECK(!armprof_elf_load_bias(path, TEXT, 0x3000, &load), "a bias for no segment");
    uint64_t entry = 0;
    /* elf_write_symbols() enters at the start of the text */
    CHECK(armprof_elf_entry(path, &entry) && entry == TEXT, "entry 0x%llx",
          (unsigned long long)entry);

    armprof_elf_symbols *s = armprof_elf_symbols_open(path, 0, err, sizeof err);
    CHECK(s != NULL, "%s", err);
    CHECK(armprof_elf_symbol_count(s) == 2, "%zu symbols", armprof_elf_symbol_count(s));
    uint64_t off = 0;
    const char *name = armprof_elf_symbol_at(s, TEXT + 0x100, &off);
    CHECK(name && !strcmp(name, "alpha") && off == 0, "start: %s", name ? name : "NULL");
    name = armprof_elf_symbol_at(s, TEXT + 0x13f, &off);
    CHECK(name && !strcmp(name, "alpha") && off == 0x3f, "last byte: %s", name ? name : "NULL");
    CHECK(!armprof_elf_symbol_at(s, TEXT + 0x140, NULL), "past alpha's end");
    name = armprof_elf_symbol_at(s, TEXT + 0x208, NULL);
    CHECK(name && !strcmp(name, "beta"), "beta: %s", name ? name : "NULL");
    CHECK(!armprof_elf_symbol_at(s, TEXT + 0x210, NULL), "past beta's end");
    CHECK(!armprof_elf_symbol_at(s, TEXT, NULL), "below the first");
    armprof_elf_symbols_close(s);
    s = armprof_elf_symbols_open(path, 0x1000, err, sizeof err);
    name = armprof_elf_symbol_at(s, TEXT + 0x1100, NULL);
    CHECK(name && !strcmp(name, "alpha"), "moved by the bias: %s", name ? name : "NULL");
    armprof_elf_symbols_close(s);

    /* not an ELF file; no file */
    FILE *f = fopen(path, "w");
    fputs("hello\n", f);
    fclose(f);
    CHECK(!armprof_elf_exec_segments(path, 0, seg, &n, NULL, err, sizeof err) &&
              strstr(err, path) && strstr(err, "not an ELF file"),
          "%s", err);
    CHECK(!armprof_elf_symbols_open(path, 0, err, sizeof err) && strstr(err, "not an ELF file"),
          "%s", err);
    remove(path);
    CHECK(!armprof_elf_symbols_open(path, 0, err, sizeof err) && strstr(err, path), "%s", err);
    return check_summary();
}
