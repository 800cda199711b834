/* SPDX-License-Identifier: BSD-3-Clause */
/* Output the command must not lose: every command's writes are checked, and
 * a write that failed (a full disk, a closed standard output) makes the
 * command say so on stderr and exit with status 2. */
#ifndef ARMPROF_CLI_OUTPUT_H
#define ARMPROF_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "armprof/outfile.h"

/* Called first in main(): a standard descriptor (0, 1, 2) that is closed is
 * opened on /dev/null for the other direction, so that a file the command
 * opens cannot take its number and writes to a closed standard output still
 * fail (EBADF) instead of going into that file. */
void cli_keep_standard_fds(void);

/* Whether a write to f has failed. A command that writes much calls it as
 * it goes to stop early; the first failure's cause (errno) is remembered
 * for the message cli_finish_output() prints. */
bool cli_write_failed(FILE *f);

/* Ends the output to f: fclose() when close is true, fflush() otherwise.
 * When a write to f failed, now or before, prints "PROG: NAME: why" on
 * stderr and returns 2; otherwise returns rc. */
int cli_finish_output(FILE *f, bool close, const char *prog, const char *name, int rc);

/* A file named on the command line as the output (-o), written through
 * armprof/outfile.h: what is at path stays until the output is complete,
 * a device or a link is written through, and an output that is one of the
 * inputs is refused. NULL after "PROG: PATH: reason" on stderr. */
armprof_outfile *cli_output_open(const char *prog, const char *path, const char *const *inputs,
                                 size_t ninputs);
/* Ends the output of a command that returns rc: with rc 2 (it failed) the
 * output is discarded; otherwise its writes are checked and it is put in
 * place. Returns rc, or 2 after a message naming path and the reason. */
int cli_output_close(armprof_outfile *o, const char *prog, const char *path, int rc);
/* Whether standard output may be written by a command reading inputs:
 * false after a message when it is a regular file that is one of them
 * (`armprof decode in.spe >>in.spe` would read what it writes). */
bool cli_stdout_allowed(const char *prog, const char *const *inputs, size_t ninputs);

#endif
