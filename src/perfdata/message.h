/* SPDX-License-Identifier: BSD-3-Clause */
/* A message into the caller's err buffer (either may be absent), shared by
 * the writer and the reader. */
#ifndef ARMPROF_PERFDATA_MESSAGE_H
#define ARMPROF_PERFDATA_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static inline void perf_message(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

#endif
