/* SPDX-License-Identifier: BSD-3-Clause */
/* Output files that a failure cannot destroy (armprof/outfile.h). Here
 * because the perf.data writer is the library's one writer of files; the
 * command writes its own files through the same functions. */
#define _GNU_SOURCE /* renameat2() */
#include "armprof/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfdata/message.h"

struct armprof_outfile {
    FILE *f;
    char *path;
    char *temp;    /* renamed over path by commit; NULL when written in place */
    bool replaces; /* path was a regular file when opened */
};

/* Whether out, a file about to be written, is one of the inputs: only a
 * regular file is refused (writing /dev/null read as an input harms
 * nothing, and a FIFO is not overwritten). */
static bool is_input(const struct stat *out, const char *name, const char *const *inputs,
                     size_t ninputs, char *err, size_t errlen)
{
    if (!S_ISREG(out->st_mode)) return false;
    for (size_t i = 0; i < ninputs; i++) {
        struct stat in;
        if (!inputs[i] || stat(inputs[i], &in) != 0) continue;
        if (in.st_dev == out->st_dev && in.st_ino == out->st_ino) {
            perf_message(err, errlen, "%s: the output is an input (%s), not overwritten", name,
                         inputs[i]);
            return true;
        }
    }
    return false;
}

bool armprof_outfile_check_stream(FILE *stream, const char *name, const char *const *inputs,
                                  size_t ninputs, char *err, size_t errlen)
{
    struct stat st;
    if (!stream || fstat(fileno(stream), &st) != 0) return true;
    return !is_input(&st, name ? name : "(stream)", inputs, ninputs, err, errlen);
}

/* A new file beside path, "DIR/.BASE.XXXXXX" (hidden, and so also never
 * taken for an output by a glob), created exclusively with mode 0666 less
 * the umask, as fopen() would have made path itself. */
static int make_temp(const char *path, char **temp)
{
    const char *slash = strrchr(path, '/');
    const size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    const size_t size = strlen(path) + 16;
    char *name = malloc(size);
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* Names from the process, the time and the attempt: two writers of
     * the same path in one folder still get different files (O_EXCL). */
    uint32_t x = (uint32_t)getpid() * 2654435761u ^ (uint32_t)ts.tv_nsec;
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        x = x * 1664525u + 1013904223u + attempt;
        snprintf(name, size, "%.*s.%s.%06x", (int)dir, path, path + dir, x & 0xffffff);
        const int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *temp = name;
            return fd;
        }
        if (errno != EEXIST) break;
    }
    const int why = errno;
    free(name);
    errno = why;
    return -1;
}

armprof_outfile *armprof_outfile_open(const char *path, const char *const *inputs, size_t ninputs,
                                      char *err, size_t errlen)
{
    if (!path) {
        perf_message(err, errlen, "no file (NULL)");
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) == 0 && is_input(&st, path, inputs, ninputs, err, errlen)) return NULL;
    armprof_outfile *o = calloc(1, sizeof *o);
    if (!o || !(o->path = strdup(path))) {
        free(o);
        perf_message(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    errno = 0;
    const bool exists = lstat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        perf_message(err, errlen, "%s: %s", path, strerror(errno));
    } else if (exists && !S_ISREG(st.st_mode)) {
        /* a device, a FIFO, a link: written through, never replaced */
        o->f = fopen(path, "wb");
        if (!o->f) perf_message(err, errlen, "%s: %s", path, strerror(errno));
    } else {
        const int fd = make_temp(path, &o->temp);
        if (fd < 0) {
            if (exists || errno != ENOENT)
                perf_message(err, errlen, "%s: cannot make a new file beside it: %s", path,
                             strerror(errno));
            else
                perf_message(err, errlen, "%s: %s", path, strerror(errno));
        } else {
            /* what the file was: its permissions, and its owner where
             * that may be given (root) */
            if (exists) {
                /* failures leave the new file the mode and owner it was
                 * made with, as a file another user may not give away */
                const int moded = fchmod(fd, st.st_mode & 07777);
                const int owned = st.st_uid != geteuid() || st.st_gid != getegid()
                                      ? fchown(fd, st.st_uid, st.st_gid)
                                      : 0;
                (void)moded;
                (void)owned;
            }
            o->replaces = exists;
            o->f = fdopen(fd, "wb");
            if (!o->f) {
                perf_message(err, errlen, "%s: %s", path, strerror(errno));
                close(fd);
            }
        }
    }
    if (!o->f) {
        if (o->temp) unlink(o->temp);
        free(o->temp);
        free(o->path);
        free(o);
        return NULL;
    }
    return o;
}

FILE *armprof_outfile_stream(const armprof_outfile *o)
{
    return o ? o->f : NULL;
}

static void destroy(armprof_outfile *o)
{
    if (o->temp) unlink(o->temp);
    free(o->temp);
    free(o->path);
    free(o);
}

/* The new file in the old one's place. ext4 writes a file's data back at
 * once, in the call, when a rename replaces another file with it (its
 * auto_da_alloc): about 0.05 s for a 140 MB perf.data. An exchange of the
 * two names does not, and the old file, then under the temporary name,
 * goes after it: readers of path see the old file or the new, never none. */
static bool put_in_place(armprof_outfile *o)
{
#ifdef RENAME_EXCHANGE
    struct stat st;
    if (o->replaces && lstat(o->path, &st) == 0 && S_ISREG(st.st_mode) &&
        renameat2(AT_FDCWD, o->temp, AT_FDCWD, o->path, RENAME_EXCHANGE) == 0) {
        /* should this fail, the old file stays, hidden, beside the new */
        unlink(o->temp);
        return true;
    }
#endif
    /* no exchange here (the file system, the kernel, no old file) */
    return rename(o->temp, o->path) == 0;
}

bool armprof_outfile_commit(armprof_outfile *o, char *err, size_t errlen)
{
    if (!o) {
        perf_message(err, errlen, "no output file (NULL)");
        return false;
    }
    const bool wrote = !ferror(o->f);
    errno = 0;
    const bool closed = fclose(o->f) == 0;
    if (!wrote || !closed) {
        /* a write that failed earlier left no errno to tell */
        perf_message(err, errlen, "%s: %s", o->path,
                     closed || !errno ? "write error" : strerror(errno));
        destroy(o);
        return false;
    }
    if (o->temp && !put_in_place(o)) {
        perf_message(err, errlen, "%s: cannot put the new file in place: %s", o->path,
                     strerror(errno));
        destroy(o);
        return false;
    }
    free(o->temp);
    o->temp = NULL;
    destroy(o);
    return true;
}

void armprof_outfile_abandon(armprof_outfile *o)
{
    if (!o) return;
    fclose(o->f);
    destroy(o);
}
