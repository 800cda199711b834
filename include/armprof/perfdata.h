/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: Statistical Profiling Extension data in Linux perf's file format
 * (perf.data, "PERFILE2"), written and read.
 *
 * A perf.data file as `perf record -e arm_spe_0//` leaves it: one arm_spe
 * event attribute, the AUXTRACE_INFO event with the arm_spe metadata, each
 * CPU's Profiling Buffer bytes as AUXTRACE events, and the side-band events
 * (COMM, MMAP2) that let perf attribute samples to commands and symbols.
 * `perf report` and `perf script` read what the writer writes (docs/perf.md
 * says which perf versions, and what each makes of the records); the reader
 * takes the AUX data back out of files written by the writer or by perf.
 *
 * Like the decoder, this module needs nothing from the model.
 *
 *   armprof_perf_writer_config c;
 *   armprof_perf_writer_config_init(&c);
 *   armprof_perf_writer *w = armprof_perf_writer_create("perf.data", &c, err, sizeof err);
 *   armprof_perf_write_comm(w, 1000, 1000, "app", 0);
 *   armprof_perf_write_aux(w, 0, bytes, size);
 *   if (!armprof_perf_writer_finish(w, err, sizeof err)) ...
 *
 *   armprof_perf_file *f = armprof_perf_open("perf.data", err, sizeof err);
 *   const armprof_perf_file_info *i = armprof_perf_info(f);
 *   for (size_t k = 0; k < i->nchunks; k++) armprof_perf_read_aux(f, &i->chunks[k], ...);
 *   armprof_perf_close(f);
 */
#ifndef ARMPROF_PERFDATA_H
#define ARMPROF_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

/* The layout of the arm_spe metadata in AUXTRACE_INFO. Version 1 (two
 * words: PMU type, per-CPU mmaps) is all perf before 6.13 reads (Debian 12's
 * 6.1, Debian 13's 6.12); later perf reads both, but warns "Old SPE
 * metadata, re-record to improve decode accuracy" on version 1 when it
 * needs the CPU's MIDR. Version 2 (a header, then per CPU its number, MIDR,
 * PMU type and minimum interval) is misread by perf before 6.13, which
 * takes its first word (the version, 2) for the PMU type and so finds no
 * SPE event to decode. */
typedef enum armprof_perf_spe_metadata {
    ARMPROF_PERF_SPE_METADATA_V2 = 2,
    ARMPROF_PERF_SPE_METADATA_V1 = 1,
} armprof_perf_spe_metadata;

/* The oldest perf that reads metadata version 2 (major * 100 + minor). */
#define ARMPROF_PERF_SPE_METADATA_V2_SINCE 613

/* The layout a perf reads, and its version (major * 100 + minor; version
 * may be NULL), from text: what `perf --version` prints ("perf version
 * 6.1.192"), or a version alone ("6.1", "6.1.192"). false if text holds
 * neither (numbers above 99 included). */
bool armprof_perf_metadata_for_version(const char *text, armprof_perf_spe_metadata *m,
                                       unsigned *version);
/* The layout the `perf` on PATH reads: runs `perf --version` (through
 * popen(), once a call). With no perf there, or one that prints no
 * version, version 1, which every perf reads (6.13 and later with a
 * warning). what (may be NULL) gets a phrase saying which layout and why,
 * for the caller to print. */
armprof_perf_spe_metadata armprof_perf_metadata_for_path_perf(char *what, size_t whatlen);

/* What a written file holds: arm_spe AUX data (armprof_perf_write_aux()),
 * or PC samples, plain sample events of one software event
 * (armprof_perf_write_sample()), as `perf record -e cpu-clock` leaves
 * them: no AUXTRACE_INFO, perf report reads each event as one sample. */
typedef enum armprof_perf_content {
    ARMPROF_PERF_CONTENT_SPE = 0,
    ARMPROF_PERF_CONTENT_PC_SAMPLES = 1,
} armprof_perf_content;

/* The event name of PC samples' attribute (HEADER_EVENT_DESC): what perf
 * report's "Samples: N of event '...'" says. */
#define ARMPROF_PERF_PC_SAMPLE_EVENT "pc-sample"

/* Where one CPU sits, as Linux's sysfs topology and perf's
 * HEADER_CPU_TOPOLOGY and HEADER_NUMA_TOPOLOGY say it: its core, the
 * cluster of cores it shares a cache with (perf's "socket", the package:
 * perf has no cluster level), and its NUMA node (memory it is local to).
 * perf c2c groups its loads by node and needs every CPU in one. */
typedef struct armprof_perf_cpu_topology {
    uint32_t core;    /* the core's number within its cluster */
    uint32_t cluster; /* the package; perf's Socket ID */
    uint32_t node;    /* the NUMA node: 0 .. nodes - 1, each with a CPU */
} armprof_perf_cpu_topology;

/* The most NUMA nodes a file may describe. */
#define ARMPROF_PERF_MAX_NODES 64

typedef struct armprof_perf_writer_config {
    armprof_perf_content content;       /* default SPE */
    armprof_perf_spe_metadata metadata; /* default V2 */
    uint32_t pmu_type;                  /* the arm_spe PMU's dynamic type number (default 8) */
    uint32_t ncpus;        /* CPUs (Profiling Buffers) the file describes (default 1) */
    uint64_t midr;         /* MIDR_EL1 of every CPU (default 0x410fd4f0, Neoverse V2) */
    uint64_t min_interval; /* the PMU's caps/min_interval (default 256) */
    uint64_t
        event_filter; /* the PMU's caps/event_filter: PMSEVFR_EL1 bits it filters on (default 0) */
    uint64_t config;  /* the event's config: arm_spe format bits (default 0) */
    uint64_t sample_period; /* the sampling interval the records were taken at (default 1024) */
    /* The strings of the header's features (defaults "armprof", "aarch64",
     * "armprof"); any may be NULL for its default. */
    const char *hostname, *arch, *os_release;
    /* The CPUs' places (ncpus of them), or NULL for one node holding one
     * cluster of every CPU, CPU n being core n. Written as
     * HEADER_CPU_TOPOLOGY and HEADER_NUMA_TOPOLOGY, which perf c2c needs
     * ("Failed setup nodes" without them); the nodes must be numbered
     * from 0 with no node left without a CPU. */
    const armprof_perf_cpu_topology *topology;
    /* Each node's memory in bytes (the nodes' count of them, as the
     * topology numbers them), or NULL for none said: perf then shows
     * "total = 0 kB" for every node; HEADER_TOTAL_MEM is their sum. */
    const uint64_t *node_memory;
    /* The files the data is read from (ninputs of them; NULL for none): a
     * path that is one of them is refused (armprof/outfile.h). */
    const char *const *inputs;
    size_t ninputs;
} armprof_perf_writer_config;

/* The defaults above. */
void armprof_perf_writer_config_init(armprof_perf_writer_config *c);

typedef struct armprof_perf_writer armprof_perf_writer;

/* Starts a perf.data file at path, through armprof/outfile.h: a regular
 * file (or none) is written beside path and put in its place by
 * armprof_perf_writer_finish() only when complete, so that until then, and
 * for good when anything fails, path holds what it held before; a device,
 * a FIFO or a symbolic link is written through in place and never removed.
 * NULL with a message in err if the file cannot be written, is one of
 * c->inputs, or c is invalid (ncpus 0 or above 4096, an unknown metadata
 * version, a topology whose nodes are not 0 .. N - 1 each with a CPU or
 * are more than ARMPROF_PERF_MAX_NODES; the message names the CPU and the
 * field). */
armprof_perf_writer *armprof_perf_writer_create(const char *path,
                                                const armprof_perf_writer_config *c, char *err,
                                                size_t errlen);

/* Side-band events, in the order of their time (nanoseconds, on the same
 * clock as the records' timestamps: the file's TIME_CONV makes perf's time
 * the generic timer's count). PERF_RECORD_COMM: the command name of task
 * tid in process pid (at most 15 bytes are kept, as the kernel's). */
bool armprof_perf_write_comm(armprof_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm,
                             uint64_t time);
/* PERF_RECORD_MMAP2: file mapped at [addr, addr + len) of process pid, from
 * offset pgoff of the file, executable (PROT_EXEC, MAP_PRIVATE). */
bool armprof_perf_write_mmap2(armprof_perf_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
                              uint64_t len, uint64_t pgoff, const char *filename, uint64_t time);
/* The next size bytes of CPU cpu's Profiling Buffer data (an AUXTRACE
 * event; its offset in the AUX area follows the CPU's previous bytes). The
 * event is padded to 8 bytes with zero bytes, which are SPE Padding. */
bool armprof_perf_write_aux(armprof_perf_writer *w, uint32_t cpu, const void *data, size_t size);
/* perf_event_header.misc's cpumode (PERF_RECORD_MISC_CPUMODE_MASK): where
 * perf looks for the symbol of a sample's IP. */
enum {
    ARMPROF_PERF_CPUMODE_KERNEL = 1,
    ARMPROF_PERF_CPUMODE_USER = 2,
    ARMPROF_PERF_CPUMODE_HYPERVISOR = 3,
};

/* One sample event (PERF_RECORD_SAMPLE) of a PC samples file: its sample
 * type is IDENTIFIER, IP, TID, TIME, CPU and PERIOD. */
typedef struct armprof_perf_sample {
    uint64_t ip;
    uint32_t pid, tid;
    uint64_t time; /* ns, on the side-band events' clock */
    uint32_t cpu;
    uint64_t period;
    uint16_t cpumode; /* ARMPROF_PERF_CPUMODE_* */
} armprof_perf_sample;
/* A sample of a PC samples file (refused in an SPE file). */
bool armprof_perf_write_sample(armprof_perf_writer *w, const armprof_perf_sample *s);
/* PERF_RECORD_MMAP of the kernel (pid -1, cpumode kernel): name
 * "[kernel.kallsyms]" maps [addr, addr + len) for perf, whose symbols it
 * takes from kallsyms (perf report --kallsyms=FILE) or a vmlinux;
 * pgoff 0: no relocation symbol (kallsyms of the same boot give the
 * addresses as they are). */
bool armprof_perf_write_kernel_mmap(armprof_perf_writer *w, uint64_t addr, uint64_t len,
                                    uint64_t time);
/* The message of the first failed call ("" if none). */
const char *armprof_perf_writer_error(const armprof_perf_writer *w);
/* Writes the header's features and the header, closes the file, puts it
 * in place and frees w. false with a message if any call on w failed or
 * this write fails; the incomplete file is then discarded and path left as
 * it was (a device or FIFO written in place keeps what it was given). */
bool armprof_perf_writer_finish(armprof_perf_writer *w, char *err, size_t errlen);
/* Discards the file without completing it (path is left as it was), and
 * frees w. */
void armprof_perf_writer_abandon(armprof_perf_writer *w);

/* ---- reading ---- */

/* One AUXTRACE event's data: size bytes at file_offset, the bytes from
 * aux_offset of CPU cpu's AUX area. */
typedef struct armprof_perf_aux_chunk {
    uint32_t cpu; /* UINT32_MAX when perf recorded per thread (cpu -1) */
    uint32_t idx; /* the mmap index */
    uint32_t tid;
    uint64_t aux_offset;
    uint64_t file_offset;
    uint64_t size;
} armprof_perf_aux_chunk;

/* The most AUXTRACE events with data one file may have (4,194,304): the
 * reader keeps one armprof_perf_aux_chunk (40 bytes) for each, so its
 * memory is bounded (168 MiB of them) whatever the file; a file with more is
 * refused with an error that says so (docs/perf.md). perf writes one such
 * event per AUX buffer wake-up, kilobytes to megabytes each. */
#define ARMPROF_PERF_MAX_AUX_CHUNKS (1u << 22)

typedef struct armprof_perf_file_info {
    unsigned metadata_version; /* 1 or 2 */
    uint32_t pmu_type;
    uint32_t ncpus;             /* CPUs of version 2 metadata; 0 for version 1 */
    const uint64_t *midr;       /* per CPU of version 2 metadata (ncpus of them) */
    const uint32_t *cpu_number; /* ... and the CPU each describes */
    size_t nchunks;             /* AUXTRACE events with data, in file order */
    const armprof_perf_aux_chunk *chunks;
    uint64_t aux_bytes;  /* their total size */
    size_t ncomm, nmmap; /* side-band events seen */
    size_t aux_empty;    /* AUXTRACE events without data: counted, not in chunks */
    /* The header's HEADER_NRCPUS (0 and 0 without it), and the CPUs' places
     * from HEADER_CPU_TOPOLOGY (core, cluster: perf's socket) and
     * HEADER_NUMA_TOPOLOGY (node): nr_cpus_avail of them, or NULL when the
     * file has neither feature; a field neither says is UINT32_MAX. */
    uint32_t nr_cpus_avail, nr_cpus_online;
    const armprof_perf_cpu_topology *topology;
    /* HEADER_NUMA_TOPOLOGY's nodes (0 without it) and each one's memory in
     * bytes, in the feature's order (perf's: increasing node numbers). */
    uint32_t nnodes;
    const uint64_t *node_memory;
} armprof_perf_file_info;

typedef struct armprof_perf_file armprof_perf_file;

/* Whether the first bytes of a file (at least 8) are perf.data's magic. */
bool armprof_perf_is_perf_data(const void *head, size_t size);
/* Opens a perf.data file and indexes its arm_spe AUX data (memory: one
 * armprof_perf_aux_chunk per AUXTRACE event with data). NULL with a
 * message naming the file and what is wrong: not a perf.data file, a format
 * it does not read (PERFILE1, big-endian, pipe mode, compressed events), a
 * truncated header or event (with its offset), a read error ("read error"
 * and the system's reason, with its offset), no AUXTRACE_INFO, AUX data
 * of another kind than arm_spe, or a topology feature perf could not read
 * (the message names the feature and its field). */
armprof_perf_file *armprof_perf_open(const char *path, char *err, size_t errlen);
/* The same on an open stream, named name in messages: a file, or memory
 * from fmemopen(); it must be seekable. armprof_perf_close() leaves it
 * open. */
armprof_perf_file *armprof_perf_open_stream(FILE *stream, const char *name, char *err,
                                            size_t errlen);
const armprof_perf_file_info *armprof_perf_info(const armprof_perf_file *f);
/* Up to n bytes of chunk c from offset within it; the count read, 0 at its
 * end or on a read error (armprof_perf_error() then says which). */
size_t armprof_perf_read_aux(armprof_perf_file *f, const armprof_perf_aux_chunk *c, uint64_t offset,
                             void *buf, size_t n);
const char *armprof_perf_error(const armprof_perf_file *f);
void armprof_perf_close(armprof_perf_file *f);

/* ---- reading sample events ---- */

typedef enum armprof_perf_event_kind {
    ARMPROF_PERF_EVENT_SAMPLE, /* PERF_RECORD_SAMPLE */
    ARMPROF_PERF_EVENT_COMM,   /* PERF_RECORD_COMM */
    ARMPROF_PERF_EVENT_MMAP,   /* PERF_RECORD_MMAP or MMAP2 */
} armprof_perf_event_kind;

/* One event of armprof_perf_read_events(). */
typedef struct armprof_perf_event {
    armprof_perf_event_kind kind;
    /* SAMPLE: the fields its sample type has (0 for the others; period 1
     * without PERIOD) and the cpumode of its header; COMM and MMAP: pid,
     * tid and the cpumode */
    armprof_perf_sample sample;
    uint64_t addr, len, pgoff; /* MMAP */
    const char *name;          /* COMM: the command; MMAP: the file; valid during the call */
} armprof_perf_event;

/* The sample events, COMM, MMAP and MMAP2 of a perf.data file of samples
 * (a PC samples file, or perf record of an event such as cpu-clock), in
 * file order, given to fn, which returns false to stop (the call then
 * returns false with "stopped"). The samples must carry IP, and every
 * attribute the same sample type. False with a message naming the file:
 * what armprof_perf_open() refuses for the format, a truncated event, a
 * file of AUX data (AUXTRACE_INFO: *aux, which may be NULL, is set, so
 * that the caller reads it with armprof_perf_open() instead). */
typedef bool (*armprof_perf_event_fn)(const armprof_perf_event *e, void *ctx);
bool armprof_perf_read_events(const char *path, armprof_perf_event_fn fn, void *ctx, bool *aux,
                              char *err, size_t errlen);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif

#endif
