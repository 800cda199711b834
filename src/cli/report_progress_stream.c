/* SPDX-License-Identifier: BSD-3-Clause */
/* The counting stream (report_progress_stream.h), on fopencookie(). */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include "cli/report_progress_stream.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

struct report_progress_stream {
    FILE *inner, *outer;
    report_progress *p; /* NULL once quiet */
    uint64_t furthest;  /* the offset told so far */
};

static ssize_t counted_read(void *cookie, char *buf, size_t n)
{
    report_progress_stream *s = cookie;
    const size_t got = fread(buf, 1, n, s->inner);
    if (got == 0 && ferror(s->inner)) {
        if (!errno) errno = EIO;
        return -1;
    }
    const off_t at = ftello(s->inner);
    if (s->p && at > 0 && (uint64_t)at > s->furthest) {
        report_progress_add(s->p, (uint64_t)at - s->furthest);
        s->furthest = (uint64_t)at;
    }
    return (ssize_t)got;
}

static int counted_seek(void *cookie, off64_t *offset, int whence)
{
    report_progress_stream *s = cookie;
    if (fseeko(s->inner, (off_t)*offset, whence) != 0) return -1;
    const off_t at = ftello(s->inner);
    if (at < 0) return -1;
    *offset = at;
    return 0;
}

report_progress_stream *report_progress_stream_open(FILE *inner, report_progress *p)
{
    report_progress_stream *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    *s = (report_progress_stream){.inner = inner, .p = p};
    const off_t at = ftello(inner);
    s->furthest = at > 0 ? (uint64_t)at : 0;
    s->outer =
        fopencookie(s, "rb", (cookie_io_functions_t){.read = counted_read, .seek = counted_seek});
    if (!s->outer) {
        free(s);
        return NULL;
    }
    return s;
}

FILE *report_progress_stream_file(const report_progress_stream *s)
{
    return s->outer;
}

void report_progress_stream_quiet(report_progress_stream *s)
{
    if (s) s->p = NULL;
}

void report_progress_stream_close(report_progress_stream *s)
{
    if (!s) return;
    fclose(s->outer);
    free(s);
}
