/* SPDX-License-Identifier: BSD-3-Clause */
/* The plugin's entry: arguments, vCPUs coming and going, exit
 * (docs/qemu.md).
 *
 *   qemu-aarch64 -cpu max,pauth=off \
 *       -plugin libarmprof_qemu.so,out=PREFIX[,interval=N][,jitter=on|off][,preset=NAME]
 *               [,config=FILE][,mode=fast|exact][,timing=inline|ops|access]
 *               [,perf_version=V][,midr=HEX][,quiet=on][,batch=N]
 *               [,replay=thread|inline][,ATTRIBUTE=VALUE...] PROGRAM ARGS
 * ATTRIBUTE: Linux's arm_spe_pmu format attributes (load_filter,
 * min_latency...), as armprof_kernel_spe_attribute() maps them. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qprof.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* QEMU's callbacks carry no pointer for the plugin: its one instance. */
qp_plugin qp;

#define NR_MMAP       222 /* the AArch64 Linux system call numbers */
#define NR_EXECVE     221
#define PROT_EXEC_BIT 4

/* A guest's mmap() (its executable mappings go to perf's side-band,
 * sideband.c) and execve() (the profile ends). */
static void syscall_entry(qemu_plugin_id_t id, unsigned vcpu, int64_t num, uint64_t a1, uint64_t a2,
                          uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                          uint64_t a8)
{
    (void)id;
    (void)a1;
    (void)a4;
    (void)a7;
    (void)a8;
    if (qp.stopped) return;
    if (num == NR_MMAP) {
        qp_thread *t = qp_thread_of(vcpu);
        t->mmap.len = a2;
        t->mmap.prot = a3;
        t->mmap.fd = (int64_t)a5;
        t->mmap.off = a6;
    } else if (num == NR_EXECVE) {
        /* The new program replaces this process and QEMU with it: the
         * profile ends here. Other threads would still be running, so the
         * profile of a multi-threaded program is written only when QEMU
         * exits (if execve() fails), and the user is told. */
        unsigned live = 0;
        for (unsigned v = 0; v < QP_MAX_VCPUS; v++)
            live += qp.threads[v] != NULL;
        if (live > 1) {
            fprintf(stderr,
                    "armprof: the program calls execve() with %u threads running: if it "
                    "succeeds, this profile is lost (only a single-threaded program's is "
                    "written at execve())\n",
                    live);
            return;
        }
        fprintf(stderr,
                "armprof: the program calls execve(): its profile so far is written; what it "
                "executes runs without the plugin\n");
        qp_write_outputs();
    }
}

static void syscall_return(qemu_plugin_id_t id, unsigned vcpu, int64_t num, int64_t ret)
{
    (void)id;
    if (qp.stopped || num != NR_MMAP || (uint64_t)ret >= (uint64_t)-4095) return; /* -errno */
    qp_thread *t = qp_thread_of(vcpu);
    if (!(t->mmap.prot & PROT_EXEC_BIT) || t->mmap.fd < 0) return;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%lld", (long long)t->mmap.fd);
    const ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return;
    path[n] = 0;
    qp_add_map((uint64_t)ret, t->mmap.len, t->mmap.off, path);
}

static void vcpu_init(qemu_plugin_id_t id, unsigned vcpu)
{
    (void)id;
    qp_regs_init();
    /* qemu-user gives a new thread the lowest free vCPU index: a thread
     * whose end was not seen ends now */
    qp_thread *old = qp_thread_detach(vcpu);
    if (old) qp_thread_end(old);
    qp_thread *t = qp_thread_of(vcpu);
    if (qp.system && t->pe) qp_system_vcpu(t);
    qp_counters *c = qp_counters_of(t);
    memset(c, 0, sizeof *c); /* budget 0: the first block visits the model */
}

static void vcpu_exit(qemu_plugin_id_t id, unsigned vcpu)
{
    (void)id;
    pthread_rwlock_rdlock(&qp.ending);
    if (!__atomic_load_n(&qp.stopped, __ATOMIC_ACQUIRE)) {
        qp_thread *t = qp_thread_detach(vcpu);
        if (t) qp_thread_end(t);
    }
    pthread_rwlock_unlock(&qp.ending);
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
    (void)id;
    (void)userdata;
    if (qp.system) {
        /* the sampler first: it reads the vCPUs through the emulator */
        qp_sampler_finish(qp.sys.sampler);
        qp.sys.sampler = NULL;
        qp_system_summary();
    } else
        qp_write_outputs();
}

static bool parse_u32(const char *s, uint32_t *out)
{
    char *end;
    const unsigned long v = strtoul(s, &end, 0);
    if (!*s || *end || v > UINT32_MAX) return false;
    *out = (uint32_t)v;
    return true;
}

/* The index of value among the n names (an enum's values in order), or -1. */
static int choice(const char *value, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(value, names[i])) return i;
    return -1;
}

/* An installation error, said on stderr: -1, which makes QEMU stop. */
__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "armprof: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return -1;
}

/* What system mode registers, at install and again after each
 * qemu_plugin_reset() (system.c, through qp.sys.callbacks). */
static void system_callbacks(qemu_plugin_id_t id)
{
    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, qp_tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
}

/* The Arm Neoverse cores whose Data Source encoding perf decodes (its
 * arm_spe__synth_data_source_neoverse(); docs/memory-model.md), by
 * MIDR_EL1.PartNum, implementer Arm (0x41): N1, V1, N2 (perf 6.1 and 7.3)
 * and V2 (7.3; docs/perf.md) */
static bool neoverse_midr(uint64_t midr)
{
    static const uint16_t parts[] = {0xd0c, 0xd40, 0xd49, 0xd4f};
    if (midr >> 32 || (midr >> 24) != 0x41) return false;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if ((midr >> 4 & 0xfff) == parts[i]) return true;
    return false;
}

/* mode=VALUE into qp.mode: false for a value that is neither mode */
static bool parse_mode(const char *value)
{
    static const char *const modes[] = {[QP_MODE_FAST] = "fast", [QP_MODE_EXACT] = "exact"};
    const int m = choice(value, modes, 2);
    if (m < 0) return false;
    qp.mode = (qp_mode)m;
    return true;
}

/* The mem_* options configure exact mode's hierarchy: in fast mode there is
 * none (docs/memory-model.md); the hierarchy made in exact mode. */
static int make_hierarchy(unsigned hier_options)
{
    char err[512];
    if (hier_options && qp.mode == QP_MODE_FAST)
        return fail("the mem_* options configure exact mode's memory hierarchy: fast mode models "
                    "no memory (docs/memory-model.md)");
    if (qp.mode == QP_MODE_EXACT && !(qp.hier = qp_hier_create(&qp.hier_config, err, sizeof err)))
        return fail("%s", err);
    return 0;
}

/* batch=N, said when it is not valid */
static bool parse_batch(const char *value)
{
    if (parse_u32(value, &qp.batch) && qp.batch <= QP_BATCH_MOST) return true;
    fail("batch=%s: 0 (each visit calls the model at once) to %u samples a replay", value,
         QP_BATCH_MOST);
    return false;
}

/* qemu-system-aarch64 with armprof's SPE: the guest programs it, the
 * plugin gives it the operations (system.c). Its options are the PC
 * sampler's (pcsample.c), out=, their output prefix, the mode with exact
 * mode's hierarchy (mode=, mem_*) and batch= (queue.c): the guest programs
 * SPE and the PMU. */
static int install_system(qemu_plugin_id_t id, int argc, char **argv)
{
    char err[512];
    qp.out = strdup("armprof");
    qp.batch = QP_BATCH_DEFAULT;
    qp_hier_config_default(&qp.hier_config);
    unsigned hier_options = 0;
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) return fail("argument \"%s\": expected name=value", argv[i]);
        *eq = 0;
        bool bad = false;
        if (!strcmp(argv[i], "out")) {
            free(qp.out);
            qp.out = strdup(eq + 1);
        } else if (!strcmp(argv[i], "mode")) {
            if (!parse_mode(eq + 1)) return fail("mode=%s: fast or exact", eq + 1);
        } else if (!strcmp(argv[i], "batch")) {
            if (!parse_batch(eq + 1)) return -1;
        } else if (qp_hier_option(&qp.hier_config, argv[i], eq + 1, &bad, err, sizeof err)) {
            if (bad) return fail("%s", err);
            hier_options++;
        } else if (qp_sampler_option(&qp.sys.sampler, argv[i], eq + 1, &bad, err, sizeof err)) {
            if (bad) return fail("%s", err);
        } else
            return fail("unknown argument \"%s\": system mode takes out, mode, batch, mem_* "
                        "(docs/memory-model.md), pcsample and pcsample-elf (the guest programs "
                        "SPE and the PMU)",
                        argv[i]);
    }
    if (make_hierarchy(hier_options) != 0) return -1;
    if (!qp_system_bind()) return -1;
    if (!qp_model_init(err, sizeof err)) return fail("%s", err);
    if (!qp_sampler_start(qp.sys.sampler, err, sizeof err)) return fail("%s", err);
    qp.system = true;
#if QPROF_SCOREBOARDS
    qp.sb = qemu_plugin_scoreboard_new(sizeof(qp_counters));
#endif
    qp.default_vl = 512;
    qp.sys.callbacks = system_callbacks;
    system_callbacks(id);
    return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv)
{
    if (strcmp(info->target_name, "aarch64") != 0)
        return fail("the plugin profiles AArch64 guests, not %s", info->target_name);
    memset(&qp, 0, sizeof qp);
    qp.watch_fd = -1;
    pthread_mutex_init(&qp.lock, NULL);
    pthread_rwlock_init(&qp.ending, NULL);
    qp.id = id;
    qp.mode = QP_MODE_FAST;
    if (info->system_emulation) return install_system(id, argc, argv);
    qp.out = strdup("armprof");
    qp.interval = 1024;
    /* Ampere Altra's Neoverse N1 r3p1, whose figures the hierarchy's
     * defaults are, and which perf 6.1 and 7.3 both decode */
    qp.midr = 0x413fd0c1;
    qp.batch = QP_BATCH_DEFAULT;
    qp_replayer_init();
    armprof_kernel_params_default(&qp.spe_params);
    GString *filters = g_string_new("");
    qp.mode = QP_MODE_FAST;
    const char *preset = "armv9.4-all", *config_path = NULL;
    qp_hier_config_default(&qp.hier_config);
    unsigned hier_options = 0;
    char err[512];
    for (int i = 0; i < argc; i++) {
        bool on, bad;
        char *eq = strchr(argv[i], '=');
        if (!eq) return fail("argument \"%s\": expected name=value", argv[i]);
        *eq = 0;
        const char *name = argv[i], *value = eq + 1;
        if (!strcmp(name, "out")) {
            free(qp.out);
            qp.out = strdup(value);
        } else if (!strcmp(name, "interval")) {
            if (!parse_u32(value, &qp.interval) || qp.interval % 256 || !qp.interval)
                return fail("interval=%s: a multiple of 256 (PMSIRR_EL1.INTERVAL)", value);
        } else if (!strcmp(name, "batch")) {
            if (!parse_batch(value)) return -1;
        } else if (!strcmp(name, "replay")) {
            static const char *const where[] = {"thread", "inline"};
            const int c = choice(value, where, 2);
            if (c < 0) return fail("replay=%s: thread or inline", value);
            qp.replay_inline = c == 1;
        } else if (!strcmp(name, "preset"))
            preset = value;
        else if (!strcmp(name, "config"))
            config_path = value;
        else if (!strcmp(name, "mode")) {
            if (!parse_mode(value)) return fail("mode=%s: fast or exact", value);
        } else if (!strcmp(name, "timing")) {
            static const char *const calls[] = {[QP_TIMING_INLINE] = "inline",
                                                [QP_TIMING_OPS] = "ops",
                                                [QP_TIMING_ACCESS] = "access"};
            const int c = choice(value, calls, 3);
            if (c < 0) return fail("timing=%s: inline, ops or access", value);
            qp.timing_call = (qp_timing_call)c;
        } else if (!strcmp(name, "midr")) {
            char *end;
            qp.midr = strtoull(value, &end, 16);
            if (!*value || *end || !neoverse_midr(qp.midr))
                return fail("midr=%s: MIDR_EL1 in hex of an Arm Neoverse core (N1 0x413fd0c1, V1, "
                            "N2, V2 0x410fd4f0), whose Data Source encoding the plugin writes "
                            "(docs/memory-model.md)",
                            value);
        } else if (!strcmp(name, "perf_version")) {
            if (strncmp(value, "perf", 4) == 0 ||
                !armprof_perf_metadata_for_version(value, &qp.metadata, &qp.perf_version))
                return fail("perf_version=%s: MAJOR.MINOR, as 6.1", value);
            snprintf(qp.metadata_why, sizeof qp.metadata_why,
                     "arm_spe metadata version %d, for perf_version=%s", (int)qp.metadata, value);
        } else if (!strcmp(name, "jitter") && qemu_plugin_bool_parse(name, value, &on)) {
            qp.spe_params.random = on;
        } else if (!strcmp(name, "jitter") && strcmp(value, "0") && strcmp(value, "1")) {
            return fail("jitter=%s: on or off (or the driver's 1 or 0)", value);
        } else if (!strcmp(name, "pcsample") || !strcmp(name, "pcsample-elf")) {
            return fail("%s=: PC sampling by an external agent (a JTAG probe's PMPCSR reads) is "
                        "for the armprof qemu-system-aarch64 (docs/pc-sampling.md); qemu-user "
                        "samples PMPCSR at every %uth SPE sample by itself",
                        name, QP_PCSR_EVERY);
        } else if (qp_hier_option(&qp.hier_config, name, value, &bad, err, sizeof err)) {
            if (bad) return fail("%s", err);
            hier_options++;
        } else if (!strcmp(name, "quiet")) {
            bool q;
            if (!qemu_plugin_bool_parse(name, value, &q)) return fail("quiet=%s: on or off", value);
            qp.quiet = q;
        } else {
            /* the driver's own words for the filters and the PMSCR_EL1
             * bits (armprof/kernel.h) */
            char attr[256], why[768];
            snprintf(attr, sizeof attr, "%s=%s", name, value);
            if (!armprof_kernel_spe_attribute(&qp.spe_params, attr, why, sizeof why)) {
                if (strstr(why, "is not an arm_spe_pmu attribute"))
                    return fail("unknown argument \"%s\" (out, interval, jitter, preset, config, "
                                "mode, timing, perf_version, midr, quiet, batch, replay, mem_* "
                                "(docs/memory-model.md), or %s",
                                name, strchr(why, '(') + 1);
                return fail("%s", why);
            }
            g_string_append_printf(filters, "%s%s", filters->len ? "," : "", attr);
        }
    }
    qp.filters = g_string_free(filters, false);
    if (!armprof_config_preset(&qp.config, preset))
        return fail("preset=%s: not a preset (armprof presets lists them)", preset);
    if (make_hierarchy(hier_options) != 0) return -1;
    /* The virtual kernel never changes its buffer's tables: the unit may
     * keep their translation as a TLB entry (a config file can say 0) */
    if (!armprof_config_set(&qp.config, "spe_buffer_tlb", "1", err, sizeof err))
        return fail("%s", err);
    if (config_path && !qp_config_file(&qp.config, config_path, err, sizeof err))
        return fail("config: %s", err);
    if (!armprof_config_validate(&qp.config, err, sizeof err))
        return fail("the configuration: %s", err);
    /* a PE booted now: a configuration the kernel cannot use (no EL2 or
     * EL3, a Profiling Buffer not usable at EL1) stops QEMU before the
     * program starts */
    if (!qp_model_init(err, sizeof err)) return fail("%s", err);
    armprof_pe *pe;
    armprof_kernel *k;
    if (!qp_boot(&pe, &k, NULL, NULL, err, sizeof err))
        return fail("the configuration cannot be booted: %s", err);
    armprof_kernel_destroy(k);
    armprof_pe_destroy(pe);
    if (!qp_spe_open(err, sizeof err)) return fail("out=: %s", err);
    if (!qp_watch_start(err, sizeof err)) return fail("%s", err);
    /* PREFIX.perf.data for the perf that will read it: perf_version=, else
     * the one on PATH (docs/perf.md, "Which perf reads which file") */
    if (!qp.perf_version)
        qp.metadata = armprof_perf_metadata_for_path_perf(qp.metadata_why, sizeof qp.metadata_why);
    char desc[512];
    snprintf(desc, sizeof desc, "preset %s%s%s", preset, config_path ? ", config " : "",
             config_path ? config_path : "");
    qp.config_desc = strdup(desc);
    qp.pid = (uint32_t)getpid();
    /* the SVE vector length a thread starts with: QEMU's default 64 bytes
     * (target/arm/cpu.c, sve_default_vq 4), or -cpu's property in bytes */
    qp.default_vl = 512;
    char *vl = qp_cpu_property("sve-default-vector-length");
    if (vl) {
        const long bytes = strtol(vl, NULL, 0);
        if (bytes > 0 && bytes <= 256) qp.default_vl = (uint32_t)bytes * 8;
        g_free(vl);
    }
#if QPROF_SCOREBOARDS
    qp.sb = qemu_plugin_scoreboard_new(sizeof(qp_counters));
#endif
    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_exit_cb(id, vcpu_exit);
    qemu_plugin_register_vcpu_tb_trans_cb(id, qp_tb_trans);
    qemu_plugin_register_vcpu_syscall_cb(id, syscall_entry);
    qemu_plugin_register_vcpu_syscall_ret_cb(id, syscall_return);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
