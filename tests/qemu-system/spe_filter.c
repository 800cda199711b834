/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether every record in a perf.data file obeys what the guest asked its
 * SPE driver for (tests/qemu-system/record.sh), read with armprof's own
 * perf.data reader and record decoder:
 *
 *   spe_filter PERF.DATA [CHECK]...
 *
 *   --el N               every PC packet at ELn (PMSCR_EL1.E0SPE/E1SPE)
 *   --type CTRL MASK     SPEFilterByType(): with flags the record's
 *                        {SIMD, FP, ST, LD, B} (bits 4..0), ctrl_or =
 *                        CTRL AND NOT MASK, ctrl_and = CTRL AND MASK, each
 *                        record has (ctrl_or == 0 or flags AND ctrl_or != 0)
 *                        and flags AND MASK == ctrl_and
 *   --events-all E       every Events packet has every bit of E
 *                        (SPEFilterByEvents(), PMSEVFR_EL1)
 *   --events-none E      no Events packet has a bit of E (PMSNEVFR_EL1)
 *   --min-latency N      every total latency counter is at least N
 *                        (SPEFilterByLatency(), PMSLATFR_EL1.MINLAT)
 *   --ds-reject MASK     no load with a Data Source packet whose
 *                        DS<5:0> bit is set in MASK (SPEFilterByDataSource()
 *                        with PMSDSFR_EL1 = NOT MASK)
 *   --pc ADDR FLAGS      the flags of the operation at ADDR (when the
 *                        packet alone cannot say: a SIMD&FP load/store is
 *                        FP or SIMD by its register, D17.8.3)
 *   --records LO HI      the number of records is in [LO, HI]
 *   --want KIND N        at least N records of KIND: B LD ST FP SIMD (the
 *                        flag known set), AT (an atomic load), DS<n>
 *                        (a load from data source n), ERET (a branch whose
 *                        target is at a lower Exception level than its PC:
 *                        an exception return, D17.6.3)
 *   --top-pc LO HI       the share (%) of the records at their most
 *                        frequent PC is in [LO, HI]
 *   --cpus N             at least N CPUs' AUX data hold records (perf
 *                        record -a: one Profiling Buffer per CPU)
 *   --pc-none LO HI      no record's PC in [LO, HI) (a KVM guest's
 *                        memory in a host-only profile: each such record
 *                        is printed, its PC, EL and CONTEXTIDR)
 *   --pc-want LO HI N    at least N records with their PC in [LO, HI)
 *
 * Always: no unconditional branch (the Operation Type packet's COND 0,
 * which an exception return is, D17.6.3) has the Events packet's "not
 * taken" bit (D18.2.6: set for a conditional branch that failed its
 * condition), and no branch target is at a higher Exception level than
 * its PC (exception entries are not branches).
 *
 * Prints what it counted, each failed check and up to 5 records that break
 * a per-record one; exits 1 when a check fails, 2 on bad arguments or a
 * file that does not read or decode. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/decode.h"
#include "armprof/perfdata.h"

/* The flags bits of SPEFilterByType() and PMSFCR_EL1.{SIMD, FP, ST, LD, B} */
enum { F_B = 1, F_LD = 2, F_ST = 4, F_FP = 8, F_SIMD = 16 };
enum { MAX_PCS = 4096, MAX_OVERRIDES = 16, MAX_WANTS = 16, MAX_RANGES = 8 };

typedef struct check {
    int el;
    bool type;
    unsigned ctrl, mask;
    uint64_t events_all, events_none;
    uint32_t min_latency;
    uint64_t ds_reject;
    uint64_t records_lo, records_hi;
    unsigned top_lo, top_hi;
    unsigned cpus;
    unsigned noverrides;
    struct {
        uint64_t pc;
        unsigned flags;
    } override[MAX_OVERRIDES];
    unsigned nwants;
    struct {
        const char *kind;
        uint64_t n;
    } want[MAX_WANTS];
    unsigned nranges;
    struct {
        uint64_t lo, hi, want; /* want UINT64_MAX: none */
    } range[MAX_RANGES];
} check;

typedef struct pc_count {
    uint64_t pc, n;
} pc_count;

typedef struct tally {
    uint64_t records, broken, ambiguous;
    uint64_t kinds[5], atomics, ds[64], erets;
    uint64_t els[4]; /* records by their PC's Exception level */
    uint64_t in_range[MAX_RANGES];
    size_t npcs;
    pc_count pcs[MAX_PCS];
} tally;

static uint64_t number(const char *s)
{
    char *end;
    const unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *end) {
        fprintf(stderr, "spe_filter: not a number: %s\n", s);
        exit(2);
    }
    return v;
}

/* What a record's Operation Type packet says of its flags (D18.2.7, and
 * the operation types of D17.8.3): known holds the bits it decides. */
static void record_flags(const armprof_spe_op *op, unsigned *flags, unsigned *known,
                         bool *atomic_load)
{
    *flags = 0;
    *known = F_B | F_LD | F_ST | F_FP | F_SIMD;
    *atomic_load = false;
    switch (op->kind) {
    case ARMPROF_SPE_OP_OTHER: /* ASE and FP (FEAT_SPE_FPF) */
        *flags = (op->ase ? F_SIMD : 0) | (op->fp ? F_FP : 0);
        break;
    case ARMPROF_SPE_OP_SVE: /* SPESampleOpSVEOther(): FP only */
        *flags = op->fp ? F_FP : 0;
        break;
    case ARMPROF_SPE_OP_SME: /* SPESampleOpSMEArrayOther(): is_simd */
        *flags = F_SIMD | (op->fp ? F_FP : 0);
        break;
    case ARMPROF_SPE_OP_BRANCH:
        *flags = F_B;
        break;
    case ARMPROF_SPE_OP_LDST_EXT:
        /* an atomic that returns a value is a load and a store; every
         * other atomic a store (LDST 1) */
        *atomic_load = op->at && !op->ldst;
        *flags = op->ldst ? F_ST : (op->at ? F_LD | F_ST : F_LD);
        break;
    case ARMPROF_SPE_OP_LDST_SIMDFP:
        /* a scalar SIMD&FP register is FP, a Q register SIMD: the packet
         * does not say which */
        *flags = op->ldst ? F_ST : F_LD;
        *known &= ~(unsigned)(F_FP | F_SIMD);
        break;
    case ARMPROF_SPE_OP_RESERVED:
        *known = 0;
        break;
    default: /* the other loads and stores */
        *flags = op->ldst ? F_ST : F_LD;
        break;
    }
}

/* SPEFilterByType()'s is_op */
static bool type_passes(unsigned flags, unsigned ctrl, unsigned mask)
{
    const unsigned ctrl_or = ctrl & ~mask, ctrl_and = ctrl & mask;
    return (ctrl_or == 0 || (flags & ctrl_or) != 0) && (flags & mask) == ctrl_and;
}

static void broken(tally *t, const armprof_spe_record *r, const char *why)
{
    if (t->broken++ < 5) fprintf(stdout, "FAIL: record at 0x%zx: %s\n", r->offset, why);
}

/* What every branch record must say, whatever the case asked for: an
 * unconditional one (COND 0; an exception return is one, D17.6.3) has no
 * "not taken" event (D18.2.6, bit 6); its target is not at a higher
 * Exception level than its PC, and one at a lower level is an exception
 * return. */
static void branch_checks(const armprof_spe_op *op, const armprof_spe_record *r, bool has_pc,
                          unsigned pc_el, tally *t)
{
    if (!op->cond && r->events_valid && (r->events >> 6 & 1))
        broken(t, r, "an unconditional branch, not taken");
    if (!has_pc || !(r->address_valid >> 1 & 1u)) return; /* Branch target: index 1 */
    const armprof_spe_inst_address to = armprof_spe_decode_inst_address(r->address[1]);
    if (to.el < pc_el) t->erets++;
    if (to.el > pc_el) {
        char why[64];
        snprintf(why, sizeof why, "a branch from EL%u to EL%u", pc_el, to.el);
        broken(t, r, why);
    }
}

static void one_record(const check *c, tally *t, const armprof_spe_record *r)
{
    t->records++;
    const bool has_pc = r->address_valid & 1u;
    const armprof_spe_inst_address pc = armprof_spe_decode_inst_address(r->address[0]);
    if (has_pc) {
        size_t i = 0;
        while (i < t->npcs && t->pcs[i].pc != pc.va)
            i++;
        if (i == t->npcs && t->npcs < MAX_PCS) t->pcs[t->npcs++] = (pc_count){pc.va, 0};
        if (i < t->npcs) t->pcs[i].n++;
    }
    char why[160];
    if (has_pc) t->els[pc.el & 3u]++;
    for (unsigned i = 0; i < c->nranges; i++) {
        if (!has_pc || pc.va < c->range[i].lo || pc.va >= c->range[i].hi) continue;
        t->in_range[i]++;
        if (c->range[i].want == UINT64_MAX) {
            char ctx[64] = "no Context packet";
            if (r->context_valid & 1u)
                snprintf(ctx, sizeof ctx, "CONTEXTIDR_EL1 0x%x", r->context[0]);
            if (r->context_valid & 2u)
                snprintf(ctx, sizeof ctx, "CONTEXTIDR_EL2 0x%x", r->context[1]);
            snprintf(why, sizeof why, "PC 0x%" PRIx64 " at EL%u (%s) in --pc-none", pc.va, pc.el,
                     ctx);
            broken(t, r, why);
        }
    }
    if (c->el >= 0 && (!has_pc || pc.el != (unsigned)c->el)) {
        snprintf(why, sizeof why, "PC at EL%d, not EL%d", has_pc ? pc.el : -1, c->el);
        broken(t, r, why);
    }
    unsigned flags = 0, known = 0;
    bool atomic_load = false;
    if (r->op_valid) {
        const armprof_spe_op op = armprof_spe_decode_op(r->op_class, r->op_subclass);
        record_flags(&op, &flags, &known, &atomic_load);
        if (op.kind == ARMPROF_SPE_OP_BRANCH) branch_checks(&op, r, has_pc, pc.el, t);
        for (unsigned i = 0; i < c->noverrides; i++) {
            if (has_pc && c->override[i].pc == pc.va) {
                if ((c->override[i].flags ^ flags) & known) {
                    snprintf(why, sizeof why, "its packet says flags 0x%x, --pc 0x%" PRIx64 " 0x%x",
                             flags, pc.va, c->override[i].flags);
                    broken(t, r, why);
                }
                flags = c->override[i].flags;
                known = F_B | F_LD | F_ST | F_FP | F_SIMD;
            }
        }
    }
    if (!r->op_valid || known == 0) broken(t, r, "no Operation Type packet it can read");
    for (unsigned b = 0; b < 5; b++)
        t->kinds[b] += (known >> b & flags >> b & 1u);
    t->atomics += atomic_load;
    if (known != (F_B | F_LD | F_ST | F_FP | F_SIMD)) t->ambiguous++;
    if (c->type) {
        /* passes when some value of the bits the record leaves open does */
        bool pass = false;
        const unsigned open = ~known & 0x1fu;
        for (unsigned v = 0; v <= 0x1fu; v++)
            if ((v & ~open) == 0 && type_passes((flags & known) | v, c->ctrl, c->mask)) pass = true;
        if (!pass) {
            snprintf(why, sizeof why, "flags 0x%x (known 0x%x) fail TYPE 0x%x TYPEm 0x%x", flags,
                     known, c->ctrl, c->mask);
            broken(t, r, why);
        }
    }
    if (c->events_all || c->events_none) {
        if (!r->events_valid)
            broken(t, r, "no Events packet");
        else if ((r->events & c->events_all) != c->events_all ||
                 (r->events & c->events_none) != 0) {
            snprintf(why, sizeof why, "events 0x%" PRIx64, r->events);
            broken(t, r, why);
        }
    }
    if (c->min_latency) {
        if (!(r->counter_valid & 1u))
            broken(t, r, "no total latency counter");
        else if (r->counter[0] < c->min_latency) {
            snprintf(why, sizeof why, "total latency %u", r->counter[0]);
            broken(t, r, why);
        }
    }
    const bool load = known & F_LD && flags & F_LD;
    if (load && r->data_source_valid) {
        const unsigned ds = r->data_source & 63u;
        t->ds[ds]++;
        if (c->ds_reject >> ds & 1u) {
            snprintf(why, sizeof why, "a load from data source 0x%x", ds);
            broken(t, r, why);
        }
    }
}

static uint64_t kind_count(const tally *t, const char *kind)
{
    static const char *const names[5] = {"B", "LD", "ST", "FP", "SIMD"};
    for (unsigned b = 0; b < 5; b++)
        if (!strcmp(kind, names[b])) return t->kinds[b];
    if (!strcmp(kind, "AT")) return t->atomics;
    if (!strcmp(kind, "ERET")) return t->erets;
    if (!strncmp(kind, "DS", 2)) return t->ds[number(kind + 2) & 63u];
    fprintf(stderr, "spe_filter: unknown --want kind %s\n", kind);
    exit(2);
}

static int parse(int argc, char **argv, check *c)
{
    *c = (check){.el = -1, .records_hi = UINT64_MAX, .top_hi = 100};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const int left = argc - i - 1;
        if (!strcmp(a, "--el") && left >= 1) {
            c->el = (int)number(argv[++i]);
        } else if (!strcmp(a, "--type") && left >= 2) {
            c->type = true;
            c->ctrl = (unsigned)number(argv[++i]);
            c->mask = (unsigned)number(argv[++i]);
        } else if (!strcmp(a, "--events-all") && left >= 1) {
            c->events_all = number(argv[++i]);
        } else if (!strcmp(a, "--events-none") && left >= 1) {
            c->events_none = number(argv[++i]);
        } else if (!strcmp(a, "--min-latency") && left >= 1) {
            c->min_latency = (uint32_t)number(argv[++i]);
        } else if (!strcmp(a, "--ds-reject") && left >= 1) {
            c->ds_reject = number(argv[++i]);
        } else if (!strcmp(a, "--pc") && left >= 2 && c->noverrides < MAX_OVERRIDES) {
            c->override[c->noverrides].pc = number(argv[++i]);
            c->override[c->noverrides++].flags = (unsigned)number(argv[++i]);
        } else if (!strcmp(a, "--records") && left >= 2) {
            c->records_lo = number(argv[++i]);
            c->records_hi = number(argv[++i]);
        } else if (!strcmp(a, "--want") && left >= 2 && c->nwants < MAX_WANTS) {
            c->want[c->nwants].kind = argv[++i];
            c->want[c->nwants++].n = number(argv[++i]);
        } else if (!strcmp(a, "--pc-none") && left >= 2 && c->nranges < MAX_RANGES) {
            c->range[c->nranges].lo = number(argv[++i]);
            c->range[c->nranges].hi = number(argv[++i]);
            c->range[c->nranges++].want = UINT64_MAX;
        } else if (!strcmp(a, "--pc-want") && left >= 3 && c->nranges < MAX_RANGES) {
            c->range[c->nranges].lo = number(argv[++i]);
            c->range[c->nranges].hi = number(argv[++i]);
            c->range[c->nranges++].want = number(argv[++i]);
        } else if (!strcmp(a, "--cpus") && left >= 1) {
            c->cpus = (unsigned)number(argv[++i]);
        } else if (!strcmp(a, "--top-pc") && left >= 2) {
            c->top_lo = (unsigned)number(argv[++i]);
            c->top_hi = (unsigned)number(argv[++i]);
        } else {
            fprintf(stderr, "spe_filter: bad argument %s\n", a);
            return 2;
        }
    }
    return 0;
}

/* The records the bytes fed so far complete. */
static armprof_spe_decode_status drain(armprof_spe_stream *s, const check *c, tally *t)
{
    armprof_spe_record r;
    armprof_spe_decode_status st;
    while ((st = armprof_spe_stream_next_record(s, &r)) == ARMPROF_SPE_DECODE_OK)
        one_record(c, t, &r);
    return st;
}

/* Every record of one CPU's AUX data, its chunks in file order. */
static int read_cpu(armprof_perf_file *f, uint32_t cpu, const check *c, tally *t)
{
    const armprof_perf_file_info *info = armprof_perf_info(f);
    armprof_spe_stream s;
    armprof_spe_stream_init(&s);
    static uint8_t buf[1 << 16];
    for (size_t k = 0; k < info->nchunks; k++) {
        const armprof_perf_aux_chunk *ch = &info->chunks[k];
        if (ch->cpu != cpu) continue;
        for (uint64_t off = 0; off < ch->size;) {
            const size_t n = armprof_perf_read_aux(f, ch, off, buf, sizeof buf);
            if (n == 0) {
                fprintf(stderr, "spe_filter: %s\n", armprof_perf_error(f));
                return 2;
            }
            off += n;
            armprof_spe_stream_feed(&s, buf, n);
            if (drain(&s, c, t) == ARMPROF_SPE_DECODE_ERROR) {
                fprintf(stderr, "spe_filter: cpu %u: %s at byte %zu\n", cpu, s.error,
                        s.error_offset);
                return 2;
            }
        }
    }
    armprof_spe_stream_finish(&s);
    if (drain(&s, c, t) == ARMPROF_SPE_DECODE_ERROR) {
        /* perf keeps what the driver gave it: a record the buffer cut at
         * its end is the driver's (PMBSR_EL1 reports the truncation) */
        fprintf(stdout, "cpu %u: the data ends inside a record (%s at byte %zu)\n", cpu, s.error,
                s.error_offset);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: spe_filter PERF.DATA [--el N] [--type CTRL MASK] ... (see the "
                        "source)\n");
        return 2;
    }
    check c;
    if (parse(argc, argv, &c)) return 2;
    char err[256];
    armprof_perf_file *f = armprof_perf_open(argv[1], err, sizeof err);
    if (!f) {
        fprintf(stderr, "spe_filter: %s\n", err);
        return 2;
    }
    static tally t;
    const armprof_perf_file_info *info = armprof_perf_info(f);
    uint32_t cpus[64];
    size_t ncpus = 0;
    for (size_t k = 0; k < info->nchunks; k++) {
        size_t i = 0;
        while (i < ncpus && cpus[i] != info->chunks[k].cpu)
            i++;
        if (i == ncpus && ncpus < 64) cpus[ncpus++] = info->chunks[k].cpu;
    }
    unsigned cpus_with_records = 0;
    for (size_t i = 0; i < ncpus; i++) {
        const uint64_t before = t.records;
        const int rc = read_cpu(f, cpus[i], &c, &t);
        if (rc) {
            armprof_perf_close(f);
            return rc;
        }
        if (ncpus > 1) printf("cpu %u: %" PRIu64 " records\n", cpus[i], t.records - before);
        cpus_with_records += t.records != before;
    }
    armprof_perf_close(f);
    int fail = t.broken != 0;
    uint64_t top = 0;
    for (size_t i = 0; i < t.npcs; i++)
        if (t.pcs[i].n > top) top = t.pcs[i].n;
    const unsigned share = t.records ? (unsigned)(top * 100 / t.records) : 0;
    printf("records %" PRIu64 " (%zu CPUs), B %" PRIu64 " LD %" PRIu64 " ST %" PRIu64 " FP %" PRIu64
           " SIMD %" PRIu64 " AT %" PRIu64 " ERET %" PRIu64 ", FP/SIMD unknown %" PRIu64
           ", PCs %zu (top %u%%), data sources",
           t.records, ncpus, t.kinds[0], t.kinds[1], t.kinds[2], t.kinds[3], t.kinds[4], t.atomics,
           t.erets, t.ambiguous, t.npcs, share);
    for (unsigned d = 0; d < 64; d++)
        if (t.ds[d]) printf(" 0x%x:%" PRIu64, d, t.ds[d]);
    printf(", PCs at EL0 %" PRIu64 " EL1 %" PRIu64 " EL2 %" PRIu64 " EL3 %" PRIu64 "\n", t.els[0],
           t.els[1], t.els[2], t.els[3]);
    for (unsigned i = 0; i < c.nranges; i++) {
        printf("records with the PC in [0x%" PRIx64 ", 0x%" PRIx64 "): %" PRIu64 "\n",
               c.range[i].lo, c.range[i].hi, t.in_range[i]);
        if (c.range[i].want != UINT64_MAX && t.in_range[i] < c.range[i].want) {
            printf("FAIL: %" PRIu64 " records with the PC in [0x%" PRIx64 ", 0x%" PRIx64
                   "), wanted at least %" PRIu64 "\n",
                   t.in_range[i], c.range[i].lo, c.range[i].hi, c.range[i].want);
            fail = 1;
        }
    }
    if (t.broken) printf("FAIL: %" PRIu64 " records break the filter\n", t.broken);
    if (t.records < c.records_lo || t.records > c.records_hi) {
        printf("FAIL: %" PRIu64 " records, wanted %" PRIu64 " to %" PRIu64 "\n", t.records,
               c.records_lo, c.records_hi);
        fail = 1;
    }
    for (unsigned i = 0; i < c.nwants; i++) {
        const uint64_t n = kind_count(&t, c.want[i].kind);
        if (n < c.want[i].n) {
            printf("FAIL: %" PRIu64 " %s records, wanted at least %" PRIu64 "\n", n, c.want[i].kind,
                   c.want[i].n);
            fail = 1;
        }
    }
    if (cpus_with_records < c.cpus) {
        printf("FAIL: records from %u CPUs, wanted %u\n", cpus_with_records, c.cpus);
        fail = 1;
    }
    if (share < c.top_lo || share > c.top_hi) {
        printf("FAIL: the most frequent PC has %u%% of the records, wanted %u%% to %u%%\n", share,
               c.top_lo, c.top_hi);
        fail = 1;
    }
    return fail;
}
