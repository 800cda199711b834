/* SPDX-License-Identifier: BSD-3-Clause */
/* The perf.data writer (armprof/perfdata.h). The file is laid out as perf
 * record lays out its own: the header, the one attribute and its id, the
 * data section (TIME_CONV, AUXTRACE_INFO, then the caller's side-band and
 * AUX events, a FINISHED_ROUND last), then the features' section table and
 * their contents. The header is written last, when the data section's size
 * is known. */
#define _POSIX_C_SOURCE   200809L
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/outfile.h"
#include "armprof/perfdata.h"
#include "armprof/version.h"
#include "perfdata/feature.h"
#include "perfdata/format.h"
#include "perfdata/topology.h"
#include "perfdata/message.h"

enum {
    ATTRS_AT = PERF_HEADER_SIZE,
    IDS_AT = ATTRS_AT + PERF_FILE_ATTR_SIZE,
    DATA_AT = IDS_AT + 8,
    /* the attribute's id; perf numbers the samples it makes from SPE
     * records from this id + 10^9 */
    EVENT_ID = 1,
    MAX_CPUS = 4096,
};

#define SPE_EVENT_NAME "arm_spe_0//"
#define SPE_PMU_NAME   "arm_spe_0"

struct armprof_perf_writer {
    armprof_outfile *out;
    FILE *f; /* out's stream */
    char *path;
    armprof_perf_writer_config c;
    uint64_t pos;         /* bytes written so far */
    uint64_t *aux_offset; /* per CPU: the AUX bytes written so far */
    perf_topology topo;   /* the CPUs' places, checked */
    char error[256];
};

void armprof_perf_writer_config_init(armprof_perf_writer_config *c)
{
    if (!c) return;
    memset(c, 0, sizeof *c);
    c->metadata = ARMPROF_PERF_SPE_METADATA_V2;
    c->pmu_type = 8;
    c->ncpus = 1;
    c->midr = 0x410fd4f0; /* Arm Neoverse V2 r0p0 */
    c->min_interval = 256;
    c->sample_period = 1024;
}

/* The first failure is kept; later calls fail without writing. */
static bool fail(armprof_perf_writer *w, const char *what)
{
    if (!w->error[0])
        snprintf(w->error, sizeof w->error, "%s: %s: %s", w->path, what,
                 errno ? strerror(errno) : "write failed");
    return false;
}

static bool put(armprof_perf_writer *w, const void *p, size_t n)
{
    if (w->error[0]) return false;
    errno = 0;
    if (n && fwrite(p, 1, n, w->f) != n) return fail(w, "cannot write");
    w->pos += n;
    return true;
}

static bool put_zeros(armprof_perf_writer *w, size_t n)
{
    static const uint8_t zeros[64];
    while (n) {
        const size_t k = n < sizeof zeros ? n : sizeof zeros;
        if (!put(w, zeros, k)) return false;
        n -= k;
    }
    return true;
}

static void event_header(uint8_t *p, uint32_t type, uint16_t misc, uint16_t size)
{
    put_le32(p, type);
    put_le16(p + 4, misc);
    put_le16(p + 6, size);
}

static bool pc_samples(const armprof_perf_writer_config *c)
{
    return c->content == ARMPROF_PERF_CONTENT_PC_SAMPLES;
}

/* The one attribute, as perf record makes it: the arm_spe event, which
 * samples (the SPE records become samples in perf's decoder); or for PC
 * samples a cpu-clock software event whose samples are the file's sample
 * events (their period: the sampler's interval in ns). The side-band
 * events carry the sample id fields (sample_id_all). */
static void event_attr(const armprof_perf_writer_config *c, uint8_t a[PERF_ATTR_SIZE])
{
    memset(a, 0, PERF_ATTR_SIZE);
    put_le32(a + PERF_ATTR_TYPE, pc_samples(c) ? PERF_TYPE_SOFTWARE : c->pmu_type);
    put_le32(a + PERF_ATTR_SIZE_FIELD, PERF_ATTR_SIZE);
    put_le64(a + PERF_ATTR_CONFIG, pc_samples(c) ? PERF_COUNT_SW_CPU_CLOCK : c->config);
    put_le64(a + PERF_ATTR_SAMPLE_PERIOD, c->sample_period);
    put_le64(a + PERF_ATTR_SAMPLE_TYPE, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                            PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER |
                                            (pc_samples(c) ? PERF_SAMPLE_PERIOD : 0));
    const uint64_t flags = 1ull << PERF_ATTR_FLAG_DISABLED | 1ull << PERF_ATTR_FLAG_INHERIT |
                           1ull << PERF_ATTR_FLAG_MMAP | 1ull << PERF_ATTR_FLAG_COMM |
                           1ull << PERF_ATTR_FLAG_TASK | 1ull << PERF_ATTR_FLAG_SAMPLE_ID_ALL |
                           1ull << PERF_ATTR_FLAG_MMAP2 | 1ull << PERF_ATTR_FLAG_COMM_EXEC;
    put_le64(a + PERF_ATTR_FLAGS, flags);
}

/* The sample id fields of a side-band event (sample_id_all), in the order
 * of the attribute's sample_type: pid and tid, time, cpu, identifier. */
enum { SAMPLE_ID_SIZE = 8 + 8 + 8 + 8 };
static void sample_id(uint8_t *p, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu)
{
    put_le32(p, pid);
    put_le32(p + 4, tid);
    put_le64(p + 8, time);
    put_le32(p + 16, cpu);
    put_le32(p + 20, 0);
    put_le64(p + 24, EVENT_ID);
}

/* PERF_RECORD_TIME_CONV: perf's time from a counter value is
 * time_zero + (value * time_mult) >> time_shift; mult 1 and shift 0 make
 * it the generic timer's count, the clock of the records' timestamps. */
static bool write_time_conv(armprof_perf_writer *w)
{
    uint8_t e[PERF_EVENT_HEADER_SIZE + 48] = {0};
    event_header(e, PERF_RECORD_TIME_CONV, 0, sizeof e);
    put_le64(e + 8, 0);           /* time_shift */
    put_le64(e + 16, 1);          /* time_mult */
    put_le64(e + 24, 0);          /* time_zero */
    put_le64(e + 32, 0);          /* time_cycles */
    put_le64(e + 40, UINT64_MAX); /* time_mask */
    /* cap_user_time_zero 1, cap_user_time_short 0 */
    e[48] = 1;
    return put(w, e, sizeof e);
}

static bool write_auxtrace_info(armprof_perf_writer *w)
{
    const armprof_perf_writer_config *c = &w->c;
    const size_t words = c->metadata == ARMPROF_PERF_SPE_METADATA_V1
                             ? ARM_SPE_V1_WORDS
                             : ARM_SPE_V2_HEADER_WORDS + (size_t)c->ncpus * ARM_SPE_V2_CPU_WORDS;
    const size_t size = PERF_EVENT_HEADER_SIZE + 8 + 8 * words;
    if (size > UINT16_MAX) {
        errno = 0;
        return fail(w, "the arm_spe metadata is too large for one event (too many CPUs)");
    }
    uint8_t *e = calloc(1, size);
    if (!e) return fail(w, "out of memory");
    event_header(e, PERF_RECORD_AUXTRACE_INFO, 0, (uint16_t)size);
    put_le32(e + 8, PERF_AUXTRACE_ARM_SPE);
    uint8_t *priv = e + 16;
    if (c->metadata == ARMPROF_PERF_SPE_METADATA_V1) {
        put_le64(priv + 8 * ARM_SPE_V1_PMU_TYPE, c->pmu_type);
        put_le64(priv + 8 * ARM_SPE_V1_PER_CPU_MMAPS, 1);
    } else {
        put_le64(priv + 8 * ARM_SPE_V2_HEADER_VERSION, 2);
        put_le64(priv + 8 * ARM_SPE_V2_HEADER_SIZE, ARM_SPE_V2_HEADER_WORDS);
        put_le64(priv + 8 * ARM_SPE_V2_PMU_TYPE, c->pmu_type);
        put_le64(priv + 8 * ARM_SPE_V2_CPUS_NUM, c->ncpus);
        for (uint32_t cpu = 0; cpu < c->ncpus; cpu++) {
            uint8_t *p = priv + 8 * (ARM_SPE_V2_HEADER_WORDS + (size_t)cpu * ARM_SPE_V2_CPU_WORDS);
            put_le64(p + 8 * ARM_SPE_V2_CPU_MAGIC_AT, ARM_SPE_V2_CPU_MAGIC);
            put_le64(p + 8 * ARM_SPE_V2_CPU_AT, cpu);
            /* the parameters after the count: MIDR, PMU type, minimum
             * interval, event filter */
            put_le64(p + 8 * ARM_SPE_V2_CPU_NR_PARAMS_AT,
                     ARM_SPE_V2_CPU_WORDS - ARM_SPE_V2_CPU_MIDR_AT);
            put_le64(p + 8 * ARM_SPE_V2_CPU_MIDR_AT, c->midr);
            put_le64(p + 8 * ARM_SPE_V2_CPU_PMU_TYPE_AT, c->pmu_type);
            put_le64(p + 8 * ARM_SPE_V2_CPU_MIN_IVAL_AT, c->min_interval);
            put_le64(p + 8 * ARM_SPE_V2_CPU_EVENT_FILTER_AT, c->event_filter);
        }
    }
    const bool ok = put(w, e, size);
    free(e);
    return ok;
}

static void writer_free(armprof_perf_writer *w)
{
    perf_topology_free(&w->topo);
    free(w->aux_offset);
    free(w->path);
    free(w);
}

armprof_perf_writer *armprof_perf_writer_create(const char *path,
                                                const armprof_perf_writer_config *c, char *err,
                                                size_t errlen)
{
    if (!path || !c) {
        perf_message(err, errlen, "no file or no configuration (NULL)");
        return NULL;
    }
    if (c->content != ARMPROF_PERF_CONTENT_SPE && !pc_samples(c)) {
        perf_message(err, errlen, "%s: unknown content %d", path, (int)c->content);
        return NULL;
    }
    if (c->metadata != ARMPROF_PERF_SPE_METADATA_V1 &&
        c->metadata != ARMPROF_PERF_SPE_METADATA_V2) {
        perf_message(err, errlen, "%s: unknown arm_spe metadata version %d", path,
                     (int)c->metadata);
        return NULL;
    }
    if (c->ncpus == 0 || c->ncpus > MAX_CPUS) {
        perf_message(err, errlen, "%s: %u CPUs (1 to %u)", path, c->ncpus, MAX_CPUS);
        return NULL;
    }
    armprof_perf_writer *w = calloc(1, sizeof *w);
    if (!w) {
        perf_message(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    w->c = *c;
    /* the caller's arrays are not kept */
    w->c.topology = NULL;
    w->c.node_memory = NULL;
    w->path = strdup(path);
    w->aux_offset = calloc(c->ncpus, sizeof *w->aux_offset);
    if (!w->path || !w->aux_offset) {
        perf_message(err, errlen, "%s: out of memory", path);
    } else if (perf_topology_init(&w->topo, c, path, err, errlen)) {
        w->out = armprof_outfile_open(path, c->inputs, c->ninputs, err, errlen);
        w->f = armprof_outfile_stream(w->out);
    }
    if (!w->f) {
        writer_free(w);
        return NULL;
    }
    /* The header is written again at the end; the attribute and its id
     * now. */
    uint8_t head[DATA_AT] = {0};
    event_attr(&w->c, head + ATTRS_AT);
    put_le64(head + ATTRS_AT + PERF_ATTR_SIZE, IDS_AT);
    put_le64(head + ATTRS_AT + PERF_ATTR_SIZE + 8, 8);
    put_le64(head + IDS_AT, EVENT_ID);
    if (!put(w, head, sizeof head) || !write_time_conv(w) ||
        (!pc_samples(c) && !write_auxtrace_info(w))) {
        perf_message(err, errlen, "%s", w->error);
        armprof_outfile_abandon(w->out);
        writer_free(w);
        return NULL;
    }
    return w;
}

/* A string field of a side-band event: NUL-terminated, padded to 8. */
static size_t padded_string_size(size_t len)
{
    return (len + 1 + 7) & ~(size_t)7;
}

bool armprof_perf_write_comm(armprof_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm,
                             uint64_t time)
{
    if (!w) return false;
    if (!comm) {
        errno = 0;
        return fail(w, "a COMM event without a name (NULL)");
    }
    /* TASK_COMM_LEN is 16: the kernel reports at most 15 bytes */
    const size_t len = strnlen(comm, 15);
    const size_t name = padded_string_size(len);
    uint8_t e[PERF_EVENT_HEADER_SIZE + 8 + 16 + SAMPLE_ID_SIZE] = {0};
    const size_t size = PERF_EVENT_HEADER_SIZE + 8 + name + SAMPLE_ID_SIZE;
    event_header(e, PERF_RECORD_COMM, 0, (uint16_t)size);
    put_le32(e + 8, pid);
    put_le32(e + 12, tid);
    memcpy(e + 16, comm, len);
    sample_id(e + 16 + name, pid, tid, time, 0);
    return put(w, e, size);
}

bool armprof_perf_write_mmap2(armprof_perf_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
                              uint64_t len, uint64_t pgoff, const char *filename, uint64_t time)
{
    if (!w) return false;
    if (!filename) {
        errno = 0;
        return fail(w, "an MMAP2 event without a file name (NULL)");
    }
    const size_t flen = strlen(filename);
    /* PATH_MAX, as the kernel's d_path() limit */
    if (flen >= 4096) {
        errno = 0;
        return fail(w, "an MMAP2 file name longer than 4095 bytes");
    }
    const size_t fixed = PERF_EVENT_HEADER_SIZE + 64;
    const size_t size = fixed + padded_string_size(flen) + SAMPLE_ID_SIZE;
    uint8_t *e = calloc(1, size);
    if (!e) return fail(w, "out of memory");
    /* PERF_RECORD_MISC_USER (2): a user-space mapping */
    event_header(e, PERF_RECORD_MMAP2, 2, (uint16_t)size);
    put_le32(e + 8, pid);
    put_le32(e + 12, tid);
    put_le64(e + 16, addr);
    put_le64(e + 24, len);
    put_le64(e + 32, pgoff);
    /* maj, min, ino, ino_generation: 0 (no device: perf opens the file by
     * name); prot PROT_READ|PROT_EXEC (5), flags MAP_PRIVATE (2) */
    put_le32(e + 64, 5);
    put_le32(e + 68, 2);
    memcpy(e + fixed, filename, flen);
    sample_id(e + fixed + padded_string_size(flen), pid, tid, time, 0);
    const bool ok = put(w, e, size);
    free(e);
    return ok;
}

bool armprof_perf_write_aux(armprof_perf_writer *w, uint32_t cpu, const void *data, size_t size)
{
    if (!w) return false;
    if (pc_samples(&w->c)) {
        errno = 0;
        return fail(w, "AUX data in a file of PC samples");
    }
    if (cpu >= w->c.ncpus) {
        errno = 0;
        char what[96];
        snprintf(what, sizeof what, "AUX data for CPU %u of a file with %u CPUs", cpu, w->c.ncpus);
        return fail(w, what);
    }
    if (!data && size) {
        errno = 0;
        return fail(w, "AUX data without bytes (NULL)");
    }
    const size_t padded = (size + 7) & ~(size_t)7;
    uint8_t e[PERF_AUXTRACE_EVENT_SIZE] = {0};
    event_header(e, PERF_RECORD_AUXTRACE, 0, PERF_AUXTRACE_EVENT_SIZE);
    put_le64(e + 8, padded);
    put_le64(e + 16, w->aux_offset[cpu]);
    put_le64(e + 24, 0);          /* reference */
    put_le32(e + 32, cpu);        /* idx: one mmap per CPU */
    put_le32(e + 36, UINT32_MAX); /* tid -1: recorded per CPU */
    put_le32(e + 40, cpu);
    if (!put(w, e, sizeof e) || !put(w, data, size) || !put_zeros(w, padded - size)) return false;
    w->aux_offset[cpu] += padded;
    return true;
}

bool armprof_perf_write_sample(armprof_perf_writer *w, const armprof_perf_sample *s)
{
    if (!w) return false;
    errno = 0;
    if (!pc_samples(&w->c)) return fail(w, "a sample event in a file of SPE data");
    if (!s) return fail(w, "a sample event without a sample (NULL)");
    if (s->cpu >= w->c.ncpus) {
        char what[96];
        snprintf(what, sizeof what, "a sample of CPU %u in a file of %u CPUs", s->cpu, w->c.ncpus);
        return fail(w, what);
    }
    /* sample_type order: IDENTIFIER, IP, TID, TIME, CPU, PERIOD */
    uint8_t e[PERF_EVENT_HEADER_SIZE + 48];
    event_header(e, PERF_RECORD_SAMPLE, s->cpumode & PERF_RECORD_MISC_CPUMODE_MASK, sizeof e);
    put_le64(e + 8, EVENT_ID);
    put_le64(e + 16, s->ip);
    put_le32(e + 24, s->pid);
    put_le32(e + 28, s->tid);
    put_le64(e + 32, s->time);
    put_le32(e + 40, s->cpu);
    put_le32(e + 44, 0);
    put_le64(e + 48, s->period);
    return put(w, e, sizeof e);
}

bool armprof_perf_write_kernel_mmap(armprof_perf_writer *w, uint64_t addr, uint64_t len,
                                    uint64_t time)
{
    if (!w) return false;
    /* perf's host kernel map: pid -1 (HOST_KERNEL_ID), the name perf's
     * machine__process_kernel_mmap_event() looks for */
    static const char name[] = "[kernel.kallsyms]";
    const size_t fixed = PERF_EVENT_HEADER_SIZE + 32;
    uint8_t e[PERF_EVENT_HEADER_SIZE + 32 + 24 + SAMPLE_ID_SIZE] = {0};
    const size_t size = fixed + padded_string_size(sizeof name - 1) + SAMPLE_ID_SIZE;
    event_header(e, PERF_RECORD_MMAP, ARMPROF_PERF_CPUMODE_KERNEL, (uint16_t)size);
    put_le32(e + 8, UINT32_MAX);
    put_le32(e + 12, 0);
    put_le64(e + 16, addr);
    put_le64(e + 24, len);
    put_le64(e + 32, 0);
    memcpy(e + fixed, name, sizeof name - 1);
    sample_id(e + fixed + padded_string_size(sizeof name - 1), UINT32_MAX, 0, time, 0);
    return put(w, e, size);
}

const char *armprof_perf_writer_error(const armprof_perf_writer *w)
{
    return w ? w->error : "no writer (NULL)";
}

/* ---- features ---- */

/* The features written, in bit order. */
static const unsigned feature_bits[] = {
    HEADER_HOSTNAME,     HEADER_OSRELEASE,     HEADER_VERSION,      HEADER_ARCH,
    HEADER_NRCPUS,       HEADER_CPUID,         HEADER_TOTAL_MEM,    HEADER_EVENT_DESC,
    HEADER_CPU_TOPOLOGY, HEADER_NUMA_TOPOLOGY, HEADER_PMU_MAPPINGS,
};
enum { NFEATURES = sizeof feature_bits / sizeof feature_bits[0] };

static void build_feature(const armprof_perf_writer *w, unsigned bit, perf_feature *f)
{
    const armprof_perf_writer_config *c = &w->c;
    char text[64];
    switch (bit) {
    case HEADER_HOSTNAME:
        perf_feature_string(f, c->hostname ? c->hostname : "armprof");
        break;
    case HEADER_OSRELEASE:
        perf_feature_string(f, c->os_release ? c->os_release : "armprof");
        break;
    case HEADER_VERSION:
        snprintf(text, sizeof text, "armprof %s", ARMPROF_VERSION_STRING);
        perf_feature_string(f, text);
        break;
    case HEADER_ARCH:
        perf_feature_string(f, c->arch ? c->arch : "aarch64");
        break;
    case HEADER_NRCPUS:
        perf_feature_u32(f, c->ncpus); /* available */
        perf_feature_u32(f, c->ncpus); /* online */
        break;
    case HEADER_CPUID:
        /* what perf reads of an arm64 CPU: its MIDR_EL1 in hex */
        snprintf(text, sizeof text, "0x%016llx", (unsigned long long)c->midr);
        perf_feature_string(f, text);
        break;
    case HEADER_EVENT_DESC: {
        /* one event: its attribute, its ids and its name */
        uint8_t a[PERF_ATTR_SIZE];
        event_attr(c, a);
        perf_feature_u32(f, 1);
        perf_feature_u32(f, PERF_ATTR_SIZE);
        perf_feature_put(f, a, sizeof a);
        perf_feature_u32(f, 1);
        perf_feature_string(f, pc_samples(c) ? ARMPROF_PERF_PC_SAMPLE_EVENT : SPE_EVENT_NAME);
        perf_feature_u64(f, EVENT_ID);
        break;
    }
    case HEADER_TOTAL_MEM:
    case HEADER_CPU_TOPOLOGY:
    case HEADER_NUMA_TOPOLOGY:
        perf_topology_feature(&w->topo, bit, f);
        break;
    case HEADER_PMU_MAPPINGS:
        perf_feature_u32(f, 1);
        perf_feature_u32(f, pc_samples(c) ? PERF_TYPE_SOFTWARE : c->pmu_type);
        perf_feature_string(f, pc_samples(c) ? "software" : SPE_PMU_NAME);
        break;
    default:
        break;
    }
}

static bool write_features_and_header(armprof_perf_writer *w)
{
    uint8_t round[PERF_EVENT_HEADER_SIZE];
    event_header(round, PERF_RECORD_FINISHED_ROUND, 0, sizeof round);
    if (!put(w, round, sizeof round)) return false;
    const uint64_t data_size = w->pos - DATA_AT;
    perf_feature f[NFEATURES] = {{0}};
    bool ok = true;
    for (size_t i = 0; i < NFEATURES; i++) {
        build_feature(w, feature_bits[i], &f[i]);
        if (f[i].failed) ok = false;
    }
    if (!ok) {
        errno = 0;
        fail(w, "out of memory");
    }
    /* the section table, then the contents in the same order */
    uint64_t at = w->pos + 16ull * NFEATURES;
    for (size_t i = 0; ok && i < NFEATURES; i++) {
        uint8_t s[16];
        put_le64(s, at);
        put_le64(s + 8, f[i].size);
        ok = put(w, s, sizeof s);
        at += f[i].size;
    }
    for (size_t i = 0; ok && i < NFEATURES; i++)
        ok = put(w, f[i].p, f[i].size);
    for (size_t i = 0; i < NFEATURES; i++)
        free(f[i].p);
    if (!ok) return false;

    uint8_t h[PERF_HEADER_SIZE] = {0};
    put_le64(h, PERF_MAGIC2);
    put_le64(h + 8, PERF_HEADER_SIZE);
    put_le64(h + 16, PERF_FILE_ATTR_SIZE);
    put_le64(h + 24, ATTRS_AT); /* attrs */
    put_le64(h + 32, PERF_FILE_ATTR_SIZE);
    put_le64(h + 40, DATA_AT); /* data */
    put_le64(h + 48, data_size);
    /* event_types (56, 64): unused, zero */
    for (size_t i = 0; i < NFEATURES; i++)
        h[PERF_HEADER_FEATURES_AT + feature_bits[i] / 8] |= (uint8_t)(1u << (feature_bits[i] % 8));
    /* the buffered bytes first: a write that fails is a write error, not
     * one of the seek that would flush them */
    errno = 0;
    if (fflush(w->f) != 0) return fail(w, "cannot write");
    errno = 0;
    if (fseeko(w->f, 0, SEEK_SET) != 0) return fail(w, "cannot seek to the header");
    const uint64_t end = w->pos;
    ok = put(w, h, sizeof h);
    w->pos = end;
    return ok;
}

bool armprof_perf_writer_finish(armprof_perf_writer *w, char *err, size_t errlen)
{
    if (!w) {
        perf_message(err, errlen, "no writer (NULL)");
        return false;
    }
    bool ok = !w->error[0] && write_features_and_header(w);
    if (ok) {
        /* the close and the rename: what was at the path stays until
         * the whole file is there */
        ok = armprof_outfile_commit(w->out, err, errlen);
    } else {
        perf_message(err, errlen, "%s", w->error);
        armprof_outfile_abandon(w->out);
    }
    writer_free(w);
    return ok;
}

void armprof_perf_writer_abandon(armprof_perf_writer *w)
{
    if (!w) return;
    armprof_outfile_abandon(w->out);
    writer_free(w);
}
