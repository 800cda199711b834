/* SPDX-License-Identifier: BSD-3-Clause */
/* perf_export(): each input is read once, a block at a time, through the
 * streaming decoder. Its bytes go to the perf.data file as AUXTRACE events
 * of about 1MB that end where a record starts (after the Padding of the
 * record before), as the kernel's driver hands perf whole records; the
 * records tell which threads perf will attribute samples to. The side-band (COMM, MMAP2) follows,
 * dated just before the first record: perf orders events by time, not by place in the file. */
#define _XOPEN_SOURCE 700
#include "cli/perf_export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "armprof/elf.h"

enum {
    AUX_CHUNK = 1 << 20,
    BLOCK = 1 << 16,
    /* bytes held without a record ending (a run of Padding): written out
     * whole beyond this */
    PENDING_MAX = 8 << 20,
};

/* The thread perf gives a record's samples: the value of its last Context
 * packet (docs/perf.md). The model writes CONTEXTIDR_EL1's packet before
 * CONTEXTIDR_EL2's (SPEConstructRecord()). */
static bool perf_tid(const armprof_spe_record *r, uint32_t *tid)
{
    if (r->context_valid & 2)
        *tid = r->context[1];
    else if (r->context_valid & 1)
        *tid = r->context[0];
    else
        return false;
    return true;
}

typedef struct pid_set {
    uint32_t *v;
    size_t n, cap;
    uint32_t last;
    bool have_last;
} pid_set;

static bool pid_add(pid_set *s, uint32_t pid)
{
    if (s->have_last && s->last == pid) return true;
    s->last = pid;
    s->have_last = true;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i] == pid) return true;
    if (s->n == s->cap) {
        const size_t cap = s->cap ? 2 * s->cap : 16;
        uint32_t *v = realloc(s->v, cap * sizeof *v);
        if (!v) return false;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = pid;
    return true;
}

typedef struct input_state {
    armprof_perf_writer *w;
    uint32_t cpu;
    uint8_t *pending; /* the bytes from chunk_start on */
    size_t pending_size, pending_cap;
    uint64_t chunk_start;
    uint64_t cut; /* where the last record seen starts */
} input_state;

static bool append(input_state *st, const uint8_t *p, size_t n)
{
    if (st->pending_size + n > st->pending_cap) {
        size_t cap = st->pending_cap ? st->pending_cap : AUX_CHUNK + BLOCK;
        while (cap < st->pending_size + n)
            cap *= 2;
        uint8_t *q = realloc(st->pending, cap);
        if (!q) return false;
        st->pending = q;
        st->pending_cap = cap;
    }
    memcpy(st->pending + st->pending_size, p, n);
    st->pending_size += n;
    return true;
}

/* Writes the held bytes up to upto (an offset in the input). */
static bool write_upto(input_state *st, uint64_t upto, perf_export_result *res)
{
    const size_t n = (size_t)(upto - st->chunk_start);
    if (n == 0) return true;
    if (!armprof_perf_write_aux(st->w, st->cpu, st->pending, n)) return false;
    res->aux_events++;
    res->bytes += n;
    memmove(st->pending, st->pending + n, st->pending_size - n);
    st->pending_size -= n;
    st->chunk_start = upto;
    return true;
}

/* f: the input's file, opened by the caller (NULL for data in memory) */
static int export_input(input_state *st, const perf_export_input *in, FILE *f, pid_set *pids,
                        uint64_t *min_ts, perf_export_result *res, const char *prog, FILE *err)
{
    uint8_t *block = NULL;
    if (f && !(block = malloc(BLOCK))) {
        fprintf(err, "%s: out of memory\n", prog);
        return 2;
    }
    armprof_spe_stream s;
    armprof_spe_stream_init(&s);
    armprof_spe_record r;
    size_t mem_pos = 0;
    int rc = 0;
    for (;;) {
        const armprof_spe_decode_status ds = armprof_spe_stream_next_record(&s, &r);
        if (ds == ARMPROF_SPE_DECODE_OK) {
            uint32_t tid;
            if (perf_tid(&r, &tid) && !pid_add(pids, tid)) {
                fprintf(err, "%s: out of memory\n", prog);
                rc = 2;
                break;
            }
            if (r.timestamp_valid && r.timestamp && r.timestamp < *min_ts) *min_ts = r.timestamp;
            res->records++;
            st->cut = r.offset;
            continue;
        }
        if (ds == ARMPROF_SPE_DECODE_EOF) break;
        if (ds == ARMPROF_SPE_DECODE_ERROR) {
            fprintf(err, "%s: %s: offset 0x%zx: %s\n", prog, in->path, s.error_offset, s.error);
            rc = 1;
            break;
        }
        /* MORE: every record of the bytes so far has been seen */
        if ((st->cut - st->chunk_start >= AUX_CHUNK && !write_upto(st, st->cut, res)) ||
            (st->pending_size >= PENDING_MAX &&
             !write_upto(st, st->chunk_start + st->pending_size, res))) {
            fprintf(err, "%s: %s\n", prog, armprof_perf_writer_error(st->w));
            rc = 2;
            break;
        }
        const uint8_t *bytes;
        size_t n;
        if (f) {
            n = fread(block, 1, BLOCK, f);
            if (n == 0 && ferror(f)) {
                fprintf(err, "%s: %s: read error: %s\n", prog, in->path, strerror(errno));
                rc = 2;
                break;
            }
            bytes = block;
        } else {
            n = in->size - mem_pos < BLOCK ? in->size - mem_pos : BLOCK;
            bytes = in->data + mem_pos;
            mem_pos += n;
        }
        if (n == 0) {
            armprof_spe_stream_finish(&s);
            continue;
        }
        if (!append(st, bytes, n)) {
            fprintf(err, "%s: out of memory\n", prog);
            rc = 2;
            break;
        }
        armprof_spe_stream_feed(&s, bytes, n);
    }
    if (rc == 0 && !write_upto(st, st->chunk_start + st->pending_size, res)) {
        fprintf(err, "%s: %s\n", prog, armprof_perf_writer_error(st->w));
        rc = 2;
    }
    free(block);
    return rc;
}

static const char *comm_of(const perf_export_options *o, uint32_t pid)
{
    for (size_t i = 0; i < o->ncomms; i++)
        if (o->comms[i].pid == pid) return o->comms[i].name;
    return NULL;
}

/* COMM for each named task, then each ELF's executable segments mapped
 * into every task. */
static bool write_sideband(armprof_perf_writer *w, const perf_export_options *o,
                           const pid_set *pids, uint64_t time, char *msg, size_t msglen)
{
    /* every ELF's segments and absolute path first: a bad --elf is
     * reported before anything is written for it */
    armprof_elf_segment *segs =
        calloc(o->nelfs ? o->nelfs * ARMPROF_ELF_MAX_SEGMENTS : 1, sizeof *segs);
    size_t *counts = calloc(o->nelfs ? o->nelfs : 1, sizeof *counts);
    char **paths = calloc(o->nelfs ? o->nelfs : 1, sizeof *paths);
    bool ok = segs && counts && paths;
    if (!ok) snprintf(msg, msglen, "out of memory");
    for (size_t e = 0; ok && e < o->nelfs; e++) {
        ok = armprof_elf_exec_segments(o->elfs[e].path, o->elfs[e].load,
                                       segs + e * ARMPROF_ELF_MAX_SEGMENTS, &counts[e], NULL, msg,
                                       msglen);
        /* perf opens the file by the name in MMAP2 */
        if (ok && !(paths[e] = realpath(o->elfs[e].path, NULL))) {
            snprintf(msg, msglen, "%s: %s", o->elfs[e].path, strerror(errno));
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < pids->n; i++) {
        const uint32_t pid = pids->v[i];
        const char *name = comm_of(o, pid);
        ok = !name || armprof_perf_write_comm(w, pid, pid, name, time);
        for (size_t e = 0; ok && e < o->nelfs; e++)
            for (size_t k = 0; ok && k < counts[e]; k++) {
                const armprof_elf_segment *sg = &segs[e * ARMPROF_ELF_MAX_SEGMENTS + k];
                ok = armprof_perf_write_mmap2(w, pid, pid, sg->start, sg->len, sg->pgoff, paths[e],
                                              time);
            }
        if (!ok) snprintf(msg, msglen, "%s", armprof_perf_writer_error(w));
    }
    for (size_t e = 0; paths && e < o->nelfs; e++)
        free(paths[e]);
    free(paths);
    free(counts);
    free(segs);
    return ok;
}

int perf_export(const perf_export_options *o, const perf_export_input *in, size_t nin,
                perf_export_result *res, const char *prog, FILE *err)
{
    memset(res, 0, sizeof *res);
    armprof_perf_writer_config c = o->config;
    c.ncpus = (uint32_t)nin;
    /* Every input is opened before the output is made: a missing one
     * leaves the output as it was. */
    FILE **files = calloc(nin ? nin : 1, sizeof *files);
    const char **paths = calloc(nin ? nin : 1, sizeof *paths);
    int rc = files && paths ? 0 : 2;
    if (rc) fprintf(err, "%s: out of memory\n", prog);
    for (size_t i = 0; i < nin && rc == 0; i++) {
        paths[i] = in[i].path;
        if (!in[i].data && !(files[i] = fopen(in[i].path, "rb"))) {
            fprintf(err, "%s: %s: %s\n", prog, in[i].path, strerror(errno));
            rc = 2;
        }
    }
    c.inputs = paths;
    c.ninputs = nin;
    char msg[512] = "";
    armprof_perf_writer *w = NULL;
    if (rc == 0 && !(w = armprof_perf_writer_create(o->out, &c, msg, sizeof msg))) {
        fprintf(err, "%s: %s\n", prog, msg);
        rc = 2;
    }
    pid_set pids = {0};
    uint64_t min_ts = UINT64_MAX;
    for (size_t i = 0; i < nin && rc == 0; i++) {
        input_state st = {.w = w, .cpu = (uint32_t)i};
        rc = export_input(&st, &in[i], files[i], &pids, &min_ts, res, prog, err);
        free(st.pending);
    }
    for (size_t i = 0; files && i < nin; i++)
        if (files[i]) fclose(files[i]);
    free(files);
    free(paths);
    if (!w) return rc;
    /* the named tasks count even without records */
    for (size_t i = 0; rc == 0 && i < o->ncomms; i++)
        if (!pid_add(&pids, o->comms[i].pid)) rc = 2;
    if (rc == 0) {
        const uint64_t time = min_ts != UINT64_MAX ? min_ts - 1 : 0;
        if (!write_sideband(w, o, &pids, time, msg, sizeof msg)) {
            fprintf(err, "%s: %s\n", prog, msg);
            rc = 2;
        }
    }
    res->tasks = pids.n;
    free(pids.v);
    if (rc != 0) {
        armprof_perf_writer_abandon(w); /* nothing half-written is left */
        return rc;
    }
    if (!armprof_perf_writer_finish(w, msg, sizeof msg)) {
        fprintf(err, "%s: %s\n", prog, msg);
        return 2;
    }
    return 0;
}

bool perf_export_metadata_for(const char *version, armprof_perf_spe_metadata *m)
{
    return strncmp(version, "perf", 4) != 0 && armprof_perf_metadata_for_version(version, m, NULL);
}
