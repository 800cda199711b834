/* SPDX-License-Identifier: BSD-3-Clause */
/* PC samples in perf.data (armprof/perfdata.h, content PC samples), as the
 * QEMU plugin's sampler writes them (docs/pc-sampling.md):
 * - the layout, from the kernel's ABI (include/uapi/linux/perf_event.h):
 *   one attribute of type PERF_TYPE_SOFTWARE (1), config
 *   PERF_COUNT_SW_CPU_CLOCK (0), sample_type IP (1) | TID (2) | TIME (4) |
 *   CPU (0x80) | PERIOD (0x100) | IDENTIFIER (0x10000) = 0x10187; a sample
 *   event (type 9) of 8 + 6 * 8 bytes whose header's misc is the cpumode
 *   (1 kernel, 2 user); the kernel's PERF_RECORD_MMAP (type 1) with pid -1
 *   and "[kernel.kallsyms]"; no AUXTRACE_INFO (70);
 * - every event back through armprof_perf_read_events(), in order;
 * - the SPE reader refuses the file, the events reader an SPE file (and
 *   says it is one), the writer mixed content.
 *   test_pc_samples [--write DIR]   DIR: the file, an ELF and a kallsyms
 *                                   for tests/perf_pc_samples.cmake */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "armprof/elf.h"
#include "armprof/perfdata.h"
#include "check.h"
#include "cli/elf_map.h"
#include "slurp.h"

/* The made-up profile: a kernel of three functions (the kallsyms below)
 * and a program of two (the ELF), sampled 20 times. */
/* the kernel's map from the lowest address of TTBR1_EL1's range with
 * 52-bit VAs, as the plugin writes it (it does not know _text) */
#define KMAP   0xfff0000000000000ull
#define KHOT   0xffff800080010000ull
#define KCOLD  0xffff800080010100ull
#define UTEXT  0x400000ull
#define UHOT   (UTEXT + 0x100)
#define UCOLD  (UTEXT + 0x200)
#define PID    100u
#define PERIOD 1000000u

static const char kallsyms[] = "ffff800080000000 T _text\n"
                               "ffff800080010000 T kfunc_hot\n"
                               "ffff800080010100 T kfunc_cold\n"
                               "ffff800080010200 T kfunc_end\n";

typedef struct planned {
    uint64_t ip;
    uint32_t pid, cpu;
    uint16_t cpumode;
    unsigned count;
} planned;
/* per symbol: user_hot 9, kfunc_hot 6, user_cold 3, kfunc_cold 2 */
static const planned plan[] = {
    {UHOT + 4, PID, 0, ARMPROF_PERF_CPUMODE_USER, 9},
    {KHOT + 0x10, PID, 0, ARMPROF_PERF_CPUMODE_KERNEL, 4},
    {KHOT + 0x20, 0, 1, ARMPROF_PERF_CPUMODE_KERNEL, 2},
    {UCOLD, PID, 0, ARMPROF_PERF_CPUMODE_USER, 3},
    {KCOLD + 8, 0, 1, ARMPROF_PERF_CPUMODE_KERNEL, 2},
};
enum { NPLAN = sizeof plan / sizeof plan[0], NSAMPLES = 20 };

static bool write_profile(const char *path, const char *elf, char *err, size_t errlen)
{
    armprof_elf_segment seg[ARMPROF_ELF_MAX_SEGMENTS];
    size_t nseg = 0;
    if (!armprof_elf_exec_segments(elf, 0, seg, &nseg, NULL, err, errlen)) return false;
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    c.content = ARMPROF_PERF_CONTENT_PC_SAMPLES;
    c.ncpus = 2;
    c.sample_period = PERIOD;
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, errlen);
    if (!w) return false;
    bool ok = armprof_perf_write_kernel_mmap(w, KMAP, UINT64_MAX - KMAP, 1) &&
              armprof_perf_write_comm(w, PID, PID, "pcs_prog", 2) &&
              armprof_perf_write_mmap2(w, PID, PID, seg[0].start, seg[0].len, seg[0].pgoff, elf, 2);
    uint64_t time = 10;
    for (size_t i = 0; ok && i < NPLAN; i++)
        for (unsigned k = 0; ok && k < plan[i].count; k++) {
            const armprof_perf_sample s = {.ip = plan[i].ip,
                                           .pid = plan[i].pid,
                                           .tid = plan[i].pid,
                                           .time = time++,
                                           .cpu = plan[i].cpu,
                                           .period = PERIOD,
                                           .cpumode = plan[i].cpumode};
            ok = armprof_perf_write_sample(w, &s);
        }
    if (!ok) {
        snprintf(err, errlen, "%s", armprof_perf_writer_error(w));
        armprof_perf_writer_abandon(w);
        return false;
    }
    return armprof_perf_writer_finish(w, err, errlen);
}

static bool write_elf(const char *path, char *err, size_t errlen)
{
    const elf_symbol syms[] = {{"user_hot", UHOT, 0x100}, {"user_cold", UCOLD, 0x100}};
    return elf_write_symbols(path, UTEXT, 0x1000, syms, 2, err, errlen);
}

typedef struct seen {
    armprof_perf_event ev[64];
    char names[64][64];
    size_t n;
} seen;

static bool keep(const armprof_perf_event *e, void *ctx)
{
    seen *s = ctx;
    if (s->n == 64) return false;
    s->ev[s->n] = *e;
    snprintf(s->names[s->n], sizeof s->names[0], "%s", e->name ? e->name : "");
    s->n++;
    return true;
}

static bool stop_at_once(const armprof_perf_event *e, void *ctx)
{
    (void)e;
    (void)ctx;
    return false;
}

static void check_layout(const char *path)
{
    size_t size = 0;
    uint8_t *b = slurp(path, &size);
    CHECK(b && size > 104, "the file");
    if (!b || size <= 104) return;
    const uint8_t *attr = b + le(b + 24, 8);
    CHECK(le(attr, 4) == 1 && le(attr + 8, 8) == 0, "type %llu config %llu",
          (unsigned long long)le(attr, 4), (unsigned long long)le(attr + 8, 8));
    CHECK(le(attr + 16, 8) == PERIOD, "sample_period %llu", (unsigned long long)le(attr + 16, 8));
    CHECK(le(attr + 24, 8) == 0x10187, "sample_type 0x%llx", (unsigned long long)le(attr + 24, 8));
    /* the data section's events: a kernel MMAP, then the first sample */
    const uint64_t at = le(b + 40, 8), data = le(b + 48, 8);
    unsigned mmaps = 0, samples = 0, auxinfo = 0;
    for (uint64_t p = at; p + 8 <= at + data && le(b + p + 6, 2) >= 8; p += le(b + p + 6, 2)) {
        const uint32_t type = (uint32_t)le(b + p, 4);
        if (type == 1) {
            mmaps++;
            CHECK(le(b + p + 4, 2) == 1 && le(b + p + 8, 4) == 0xffffffffu &&
                      le(b + p + 16, 8) == KMAP &&
                      !strcmp((const char *)b + p + 40, "[kernel.kallsyms]"),
                  "the kernel's MMAP");
        }
        if (type == 9 && samples++ == 0)
            CHECK(le(b + p + 6, 2) == 56 && le(b + p + 4, 2) == 2 &&
                      le(b + p + 16, 8) == UHOT + 4 && le(b + p + 24, 4) == PID &&
                      le(b + p + 40, 4) == 0 && le(b + p + 48, 8) == PERIOD,
                  "the first sample: size %llu misc %llu ip 0x%llx",
                  (unsigned long long)le(b + p + 6, 2), (unsigned long long)le(b + p + 4, 2),
                  (unsigned long long)le(b + p + 16, 8));
        auxinfo += type == 70;
    }
    CHECK(mmaps == 1 && samples == NSAMPLES && auxinfo == 0,
          "%u MMAP, %u samples, %u AUXTRACE_INFO", mmaps, samples, auxinfo);
    free(b);
}

static void check_read_back(const char *path, const char *elf)
{
    char err[512];
    static seen s;
    bool aux = true;
    CHECK(armprof_perf_read_events(path, keep, &s, &aux, err, sizeof err), "%s", err);
    CHECK(!aux, "AUX data said");
    CHECK(s.n == 3 + NSAMPLES, "%zu events", s.n);
    if (s.n != 3 + NSAMPLES) return;
    CHECK(s.ev[0].kind == ARMPROF_PERF_EVENT_MMAP && s.ev[0].addr == KMAP &&
              s.ev[0].sample.pid == UINT32_MAX && s.ev[0].sample.cpumode == 1 &&
              !strcmp(s.names[0], "[kernel.kallsyms]"),
          "kernel MMAP: %s", s.names[0]);
    CHECK(s.ev[1].kind == ARMPROF_PERF_EVENT_COMM && s.ev[1].sample.pid == PID &&
              !strcmp(s.names[1], "pcs_prog"),
          "COMM %s", s.names[1]);
    CHECK(s.ev[2].kind == ARMPROF_PERF_EVENT_MMAP && s.ev[2].addr == UTEXT &&
              s.ev[2].pgoff == 0x1000 && !strcmp(s.names[2], elf),
          "MMAP2 0x%llx @0x%llx %s", (unsigned long long)s.ev[2].addr,
          (unsigned long long)s.ev[2].pgoff, s.names[2]);
    size_t k = 3;
    uint64_t time = 10;
    for (size_t i = 0; i < NPLAN; i++)
        for (unsigned j = 0; j < plan[i].count; j++, k++) {
            const armprof_perf_sample *x = &s.ev[k].sample;
            CHECK(s.ev[k].kind == ARMPROF_PERF_EVENT_SAMPLE && x->ip == plan[i].ip &&
                      x->pid == plan[i].pid && x->tid == plan[i].pid && x->time == time++ &&
                      x->cpu == plan[i].cpu && x->period == PERIOD && x->cpumode == plan[i].cpumode,
                  "sample %zu: ip 0x%llx pid %u cpu %u mode %u", k, (unsigned long long)x->ip,
                  x->pid, x->cpu, x->cpumode);
        }
    /* a function that stops the reading: false, "stopped" */
    CHECK(!armprof_perf_read_events(path, stop_at_once, NULL, NULL, err, sizeof err) &&
              strstr(err, "stopped"),
          "%s", err);
    /* the SPE reader: no AUXTRACE_INFO */
    armprof_perf_file *f = armprof_perf_open(path, err, sizeof err);
    CHECK(!f && strstr(err, "no SPE data"), "%s", err);
    armprof_perf_close(f);
}

/* Damaged copies of a good file: the reader names what is wrong. */
static void check_damaged(const char *good, const char *bad)
{
    char err[512];
    size_t size = 0;
    uint8_t *b = slurp(good, &size);
    CHECK(b != NULL, "%s", good);
    if (!b) return;
    /* sample_type without IP (bit 0) */
    const uint64_t attr = le(b + 24, 8);
    b[attr + 24] &= (uint8_t)~1u;
    spill(bad, b, size);
    CHECK(!armprof_perf_read_events(bad, keep, &(seen){0}, NULL, err, sizeof err) &&
              strstr(err, "the samples carry no IP"),
          "%s", err);
    b[attr + 24] |= 1u;
    /* the data section cut inside the last sample: its size is the
     * header's, the file ends 8 bytes short */
    const uint64_t end = le(b + 40, 8) + le(b + 48, 8);
    spill(bad, b, (size_t)end - 8);
    CHECK(!armprof_perf_read_events(bad, keep, &(seen){0}, NULL, err, sizeof err) &&
              strstr(err, "passes the end of the file"),
          "%s", err);
    free(b);
}

/* An SPE file to the events reader: refused, and said to be one. */
static void check_spe_refused(const char *path)
{
    char err[512];
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, sizeof err);
    CHECK(w != NULL, "%s", err);
    if (!w) return;
    const armprof_perf_sample s = {.ip = 4};
    CHECK(!armprof_perf_write_sample(w, &s) &&
              strstr(armprof_perf_writer_error(w), "a sample event in a file of SPE data"),
          "%s", armprof_perf_writer_error(w));
    armprof_perf_writer_abandon(w);
    w = armprof_perf_writer_create(path, &c, err, sizeof err);
    CHECK(w && armprof_perf_writer_finish(w, err, sizeof err), "%s", err);
    bool aux = false;
    CHECK(!armprof_perf_read_events(path, keep, &(seen){0}, &aux, err, sizeof err) && aux &&
              strstr(err, "AUXTRACE_INFO"),
          "%s", err);
    /* and AUX data in a PC samples file */
    c.content = ARMPROF_PERF_CONTENT_PC_SAMPLES;
    w = armprof_perf_writer_create(path, &c, err, sizeof err);
    CHECK(w && !armprof_perf_write_aux(w, 0, "x", 1) &&
              strstr(armprof_perf_writer_error(w), "AUX data in a file of PC samples"),
          "%s", w ? armprof_perf_writer_error(w) : err);
    armprof_perf_writer_abandon(w);
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc == 3 && !strcmp(argv[1], "--write")) {
        /* for perf: the profile, its program and its kernel's symbols */
        char data[4096], elf[4096], ks[4096];
        snprintf(data, sizeof data, "%s/pcs.data", argv[2]);
        snprintf(elf, sizeof elf, "%s/pcs_prog", argv[2]);
        snprintf(ks, sizeof ks, "%s/kallsyms", argv[2]);
        FILE *k = fopen(ks, "w");
        if (!k || fputs(kallsyms, k) < 0 || fclose(k) != 0) {
            fprintf(stderr, "%s: cannot write\n", ks);
            return 2;
        }
        if (!write_elf(elf, err, sizeof err) || !write_profile(data, elf, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        return 0;
    }
    char dir[] = "/tmp/armprof_pcsXXXXXX";
    if (!mkdtemp(dir)) return 2;
    char data[128], elf[128], spe[128];
    snprintf(data, sizeof data, "%s/pcs.data", dir);
    snprintf(elf, sizeof elf, "%s/pcs_prog", dir);
    snprintf(spe, sizeof spe, "%s/spe.data", dir);
    CHECK(write_elf(elf, err, sizeof err), "%s", err);
    CHECK(write_profile(data, elf, err, sizeof err), "%s", err);
    check_layout(data);
    check_read_back(data, elf);
    check_spe_refused(spe);
    check_damaged(data, spe);
    unlink(data);
    unlink(elf);
    unlink(spe);
    rmdir(dir);
    return check_summary();
}
