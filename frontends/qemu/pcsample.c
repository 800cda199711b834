/* SPDX-License-Identifier: BSD-3-Clause */
/* The host-side PC sampler of system mode (docs/pc-sampling.md): a thread
 * that, like a JTAG probe on the external debug interface, reads every
 * vCPU's PMPCSR and its context register HZ times a second of host time,
 * through the emulator (armprof_system_external_access(), which tells the
 * PE the vCPU's current PC first); at exit the samples go to
 * PREFIX.pcsr.perf.data, one perf sample event each.
 *
 *   qemu-system-aarch64 -cpu max,armprof=on \
 *       -plugin libarmprof_qemu.so,pcsample=1000[,pcsample-elf=PATH[:PATH]...][,out=PREFIX] */
#define _GNU_SOURCE /* clock_nanosleep's TIMER_ABSTIME */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "armprof/elf.h"
#include "qprof.h"

#if QPROF_SCOREBOARDS
/* The most samples a second the option takes: above it the reads of a
 * tick outlast the tick. */
#define PCS_MAX_HZ 100000u
/* The samples' times: ns since the sampler started, from here (the
 * side-band is dated before). */
#define PCS_TIME_ORIGIN 1000u
/* The lowest address of TTBR1_EL1's range with 52-bit VAs: the kernel's
 * map for perf starts there, whatever the kernel's VA size (the plugin does
 * not know where _text is; perf takes the symbols from kallsyms). */
#define PCS_KERNEL_START 0xfff0000000000000ull

typedef struct pcs_sample {
    uint64_t time;
    uint64_t pmpcsr;
    uint32_t contextidr; /* CONTEXTIDR_EL1 as PMPCSR's read captured it */
    uint32_t vcpu;
} pcs_sample;

typedef struct pcs_counts {
    uint64_t reads, samples, no_sample, refused;
    const char *first_why; /* the first refusal's condition (a string the library keeps) */
} pcs_counts;

/* An executable segment of a pcsample-elf= file. */
typedef struct pcs_segment {
    armprof_elf_segment seg;
    size_t elf; /* its file's index */
} pcs_segment;

struct qp_sampler {
    uint32_t hz;
    char **elf; /* pcsample-elf= files */
    size_t nelf;
    pcs_segment *segs;
    size_t nsegs;
    __typeof__(armprof_system_external_access) *access;
    uint32_t pmpcsr, context; /* offsets in the PMU block */
    unsigned context_size;    /* 8: PMCCIDSR, 4: PMCID1SR */
    pthread_t thread;
    bool running;
    bool stop; /* __atomic */
    uint64_t t0;
    /* written by the thread alone, read after it ends */
    pcs_counts counts[QP_MAX_VCPUS];
    unsigned nvcpus;
    pcs_sample *s;
    size_t n, cap;
    char failure[256]; /* why the thread stopped early ("" if it did not) */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool add_elf(qp_sampler *s, const char *path, char *err, size_t errlen)
{
    armprof_elf_segment seg[ARMPROF_ELF_MAX_SEGMENTS];
    size_t n = 0;
    bool dynamic = false;
    char why[256];
    if (!armprof_elf_exec_segments(path, 0, seg, &n, &dynamic, why, sizeof why)) {
        snprintf(err, errlen, "pcsample-elf=%s: %s", path, why);
        return false;
    }
    if (dynamic) {
        /* its addresses are the loader's choice, which the host cannot see */
        snprintf(err, errlen,
                 "pcsample-elf=%s: a position-independent file (ET_DYN); only executables at "
                 "their link address (gcc -static, without -static-pie) can be named",
                 path);
        return false;
    }
    s->elf = realloc(s->elf, (s->nelf + 1) * sizeof *s->elf);
    s->segs = realloc(s->segs, (s->nsegs + n) * sizeof *s->segs);
    if (!s->elf || !s->segs) abort();
    s->elf[s->nelf] = strdup(path);
    for (size_t i = 0; i < n; i++)
        s->segs[s->nsegs++] = (pcs_segment){seg[i], s->nelf};
    s->nelf++;
    return true;
}

bool qp_sampler_option(qp_sampler **sp, const char *name, const char *value, bool *bad, char *err,
                       size_t errlen)
{
    const bool hz = !strcmp(name, "pcsample");
    if (!hz && strcmp(name, "pcsample-elf")) return false;
    if (!*sp && !(*sp = calloc(1, sizeof **sp))) abort();
    qp_sampler *s = *sp;
    *bad = false;
    if (hz) {
        char *end;
        errno = 0;
        const unsigned long v = strtoul(value, &end, 10);
        if (errno || !*value || *end || value[0] == '-' || v == 0 || v > PCS_MAX_HZ) {
            snprintf(err, errlen, "pcsample=%s: reads a second, 1 to %u", value, PCS_MAX_HZ);
            *bad = true;
        }
        s->hz = (uint32_t)v;
        return true;
    }
    /* PATH[:PATH...] */
    char *list = strdup(value), *save = NULL;
    if (!list) abort();
    for (char *p = strtok_r(list, ":", &save); p && !*bad; p = strtok_r(NULL, ":", &save))
        *bad = !add_elf(s, p, err, errlen);
    if (!*bad && !s->nelf) {
        snprintf(err, errlen, "pcsample-elf=%s: no file", value);
        *bad = true;
    }
    free(list);
    return true;
}

/* The offsets of PMPCSR and of the context register in the PMU block: the
 * 64-bit views (FEAT_PMUv3_EXT64: PMPCSR at 0x200, PMCCIDSR at 0x228 with
 * CONTEXTIDR_EL1 in [31:0]), else PMPCSR's low word alone would leave out
 * the EL and NS bits: only EXT64 is read. */
static bool registers(qp_sampler *s, const armprof_pe *pe)
{
    const int pcsr = qp_pmu_block_reg("PMPCSR", 64), ccid = qp_pmu_block_reg("PMCCIDSR", 64);
    if (pcsr < 0 || ccid < 0 || !armprof_ext_reg_present(pe, pcsr) ||
        !armprof_ext_reg_present(pe, ccid)) {
        snprintf(s->failure, sizeof s->failure,
                 "the vCPUs' PMU block has no 64-bit PMPCSR and PMCCIDSR (PC sampling with "
                 "FEAT_PMUv3_EXT64): no PC samples (try -cpu ...,armprof-preset=armv9.4-all)");
        return false;
    }
    s->pmpcsr = armprof_ext_reg_offset(pcsr, 0);
    s->context = armprof_ext_reg_offset(ccid, 0);
    s->context_size = 8;
    return true;
}

static void keep(qp_sampler *s, const pcs_sample *x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 65536;
        s->s = realloc(s->s, s->cap * sizeof *s->s);
        if (!s->s) abort();
    }
    s->s[s->n++] = *x;
}

/* One probe read of vCPU v: PMPCSR, then (a sample) the context register
 * its read captured. */
static void sample(qp_sampler *s, unsigned v)
{
    pcs_counts *c = &s->counts[v];
    const uint64_t time = now_ns() - s->t0 + PCS_TIME_ORIGIN;
    const armprof_ext_outcome o = s->access(v, ARMPROF_EXT_PMU, s->pmpcsr, 8, false, 0);
    c->reads++;
    if (o.kind != ARMPROF_EXT_OK) {
        if (!c->refused++) c->first_why = o.why ? o.why : "unmodelled";
        return;
    }
    /* PMPCSR[31:0] all ones: no sample (H7.1), as the first read of a
     * suspended unit (FEAT_PCSRv8p9), which activates it */
    if ((o.value & 0xffffffffull) == 0xffffffffull) {
        c->no_sample++;
        return;
    }
    const armprof_ext_outcome ctx =
        s->access(v, ARMPROF_EXT_PMU, s->context, s->context_size, false, 0);
    c->samples++;
    keep(s, &(pcs_sample){time, o.value, ctx.kind == ARMPROF_EXT_OK ? (uint32_t)ctx.value : 0, v});
}

static void *sampler_main(void *arg)
{
    qp_sampler *s = arg;
    const uint64_t period = 1000000000ull / s->hz;
    /* the kernel's default timer slack (50 us) would make each wake-up that
     * much late, most of a period at 10 kHz: 1 us */
    prctl(PR_SET_TIMERSLACK, 1000ul, 0ul, 0ul, 0ul);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    bool known = false;
    while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
        uint64_t at = (uint64_t)next.tv_sec * 1000000000ull + (uint64_t)next.tv_nsec + period;
        /* behind by a tick or more (the reads took longer): the missed
         * ticks are not made up, the next one is a period from now */
        if (now_ns() > at) at = now_ns() + period;
        next.tv_sec = (time_t)(at / 1000000000ull);
        next.tv_nsec = (long)(at % 1000000000ull);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {
        }
        /* the vCPUs QEMU made, numbered from 0; every one, halted or not
         * (a halted vCPU's PC is in its idle loop) */
        unsigned v = 0;
        for (; v < QP_MAX_VCPUS; v++) {
            const qp_thread *t = __atomic_load_n(&qp.threads[v], __ATOMIC_ACQUIRE);
            if (!t || !t->pe) break;
            if (!known) {
                if (!registers(s, t->pe)) return NULL;
                known = true;
            }
            sample(s, v);
        }
        if (v > s->nvcpus) s->nvcpus = v;
    }
    return NULL;
}

bool qp_sampler_start(qp_sampler *s, char *err, size_t errlen)
{
    if (!s) return true;
    if (!s->hz) {
        snprintf(err, errlen,
                 "pcsample-elf= without pcsample=HZ: no PC sampling to name files for");
        return false;
    }
    s->access = (__typeof__(armprof_system_external_access) *)dlsym(
        RTLD_DEFAULT, "armprof_system_external_access");
    if (!s->access) {
        snprintf(err, errlen,
                 "pcsample=: this qemu-system-aarch64 has no armprof_system_external_access: an "
                 "emulator without the external debug and PMU blocks (build the armprof one: "
                 "frontends/qemu-system/build.sh)");
        return false;
    }
    s->t0 = now_ns();
    const int e = pthread_create(&s->thread, NULL, sampler_main, s);
    if (e) {
        snprintf(err, errlen, "pcsample=: cannot start the sampler thread: %s", strerror(e));
        return false;
    }
    s->running = true;
    return true;
}

/* The pcsample-elf= file whose executable segments hold user PC pc, or
 * -1. */
static long elf_at(const qp_sampler *s, uint64_t pc)
{
    for (size_t i = 0; i < s->nsegs; i++)
        if (pc >= s->segs[i].seg.start && pc - s->segs[i].seg.start < s->segs[i].seg.len)
            return (long)s->segs[i].elf;
    return -1;
}

/* The task's command and the file's executable segments, before its first
 * sample in them: perf names the file's functions for that pid. */
static bool announce(armprof_perf_writer *w, const qp_sampler *s, uint32_t pid, size_t elf,
                     uint64_t time)
{
    const char *base = strrchr(s->elf[elf], '/');
    bool ok = armprof_perf_write_comm(w, pid, pid, base ? base + 1 : s->elf[elf], time);
    for (size_t i = 0; ok && i < s->nsegs; i++)
        if (s->segs[i].elf == elf)
            ok = armprof_perf_write_mmap2(w, pid, pid, s->segs[i].seg.start, s->segs[i].seg.len,
                                          s->segs[i].seg.pgoff, s->elf[elf], time);
    return ok;
}

static bool write_samples(const qp_sampler *s, armprof_perf_writer *w)
{
    bool ok = armprof_perf_write_kernel_mmap(w, PCS_KERNEL_START, UINT64_MAX - PCS_KERNEL_START,
                                             PCS_TIME_ORIGIN - 1);
    GHashTable *announced = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (size_t i = 0; i < s->n && ok; i++) {
        const pcs_sample *x = &s->s[i];
        /* PMPCSR: PC [55:0], EL [62:61], NS [63]; a PC with bit 55 set is
         * in TTBR1's range: its top byte is all ones (the kernel's) */
        uint64_t pc = x->pmpcsr & ((1ull << 56) - 1);
        if (pc >> 55) pc |= 0xffull << 56;
        const unsigned el = (unsigned)(x->pmpcsr >> 61) & 3;
        /* EL0: user; EL1 and EL2 (a VHE kernel), EL3: kernel, where perf
         * looks in kallsyms */
        const uint16_t mode = el == 0 ? ARMPROF_PERF_CPUMODE_USER : ARMPROF_PERF_CPUMODE_KERNEL;
        if (el == 0 && s->nsegs &&
            !g_hash_table_contains(announced, GUINT_TO_POINTER(x->contextidr + 1u))) {
            const long elf = elf_at(s, pc);
            if (elf >= 0) {
                ok = announce(w, s, x->contextidr, (size_t)elf, x->time - 1);
                g_hash_table_add(announced, GUINT_TO_POINTER(x->contextidr + 1u));
            }
        }
        const armprof_perf_sample ps = {.ip = pc,
                                        .pid = x->contextidr,
                                        .tid = x->contextidr,
                                        .time = x->time,
                                        .cpu = x->vcpu,
                                        .period = 1000000000ull / s->hz,
                                        .cpumode = mode};
        ok = ok && armprof_perf_write_sample(w, &ps);
    }
    g_hash_table_destroy(announced);
    return ok;
}

static bool write_perf(const qp_sampler *s, const char *path, char *err, size_t errlen)
{
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    c.content = ARMPROF_PERF_CONTENT_PC_SAMPLES;
    c.ncpus = s->nvcpus ? s->nvcpus : 1;
    c.sample_period = 1000000000ull / s->hz;
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, errlen);
    if (!w) return false;
    if (!write_samples(s, w)) {
        snprintf(err, errlen, "%s", armprof_perf_writer_error(w));
        armprof_perf_writer_abandon(w);
        return false;
    }
    return armprof_perf_writer_finish(w, err, errlen);
}

void qp_sampler_finish(qp_sampler *s)
{
    if (!s) return;
    if (s->running) {
        __atomic_store_n(&s->stop, true, __ATOMIC_RELEASE);
        pthread_join(s->thread, NULL);
    }
    FILE *out = stderr;
    if (s->failure[0]) fprintf(out, "armprof: pcsample=: %s\n", s->failure);
    fprintf(out, "armprof qemu plugin: PC sampling at %u Hz of host time by an external agent\n",
            s->hz);
    for (unsigned v = 0; v < s->nvcpus; v++) {
        const pcs_counts *c = &s->counts[v];
        fprintf(out, "vcpu %u: PMPCSR reads %llu, samples %llu, no sample %llu, refused %llu", v,
                (unsigned long long)c->reads, (unsigned long long)c->samples,
                (unsigned long long)c->no_sample, (unsigned long long)c->refused);
        if (c->refused) fprintf(out, " (the first: %s)", c->first_why);
        fputc('\n', out);
    }
    const size_t n = strlen(qp.out) + sizeof ".pcsr.perf.data";
    char *path = malloc(n), err[512];
    if (!path) abort();
    snprintf(path, n, "%s.pcsr.perf.data", qp.out);
    if (write_perf(s, path, err, sizeof err))
        fprintf(out, "wrote %s (%zu PC samples)\n", path, s->n);
    else
        fprintf(out, "armprof: %s NOT written: %s\n", path, err);
    free(path);
    for (size_t i = 0; i < s->nelf; i++)
        free(s->elf[i]);
    free(s->elf);
    free(s->segs);
    free(s->s);
    free(s);
}
#else
bool qp_sampler_option(qp_sampler **s, const char *name, const char *value, bool *bad, char *err,
                       size_t errlen)
{
    (void)s;
    (void)name;
    (void)value;
    (void)err;
    (void)errlen;
    *bad = false;
    return false;
}
bool qp_sampler_start(qp_sampler *s, char *err, size_t errlen)
{
    (void)s;
    (void)err;
    (void)errlen;
    return true;
}
void qp_sampler_finish(qp_sampler *s)
{
    (void)s;
}
#endif
