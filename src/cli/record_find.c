/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof record: the program, QEMU, the plugin and the root (record_find.h). */
#define _GNU_SOURCE
#include "cli/record_find.h"

#include <errno.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef ARMPROF_QEMU_PLUGIN_RELDIR
#define ARMPROF_QEMU_PLUGIN_RELDIR "../lib/armprof"
#endif

/* The System V ABI's ELF header and program header, 64-bit. */
#define EM_AARCH64 183u
#define PT_INTERP  3u

static char *dup_or_die(const char *s)
{
    char *d = strdup(s);
    if (!d) abort();
    return d;
}

static bool is_exec_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The first executable regular file called name in a folder of PATH. */
static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    char buf[4096];
    for (const char *p = path; p;) {
        const char *colon = strchr(p, ':');
        const int len = colon ? (int)(colon - p) : (int)strlen(p);
        /* an empty entry is the current folder */
        snprintf(buf, sizeof buf, "%.*s%s%s", len, p, len ? "/" : "", name);
        if (is_exec_file(buf)) return dup_or_die(buf);
        p = colon ? colon + 1 : NULL;
    }
    return NULL;
}

bool record_find_program(const char *name, char **path, char *err, size_t errlen)
{
    struct stat st;
    if (strchr(name, '/')) {
        if (stat(name, &st) != 0) {
            snprintf(err, errlen, "%s: %s", name, strerror(errno));
            return false;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s: not a regular file", name);
            return false;
        }
        *path = dup_or_die(name);
        return true;
    }
    *path = on_path(name);
    if (*path) return true;
    if (stat(name, &st) == 0)
        snprintf(err, errlen, "%s: not on PATH (for the file in this folder, say ./%s)", name,
                 name);
    else
        snprintf(err, errlen, "%s: no such program on PATH", name);
    return false;
}

static const char *machine_name(unsigned m)
{
    static const struct {
        unsigned number;
        const char *name;
    } machines[] = {{2, "SPARC"},      {3, "x86 (i386)"}, {8, "MIPS"},        {20, "PowerPC"},
                    {21, "PowerPC64"}, {22, "S/390"},     {40, "32-bit Arm"}, {62, "x86-64"},
                    {243, "RISC-V"},   {258, "LoongArch"}};
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
        if (machines[i].number == m) return machines[i].name;
    return "another machine";
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* What the first bytes of a file that is not an AArch64 ELF file say. */
static void describe(const char *path, const uint8_t *h, size_t n, char *err, size_t errlen)
{
    if (n >= 2 && h[0] == '#' && h[1] == '!') {
        size_t end = 2;
        while (end < n && h[end] != '\n' && end < 60)
            end++;
        snprintf(err, errlen, "%s: a script (%.*s), not an AArch64 ELF program", path, (int)end,
                 (const char *)h);
    } else if (n < 20 || memcmp(h, "\177ELF", 4) != 0)
        snprintf(err, errlen, "%s: not an ELF file, so not an AArch64 program", path);
    else {
        const unsigned m = (unsigned)(h[5] == 2 ? (unsigned)h[18] << 8 | h[19] : le(h + 18, 2));
        snprintf(err, errlen,
                 "%s: an ELF file for %s (%d-bit, %s-endian, e_machine %u), not AArch64", path,
                 m == EM_AARCH64 ? "AArch64" : machine_name(m), h[4] == 2 ? 64 : 32,
                 h[5] == 2 ? "big" : "little", m);
    }
}

bool record_check_elf(const char *path, char *interp, size_t interplen, bool *fixed_address,
                      char *err, size_t errlen)
{
    interp[0] = 0;
    *fixed_address = false;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    uint8_t h[64];
    const size_t n = fread(h, 1, sizeof h, f);
    bool ok = n == sizeof h && !memcmp(h, "\177ELF", 4) && h[4] == 2 && h[5] == 1 &&
              le(h + 18, 2) == EM_AARCH64;
    if (!ok) describe(path, h, n, err, errlen);
    *fixed_address = ok && le(h + 16, 2) == 2; /* e_type ET_EXEC */
    const uint64_t phoff = ok ? le(h + 32, 8) : 0;
    const unsigned phentsize = ok ? (unsigned)le(h + 54, 2) : 0,
                   phnum = ok ? (unsigned)le(h + 56, 2) : 0;
    for (unsigned i = 0; ok && i < phnum && phentsize >= 56; i++) {
        uint8_t ph[56];
        if (fseek(f, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET) != 0 ||
            fread(ph, 1, sizeof ph, f) != sizeof ph) {
            snprintf(err, errlen, "%s: an AArch64 ELF file cut short (program header %u)", path, i);
            ok = false;
            break;
        }
        if (le(ph, 4) != PT_INTERP) continue;
        const uint64_t off = le(ph + 8, 8), size = le(ph + 32, 8);
        if (size == 0 || size >= interplen || fseek(f, (long)off, SEEK_SET) != 0 ||
            fread(interp, 1, (size_t)size, f) != size) {
            snprintf(err, errlen, "%s: its PT_INTERP (the interpreter's name) cannot be read",
                     path);
            ok = false;
            break;
        }
        interp[size] = 0;
    }
    fclose(f);
    return ok;
}

bool record_find_qemu(const char *given, char **path, char *err, size_t errlen)
{
    if (given) {
        if (!is_exec_file(given)) {
            snprintf(err, errlen, "--qemu %s: %s", given,
                     access(given, F_OK) ? strerror(errno) : "not an executable file");
            return false;
        }
        *path = dup_or_die(given);
        return true;
    }
    *path = on_path("qemu-aarch64");
    if (*path) return true;
    /* frontends/qemu/build-qemu.sh's cache: CACHE/qemu-VERSION/bin/ */
    const char *cache = getenv("ARMPROF_CACHE"), *home = getenv("HOME");
    char dir[4096];
    if (cache && *cache)
        snprintf(dir, sizeof dir, "%s", cache);
    else
        snprintf(dir, sizeof dir, "%s/.cache/armprof", home ? home : "");
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/qemu-*/bin/qemu-aarch64", dir);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) == 0) {
        /* the last in order: the newest version when several are cached */
        for (size_t i = g.gl_pathc; i-- > 0 && !*path;)
            if (is_exec_file(g.gl_pathv[i])) *path = dup_or_die(g.gl_pathv[i]);
        globfree(&g);
        if (*path) return true;
    }
    snprintf(err, errlen,
             "no qemu-aarch64 on PATH or in %s: install one with plugin support (Debian: "
             "apt-get install qemu-user; or frontends/qemu/build-qemu.sh builds QEMU 10.0), or "
             "name it with --qemu PATH",
             dir);
    return false;
}

/* `qemu --version`'s first line: "qemu-aarch64 version 7.2.22 (...)". */
static bool ask_version(const char *qemu, char *line, size_t linelen, char *err, size_t errlen)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(err, errlen, "a pipe: %s", strerror(errno));
        return false;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl(qemu, qemu, "--version", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < linelen && (got = read(fds[0], line + n, linelen - 1 - n)) != 0) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        n += (size_t)got;
    }
    line[n] = 0;
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    line[strcspn(line, "\n")] = 0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !*line) {
        snprintf(err, errlen, "%s --version failed: is it a QEMU?", qemu);
        return false;
    }
    return true;
}

/* The folder of the running armprof command. */
static bool own_dir(char *dir, size_t len)
{
    const ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    if (n <= 0) return false;
    dir[n] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash) return false;
    *slash = 0;
    return true;
}

bool record_find_plugin(const char *qemu, char **plugin, char *version, size_t versionlen,
                        char *err, size_t errlen)
{
    /* A plugin loads only into the QEMU whose plugin header it was built
     * against (docs/qemu.md): one file per QEMU version served. */
    static const struct {
        const char *version, *file;
    } plugins[] = {{"7.2", "libarmprof_qemu7.so"}, {"10.0", "libarmprof_qemu.so"}};
    char line[256];
    if (!ask_version(qemu, line, sizeof line, err, errlen)) return false;
    const char *v = strstr(line, "version ");
    unsigned major = 0, minor = 0;
    if (!v || sscanf(v + 8, "%u.%u", &major, &minor) != 2) {
        snprintf(err, errlen, "%s --version says '%s': no QEMU version in it", qemu, line);
        return false;
    }
    snprintf(version, versionlen, "%u.%u", major, minor);
    const char *file = NULL;
    for (size_t i = 0; i < sizeof plugins / sizeof plugins[0]; i++)
        if (!strcmp(plugins[i].version, version)) file = plugins[i].file;
    if (!file) {
        snprintf(err, errlen,
                 "%s is QEMU %s: no armprof plugin fits its plugin API (there are plugins for "
                 "QEMU 7.2, Debian 12's qemu-user, and 10.0, Debian 13's or the one "
                 "frontends/qemu/build-qemu.sh builds): name one with --qemu PATH",
                 qemu, version);
        return false;
    }
    char dir[4096];
    if (!own_dir(dir, sizeof dir)) {
        snprintf(err, errlen,
                 "/proc/self/exe: %s: the plugins are found from the command's own "
                 "place",
                 strerror(errno));
        return false;
    }
    const char *const places[] = {ARMPROF_QEMU_PLUGIN_RELDIR, "frontends/qemu"};
    char tried[2][4300];
    for (size_t i = 0; i < 2; i++) {
        snprintf(tried[i], sizeof tried[i], "%s/%s/%s", dir, places[i], file);
        if (access(tried[i], R_OK) == 0) {
            *plugin = dup_or_die(tried[i]);
            return true;
        }
    }
    snprintf(err, errlen,
             "%s is QEMU %s, whose plugin %s is not installed (not %s, nor %s): install "
             "armprof-qemu, or build with QEMU's plugin headers (frontends/qemu/build-qemu.sh)",
             qemu, version, file, tried[0], tried[1]);
    return false;
}

bool record_sysroot(const char *root, const char *program, const char *interp, const char **chosen,
                    char *err, size_t errlen)
{
    *chosen = NULL;
    struct stat st;
    if (root) {
        if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "-L %s: %s", root,
                     stat(root, &st) != 0 ? strerror(errno) : "not a folder");
            return false;
        }
        *chosen = root;
        return true;
    }
    if (!*interp) return true; /* static: no libraries */
    static const char cross[] = "/usr/aarch64-linux-gnu";
    char p[4200];
    snprintf(p, sizeof p, "%s%s", cross, interp);
    if (access(p, R_OK) == 0) {
        *chosen = cross;
        return true;
    }
    if (access(interp, R_OK) == 0) return true; /* the host has arm64 libraries */
    snprintf(err, errlen,
             "%s is dynamically linked (interpreter %s), and neither %s nor %s exists: give its "
             "libraries' root with -L ROOT (Debian: apt-get install libc6-arm64-cross makes %s; "
             "tools/arm64-root.sh makes a root of Debian's arm64 packages)",
             program, interp, p, interp, cross);
    return false;
}
