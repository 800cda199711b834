/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof demo [-o FILE] [--ops N] [--quiet] [--perf-data FILE
 * [--perf-version V]]: the built-in profiling run (demo_driver.h), its
 * Profiling Buffer data written to FILE (and as a perf.data file, with an
 * ELF file that names the workload's phases), then the report of the
 * records and a summary of the PMU snapshots. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "armprof/decode.h"
#include "cli/commands.h"
#include "cli/demo_driver.h"
#include "cli/elf_map.h"
#include "cli/output.h"
#include "cli/perf_export.h"
#include "cli/report.h"

#define DEFAULT_OPS 8000000ull

typedef struct demo_opts {
    const char *out;
    uint64_t ops;
    bool quiet;
    const char *perf_data; /* NULL: none */
    armprof_perf_spe_metadata metadata;
    bool metadata_chosen; /* --perf-version given */
} demo_opts;

#define DEMO_USAGE                                                                                 \
    "usage: armprof demo [-o FILE] [--ops N] [--quiet] [--perf-data FILE [--perf-version V]]\n"

static int parse(int argc, char **argv, demo_opts *o)
{
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            o->out = argv[++i];
        } else if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
            char *end;
            errno = 0;
            const unsigned long long n = strtoull(argv[++i], &end, 0);
            if (errno || *end || n < 1000 || argv[i][0] == '-') {
                fprintf(stderr, "armprof demo: --ops needs a number of at least 1000\n");
                return 2;
            }
            o->ops = n;
        } else if (!strcmp(argv[i], "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(argv[i], "--perf-data") && i + 1 < argc) {
            o->perf_data = argv[++i];
        } else if (!strcmp(argv[i], "--perf-version") && i + 1 < argc) {
            o->metadata_chosen = true;
            if (!perf_export_metadata_for(argv[++i], &o->metadata)) {
                fprintf(stderr,
                        "armprof demo: --perf-version wants MAJOR.MINOR (6.1, 7.3), not '%s'\n",
                        argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "armprof demo: unexpected argument '%s'\n" DEMO_USAGE, argv[i]);
            return 2;
        }
    }
    return 0;
}

/* Records in the data, by the public decoder: what `armprof decode` will
 * find in the file. */
static uint64_t count_records(const uint8_t *data, size_t size, bool *malformed)
{
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, data, size);
    armprof_spe_record rec;
    uint64_t n = 0;
    armprof_spe_decode_status st;
    while ((st = armprof_spe_next_record(&d, &rec)) == ARMPROF_SPE_DECODE_OK)
        n++;
    *malformed = st == ARMPROF_SPE_DECODE_ERROR;
    return n;
}

static bool write_file(const char *path, const uint8_t *data, size_t size)
{
    armprof_outfile *f = cli_output_open("armprof demo", path, NULL, 0);
    if (!f) return false;
    fwrite(data, 1, size, armprof_outfile_stream(f));
    return cli_output_close(f, "armprof demo", path, 0) == 0;
}

/* Whether path names a regular file or nothing yet: a folder a file of the
 * command's own may be made in. A device or a FIFO (/dev/stdout into a
 * pipe) is written through, and its folder (/dev) is no place for one. */
static bool regular_or_new(const char *path)
{
    struct stat st;
    return stat(path, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

/* The records as a perf.data file, each phase's task named (COMM) and its
 * code mapped from a small ELF file, armprof-demo-workload, whose symbols
 * are the phases: beside the perf.data file, or when that is a device or a
 * FIFO beside the record file, else in the current folder. */
static int write_perf_data(const demo_opts *o, const demo_result *r)
{
    const char *beside = regular_or_new(o->perf_data) ? o->perf_data
                         : regular_or_new(o->out)     ? o->out
                                                      : "";
    const char *slash = strrchr(beside, '/');
    const size_t dir = slash ? (size_t)(slash - beside) + 1 : 0;
    static const char elf_name[] = "armprof-demo-workload";
    char *elf = malloc(dir + sizeof elf_name);
    if (!elf) {
        fprintf(stderr, "armprof demo: out of memory\n");
        return 2;
    }
    memcpy(elf, beside, dir);
    memcpy(elf + dir, elf_name, sizeof elf_name);
    elf_symbol syms[DEMO_PHASES];
    perf_export_comm comms[DEMO_PHASES];
    for (unsigned p = 0; p < DEMO_PHASES; p++) {
        syms[p] = (elf_symbol){demo_phase_name(p), demo_phase_code_start(p),
                               demo_phase_code_end(p) - demo_phase_code_start(p)};
        comms[p] = (perf_export_comm){DEMO_PID(p), demo_phase_name(p)};
    }
    const uint64_t text = demo_phase_code_start(0);
    char err[512];
    int rc = 0;
    if (!elf_write_symbols(elf, text, demo_phase_code_end(DEMO_PHASES - 1) - text, syms,
                           DEMO_PHASES, err, sizeof err)) {
        fprintf(stderr, "armprof demo: %s\n", err);
        rc = 2;
    }
    const perf_export_elf elfs[] = {{elf, 0}};
    perf_export_options po = {
        .out = o->perf_data, .elfs = elfs, .nelfs = 1, .comms = comms, .ncomms = DEMO_PHASES};
    armprof_perf_writer_config_init(&po.config);
    po.config.metadata = o->metadata;
    if (!o->metadata_chosen) {
        /* the layout the perf on PATH reads, as perf-data chooses it
         * (docs/perf.md); said, since another perf may find no samples */
        char why[320];
        po.config.metadata = armprof_perf_metadata_for_path_perf(why, sizeof why);
        fprintf(stderr, "armprof demo: %s (--perf-version V for another perf)\n", why);
    }
    const perf_export_input in = {.path = o->out, .data = r->data, .size = r->size};
    perf_export_result res;
    if (rc == 0) rc = perf_export(&po, &in, 1, &res, "armprof demo", stderr);
    if (rc == 0)
        printf("perf.data: %s: %llu records, %zu tasks, arm_spe metadata version %d; symbols in "
               "%s\n",
               o->perf_data, (unsigned long long)res.records, res.tasks, (int)po.config.metadata,
               elf);
    free(elf);
    return rc;
}

static void print_pc_sampling(const demo_result *r)
{
    printf("PC sampling: %llu PMPCSR reads, %llu samples:", (unsigned long long)r->pc_reads,
           (unsigned long long)r->pc_samples);
    for (unsigned p = 0; p <= DEMO_PHASES; p++) {
        if (p == DEMO_PHASES && !r->pc_in_phase[p]) break;
        printf(" %s %llu%s", demo_phase_name(p), (unsigned long long)r->pc_in_phase[p],
               p < DEMO_PHASES - 1 ? "," : "");
    }
    printf("\n");
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

/* Per phase: the differences between the saved values of the Capture
 * events before and after it. */
static void print_snapshots(const demo_result *r)
{
    printf("\nPMU snapshots (PMSSCR_EL1.SS, saved values PMCCNTSVR_EL1, PMICNTSVR_EL1, "
           "PMEVCNTSVR<n>_EL1): %u Capture events\n",
           r->snapshots);
    printf("%-14s %12s %12s %6s", "phase", "cycles", "instructions", "IPC");
    for (unsigned i = 0; i < DEMO_COUNTERS; i++)
        printf(" %*s", i == DEMO_COUNTERS - 1 ? 18 : 16, r->counter_name[i]);
    printf("\n");
    for (unsigned p = 0; p < DEMO_PHASES && p + 1 < r->snapshots; p++) {
        const demo_snapshot *a = &r->snapshot[p], *b = &r->snapshot[p + 1];
        const uint64_t cyc = b->cycles - a->cycles, ins = b->instructions - a->instructions;
        printf("%-14s %12llu %12llu %6.2f", demo_phase_name(p), (unsigned long long)cyc,
               (unsigned long long)ins, ratio(ins, cyc));
        for (unsigned i = 0; i < DEMO_COUNTERS; i++)
            printf(" %*llu", i == DEMO_COUNTERS - 1 ? 18 : 16,
                   (unsigned long long)(b->counter[i] - a->counter[i]));
        printf("\n");
    }
    if (r->snapshots) {
        const demo_snapshot *z = &r->snapshot[r->snapshots - 1];
        printf("%-14s %12llu %12llu %6.2f", "(total)", (unsigned long long)z->cycles,
               (unsigned long long)z->instructions, ratio(z->instructions, z->cycles));
        for (unsigned i = 0; i < DEMO_COUNTERS; i++)
            printf(" %*llu", i == DEMO_COUNTERS - 1 ? 18 : 16, (unsigned long long)z->counter[i]);
        printf("\n");
    }
}

int demo_command(int argc, char **argv)
{
    demo_opts o = {.out = "armprof-demo.spe",
                   .ops = DEFAULT_OPS,
                   .quiet = false,
                   .metadata = ARMPROF_PERF_SPE_METADATA_V1};
    const int rc = parse(argc, argv, &o);
    if (rc) return rc;
    if (!o.quiet)
        printf("armprof demo: an Armv9.4 PE (preset armv9.4-all) programmed as firmware, a "
               "hypervisor and a kernel do\n\n");
    demo_params p = {.ops = o.ops, .log = o.quiet ? NULL : stdout};
    demo_result r;
    char err[256];
    if (!demo_run(&p, &r, err, sizeof err)) {
        fprintf(stderr, "armprof demo: %s\n", err);
        return 1;
    }
    int status = 0;
    if (r.failures) {
        fprintf(stderr, "armprof demo: %u register accesses failed, the first: %s\n", r.failures,
                r.failure);
        status = 1;
    }
    if (!write_file(o.out, r.data, r.size)) {
        demo_result_free(&r);
        return 2;
    }
    bool malformed;
    const uint64_t decoded = count_records(r.data, r.size, &malformed);
    const armprof_spe_stats *s = &r.stats;
    const bool same = r.size == r.sink_size && memcmp(r.data, r.sink_data, r.size) == 0;
    if (!o.quiet) printf("\n");
    const uint64_t sbf = r.snapshots ? r.snapshot[r.snapshots - 1].counter[5] : 0;
    printf("SPE: %llu of %llu operations sampled, %llu records constructed, %llu written to "
           "the buffer, %llu lost; %s: %zu bytes, %llu records decoded\n",
           (unsigned long long)s->selected, (unsigned long long)s->population,
           (unsigned long long)s->records, (unsigned long long)s->written,
           (unsigned long long)s->lost, o.out, r.size, (unsigned long long)decoded);
    printf("PMBIRQ: %llu serviced, %llu buffer full; SAMPLE_BUFFER_FULL counted %llu\n",
           (unsigned long long)r.irqs, (unsigned long long)r.buffer_full, (unsigned long long)sbf);
    print_pc_sampling(&r);
    if (o.perf_data) {
        const int prc = write_perf_data(&o, &r);
        if (prc) {
            demo_result_free(&r);
            return prc;
        }
    }
    /* What the file and the interrupts must be if the unit and the driver
     * are right: the bytes are those the unit constructed, every record
     * decodes, and each buffer full event was one interrupt (D17.8.2). */
    const bool verified = same && !malformed && decoded == s->written && decoded == s->records &&
                          s->lost == 0 && r.faults == 0 && r.irq_stuck == 0 &&
                          r.irqs == r.buffer_full && sbf == r.irqs;
    if (verified) {
        printf("verified: records written == records decoded == %llu, 0 lost, the file is the "
               "records the unit constructed byte for byte, PMBIRQ == SAMPLE_BUFFER_FULL == "
               "%llu\n",
               (unsigned long long)decoded, (unsigned long long)r.irqs);
    } else {
        printf("NOT VERIFIED: file %s the records constructed, %s, %llu faults, PMBIRQ stuck "
               "%llu times\n",
               same ? "holds" : "differs from", malformed ? "malformed" : "well formed",
               (unsigned long long)r.faults, (unsigned long long)r.irq_stuck);
        status = 1;
    }
    /* The report is long; not worth making when stdout already failed
     * (main() reports it). */
    if (!o.quiet && !cli_write_failed(stdout)) {
        printf("\n");
        const report_options ro = {.format = REPORT_TEXT, .top = 20};
        record_source src;
        record_source_bytes(&src, r.data, r.size);
        if (report_write(stdout, o.out, &src, &ro) != 0) status = 1;
        print_snapshots(&r);
    }
    demo_result_free(&r);
    return status;
}
