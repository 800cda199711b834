/* SPDX-License-Identifier: BSD-3-Clause */
/* What perf needs besides the records (docs/qemu.md, "perf.data"): the
 * guest's executable mappings, from the host's view of them at the first
 * block (what qemu-user itself loaded: the program and its interpreter)
 * and from the mmap() calls the guest makes later (shared libraries, which
 * plugin.c's system call callbacks see). Threads are named by their vCPU's
 * TID (model.c). */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/elf.h"
#include "qprof.h"

static bool is_aarch64_elf(const char *path)
{
    unsigned char h[20];
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const ssize_t n = read(fd, h, sizeof h);
    close(fd);
    /* ELF magic, ELFCLASS64, e_machine EM_AARCH64 (183) little-endian */
    return n == (ssize_t)sizeof h && memcmp(h, "\177ELF", 4) == 0 && h[4] == 2 && h[18] == 183 &&
           h[19] == 0;
}

void qp_add_map(uint64_t addr, uint64_t len, uint64_t pgoff, const char *path)
{
    pthread_mutex_lock(&qp.lock);
    for (size_t i = 0; i < qp.nmaps; i++)
        if (qp.maps[i].addr == addr && !strcmp(qp.maps[i].path, path)) {
            pthread_mutex_unlock(&qp.lock);
            return;
        }
    if (qp.nmaps == qp.capmaps) {
        qp.capmaps = qp.capmaps ? qp.capmaps * 2 : 16;
        qp.maps = realloc(qp.maps, qp.capmaps * sizeof *qp.maps);
        if (!qp.maps) abort();
    }
    qp.maps[qp.nmaps++] = (struct qp_map){addr, len, pgoff, strdup(path)};
    pthread_mutex_unlock(&qp.lock);
}

/* The program: QEMU's options that take a value, in 7.2 and 10.0
 * (linux-user/main.c's arg_table); the first other argument is the
 * program. qemu_plugin_path_to_binary() cannot tell: it is not set when the
 * plugin is installed (7.2) or not exported at all (10.0.13). */
static const char *const value_options[] = {
    "L", "E", "U", "0",       "B", "R",       "D",    "g",     "s",      "cpu",
    "r", "t", "d", "dfilter", "p", "tb-size", "seed", "trace", "plugin", NULL};

/* QEMU's command line, NUL-separated, in buf; its length. */
static size_t command_line(char *buf, size_t size)
{
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f) return 0;
    const size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = 0;
    return n;
}

char *qp_cpu_property(const char *name)
{
    char buf[16384];
    const size_t n = command_line(buf, sizeof buf);
    const size_t len = strlen(name);
    for (size_t i = strlen(buf) + 1; i < n;) {
        const char *a = buf + i;
        i += strlen(a) + 1;
        if (strcmp(a, "-cpu") && strcmp(a, "--cpu")) continue;
        /* -cpu MODEL,prop=value,... */
        for (const char *p = i < n ? strchr(buf + i, ',') : NULL; p; p = strchr(p + 1, ','))
            if (!strncmp(p + 1, name, len) && p[1 + len] == '=') {
                const char *v = p + 2 + len;
                return g_strndup(v, strcspn(v, ","));
            }
        return NULL;
    }
    return NULL;
}

char *qp_program_path(void)
{
    char buf[16384];
    const size_t n = command_line(buf, sizeof buf);
    if (!n) return NULL;
    const char *prefix = NULL;
    for (size_t i = strlen(buf) + 1; i < n;) {
        const char *a = buf + i;
        i += strlen(a) + 1;
        if (a[0] != '-') {
            /* -L: an absolute program path is looked up under the prefix first */
            if (prefix && a[0] == '/') {
                char *joined = g_strconcat(prefix, a, NULL);
                char *found = access(joined, R_OK) == 0 ? realpath(joined, NULL) : NULL;
                g_free(joined);
                if (found) return found;
            }
            return realpath(a, NULL);
        }
        const char *name = a + 1 + (a[1] == '-');
        bool takes = false;
        for (unsigned k = 0; value_options[k]; k++)
            takes |= strcmp(name, value_options[k]) == 0;
        if (takes && i < n) {
            if (!strcmp(name, "L")) prefix = buf + i;
            i += strlen(buf + i) + 1;
        }
    }
    return NULL;
}

/* The program itself when QEMU copied its segments rather than mapping
 * its file (an ET_EXEC whose segments are not page-aligned in the file):
 * its executable segments where the ELF file puts them. A position-
 * independent program is mapped, and found in /proc/self/maps. */
void qp_map_program(const char *path)
{
    armprof_elf_segment seg[ARMPROF_ELF_MAX_SEGMENTS];
    size_t n = 0;
    bool dynamic = true;
    char err[256];
    if (!path || !armprof_elf_exec_segments(path, 0, seg, &n, &dynamic, err, sizeof err) || dynamic)
        return;
    for (size_t i = 0; i < n; i++)
        qp_add_map(seg[i].start, seg[i].len, seg[i].pgoff, path);
}

/* qemu-user maps the guest's files into its own address space at the
 * guest address plus guest_base (0 for a 64-bit guest on a 64-bit host
 * unless the layout forces otherwise; docs/qemu.md). */
/* The guest's files as the host maps them: QEMU maps the guest's code
 * without host execute permission, at the guest address plus guest_base.
 * guest_base is found from the first block: the entry point of the program
 * or of its interpreter, one of the files mapped. */
typedef struct host_file {
    char path[3072];
    uint64_t load; /* the host load bias */
} host_file;

void qp_scan_maps(uint64_t first_pc)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    host_file *files = NULL;
    size_t n = 0;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo, off;
        char perms[8], path[3072] = "";
        if (sscanf(line, "%llx-%*x %7s %llx %*s %*s %3071[^\n]", &lo, perms, &off, path) < 4)
            continue;
        if (path[0] != '/' || (n && !strcmp(path, files[n - 1].path))) continue;
        uint64_t load;
        /* its first mapping gives the load bias */
        if (!is_aarch64_elf(path) || !armprof_elf_load_bias(path, lo, off, &load)) continue;
        files = realloc(files, (n + 1) * sizeof *files);
        if (!files) abort();
        snprintf(files[n].path, sizeof files[n].path, "%s", path);
        files[n++].load = load;
    }
    fclose(f);
    uint64_t guest_base = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t entry;
        if (armprof_elf_entry(files[i].path, &entry) && entry + files[i].load >= first_pc &&
            !((entry + files[i].load - first_pc) & 0xfff)) {
            guest_base = entry + files[i].load - first_pc;
            break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        armprof_elf_segment seg[ARMPROF_ELF_MAX_SEGMENTS];
        size_t nseg = 0;
        char err[256];
        if (!armprof_elf_exec_segments(files[i].path, files[i].load - guest_base, seg, &nseg, NULL,
                                       err, sizeof err))
            continue;
        for (size_t k = 0; k < nseg; k++)
            qp_add_map(seg[k].start, seg[k].len, seg[k].pgoff, files[i].path);
    }
    free(files);
}
