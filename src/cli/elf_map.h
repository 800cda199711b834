/* SPDX-License-Identifier: BSD-3-Clause */
/* What `armprof perf-data --elf` needs of an ELF file: where its executable
 * segments are mapped, as a loader maps them, for perf's MMAP2 events; and
 * a small ELF whose symbols name code ranges (the demo's phases). */
#ifndef ARMPROF_CLI_ELF_MAP_H
#define ARMPROF_CLI_ELF_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { ELF_MAP_MAX_SEGMENTS = 16 };

/* One executable PT_LOAD, page-aligned as mmap() maps it. */
typedef struct elf_segment {
    uint64_t start, len, pgoff;
} elf_segment;

/* The executable segments of a 64-bit little-endian ELF file, moved by
 * load (a shared object's or PIE's load address; 0 for an executable at its
 * link address). False with a message naming the file if it is not such an
 * ELF file or has no executable segment. */
bool elf_exec_segments(const char *path, uint64_t load, elf_segment *seg, size_t *nseg, char *err,
                       size_t errlen);

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
