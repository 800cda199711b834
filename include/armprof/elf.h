/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: what profiling tools need of an ELF file (64-bit little-endian,
 * the System V ABI's object file format): where a loader maps its
 * executable segments, for perf's MMAP2 side-band, and which function an
 * address falls in, for reports by symbol. Part of the perf.data library
 * (libarmprof and libarmprof_perfdata); it needs nothing of the model. */
#ifndef ARMPROF_ELF_H
#define ARMPROF_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

#define ARMPROF_ELF_MAX_SEGMENTS 16

/* One executable PT_LOAD segment, page-aligned (4KB) as mmap() maps it. */
typedef struct armprof_elf_segment {
    uint64_t start, len, pgoff;
} armprof_elf_segment;

/* The executable segments of path, moved by load (a shared object's or
 * PIE's load bias; 0 for an executable at its link address), at most
 * ARMPROF_ELF_MAX_SEGMENTS into seg, their number in *nseg. False with a
 * message naming the file when it is not such an ELF file or has no
 * executable segment. *dynamic (may be NULL) says whether the file is
 * ET_DYN (position-independent: its load bias is the loader's choice). */
bool armprof_elf_exec_segments(const char *path, uint64_t load, armprof_elf_segment *seg,
                               size_t *nseg, bool *dynamic, char *err, size_t errlen);

/* The load bias of path when mapped so that its segment at file offset
 * pgoff (page-aligned) starts at address start: what a /proc/PID/maps line
 * or an mmap() of the file tells. False when no PT_LOAD segment has that
 * offset. */
bool armprof_elf_load_bias(const char *path, uint64_t start, uint64_t pgoff, uint64_t *load);

/* The entry point (e_entry) of path, before any load bias. False when it
 * is not a 64-bit little-endian ELF file. */
bool armprof_elf_entry(const char *path, uint64_t *entry);

typedef struct armprof_elf_symbols armprof_elf_symbols;

/* The function symbols (STT_FUNC, and untyped ones in executable
 * sections, which assembly code has) of path's .symtab, or of its .dynsym
 * when stripped, moved by load. NULL with a message when the file cannot
 * be read or has neither table. */
armprof_elf_symbols *armprof_elf_symbols_open(const char *path, uint64_t load, char *err,
                                              size_t errlen);
/* The symbol addr falls in: the one with the highest start <= addr, when
 * addr is below its end (start + size; a symbol of size 0 reaches to the
 * next one). NULL when none; *offset (may be NULL) is addr - start. The
 * name lives as long as s. */
const char *armprof_elf_symbol_at(const armprof_elf_symbols *s, uint64_t addr, uint64_t *offset);
size_t armprof_elf_symbol_count(const armprof_elf_symbols *s);
void armprof_elf_symbols_close(armprof_elf_symbols *s);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif
#endif
