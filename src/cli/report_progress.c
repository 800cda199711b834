/* SPDX-License-Identifier: BSD-3-Clause */
/* The progress line (report_progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/report_progress.h"

#include <time.h>
#include <unistd.h>

/* A redraw every quarter second: often enough to see it move, rarely
 * enough to cost nothing against 64 KB blocks. */
#define REDRAW_NS 250000000ull

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

void report_progress_init(report_progress *p, FILE *err, const char *prog, const char *name,
                          uint64_t total)
{
    *p = (report_progress){.prog = prog, .name = name, .total = total};
    if (err && isatty(fileno(err))) p->tty = err;
}

void report_progress_add(report_progress *p, uint64_t n)
{
    if (!p || !p->tty) return;
    p->done += n;
    const uint64_t t = now_ns();
    if (t < p->next_ns) return;
    p->next_ns = t + REDRAW_NS;
    const double mib = (double)p->done / (1024.0 * 1024.0);
    /* \r and erase to the end of the line: the line is redrawn in place. */
    if (p->total)
        fprintf(p->tty, "\r\033[K%s: %s: %3u%% (%.1f MiB)", p->prog, p->name,
                (unsigned)(p->done >= p->total ? 100 : p->done * 100 / p->total), mib);
    else
        fprintf(p->tty, "\r\033[K%s: %s: %.1f MiB", p->prog, p->name, mib);
    fflush(p->tty);
    p->shown = true;
}

void report_progress_end(report_progress *p)
{
    if (!p || !p->shown) return;
    fputs("\r\033[K", p->tty);
    fflush(p->tty);
    p->shown = false;
}
