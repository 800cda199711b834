/* SPDX-License-Identifier: BSD-3-Clause */
/* config=FILE: one setting a line, "name value" or "name = value", as
 * armprof_config_set() takes them (features "FEAT_X on|off", options by
 * name); '#' starts a comment. */
#include <ctype.h>
#include <string.h>

#include "qprof.h"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

bool qp_config_file(armprof_config *c, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open", path);
        return false;
    }
    char line[512];
    unsigned lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *s = trim(line);
        if (!*s) continue;
        char *sep = s + strcspn(s, " \t=");
        if (!*sep) {
            snprintf(err, errlen, "%s:%u: \"%s\" has no value", path, lineno, s);
            ok = false;
            break;
        }
        *sep++ = 0;
        char *value = trim(sep);
        if (*value == '=') value = trim(value + 1);
        char msg[256];
        if (!armprof_config_set(c, s, value, msg, sizeof msg)) {
            snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
            ok = false;
        }
    }
    fclose(f);
    return ok;
}
