/* SPDX-License-Identifier: BSD-3-Clause */
/* At exit: PREFIX.spe, PREFIX.perf.data and the summary (docs/qemu.md). */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "armprof/elf.h"
#include "armprof/perfdata.h"
#include "qprof.h"

/* The functions of the guest's executable mappings, for the PC-sample
 * histogram (armprof/elf.h). */
typedef struct symtab {
    struct symtab_map {
        uint64_t lo, hi;
        armprof_elf_symbols *syms;
        char *dso; /* "[basename]": where a PC without a symbol is */
    } * map;
    size_t n;
} symtab;

static symtab symbols(void)
{
    symtab s = {calloc(qp.nmaps + 1, sizeof *s.map), 0};
    if (!s.map) abort();
    for (size_t i = 0; i < qp.nmaps; i++) {
        uint64_t load;
        char err[256];
        if (!armprof_elf_load_bias(qp.maps[i].path, qp.maps[i].addr, qp.maps[i].pgoff, &load))
            continue;
        s.map[s.n].lo = qp.maps[i].addr;
        s.map[s.n].hi = qp.maps[i].addr + qp.maps[i].len;
        s.map[s.n].syms = armprof_elf_symbols_open(qp.maps[i].path, load, err, sizeof err);
        const char *base = strrchr(qp.maps[i].path, '/');
        s.map[s.n].dso = g_strdup_printf("[%s]", base ? base + 1 : qp.maps[i].path);
        s.n++;
    }
    return s;
}

static const char *symbol_of(const symtab *s, uint64_t pc)
{
    for (size_t i = 0; i < s->n; i++) {
        if (pc < s->map[i].lo || pc >= s->map[i].hi) continue;
        const char *name = armprof_elf_symbol_at(s->map[i].syms, pc, NULL);
        return name ? name : s->map[i].dso;
    }
    return "?";
}

static void symbols_free(symtab *s)
{
    for (size_t i = 0; i < s->n; i++)
        armprof_elf_symbols_close(s->map[i].syms);
    free(s->map);
}

typedef struct hist_entry {
    const char *symbol;
    uint64_t count;
} hist_entry;

static int by_count(const void *a, const void *b)
{
    const hist_entry *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    return strcmp(x->symbol, y->symbol);
}

static void summary_to(FILE *f, const symtab *syms, const char *spe_path, size_t spe_bytes,
                       const char *perf_path, const char *perf_err)
{
    fprintf(f,
            "armprof qemu plugin: QEMU plugin API %d, mode %s, interval %u%s%s%s, %s (timing "
            "modelled, not measured)\n",
            QEMU_PLUGIN_VERSION, qp.mode == QP_MODE_FAST ? "fast" : "exact", qp.interval,
            qp.spe_params.random ? " with jitter" : "", qp.filters && *qp.filters ? ", " : "",
            qp.filters ? qp.filters : "", qp.config_desc);
    hist_entry *h = NULL;
    size_t nh = 0, caph = 0;
    uint64_t pcs = 0;
    for (const qp_thread *t = qp.done; t; t = t->next_done) {
        /* the counters the PE has (PMCR_EL0.N may be below six): "-" for
         * one the kernel could not program */
        fprintf(f, "thread %u:", t->tid);
        for (unsigned i = 0; i < QP_EV_COUNT; i++) {
            if (i < t->final.programmed)
                fprintf(f, " %s %llu", qp_events[i].name, (unsigned long long)t->final.counts[i]);
            else
                fprintf(f, " %s -", qp_events[i].name);
        }
        fprintf(f, " cycles %llu\n", (unsigned long long)t->final.cycles);
        const armprof_spe_stats *s = &t->final.stats;
        fprintf(
            f,
            "  spe: samples %llu records %llu written %llu lost %llu bytes %llu pmbirq %llu "
            "(buffer full %llu, faults %llu) no_address %llu vl_assumed %llu runs_refused %llu\n",
            (unsigned long long)s->selected, (unsigned long long)s->records,
            (unsigned long long)s->written, (unsigned long long)s->lost,
            (unsigned long long)t->spe.bytes, (unsigned long long)t->final.kernel.irqs,
            (unsigned long long)t->final.kernel.buffer_full,
            (unsigned long long)t->final.kernel.faults, (unsigned long long)t->counts.no_address,
            (unsigned long long)t->counts.vl_assumed, (unsigned long long)t->counts.runs_refused);
        fprintf(f, "  pc sampling: %llu PMPCSR reads, %llu samples\n",
                (unsigned long long)t->pcs.reads, (unsigned long long)t->pcs.samples);
        GHashTableIter it;
        gpointer k, v;
        g_hash_table_iter_init(&it, t->pcs.hist);
        while (g_hash_table_iter_next(&it, &k, &v)) {
            const char *sym = symbol_of(syms, *(const uint64_t *)k);
            const uint64_t count = *(const uint64_t *)v;
            pcs += count;
            size_t i = 0;
            while (i < nh && strcmp(h[i].symbol, sym))
                i++;
            if (i == nh) {
                if (nh == caph) {
                    caph = caph ? caph * 2 : 64;
                    h = realloc(h, caph * sizeof *h);
                    if (!h) abort();
                }
                h[nh++] = (hist_entry){sym, 0};
            }
            h[i].count += count;
        }
    }
    qsort(h, nh, sizeof *h, by_count);
    fprintf(f, "pc samples by symbol (%llu):\n", (unsigned long long)pcs);
    for (size_t i = 0; i < nh && i < 10; i++)
        fprintf(f, "  %6.2f%%  %8llu  %s\n", pcs ? 100.0 * (double)h[i].count / (double)pcs : 0.0,
                (unsigned long long)h[i].count, h[i].symbol);
    free(h);
    fprintf(f, "wrote %s (%zu bytes)", spe_path, spe_bytes);
    if (perf_err)
        fprintf(f, "; %s NOT written: %s\n", perf_path, perf_err);
    else
        fprintf(f, " and %s (%s)\n", perf_path, qp.metadata_why);
}

static char *path_with(const char *suffix);

static void *close_old(void *fd)
{
    close((int)(intptr_t)fd);
    return NULL;
}

/* path, made anew. An old regular file there is not truncated: freeing its
 * blocks takes tens of milliseconds for a large one, and ext4 writes the
 * new data back at once at the close of a file truncated to nothing (its
 * auto_da_alloc; 0.03 s and 0.05 s for a 140 MB PREFIX.spe). It is
 * unlinked while open instead, and closed, so freed, on a thread of its
 * own while the guest runs (the new file takes the old one's permissions).
 * A FIFO, a device or a link is written in place as before. */
static FILE *create_anew(const char *path)
{
    struct stat st;
    /* a file this process may not write stays, and fopen() says why */
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, W_OK) != 0)
        return fopen(path, "wb");
    const int old = open(path, O_RDONLY | O_CLOEXEC);
    if (old < 0) return fopen(path, "wb");
    if (unlink(path) != 0) {
        close(old);
        return fopen(path, "wb");
    }
    FILE *f = fopen(path, "wbx");
    if (!f) f = fopen(path, "wb"); /* made meanwhile by another */
    /* the old file's permissions, as the truncated file kept them (should
     * that fail, the mode it was made with) */
    if (f) (void)fchmod(fileno(f), st.st_mode & 07777);
    pthread_attr_t attr;
    pthread_t closer;
    bool handed = false;
    if (pthread_attr_init(&attr) == 0) {
        handed = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                 pthread_create(&closer, &attr, close_old, (void *)(intptr_t)old) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!handed) close(old);
    return f;
}

bool qp_spe_open(char *err, size_t errlen)
{
    char *path = path_with(".spe");
    qp.spe = create_anew(path);
    if (!qp.spe) snprintf(err, errlen, "%s: cannot write", path);
    free(path);
    return qp.spe != NULL;
}

static char *path_with(const char *suffix)
{
    const size_t n = strlen(qp.out) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (!p) abort();
    snprintf(p, n, "%s%s", qp.out, suffix);
    return p;
}

/* perf orders events by time: the side-band is dated before every record
 * (whose timestamps count cycles from QP_TIME_ORIGIN, model.c). */
#define QP_SIDEBAND_TIME (QP_TIME_ORIGIN - 1)

/* Where each PE sits, for perf c2c and perf mem (HEADER_CPU_TOPOLOGY and
 * HEADER_NUMA_TOPOLOGY): t[n] for the n-th thread of the done list, whose
 * AUX data write_perf() gives as CPU n. Without a memory hierarchy every
 * PE is its own core in one cluster on one node, of unsaid memory. A
 * hierarchy places them here: t[n].cluster and t[n].node from thread th's
 * PE's place in it, t[n].core its number in its cluster, and
 * node_memory[k] node k's size in bytes (nodes numbered from 0, each with
 * a PE; at most ncpus of them). */
static void pe_topology(const qp_thread *done, armprof_perf_cpu_topology *t, uint64_t *node_memory)
{
    /* exact mode: the hierarchy's clusters and nodes of each thread's PE
     * (its vCPU index, hierarchy.h); otherwise one cluster on one node */
    const qp_hier_config *h = qp.hier ? qp_hier_get_config(qp.hier) : NULL;
    unsigned n = 0;
    bool node_used[QP_MAX_VCPUS] = {false};
    for (const qp_thread *th = done; th; th = th->next_done, n++) {
        const unsigned cluster = h ? th->vcpu / h->cluster_pes : 0;
        const unsigned node = h ? (th->vcpu / h->node_pes) % h->nodes : 0;
        t[n] = (armprof_perf_cpu_topology){.core = n, .cluster = cluster, .node = node};
        node_used[node % QP_MAX_VCPUS] = true;
    }
    /* perf's nodes are numbered from 0, each with a CPU: a node of the
     * hierarchy no thread ran on is left out, the others keep their order */
    unsigned renumber[QP_MAX_VCPUS], next = 0;
    for (unsigned k = 0; k < QP_MAX_VCPUS; k++)
        renumber[k] = node_used[k] ? next++ : 0;
    for (unsigned i = 0; i < n; i++) {
        t[i].node = renumber[t[i].node % QP_MAX_VCPUS];
        node_memory[t[i].node] = 0; /* not modelled: perf shows 0 kB */
    }
}

static bool write_perf(const char *path, const char *spe_path, char *err, size_t errlen)
{
    armprof_perf_writer_config c;
    armprof_perf_writer_config_init(&c);
    unsigned n = 0;
    for (const qp_thread *t = qp.done; t; t = t->next_done)
        n++;
    c.ncpus = n ? n : 1;
    c.sample_period = qp.interval;
    c.metadata = qp.metadata;
    c.midr = qp.midr;
    armprof_perf_cpu_topology *topology = calloc(c.ncpus, sizeof *topology);
    uint64_t *node_memory = calloc(c.ncpus, sizeof *node_memory); /* at most a node a PE */
    if (!topology || !node_memory) abort();
    pe_topology(qp.done, topology, node_memory);
    c.topology = topology;
    c.node_memory = node_memory;
    armprof_perf_writer *w = armprof_perf_writer_create(path, &c, err, errlen);
    /* the writer keeps its own copy */
    free(topology);
    free(node_memory);
    if (!w) return false;
    bool ok = true;
    for (const qp_thread *t = qp.done; t && ok; t = t->next_done)
        ok = armprof_perf_write_comm(w, qp.pid, t->tid, qp.comm, QP_SIDEBAND_TIME);
    for (size_t i = 0; i < qp.nmaps && ok; i++)
        ok = armprof_perf_write_mmap2(w, qp.pid, qp.pid, qp.maps[i].addr, qp.maps[i].len,
                                      qp.maps[i].pgoff, qp.maps[i].path, QP_SIDEBAND_TIME);
    /* each thread's chunks back from PREFIX.spe, a CPU's AUX data: an
     * AUXTRACE event a chunk, the kernel's copy at a PMBIRQ or at the end,
     * which ends at a record's end, as the kernel's driver hands perf whole
     * records (perf decodes each event alone: a record cut in two between
     * events made junk samples) */
    FILE *in = fopen(spe_path, "rb");
    if (!in) {
        snprintf(err, errlen, "%s: cannot read back", spe_path);
        armprof_perf_writer_abandon(w);
        return false;
    }
    size_t cap = 1 << 16;
    bool read_ok = true;
    uint8_t *buf = malloc(cap);
    uint32_t cpu = 0;
    for (const qp_thread *t = qp.done; t && ok && buf; t = t->next_done, cpu++)
        for (size_t i = 0; i < t->spe.nchunks && ok && buf; i++) {
            const uint64_t at = t->spe.chunks[i].offset;
            const size_t size = t->spe.chunks[i].size;
            if (size > cap) {
                free(buf);
                buf = malloc(cap = size);
                if (!buf) break;
            }
            if (fseek(in, (long)at, SEEK_SET) != 0 || fread(buf, 1, size, in) != size) {
                snprintf(err, errlen, "%s: cannot read back %zu bytes at %llu", spe_path, size,
                         (unsigned long long)at);
                read_ok = false;
            }
            ok = read_ok && armprof_perf_write_aux(w, cpu, buf, size);
        }
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        read_ok = ok = false;
    }
    free(buf);
    fclose(in);
    if (!ok) {
        if (read_ok) snprintf(err, errlen, "%s", armprof_perf_writer_error(w));
        armprof_perf_writer_abandon(w);
        return false;
    }
    return armprof_perf_writer_finish(w, err, errlen);
}

void qp_thread_end(qp_thread *t)
{
    if (t->pe) {
        qp_fast_settle(t, NULL);
        qp_exact_flush(t);
    }
    qp_thread_done(t);
}

void qp_write_outputs(void)
{
    /* once: at exit, or at execve(); after every thread's end in progress */
    pthread_rwlock_wrlock(&qp.ending);
    const bool stopped = __atomic_exchange_n(&qp.stopped, true, __ATOMIC_ACQ_REL);
    pthread_rwlock_unlock(&qp.ending);
    if (stopped) return;
    for (unsigned v = 0; v < QP_MAX_VCPUS; v++) {
        qp_thread *t = qp_thread_detach(v);
        if (t) qp_thread_end(t);
    }
    char *spe = path_with(".spe"), *perf = path_with(".perf.data"), *sum = path_with(".summary");
    const size_t bytes = (size_t)qp.spe_size;
    if (fclose(qp.spe) != 0) qp.spe_failed = true;
    qp.spe = NULL;
    if (qp.spe_failed) fprintf(stderr, "armprof: %s: a write failed: records are missing\n", spe);
    char err[256];
    const bool perf_ok = write_perf(perf, spe, err, sizeof err);
    symtab syms = symbols();
    FILE *s = fopen(sum, "w");
    if (s) {
        summary_to(s, &syms, spe, bytes, perf, perf_ok ? NULL : err);
        fclose(s);
    } else
        fprintf(stderr, "armprof: %s: cannot write\n", sum);
    if (!qp.quiet) summary_to(stderr, &syms, spe, bytes, perf, perf_ok ? NULL : err);
    symbols_free(&syms);
    qp_watch_done();
    free(spe);
    free(perf);
    free(sum);
}
