/* SPDX-License-Identifier: BSD-3-Clause */
/* The armprof subcommands that live in their own files. Each takes the
 * arguments after its name and returns the process exit status: 0 done,
 * 1 the input was malformed (what could be read was still shown), 2 a
 * usage or file error. */
#ifndef ARMPROF_CLI_COMMANDS_H
#define ARMPROF_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int decode_command(int argc, char **argv);
int report_command(int argc, char **argv);
int demo_command(int argc, char **argv);
int perfdata_command(int argc, char **argv);
/* record.c: the exit status is the profiled program's (128 + a signal's
 * number when one killed it), or 2 before it ran. */
int record_command(int argc, char **argv);

/* help.c: `armprof help` from commands.def, the command names one a line,
 * the manual page armprof(1) in troff, and the version line. */
void usage(FILE *f);
/* `armprof NAME --help`: the command's usage, what it does and its
 * options; false when there is no command NAME. */
bool command_usage(FILE *f, const char *name);
void print_command_names(FILE *f);
void print_manual_page(FILE *f);
void print_version(FILE *f);
/* The git revision the command was built from, "" when unknown (generated
 * at build time by cmake/revision.cmake). */
const char *armprof_cli_revision(void);

#endif
