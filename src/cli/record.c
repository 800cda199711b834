/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof record [-o PREFIX] [-c INTERVAL] [--mode fast|exact] [--preset P]
 *                [--config FILE] [-e FILTERS] [--qemu PATH] [-L ROOT]
 *                -- PROGRAM ARGS
 * One command for what docs/qemu.md's qemu-aarch64 line does: the program
 * under qemu-aarch64 with the plugin built for that QEMU, which writes
 * PREFIX.spe, PREFIX.perf.data and PREFIX.summary; the exit status is the
 * program's. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "armprof/armprof.h"
#include "armprof/kernel.h"
#include "cli/commands.h"
#include "cli/perf_export.h"
#include "cli/record_find.h"

#define PROG "armprof record"

typedef struct record_options {
    const char *prefix, *interval, *mode, *preset, *config, *qemu, *root;
    const char *filters[64];
    size_t nfilters;
    int program; /* argv index of PROGRAM */
} record_options;

static int say(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static int parse(int argc, char **argv, record_options *o)
{
    static const char *const takes[] = {"-o",       "-c", "--mode", "--preset",
                                        "--config", "-e", "--qemu", "-L"};
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (a[0] != '-') break;
        size_t t = 0;
        while (t < sizeof takes / sizeof takes[0] && strcmp(a, takes[t]))
            t++;
        if (t == sizeof takes / sizeof takes[0]) return say("unknown option '%s'%s", a, "");
        if (i + 1 == argc) return say("%s needs a value%s", a, "");
        const char *v = argv[++i];
        const char **slot[] = {&o->prefix, &o->interval, &o->mode, &o->preset,
                               &o->config, NULL,         &o->qemu, &o->root};
        if (slot[t])
            *slot[t] = v;
        else if (o->nfilters < sizeof o->filters / sizeof o->filters[0])
            o->filters[o->nfilters++] = v;
        else
            return say("too many -e options%s%s", "", "");
    }
    if (i == argc)
        return say("no program given: armprof record [OPTIONS] -- PROGRAM ARGS%s%s", "", "");
    o->program = i;
    return 0;
}

/* Each FILTERS list, NAME=VALUE,..., checked as the plugin will take it;
 * into *plugin_args, comma-separated. */
static int check_filters(const record_options *o, char *args, size_t len)
{
    armprof_kernel_params p;
    armprof_kernel_params_default(&p);
    args[0] = 0;
    for (size_t i = 0; i < o->nfilters; i++) {
        char *copy = strdup(o->filters[i]);
        if (!copy) abort();
        int rc = 0;
        for (char *save = NULL, *f = strtok_r(copy, ",", &save); f && !rc;
             f = strtok_r(NULL, ",", &save)) {
            char err[768];
            if (!armprof_kernel_spe_attribute(&p, f, err, sizeof err))
                rc = say("-e %s: %s", o->filters[i], err);
            else {
                /* NAME alone is NAME=1, which the plugin wants said */
                const size_t at = strlen(args);
                snprintf(args + at, len - at, "%s%s%s", at ? "," : "", f,
                         strchr(f, '=') ? "" : "=1");
            }
        }
        free(copy);
        if (rc) return rc;
    }
    return 0;
}

static int check_settings(const record_options *o)
{
    if (o->interval) {
        char *end;
        errno = 0;
        const unsigned long v = strtoul(o->interval, &end, 0);
        if (!*o->interval || *end || errno || o->interval[0] == '-' || !v || v % 256 ||
            v > 0xffffff00ul)
            return say("-c %s: the sampling interval is a multiple of 256 operations, from 256 "
                       "(PMSIRR_EL1.INTERVAL)%s",
                       o->interval, "");
    }
    if (o->mode && strcmp(o->mode, "fast") && strcmp(o->mode, "exact"))
        return say("--mode %s: fast or exact%s", o->mode, "");
    armprof_config c;
    if (o->preset && !armprof_config_preset(&c, o->preset))
        return say("--preset %s: not a preset (armprof presets lists them)%s", o->preset, "");
    if (o->config) {
        FILE *f = fopen(o->config, "r");
        if (!f) return say("--config %s: %s", o->config, strerror(errno));
        fclose(f);
    }
    return 0;
}

/* PREFIX.spe, .perf.data and .summary can be made: the folder takes a new
 * file (one of our own, made and removed: nothing of the user's is
 * touched), and those that exist are writable files. */
static int check_prefix(const char *prefix)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", prefix);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.armprof-record-XXXXXX", dir);
    const int fd = mkstemp(probe);
    if (fd < 0) {
        char why[4400];
        snprintf(why, sizeof why, "%s: %s", dir, strerror(errno));
        return say("-o %s: its files cannot be made in the folder %s", prefix, why);
    }
    close(fd);
    unlink(probe);
    static const char *const suffixes[] = {".spe", ".perf.data", ".summary"};
    for (size_t i = 0; i < 3; i++) {
        char path[4200];
        struct stat st;
        snprintf(path, sizeof path, "%s%s", prefix, suffixes[i]);
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) return say("-o %s: %s is a folder", prefix, path);
        if (access(path, W_OK) != 0) return say("%s: %s", path, strerror(errno));
    }
    return 0;
}

/* A -plugin option's value: QEMU's option parser reads ",," as a comma. */
static void append_escaped(char *out, size_t len, const char *name, const char *value)
{
    size_t at = strlen(out);
    at += (size_t)snprintf(out + at, at < len ? len - at : 0, ",%s=", name);
    for (const char *v = value; *v && at + 2 < len; v++) {
        out[at++] = *v;
        if (*v == ',') out[at++] = ',';
    }
    if (at < len) out[at] = 0;
}

/* The status the program ended with, as a shell reports it; *qemu_pid
 * the process QEMU ran in. */
static int run(char **qargv, pid_t *qemu_pid)
{
    /* the terminal's ^C goes to QEMU, which ends the program; this process
     * waits for it and says how it ended, as system() does */
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGQUIT, &ign, &old_quit);
    /* the plugin's watcher (a grandchild of QEMU, docs/qemu.md) is adopted
     * here when QEMU ends, so that what it writes is written before this
     * command ends */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const pid_t pid = fork();
    if (pid < 0) {
        say("fork: %s%s", strerror(errno), "");
        return 2;
    }
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        execv(qargv[0], qargv);
        fprintf(stderr, PROG ": %s: %s\n", qargv[0], strerror(errno));
        _exit(127);
    }
    *qemu_pid = pid;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    /* whatever else was adopted (the watcher, a program's orphans): at
     * most ten seconds for them */
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < 1000; waited++) {
        const pid_t other = waitpid(-1, NULL, WNOHANG);
        if (other < 0) break; /* no child left */
        if (other == 0) nanosleep(&tick, NULL);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

/* QEMU 7.2 ends without calling the plugin's exit callback when the
 * program dies of a signal (docs/qemu.md), so PREFIX.perf.data is not
 * written (or an older one is left); PREFIX.spe holds whole records, and
 * the perf.data is made from it here, as the plugin's watcher advises:
 * the program's ELF for its symbols when it runs where it was linked, its
 * name for the process QEMU ran in (qemu-user's thread IDs are the host's). */
static void finish_perf_data(const char *prefix, const char *program, bool fixed_address,
                             pid_t qemu_pid, const struct stat *before, bool existed)
{
    char spe[4200], perf[4200];
    struct stat st;
    snprintf(spe, sizeof spe, "%s.spe", prefix);
    snprintf(perf, sizeof perf, "%s.perf.data", prefix);
    if (stat(spe, &st) != 0) return;
    if (stat(perf, &st) == 0 &&
        !(existed && st.st_ino == before->st_ino && st.st_mtim.tv_sec == before->st_mtim.tv_sec &&
          st.st_mtim.tv_nsec == before->st_mtim.tv_nsec))
        return; /* the plugin wrote it */
    const char *slash = strrchr(program, '/');
    const perf_export_comm comm = {(uint32_t)qemu_pid, slash ? slash + 1 : program};
    const perf_export_elf elf = {program, 0};
    perf_export_options po = {.out = perf, .comms = &comm, .ncomms = 1};
    if (fixed_address) {
        po.elfs = &elf;
        po.nelfs = 1;
    }
    armprof_perf_writer_config_init(&po.config);
    char why[320];
    po.config.metadata = armprof_perf_metadata_for_path_perf(why, sizeof why);
    const perf_export_input in = {.path = spe};
    perf_export_result res;
    fprintf(stderr, PROG ": the plugin did not finish %s: made from %s (%s)\n", perf, spe, why);
    if (perf_export(&po, &in, 1, &res, PROG, stderr) == 0)
        fprintf(stderr, PROG ": %s: %llu records, %zu tasks\n", perf,
                (unsigned long long)res.records, res.tasks);
}

/* A path as a shell reads it back. */
static void shell_word(char *out, size_t len, const char *s)
{
    if (!s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+@%=:,")]) {
        snprintf(out, len, "%s", s);
        return;
    }
    size_t at = 0;
    if (at + 1 < len) out[at++] = '\'';
    for (; *s && at + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + at, "'\\''", 4);
            at += 4;
        } else
            out[at++] = *s;
    }
    if (at + 1 < len) out[at++] = '\'';
    out[at < len ? at : len - 1] = 0;
}

static void next_steps(const char *prefix)
{
    char spe[4200], perf[4200], w[8500];
    struct stat st;
    snprintf(spe, sizeof spe, "%s.spe", prefix);
    snprintf(perf, sizeof perf, "%s.perf.data", prefix);
    if (stat(spe, &st) != 0) return;
    shell_word(w, sizeof w, spe);
    fprintf(stderr, PROG ": next: armprof report %s\n", w);
    if (stat(perf, &st) != 0) return;
    shell_word(w, sizeof w, perf);
    fprintf(stderr, PROG ":       perf report -i %s --itrace=i1i --sort dso,sym\n", w);
}

int record_command(int argc, char **argv)
{
    record_options o = {.prefix = "armprof"};
    int rc = parse(argc, argv, &o);
    char filters[4096];
    if (!rc) rc = check_settings(&o);
    if (!rc) rc = check_filters(&o, filters, sizeof filters);
    if (!rc) rc = check_prefix(o.prefix);
    if (rc) return rc;
    char err[1024], interp[4096], version[32];
    bool fixed_address = false;
    char *program = NULL, *qemu = NULL, *plugin = NULL;
    const char *root = NULL;
    if (!record_find_program(argv[o.program], &program, err, sizeof err) ||
        !record_check_elf(program, interp, sizeof interp, &fixed_address, err, sizeof err) ||
        !record_sysroot(o.root, program, interp, &root, err, sizeof err) ||
        !record_find_qemu(o.qemu, &qemu, err, sizeof err) ||
        !record_find_plugin(qemu, &plugin, version, sizeof version, err, sizeof err)) {
        say("%s%s", err, "");
        free(program);
        free(qemu);
        free(plugin);
        return 2;
    }
    /* -plugin FILE,out=PREFIX,...: pauth=off because Debian's programs
     * carry pointer-authentication instructions, which QEMU's default
     * emulation of makes about 15 times slower (docs/qemu.md) */
    char plugarg[16384];
    size_t at = 0;
    for (const char *p = plugin; *p && at + 2 < sizeof plugarg; p++) {
        plugarg[at++] = *p;
        if (*p == ',') plugarg[at++] = ',';
    }
    plugarg[at] = 0;
    append_escaped(plugarg, sizeof plugarg, "out", o.prefix);
    if (o.interval) append_escaped(plugarg, sizeof plugarg, "interval", o.interval);
    if (o.mode) append_escaped(plugarg, sizeof plugarg, "mode", o.mode);
    if (o.preset) append_escaped(plugarg, sizeof plugarg, "preset", o.preset);
    if (o.config) append_escaped(plugarg, sizeof plugarg, "config", o.config);
    if (*filters) {
        const size_t n = strlen(plugarg);
        snprintf(plugarg + n, sizeof plugarg - n, ",%s", filters);
    }
    const int nargs = argc - o.program;
    char **qargv = calloc((size_t)nargs + 10, sizeof *qargv);
    if (!qargv) abort();
    int q = 0;
    qargv[q++] = qemu;
    qargv[q++] = "-cpu";
    qargv[q++] = "max,pauth=off";
    if (root) {
        qargv[q++] = "-L";
        qargv[q++] = (char *)root;
    }
    qargv[q++] = "-plugin";
    qargv[q++] = plugarg;
    qargv[q++] = program;
    for (int i = o.program + 1; i < argc; i++)
        qargv[q++] = argv[i];
    fprintf(stderr, PROG ": %s under QEMU %s (%s)%s%s, plugin %s\n", program, version, qemu,
            root ? ", libraries from " : "", root ? root : "", plugin);
    fflush(NULL);
    char perf_path[4200];
    struct stat perf_before;
    snprintf(perf_path, sizeof perf_path, "%s.perf.data", o.prefix);
    const bool perf_existed = stat(perf_path, &perf_before) == 0;
    pid_t qemu_pid = 0;
    rc = run(qargv, &qemu_pid);
    finish_perf_data(o.prefix, program, fixed_address, qemu_pid, &perf_before, perf_existed);
    next_steps(o.prefix);
    free(qargv);
    free(program);
    free(qemu);
    free(plugin);
    return rc;
}
