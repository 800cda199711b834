/* SPDX-License-Identifier: BSD-3-Clause */
/* Checked output (cli/output.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* The stream whose first write error was seen by cli_write_failed(), and
 * errno then: the C library reports a failed write once, and a later
 * fflush() of an emptied buffer succeeds without saying why. */
static const FILE *failed_stream;
static int failed_errno;

void cli_keep_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        /* The lowest free number is fd: the ones below it are open. */
        const int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd && got >= 0) close(got);
    }
}

bool cli_write_failed(FILE *f)
{
    const int why = errno;
    if (!ferror(f)) return false;
    if (failed_stream != f) {
        failed_stream = f;
        failed_errno = why;
    }
    return true;
}

int cli_finish_output(FILE *f, bool close, const char *prog, const char *name, int rc)
{
    const bool before = cli_write_failed(f);
    const int saved = failed_stream == f ? failed_errno : 0;
    errno = 0;
    const bool now = (close ? fclose(f) : fflush(f)) != 0;
    const int why = now && errno ? errno : saved;
    if (failed_stream == f) failed_stream = NULL;
    if (!before && !now) return rc;
    if (why)
        fprintf(stderr, "%s: %s: %s\n", prog, name, strerror(why));
    else
        fprintf(stderr, "%s: %s: write error\n", prog, name);
    return 2;
}

armprof_outfile *cli_output_open(const char *prog, const char *path, const char *const *inputs,
                                 size_t ninputs)
{
    char err[512];
    armprof_outfile *o = armprof_outfile_open(path, inputs, ninputs, err, sizeof err);
    if (!o) fprintf(stderr, "%s: %s\n", prog, err);
    return o;
}

int cli_output_close(armprof_outfile *o, const char *prog, const char *path, int rc)
{
    if (rc >= 2) {
        armprof_outfile_abandon(o);
        return rc;
    }
    if (cli_finish_output(armprof_outfile_stream(o), false, prog, path, 0) != 0) {
        armprof_outfile_abandon(o);
        return 2;
    }
    char err[512];
    if (!armprof_outfile_commit(o, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 2;
    }
    return rc;
}

bool cli_stdout_allowed(const char *prog, const char *const *inputs, size_t ninputs)
{
    char err[512];
    if (armprof_outfile_check_stream(stdout, "standard output", inputs, ninputs, err, sizeof err))
        return true;
    fprintf(stderr, "%s: %s\n", prog, err);
    return false;
}
