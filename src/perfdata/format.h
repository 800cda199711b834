/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of the perf.data format this module writes and reads, as
 * numbers: Linux's perf_event ABI (include/uapi/linux/perf_event.h) for the
 * attribute and the kernel's record types, perf's own file format
 * (tools/perf/Documentation/perf.data-file-format.txt) for the header, its
 * features and the record types perf itself adds, and tools/perf/util/
 * arm-spe.h for the arm_spe metadata. Everything is little-endian: the
 * files this module writes are, and it reads only those. */
#ifndef ARMPROF_PERFDATA_FORMAT_H
#define ARMPROF_PERFDATA_FORMAT_H

#include <stdint.h>

/* "PERFILE2" read as a little-endian u64. */
#define PERF_MAGIC2 0x32454c4946524550ull

/* struct perf_file_header: magic, size, attr_size, the attrs, data and
 * event_types sections (offset, size), and 256 feature bits. */
enum {
    PERF_HEADER_SIZE = 104,
    PERF_HEADER_FEATURES_AT = 72, /* the feature bitmap's offset in the header */
    PERF_PIPE_HEADER_SIZE = 16,   /* struct perf_pipe_file_header: magic and size */
};

/* struct perf_event_attr as of PERF_ATTR_SIZE_VER7 (128 bytes, sig_data):
 * the largest size Debian 12's perf 6.1 reads; newer perf reads it too (an
 * attribute shorter than its own is zero-extended). */
enum {
    PERF_ATTR_SIZE = 128,
    PERF_ATTR_TYPE = 0,
    PERF_ATTR_SIZE_FIELD = 4,
    PERF_ATTR_CONFIG = 8,
    PERF_ATTR_SAMPLE_PERIOD = 16,
    PERF_ATTR_SAMPLE_TYPE = 24,
    PERF_ATTR_READ_FORMAT = 32,
    PERF_ATTR_FLAGS = 40,
    /* a perf_file_attr: the attribute, then the section of its ids */
    PERF_FILE_ATTR_SIZE = PERF_ATTR_SIZE + 16,
};

/* perf_event_attr's flag bits (the bitfield at PERF_ATTR_FLAGS) */
enum {
    PERF_ATTR_FLAG_DISABLED = 0,
    PERF_ATTR_FLAG_INHERIT = 1,
    PERF_ATTR_FLAG_MMAP = 8,
    PERF_ATTR_FLAG_COMM = 9,
    PERF_ATTR_FLAG_TASK = 13,
    PERF_ATTR_FLAG_SAMPLE_ID_ALL = 18,
    PERF_ATTR_FLAG_MMAP2 = 23,
    PERF_ATTR_FLAG_COMM_EXEC = 24,
};

/* perf_event_sample_format bits */
enum {
    PERF_SAMPLE_IP = 1u << 0,
    PERF_SAMPLE_TID = 1u << 1,
    PERF_SAMPLE_TIME = 1u << 2,
    PERF_SAMPLE_ADDR = 1u << 3,
    PERF_SAMPLE_ID = 1u << 6,
    PERF_SAMPLE_CPU = 1u << 7,
    PERF_SAMPLE_PERIOD = 1u << 8,
    PERF_SAMPLE_STREAM_ID = 1u << 9,
    PERF_SAMPLE_IDENTIFIER = 1u << 16,
};

/* Record types: the kernel's, then perf's own (PERF_RECORD_USER_TYPE_START
 * is 64). */
enum {
    PERF_RECORD_MMAP = 1,
    PERF_RECORD_COMM = 3,
    PERF_RECORD_SAMPLE = 9,
    PERF_RECORD_MMAP2 = 10,
    PERF_RECORD_FINISHED_ROUND = 68,
    PERF_RECORD_AUXTRACE_INFO = 70,
    PERF_RECORD_AUXTRACE = 71,
    PERF_RECORD_TIME_CONV = 79,
    PERF_RECORD_COMPRESSED = 81,
};

/* struct perf_event_header: u32 type, u16 misc, u16 size */
enum { PERF_EVENT_HEADER_SIZE = 8, PERF_RECORD_MISC_CPUMODE_MASK = 7 };

/* perf_type_id PERF_TYPE_SOFTWARE, and its perf_sw_ids PERF_COUNT_SW_CPU_CLOCK */
enum { PERF_TYPE_SOFTWARE = 1, PERF_COUNT_SW_CPU_CLOCK = 0 };

/* enum auxtrace_type: the kind of AUX data AUXTRACE_INFO describes. */
enum {
    PERF_AUXTRACE_INTEL_PT = 1,
    PERF_AUXTRACE_INTEL_BTS = 2,
    PERF_AUXTRACE_CS_ETM = 3,
    PERF_AUXTRACE_ARM_SPE = 4,
    PERF_AUXTRACE_S390_CPUMSF = 5,
    PERF_AUXTRACE_HISI_PTT = 6,
};

/* struct perf_record_auxtrace after its header: size, offset, reference,
 * idx, tid, cpu, reserved. */
enum { PERF_AUXTRACE_EVENT_SIZE = 48 };

/* Features: bits of the header's bitmap; each set bit has a section
 * (offset, size) in a table right after the data section. */
enum {
    HEADER_HOSTNAME = 3,
    HEADER_OSRELEASE = 4,
    HEADER_VERSION = 5,
    HEADER_ARCH = 6,
    HEADER_NRCPUS = 7,
    HEADER_CPUID = 9,
    HEADER_TOTAL_MEM = 10,
    HEADER_EVENT_DESC = 12,
    HEADER_CPU_TOPOLOGY = 13,
    HEADER_NUMA_TOPOLOGY = 14,
    HEADER_PMU_MAPPINGS = 16,
    HEADER_FEATURE_BITS = 256,
};

/* perf's strings in features (do_write_string()): a u32 length with the
 * NUL, padded to NAME_ALIGN, then the bytes. */
enum { PERF_NAME_ALIGN = 64 };

/* The arm_spe metadata (tools/perf/util/arm-spe.h). Version 1: the PMU
 * type and whether the buffers are per CPU. Version 2: a header of
 * ARM_SPE_V2_HEADER_WORDS words, then per CPU the magic, the CPU, the
 * number of parameters that follow, and the parameters. */
enum {
    ARM_SPE_V1_PMU_TYPE = 0,
    ARM_SPE_V1_PER_CPU_MMAPS = 1,
    ARM_SPE_V1_WORDS = 2,
    ARM_SPE_V2_HEADER_VERSION = 0,
    ARM_SPE_V2_HEADER_SIZE = 1,
    ARM_SPE_V2_PMU_TYPE = 2,
    ARM_SPE_V2_CPUS_NUM = 3,
    ARM_SPE_V2_HEADER_WORDS = 4,
    ARM_SPE_V2_CPU_MAGIC_AT = 0,
    ARM_SPE_V2_CPU_AT = 1,
    ARM_SPE_V2_CPU_NR_PARAMS_AT = 2,
    ARM_SPE_V2_CPU_MIDR_AT = 3,
    ARM_SPE_V2_CPU_PMU_TYPE_AT = 4,
    ARM_SPE_V2_CPU_MIN_IVAL_AT = 5,
    ARM_SPE_V2_CPU_EVENT_FILTER_AT = 6,
    ARM_SPE_V2_CPU_WORDS = 7,
};
#define ARM_SPE_V2_CPU_MAGIC 0x1010101010101010ull

static inline void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get_le32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

#endif
