/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: writing a file without destroying one. The perf.data writer
 * writes through it, and so does every command of armprof that writes a
 * file:
 *
 *   - a path that names a regular file, or nothing yet, is written to a new
 *     temporary file in the same folder, renamed over the path by
 *     armprof_outfile_commit() only when every write succeeded: until then
 *     (and for good when a write fails) the path holds what it held before.
 *     The new file keeps an existing file's permissions and owner.
 *   - a path that names anything else (a character device, a FIFO, a
 *     socket, a symbolic link, followed) is opened and written in place and
 *     never removed: /dev/null, /dev/stdout into a pipe and a link stay what
 *     they are.
 *   - an output that is one of the inputs (the same device and inode,
 *     whatever the names) is refused before anything is written, when it
 *     is a regular file.
 *
 *   const char *in[] = {"in.spe"};
 *   armprof_outfile *o = armprof_outfile_open("out.txt", in, 1, err, sizeof err);
 *   fprintf(armprof_outfile_stream(o), ...);
 *   if (!armprof_outfile_commit(o, err, sizeof err)) ...
 */
#ifndef ARMPROF_OUTFILE_H
#define ARMPROF_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

typedef struct armprof_outfile armprof_outfile;

/* Opens path for writing as above. inputs (ninputs of them, NULL when
 * none) are the files the output is made from. NULL with "PATH: reason" in
 * err when path is one of them or cannot be written (its folder cannot
 * hold a new file: the reason is the folder's). */
armprof_outfile *armprof_outfile_open(const char *path, const char *const *inputs, size_t ninputs,
                                      char *err, size_t errlen);
/* Whether an open stream (standard output) may be written: false with
 * "NAME: reason" in err when it is a regular file that is one of inputs. */
bool armprof_outfile_check_stream(FILE *stream, const char *name, const char *const *inputs,
                                  size_t ninputs, char *err, size_t errlen);
/* The stream to write to. */
FILE *armprof_outfile_stream(const armprof_outfile *o);
/* Closes the file and puts it in place (the rename), and frees o. false
 * with "PATH: reason" in err when a write, the close or the rename failed;
 * the path then holds what it held before (unless written in place). */
bool armprof_outfile_commit(armprof_outfile *o, char *err, size_t errlen);
/* Closes the file without putting it in place (the temporary file is
 * removed; nothing else ever is), and frees o. */
void armprof_outfile_abandon(armprof_outfile *o);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif

#endif
