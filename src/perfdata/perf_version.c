/* SPDX-License-Identifier: BSD-3-Clause */
/* Which arm_spe metadata layout a perf reads, from its version (perfdata.h):
 * the one place the command and the QEMU plugin choose their default. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "armprof/perfdata.h"

/* MAJOR.MINOR at *s (two numbers below 100), s moved past them */
static bool major_minor(const char **s, unsigned *version)
{
    unsigned n[2] = {0, 0};
    const char *p = *s;
    for (int i = 0; i < 2; i++) {
        if (i && *p++ != '.') return false;
        if (*p < '0' || *p > '9') return false;
        for (; *p >= '0' && *p <= '9'; p++)
            if ((n[i] = n[i] * 10 + (unsigned)(*p - '0')) > 99) return false;
    }
    *s = p;
    *version = n[0] * 100 + n[1];
    return true;
}

bool armprof_perf_metadata_for_version(const char *text, armprof_perf_spe_metadata *m,
                                       unsigned *version)
{
    static const char said[] = "perf version ";
    if (!text) return false;
    const char *in_line = strstr(text, said);
    const char *s = in_line ? in_line + strlen(said) : text;
    unsigned n;
    /* perf's own line may go on ("6.1.192", "5.10.0-rc1"); a bare
     * version only with a patch level */
    if (!major_minor(&s, &n) || (!in_line && *s && *s != '.')) return false;
    *m = n >= ARMPROF_PERF_SPE_METADATA_V2_SINCE ? ARMPROF_PERF_SPE_METADATA_V2
                                                 : ARMPROF_PERF_SPE_METADATA_V1;
    if (version) *version = n;
    return true;
}

armprof_perf_spe_metadata armprof_perf_metadata_for_path_perf(char *what, size_t whatlen)
{
    char line[256] = "";
    /* the shell looks perf up on PATH; its complaint when there is none
     * goes with perf's stderr */
    FILE *p = popen("perf --version 2>/dev/null", "r");
    if (p) {
        if (!fgets(line, sizeof line, p)) line[0] = '\0';
        pclose(p);
    }
    line[strcspn(line, "\n")] = '\0';
    armprof_perf_spe_metadata m;
    unsigned version;
    if (armprof_perf_metadata_for_version(line, &m, &version)) {
        if (what)
            snprintf(what, whatlen, "arm_spe metadata version %d, for '%s' on PATH", (int)m, line);
        return m;
    }
    /* no perf to ask: the layout every perf reads (6.13 and later warn
     * "Old SPE metadata") */
    if (what)
        snprintf(what, whatlen,
                 "arm_spe metadata version 1, which every perf reads (no 'perf --version' on "
                 "PATH to ask)");
    return ARMPROF_PERF_SPE_METADATA_V1;
}
