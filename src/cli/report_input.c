/* SPDX-License-Identifier: BSD-3-Clause */
/* Opening the input of decode and report (report_input.h). */
#define _POSIX_C_SOURCE   200809L
#define _FILE_OFFSET_BITS 64
#include "cli/report_input.h"

#include <sys/stat.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "PROG: FILE: WHAT: REASON", or without WHAT (NULL) or REASON (e 0). */
static int fail(report_input *in, FILE *err, const char *prog, const char *what, int e)
{
    fprintf(err, "%s: %s: %s%s%s\n", prog, in->name, what ? what : "", what && e ? ": " : "",
            e ? strerror(e) : "");
    report_input_close(in);
    return 2;
}

/* A perf.data file on a pipe, copied whole (its first bytes already read)
 * into a temporary file that the reader can seek in. */
static FILE *copy_to_temporary(report_input *in, FILE *err, const char *prog)
{
    FILE *tmp = tmpfile();
    if (!tmp) {
        fail(in, err, prog, "cannot make a temporary file for the perf.data", errno);
        return NULL;
    }
    uint8_t *block = malloc(RECORD_SOURCE_BLOCK);
    const bool have_block = block != NULL;
    bool ok = have_block && fwrite(in->head, 1, in->head_size, tmp) == in->head_size;
    size_t n;
    errno = 0;
    while (ok && (n = fread(block, 1, RECORD_SOURCE_BLOCK, in->file)) > 0)
        ok = fwrite(block, 1, n, tmp) == n;
    const int e = errno;
    free(block);
    if (ok && ferror(in->file)) {
        fclose(tmp);
        fail(in, err, prog, "read error", e ? e : EIO);
        return NULL;
    }
    if (!ok || fflush(tmp) != 0) {
        const int werr = errno ? errno : e;
        fclose(tmp);
        fail(in, err, prog,
             have_block ? "cannot copy the perf.data to a temporary file" : "out of memory",
             have_block ? werr : 0);
        return NULL;
    }
    return tmp;
}

static int open_perf(report_input *in, FILE *err, const char *prog)
{
    /* The reader seeks: the file is read in place when it can seek back
     * to its start (standard input too, when it is a file read from its
     * start); a pipe or a FIFO is copied. */
    const off_t at = ftello(in->file);
    if (at != (off_t)in->head_size || fseeko(in->file, 0, SEEK_SET) != 0) {
        FILE *tmp = copy_to_temporary(in, err, prog);
        if (!tmp) return 2;
        in->file = tmp;
        in->owns_file = true;
    }
    /* The first pass reads every event header: on a terminal, its progress
     * is shown over the file's size (a file of millions of events takes
     * seconds). */
    struct stat st;
    const uint64_t file_size =
        fstat(fileno(in->file), &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    report_progress_init(&in->scan, err, prog, in->name, file_size);
    if (in->scan.tty) in->counted = report_progress_stream_open(in->file, &in->scan);
    char msg[512];
    in->perf =
        armprof_perf_open_stream(in->counted ? report_progress_stream_file(in->counted) : in->file,
                                 in->name, msg, sizeof msg);
    report_progress_stream_quiet(in->counted);
    report_progress_end(&in->scan);
    if (!in->perf) {
        fprintf(err, "%s: %s\n", prog, msg);
        report_input_close(in);
        return 2;
    }
    const armprof_perf_file_info *info = armprof_perf_info(in->perf);
    if (!perf_cpu_index_build(&in->ix, info)) return fail(in, err, prog, "out of memory", 0);
    in->size = info->aux_bytes;
    return 0;
}

int report_input_open(report_input *in, const char *path, const char *prog, FILE *err)
{
    const bool std_in = !strcmp(path, "-");
    *in = (report_input){.name = std_in ? "standard input" : path,
                         .same_file = std_in ? "/dev/stdin" : path};
    in->file = std_in ? stdin : fopen(path, "rb");
    if (!in->file) return fail(in, err, prog, NULL, errno);
    in->owns_file = !std_in;
    /* The first bytes tell a perf.data file; a pipe cannot be read again,
     * so they are kept for the decoder. */
    errno = 0;
    in->head_size = fread(in->head, 1, sizeof in->head, in->file);
    if (ferror(in->file)) return fail(in, err, prog, "read error", errno ? errno : EIO);
    if (armprof_perf_is_perf_data(in->head, in->head_size)) return open_perf(in, err, prog);
    struct stat st;
    if (fstat(fileno(in->file), &st) == 0 && S_ISREG(st.st_mode)) in->size = (uint64_t)st.st_size;
    return 0;
}

bool report_input_source(report_input *in, record_source *src, size_t cpu_i)
{
    if (in->perf) return record_source_perf(src, in->perf, &in->ix, cpu_i);
    return record_source_file_after(src, in->file, in->head, in->head_size);
}

void report_input_close(report_input *in)
{
    armprof_perf_close(in->perf);
    report_progress_stream_close(in->counted);
    in->counted = NULL;
    perf_cpu_index_free(&in->ix);
    if (in->file && in->owns_file) fclose(in->file);
    in->perf = NULL;
    in->file = NULL;
}
