/* SPDX-License-Identifier: BSD-3-Clause */
/* A small ELF file whose symbols name code ranges (the demo's phases), for
 * perf report. Reading ELF files is armprof/elf.h's. */
#ifndef ARMPROF_CLI_ELF_MAP_H
#define ARMPROF_CLI_ELF_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct elf_symbol {
    const char *name;
    uint64_t start, size;
} elf_symbol;

/* Writes an AArch64 executable whose one text section spans [text_start,
 * text_start + text_size) (NOPs), with a function symbol for each of
 * syms, which must lie inside it. text_start is 4KB-aligned. */
bool elf_write_symbols(const char *path, uint64_t text_start, uint64_t text_size,
                       const elf_symbol *syms, size_t nsyms, char *err, size_t errlen);

#endif
