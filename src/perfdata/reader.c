/* SPDX-License-Identifier: BSD-3-Clause */
/* The perf.data reader (armprof/perfdata.h): the header, then one pass over
 * the data section's event headers, which keeps the arm_spe metadata of
 * AUXTRACE_INFO and the place of each AUXTRACE event's data. The AUX bytes
 * are read only when asked for, so opening a large file costs a read per
 * event, not the file. */
#define _POSIX_C_SOURCE   200809L
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/perfdata.h"
#include "perfdata/format.h"
#include "perfdata/message.h"
#include "perfdata/reader.h"
#include "perfdata/topology.h"

struct armprof_perf_file {
    FILE *f;
    bool owns_f; /* opened by armprof_perf_open(), closed by close */
    char *path;
    uint64_t file_size;
    armprof_perf_file_info info;
    armprof_perf_aux_chunk *chunks;
    size_t chunk_cap;
    uint64_t *midr;
    uint32_t *cpu_number;
    bool read_failed; /* error[] holds a read error, not a format error */
    uint64_t data_at, data_size, attrs_at, attrs_size, attr_size; /* from the header */
    uint8_t features[HEADER_FEATURE_BITS / 8];                    /* the header's bitmap */
    perf_topology topo;
    char error[320];
};

bool armprof_perf_is_perf_data(const void *head, size_t size)
{
    return head && size >= 8 && get_le64(head) == PERF_MAGIC2;
}

/* Exactly n bytes at offset, or false: past the end of the file (the
 * caller says what was truncated), or a failed seek or read, which sets
 * read_failed and the message (a read error is not a truncated file). */
bool perf_file_read_at(armprof_perf_file *f, uint64_t offset, void *buf, size_t n)
{
    if (offset > f->file_size || n > f->file_size - offset) return false;
    errno = 0;
    if (fseeko(f->f, (off_t)offset, SEEK_SET) == 0) {
        const size_t got = fread(buf, 1, n, f->f);
        if (got == n) return true;
        offset += got;
    }
    const int e = errno;
    f->read_failed = true;
    snprintf(f->error, sizeof f->error, "%s: offset 0x%llx: read error: %s", f->path,
             (unsigned long long)offset,
             e ? strerror(e) : "the file ended before its size (it shrank)");
    return false;
}

static bool add_chunk(armprof_perf_file *f, const armprof_perf_aux_chunk *c)
{
    if (f->info.nchunks == f->chunk_cap) {
        const size_t cap = f->chunk_cap ? f->chunk_cap * 2 : 64;
        armprof_perf_aux_chunk *p = realloc(f->chunks, cap * sizeof *p);
        if (!p) return false;
        f->chunks = p;
        f->chunk_cap = cap;
    }
    f->chunks[f->info.nchunks++] = *c;
    return true;
}

static const char *auxtrace_kind(uint32_t type)
{
    switch (type) {
    case PERF_AUXTRACE_INTEL_PT:
        return "Intel PT";
    case PERF_AUXTRACE_INTEL_BTS:
        return "Intel BTS";
    case PERF_AUXTRACE_CS_ETM:
        return "CoreSight ETM";
    case PERF_AUXTRACE_S390_CPUMSF:
        return "s390 CPU-MF";
    case PERF_AUXTRACE_HISI_PTT:
        return "HiSilicon PTT";
    default:
        return "unknown";
    }
}

/* The arm_spe metadata: version 1 is exactly two words; anything longer
 * starts with its version and header size (arm_spe__alloc_metadata() in
 * perf reads it the same way). */
static bool parse_metadata(armprof_perf_file *f, const uint8_t *priv, size_t words, uint64_t offset)
{
    if (words == ARM_SPE_V1_WORDS) {
        f->info.metadata_version = 1;
        f->info.pmu_type = (uint32_t)get_le64(priv + 8 * ARM_SPE_V1_PMU_TYPE);
        return true;
    }
    if (words < ARM_SPE_V2_HEADER_WORDS) {
        snprintf(f->error, sizeof f->error,
                 "%s: offset 0x%llx: arm_spe metadata of %zu words (2 for version 1, at "
                 "least 4 for version 2)",
                 f->path, (unsigned long long)offset, words);
        return false;
    }
    const uint64_t version = get_le64(priv + 8 * ARM_SPE_V2_HEADER_VERSION);
    const uint64_t header = get_le64(priv + 8 * ARM_SPE_V2_HEADER_SIZE);
    const uint64_t ncpus = get_le64(priv + 8 * ARM_SPE_V2_CPUS_NUM);
    if (version != 2) {
        snprintf(f->error, sizeof f->error,
                 "%s: offset 0x%llx: arm_spe metadata version %llu (this reader knows 1 and 2)",
                 f->path, (unsigned long long)offset, (unsigned long long)version);
        return false;
    }
    if (header < ARM_SPE_V2_HEADER_WORDS || header > words || ncpus > 65536 ||
        (ncpus && (words - header) % ncpus != 0) ||
        (ncpus && (words - header) / ncpus < ARM_SPE_V2_CPU_MIDR_AT + 1)) {
        snprintf(f->error, sizeof f->error,
                 "%s: offset 0x%llx: arm_spe metadata version 2 with a header of %llu words "
                 "and %llu CPUs does not fit its %zu words",
                 f->path, (unsigned long long)offset, (unsigned long long)header,
                 (unsigned long long)ncpus, words);
        return false;
    }
    f->info.metadata_version = 2;
    f->info.pmu_type = (uint32_t)get_le64(priv + 8 * ARM_SPE_V2_PMU_TYPE);
    f->info.ncpus = (uint32_t)ncpus;
    free(f->midr);
    free(f->cpu_number);
    f->midr = calloc(ncpus ? ncpus : 1, sizeof *f->midr);
    f->cpu_number = calloc(ncpus ? ncpus : 1, sizeof *f->cpu_number);
    if (!f->midr || !f->cpu_number) {
        snprintf(f->error, sizeof f->error, "%s: out of memory", f->path);
        return false;
    }
    const size_t per_cpu = ncpus ? (words - header) / ncpus : 0;
    for (size_t i = 0; i < ncpus; i++) {
        const uint8_t *p = priv + 8 * (header + i * per_cpu);
        if (get_le64(p + 8 * ARM_SPE_V2_CPU_MAGIC_AT) != ARM_SPE_V2_CPU_MAGIC) {
            snprintf(f->error, sizeof f->error,
                     "%s: offset 0x%llx: arm_spe metadata of CPU entry %zu lacks its magic "
                     "number",
                     f->path, (unsigned long long)offset, i);
            return false;
        }
        f->cpu_number[i] = (uint32_t)get_le64(p + 8 * ARM_SPE_V2_CPU_AT);
        f->midr[i] = get_le64(p + 8 * ARM_SPE_V2_CPU_MIDR_AT);
    }
    f->info.midr = f->midr;
    f->info.cpu_number = f->cpu_number;
    return true;
}

static bool truncated(armprof_perf_file *f, const char *what, uint64_t offset)
{
    if (f->read_failed) return false; /* read_at() said why */
    snprintf(f->error, sizeof f->error, "%s: offset 0x%llx: %s truncated by the end of the file",
             f->path, (unsigned long long)offset, what);
    return false;
}

/* One pass over the events of the data section. */
static bool scan_events(armprof_perf_file *f, uint64_t start, uint64_t size)
{
    bool have_info = false;
    uint64_t pos = start;
    const uint64_t end = start + size;
    while (pos < end) {
        uint8_t h[PERF_AUXTRACE_EVENT_SIZE];
        if (end - pos < PERF_EVENT_HEADER_SIZE ||
            !perf_file_read_at(f, pos, h, PERF_EVENT_HEADER_SIZE))
            return truncated(f, "event header", pos);
        const uint32_t type = get_le32(h);
        const uint16_t esize = get_le16(h + 6);
        if (esize < PERF_EVENT_HEADER_SIZE) {
            snprintf(f->error, sizeof f->error,
                     "%s: offset 0x%llx: event of type %u with size %u (at least 8)", f->path,
                     (unsigned long long)pos, type, esize);
            return false;
        }
        if (esize > end - pos) return truncated(f, "event", pos);
        uint64_t next = pos + esize;
        switch (type) {
        case PERF_RECORD_COMPRESSED:
            snprintf(f->error, sizeof f->error,
                     "%s: offset 0x%llx: compressed events (perf record -z) are not "
                     "supported; decompress with perf inject -i FILE -o OUT",
                     f->path, (unsigned long long)pos);
            return false;
        case PERF_RECORD_AUXTRACE_INFO: {
            if (esize < PERF_EVENT_HEADER_SIZE + 8) return truncated(f, "AUXTRACE_INFO", pos);
            uint8_t *e = malloc(esize);
            if (!e) {
                snprintf(f->error, sizeof f->error, "%s: out of memory", f->path);
                return false;
            }
            if (!perf_file_read_at(f, pos, e, esize)) {
                free(e);
                return truncated(f, "AUXTRACE_INFO", pos);
            }
            const uint32_t kind = get_le32(e + 8);
            bool ok = true;
            if (kind != PERF_AUXTRACE_ARM_SPE) {
                snprintf(f->error, sizeof f->error,
                         "%s: offset 0x%llx: the AUX data is %s (auxtrace type %u), not arm_spe "
                         "(4)",
                         f->path, (unsigned long long)pos, auxtrace_kind(kind), kind);
                ok = false;
            } else {
                ok = parse_metadata(f, e + 16, (size_t)(esize - 16) / 8, pos);
            }
            free(e);
            if (!ok) return false;
            have_info = true;
            break;
        }
        case PERF_RECORD_AUXTRACE: {
            if (esize < PERF_AUXTRACE_EVENT_SIZE ||
                !perf_file_read_at(f, pos, h, PERF_AUXTRACE_EVENT_SIZE))
                return truncated(f, "AUXTRACE event", pos);
            armprof_perf_aux_chunk c = {
                .size = get_le64(h + 8),
                .aux_offset = get_le64(h + 16),
                .idx = get_le32(h + 32),
                .tid = get_le32(h + 36),
                .cpu = get_le32(h + 40),
                .file_offset = next,
            };
            if (c.size > end - next) return truncated(f, "AUXTRACE data", pos);
            /* An event without data adds nothing to read: counted, not
             * indexed, so that a file of millions of them costs no memory. */
            if (c.size == 0) {
                f->info.aux_empty++;
                break;
            }
            if (f->info.nchunks == ARMPROF_PERF_MAX_AUX_CHUNKS) {
                snprintf(f->error, sizeof f->error,
                         "%s: offset 0x%llx: more than %u AUXTRACE events with data (the "
                         "reader's cap, which bounds its memory)",
                         f->path, (unsigned long long)pos, ARMPROF_PERF_MAX_AUX_CHUNKS);
                return false;
            }
            if (!add_chunk(f, &c)) {
                snprintf(f->error, sizeof f->error, "%s: out of memory", f->path);
                return false;
            }
            f->info.aux_bytes += c.size;
            next += c.size;
            break;
        }
        case PERF_RECORD_COMM:
            f->info.ncomm++;
            break;
        case PERF_RECORD_MMAP2:
            f->info.nmmap++;
            break;
        default:
            break;
        }
        pos = next;
    }
    if (!have_info) {
        snprintf(f->error, sizeof f->error,
                 "%s: no SPE data: the file has no AUXTRACE_INFO event (record with -e "
                 "arm_spe_0//)",
                 f->path);
        return false;
    }
    return true;
}

/* The header: the data section's place, and the attributes'. */
static bool parse_header(armprof_perf_file *f)
{
    uint8_t h[PERF_HEADER_SIZE];
    if (!perf_file_read_at(f, 0, h, 8)) {
        if (f->read_failed) return false;
        snprintf(f->error, sizeof f->error, "%s: not a perf.data file (shorter than its magic)",
                 f->path);
        return false;
    }
    const uint64_t magic = get_le64(h);
    if (magic != PERF_MAGIC2) {
        if (memcmp(h, "PERFILE", 7) == 0)
            snprintf(f->error, sizeof f->error,
                     "%s: perf.data format PERFILE%c is not supported (PERFILE2 is)", f->path,
                     h[7]);
        else if (memcmp(h, "2ELIFREP", 8) == 0)
            snprintf(f->error, sizeof f->error, "%s: a big-endian perf.data file is not supported",
                     f->path);
        else
            snprintf(f->error, sizeof f->error, "%s: not a perf.data file (no PERFILE2 magic)",
                     f->path);
        return false;
    }
    if (!perf_file_read_at(f, 8, h + 8, 8)) return truncated(f, "header", 0);
    const uint64_t hsize = get_le64(h + 8);
    if (hsize == PERF_PIPE_HEADER_SIZE) {
        snprintf(f->error, sizeof f->error,
                 "%s: a pipe-mode perf.data (perf record -o -) is not supported; record to a "
                 "file, or convert with perf inject -i FILE -o OUT",
                 f->path);
        return false;
    }
    if (hsize < PERF_HEADER_SIZE) {
        snprintf(f->error, sizeof f->error, "%s: perf.data header of %llu bytes (at least %d)",
                 f->path, (unsigned long long)hsize, PERF_HEADER_SIZE);
        return false;
    }
    if (!perf_file_read_at(f, 0, h, sizeof h)) return truncated(f, "header", 0);
    const uint64_t data_at = get_le64(h + 40), data_size = get_le64(h + 48);
    if (data_at > f->file_size || data_size > f->file_size - data_at) {
        snprintf(f->error, sizeof f->error,
                 "%s: the data section (0x%llx, %llu bytes) passes the end of the file (%llu "
                 "bytes): truncated, or perf record did not finish",
                 f->path, (unsigned long long)data_at, (unsigned long long)data_size,
                 (unsigned long long)f->file_size);
        return false;
    }
    f->data_at = data_at;
    f->data_size = data_size;
    memcpy(f->features, h + PERF_HEADER_FEATURES_AT, sizeof f->features);
    f->attr_size = get_le64(h + 16);
    f->attrs_at = get_le64(h + 24);
    f->attrs_size = get_le64(h + 32);
    return true;
}

/* The most CPUs HEADER_NRCPUS may say: the reader keeps a topology entry
 * for each. */
enum { MAX_READ_CPUS = 1 << 16 };

static bool has_feature(const armprof_perf_file *f, unsigned bit)
{
    return f->features[bit / 8] >> (bit % 8) & 1;
}

/* Feature bit's contents (its entry of the section table after the data
 * section: one per set bit, in bit order), in a buffer to free. */
static uint8_t *read_feature(armprof_perf_file *f, unsigned bit, const char *name, size_t *size)
{
    unsigned index = 0;
    for (unsigned b = 0; b < bit; b++)
        index += has_feature(f, b);
    const uint64_t at = f->data_at + f->data_size + 16ull * index;
    uint8_t s[16];
    if (!perf_file_read_at(f, at, s, sizeof s)) {
        if (!f->read_failed)
            snprintf(f->error, sizeof f->error,
                     "%s: %s: its section entry at 0x%llx passes the end of the file", f->path,
                     name, (unsigned long long)at);
        return NULL;
    }
    const uint64_t offset = get_le64(s), n = get_le64(s + 8);
    uint8_t *p = n <= f->file_size ? malloc(n ? (size_t)n : 1) : NULL;
    if (n > f->file_size || offset > f->file_size - n) {
        snprintf(f->error, sizeof f->error,
                 "%s: %s: its %llu bytes at 0x%llx pass the end of the file (%llu bytes)", f->path,
                 name, (unsigned long long)n, (unsigned long long)offset,
                 (unsigned long long)f->file_size);
    } else if (!p) {
        snprintf(f->error, sizeof f->error, "%s: out of memory", f->path);
    } else if (perf_file_read_at(f, offset, p, (size_t)n)) {
        *size = (size_t)n;
        return p;
    }
    free(p);
    return NULL;
}

/* HEADER_NRCPUS, HEADER_CPU_TOPOLOGY and HEADER_NUMA_TOPOLOGY, which
 * perf reads in that order (the topology has nr_cpus_avail entries). */
static bool parse_topology(armprof_perf_file *f)
{
    size_t n;
    uint8_t *p;
    if (has_feature(f, HEADER_NRCPUS)) {
        if (!(p = read_feature(f, HEADER_NRCPUS, "HEADER_NRCPUS", &n))) return false;
        const bool ok = n >= 8;
        if (ok) {
            f->info.nr_cpus_avail = get_le32(p);
            f->info.nr_cpus_online = get_le32(p + 4);
        }
        free(p);
        if (!ok) {
            snprintf(f->error, sizeof f->error,
                     "%s: HEADER_NRCPUS: %zu bytes, short of nr_cpus_avail and nr_cpus_online",
                     f->path, n);
            return false;
        }
        if (f->info.nr_cpus_avail > MAX_READ_CPUS) {
            snprintf(f->error, sizeof f->error,
                     "%s: HEADER_NRCPUS: nr_cpus_avail is %u (this reader takes at most %u)",
                     f->path, f->info.nr_cpus_avail, MAX_READ_CPUS);
            return false;
        }
    }
    static const struct {
        unsigned bit;
        const char *name;
        bool (*read)(perf_topology *, const uint8_t *, size_t, char *, size_t);
    } topo[] = {{HEADER_CPU_TOPOLOGY, "HEADER_CPU_TOPOLOGY", perf_topology_read_cpu},
                {HEADER_NUMA_TOPOLOGY, "HEADER_NUMA_TOPOLOGY", perf_topology_read_numa}};
    for (size_t i = 0; i < sizeof topo / sizeof topo[0]; i++) {
        if (!has_feature(f, topo[i].bit)) continue;
        if (!(p = read_feature(f, topo[i].bit, topo[i].name, &n))) return false;
        char msg[200];
        bool ok = perf_topology_read_start(&f->topo, f->info.nr_cpus_avail);
        if (!ok)
            snprintf(msg, sizeof msg, "out of memory");
        else
            ok = topo[i].read(&f->topo, p, n, msg, sizeof msg);
        free(p);
        if (!ok) {
            snprintf(f->error, sizeof f->error, "%s: %s", f->path, msg);
            return false;
        }
    }
    f->info.topology = f->topo.cpu;
    f->info.nnodes = f->topo.nnodes;
    f->info.node_memory = f->topo.node_memory;
    return true;
}

static bool parse(armprof_perf_file *f)
{
    if (!parse_header(f) || !scan_events(f, f->data_at, f->data_size) || !parse_topology(f))
        return false;
    f->info.chunks = f->chunks;
    return true;
}

static armprof_perf_file *open_on(FILE *stream, bool owns, const char *name, bool header_only,
                                  char *err, size_t errlen)
{
    armprof_perf_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(name))) {
        free(f);
        if (owns) fclose(stream);
        perf_message(err, errlen, "%s: out of memory", name);
        return NULL;
    }
    f->f = stream;
    f->owns_f = owns;
    if (fseeko(f->f, 0, SEEK_END) != 0 || ftello(f->f) < 0) {
        perf_message(err, errlen, "%s: cannot find its size (not a regular file?)", name);
        armprof_perf_close(f);
        return NULL;
    }
    f->file_size = (uint64_t)ftello(f->f);
    if (!(header_only ? parse_header(f) : parse(f))) {
        perf_message(err, errlen, "%s", f->error);
        armprof_perf_close(f);
        return NULL;
    }
    return f;
}

armprof_perf_file *armprof_perf_open(const char *path, char *err, size_t errlen)
{
    if (!path) {
        perf_message(err, errlen, "no file (NULL)");
        return NULL;
    }
    FILE *stream = fopen(path, "rb");
    if (!stream) {
        perf_message(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    return open_on(stream, true, path, false, err, errlen);
}

armprof_perf_file *armprof_perf_open_stream(FILE *stream, const char *name, char *err,
                                            size_t errlen)
{
    if (!stream) {
        perf_message(err, errlen, "no stream (NULL)");
        return NULL;
    }
    return open_on(stream, false, name ? name : "(stream)", false, err, errlen);
}

const armprof_perf_file_info *armprof_perf_info(const armprof_perf_file *f)
{
    return f ? &f->info : NULL;
}

size_t armprof_perf_read_aux(armprof_perf_file *f, const armprof_perf_aux_chunk *c, uint64_t offset,
                             void *buf, size_t n)
{
    if (!f || !c || !buf || offset >= c->size) return 0;
    if (n > c->size - offset) n = (size_t)(c->size - offset);
    errno = 0;
    if (fseeko(f->f, (off_t)(c->file_offset + offset), SEEK_SET) != 0) {
        snprintf(f->error, sizeof f->error, "%s: cannot seek: %s", f->path, strerror(errno));
        return 0;
    }
    const size_t got = fread(buf, 1, n, f->f);
    if (got < n)
        snprintf(f->error, sizeof f->error, "%s: read error at offset 0x%llx%s%s", f->path,
                 (unsigned long long)(c->file_offset + offset + got), errno ? ": " : "",
                 errno ? strerror(errno) : " (the file shrank)");
    return got;
}

const char *armprof_perf_error(const armprof_perf_file *f)
{
    return f ? f->error : "no file (NULL)";
}

void armprof_perf_close(armprof_perf_file *f)
{
    if (!f) return;
    if (f->f && f->owns_f) fclose(f->f);
    free(f->chunks);
    free(f->midr);
    free(f->cpu_number);
    perf_topology_free(&f->topo);
    free(f->path);
    free(f);
}

armprof_perf_file *perf_file_open_header(const char *path, perf_file_sections *sec, char *err,
                                         size_t errlen)
{
    FILE *stream = fopen(path, "rb");
    if (!stream) {
        perf_message(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    armprof_perf_file *f = open_on(stream, true, path, true, err, errlen);
    if (f)
        *sec = (perf_file_sections){f->data_at,    f->data_size, f->attrs_at,
                                    f->attrs_size, f->attr_size, f->file_size};
    return f;
}

char *perf_file_error_buffer(armprof_perf_file *f, size_t *size)
{
    *size = sizeof f->error;
    return f->error;
}

const char *perf_file_path(const armprof_perf_file *f)
{
    return f->path;
}
