/* SPDX-License-Identifier: BSD-3-Clause */
/* Text placed into HTML or SVG: a file name can hold any byte. */
#include "cli/report_render.h"

void report_escape(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            fputc(*p, out);
            break;
        }
    }
}
