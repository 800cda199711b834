/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof report: what an SPE record stream says, as text or as a
 * self-contained HTML or SVG page. */
#ifndef ARMPROF_CLI_REPORT_H
#define ARMPROF_CLI_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/report_source.h"

typedef enum report_format {
    REPORT_TEXT,
    REPORT_HTML,
    REPORT_SVG,
} report_format;

typedef struct report_options {
    report_format format;
    unsigned top;        /* hottest PCs shown; 0 means 10 */
    size_t max_distinct; /* values each list keeps (report_stats.h); 0: REPORT_MAX_DISTINCT */
    /* If not NULL, where a malformed stream's offset and reason, or running
     * out of memory, is also reported ("armprof report: NAME: ..."). */
    FILE *err;
} report_options;

/* Decodes the records src gives (name titles the report and its errors)
 * and writes the report to out. Returns 0, or 1 if the stream was
 * malformed: the report then covers the records before the error and says
 * where the decoding stopped. Returns 2, having written nothing, if out of
 * memory or on a read error. */
int report_write(FILE *out, const char *name, record_source *src, const report_options *o);

#endif
