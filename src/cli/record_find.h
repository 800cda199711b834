/* SPDX-License-Identifier: BSD-3-Clause */
/* What `armprof record` needs before it runs a program: the program itself
 * (an AArch64 ELF file, and its interpreter when dynamically linked), a
 * qemu-aarch64 and its version, the plugin built for that version's plugin
 * API, and a root for a dynamic program's libraries. Each returns false
 * with one line in err saying what is wrong and how to fix it. */
#ifndef ARMPROF_CLI_RECORD_FIND_H
#define ARMPROF_CLI_RECORD_FIND_H

#include <stdbool.h>
#include <stddef.h>

/* name as execvp() would find it: a name with a '/' as it is, else the
 * first executable regular file of that name on PATH. Allocated into
 * *path. */
bool record_find_program(const char *name, char **path, char *err, size_t errlen);

/* path is a 64-bit little-endian AArch64 ELF executable (e_machine 183);
 * *interp is its PT_INTERP ("" for a static program); *fixed_address
 * whether it is ET_EXEC (it runs where it was linked: its symbols need no
 * load address). err says what the file is otherwise (a script, an ELF file for another
 * machine...). */
bool record_check_elf(const char *path, char *interp, size_t interplen, bool *fixed_address,
                      char *err, size_t errlen);

/* The qemu-aarch64 to run: given (--qemu), else the first on PATH, else
 * the one frontends/qemu/build-qemu.sh built (in $ARMPROF_CACHE or
 * ~/.cache/armprof). Allocated into *path. */
bool record_find_qemu(const char *given, char **path, char *err, size_t errlen);

/* The plugin for qemu's plugin API: its version asked (`qemu --version`),
 * the file built for it looked for beside the armprof command (installed:
 * ARMPROF_QEMU_PLUGIN_RELDIR; the build tree: frontends/qemu). Allocated
 * into *plugin; *version (MAJOR.MINOR) says which QEMU it is. */
bool record_find_plugin(const char *qemu, char **plugin, char *version, size_t versionlen,
                        char *err, size_t errlen);

/* The root for -L: root when given (a folder), else none for a static
 * program (*chosen NULL), else /usr/aarch64-linux-gnu when the
 * interpreter is there (Debian's libc6-arm64-cross), else none when the
 * host has the interpreter itself. */
bool record_sysroot(const char *root, const char *program, const char *interp, const char **chosen,
                    char *err, size_t errlen);

#endif
