/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a record file (a Profiling Buffer dump) whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"

uint8_t *read_file_bytes(const char *prog, const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *bytes = malloc(cap);
    while (bytes) {
        len += fread(bytes + len, 1, cap - len, f);
        if (len < cap) break;
        uint8_t *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(bytes, cap * 2);
        if (!bigger) {
            free(bytes);
            bytes = NULL;
            break;
        }
        bytes = bigger;
        cap *= 2;
    }
    if (!bytes) {
        fprintf(stderr, "%s: %s: out of memory reading the file\n", prog, path);
    } else if (ferror(f)) {
        fprintf(stderr, "%s: %s: read error: %s\n", prog, path, strerror(errno));
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = len;
    return bytes;
}
