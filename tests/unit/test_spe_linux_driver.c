/* SPDX-License-Identifier: BSD-3-Clause */
/* An end-to-end run of the Statistical Profiling Extension doing what the
 * Linux arm_spe_pmu driver does (drivers/perf/arm_spe_pmu.c), through MSR and
 * MRS at EL1 Non-secure:
 *
 * - firmware (EL3) gives the Profiling Buffer to Non-secure state
 *   (MDCR_EL3.NSPB 0b11), the hypervisor (EL2) gives it to EL1
 *   (MDCR_EL2.E2PB 0b10, which traps EL1's accesses to the buffer registers
 *   to EL2: the "hypervisor" here emulates each trapped access at EL2, as a
 *   trap-and-emulate hypervisor does), HCR_EL2.TGE 0;
 * - the kernel builds 4KB-granule stage 1 tables for a buffer at a TTBR1_EL1
 *   address (T1SZ 16) whose pages are scattered in physical memory, and
 *   turns the MMU on;
 * - probe (PMBIDR_EL1, PMSIDR_EL1), start (PMBPTR, PMBLIMITR | E, PMSFCR,
 *   PMSEVFR, PMSLATFR, PMSIRR, PMSICR = 0, PMSCR last), a workload at EL0
 *   and EL1, the PMBIRQ handler (PSB CSYNC, DSB, ISB, PMBSR; consume the
 *   data; restart in the next buffer region, PMBSR = 0 last) and stop
 *   (PMSCR = 0, ISB, PSB CSYNC, DSB, PMBPTR, PMBLIMITR = 0).
 *
 * Checks (D17.7, D17.8, D18.1.2):
 * (a) every record the unit constructed is in memory whole, every sample
 *     is accounted for, and a PMU counter programmed for SAMPLE_BUFFER_FULL
 *     counts exactly the buffer full interrupts (D17.8.2);
 * (b) the bytes in memory are the records the sink saw, in order;
 * (c) nothing is written outside [PMBPTR at enable, PMBLIMITR limit) of the
 *     enable period, nor to another physical address space (memory observer);
 * (d) after each buffer full event PMBPTR_EL1 is the first byte after the last
 *     complete record (D17.8.2), less than 2^MaxSize below the limit, and no
 *     record is split across the limit.
 * The run is repeated with spe_held_records 8. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "drv/drv_rng.h"
#include "drv/drv_regs.h"
#include "drv/drv_s1.h"

#define VA_BASE     0xffff000010000000ull /* TTBR1_EL1 region, T1SZ 16 */
#define NPAGES      16u                   /* 64KB of buffer VA */
#define REGION_SIZE 0x2000u               /* each enable period: 8KB */
#define NREGIONS    (NPAGES * 4096u / REGION_SIZE)
#define TABLE_PA    0x80000000ull
#define SBF_EVENT   0x40FFu /* an event number no other event uses */
#define NOPS        600000u

typedef struct drv {
    armprof_pe *pe;
    armprof_mem *mem;
    uint64_t page_pa[NPAGES];
    drv_cpu cpu; /* .traps: EL1 accesses the hypervisor emulated */
    /* probe */
    unsigned align_log2, max_size_log2;
    /* the current enable period */
    unsigned region;
    uint64_t head, limit;
    bool enabled; /* PMBLIMITR_EL1.E written 1 and not yet 0 */
    /* what the sink saw, not yet matched with memory */
    uint8_t *sink_bytes;
    size_t sink_len, sink_cap, sink_pos;
    size_t *sink_sizes;
    size_t sink_count, sink_sizes_cap, sink_next;
    /* results */
    uint64_t irqs, full_events, truncated, fatal, parsed_records, consumed_bytes;
    uint64_t observed_bytes, bad_writes, bad_pas;
    uint64_t misaligned_records, bad_padding, split_records, ptr_not_after_record;
    uint64_t sink_mismatch;
} drv;

/* ---- register access, with the hypervisor's trap-and-emulate ---- */

/* MDCR_EL2.E2PB 0b10: drv_access() has the hypervisor emulate each EL1
 * access that traps to EL2. */
static void msr(drv *d, const char *name, uint64_t v)
{
    const armprof_outcome o = drv_access(&d->cpu, name, true, v);
    CHECK(o.kind == ARMPROF_DONE, "MSR %s: %s", name, d->cpu.failure);
}

static uint64_t mrs(drv *d, const char *name)
{
    const armprof_outcome o = drv_access(&d->cpu, name, false, 0);
    CHECK(o.kind == ARMPROF_DONE, "MRS %s: %s", name, d->cpu.failure);
    return o.value;
}

static uint64_t fld(const char *reg, const char *field, uint64_t v)
{
    return drv_fld(reg, field, v);
}

static uint64_t get_fld(const char *reg, const char *field, uint64_t value)
{
    return drv_get_fld(reg, field, value);
}

/* ---- memory seen by the driver through its own page tables ---- */

static uint64_t va_to_pa(const drv *d, uint64_t va)
{
    const uint64_t off = va - VA_BASE;
    return d->page_pa[(off >> 12) % NPAGES] + (off & 0xfff);
}

static void read_va(const drv *d, uint64_t va, uint8_t *out, size_t n)
{
    while (n) {
        size_t chunk = 4096 - (size_t)(va & 0xfff);
        if (chunk > n) chunk = n;
        armprof_mem_read(d->mem, ARMPROF_PAS_NONSECURE, va_to_pa(d, va), out, chunk);
        va += chunk;
        out += chunk;
        n -= chunk;
    }
}

/* The observer: every byte range the SPU writes, mapped back to the VA it
 * was written through (check c). */
static void observer(void *ctx, int pas, uint64_t pa, const uint8_t *data, size_t size,
                     const armprof_mem_attrs *attrs)
{
    drv *d = ctx;
    (void)data;
    (void)attrs;
    d->observed_bytes += size;
    if (pas != ARMPROF_PAS_NONSECURE) d->bad_pas++;
    for (unsigned i = 0; i < NPAGES; i++) {
        if (pa >= d->page_pa[i] && pa + size <= d->page_pa[i] + 4096) {
            const uint64_t va = VA_BASE + (uint64_t)i * 4096 + (pa - d->page_pa[i]);
            if (!d->enabled || va < d->head || va + size > d->limit) {
                d->bad_writes++;
                fprintf(stderr, "write at VA 0x%llx+%zu outside [0x%llx, 0x%llx)\n",
                        (unsigned long long)va, size, (unsigned long long)d->head,
                        (unsigned long long)d->limit);
            }
            return;
        }
    }
    d->bad_writes++;
    fprintf(stderr, "write at PA 0x%llx+%zu outside the buffer pages\n", (unsigned long long)pa,
            size);
}

static void sink(void *ctx, const uint8_t *record, size_t size)
{
    drv *d = ctx;
    if (d->sink_len + size > d->sink_cap) {
        d->sink_cap = (d->sink_len + size) * 2;
        d->sink_bytes = realloc(d->sink_bytes, d->sink_cap);
    }
    if (d->sink_count == d->sink_sizes_cap) {
        d->sink_sizes_cap = d->sink_sizes_cap ? d->sink_sizes_cap * 2 : 1024;
        d->sink_sizes = realloc(d->sink_sizes, d->sink_sizes_cap * sizeof *d->sink_sizes);
    }
    if (!d->sink_bytes || !d->sink_sizes) abort();
    memcpy(d->sink_bytes + d->sink_len, record, size);
    d->sink_len += size;
    d->sink_sizes[d->sink_count++] = size;
}

/* ---- packet walking (D18.1.1, D18.1.2) ---- */

/* Size of the packet at p (header and payload), with n bytes available;
 * 0 if it does not fit. */
static size_t packet_size(const uint8_t *p, size_t n)
{
    size_t len;
    if (p[0] < 0x20) {
        len = 1;
    } else if (p[0] < 0x40) {
        if (n < 2) return 0;
        len = 2 + ((size_t)1 << ((p[1] >> 4) & 3));
    } else {
        len = 1 + ((size_t)1 << ((p[0] >> 4) & 3));
    }
    return len <= n ? len : 0;
}

/* Walks the records in buf[0, n), which starts at a VA aligned to the record
 * alignment: each record is packets ending with an End packet (0x01) or a
 * Timestamp packet (0x71 + 8 bytes), then zero padding to the alignment.
 * Compares them with the next records the sink saw. */
static void consume(drv *d, uint64_t from, uint64_t to)
{
    CHECK(to >= from && to <= d->limit, "PMBPTR 0x%llx in [0x%llx, 0x%llx]", (unsigned long long)to,
          (unsigned long long)from, (unsigned long long)d->limit);
    if (to < from || to > d->limit) return;
    const size_t n = (size_t)(to - from);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) abort();
    read_va(d, from, buf, n);
    const size_t align = (size_t)1 << d->align_log2;
    size_t off = 0;
    while (off < n) {
        if (buf[off] == 0) { /* padding between records */
            off++;
            continue;
        }
        if ((from + off) % align) d->misaligned_records++;
        const size_t start = off;
        bool ended = false;
        while (off < n && !ended) {
            const size_t len = packet_size(buf + off, n - off);
            if (len == 0) break;
            ended = buf[off] == 0x01 || buf[off] == 0x71;
            off += len;
        }
        if (!ended) {
            d->split_records++; /* a record cut at PMBPTR (or the limit) */
            break;
        }
        /* the padding after the record: zero bytes to the alignment */
        while (off < n && (from + off) % align) {
            if (buf[off] != 0) d->bad_padding++;
            off++;
        }
        if ((from + off) % align) d->ptr_not_after_record++;
        d->parsed_records++;
        /* (b) the same bytes as the next record the sink saw */
        if (d->sink_next < d->sink_count) {
            const size_t sz = d->sink_sizes[d->sink_next++];
            if (sz != off - start || memcmp(d->sink_bytes + d->sink_pos, buf + start, sz) != 0)
                d->sink_mismatch++;
            d->sink_pos += sz;
        } else {
            d->sink_mismatch++;
        }
    }
    d->consumed_bytes += n;
    free(buf);
}

/* ---- the driver ---- */

static void build_tables(drv *d)
{
    /* The buffer pages, scattered: page i at a PA that is neither
     * contiguous nor in order. */
    for (unsigned i = 0; i < NPAGES; i++)
        d->page_pa[i] = 0x40000000ull + (uint64_t)((NPAGES - 1 - i) * 3 + (i & 1) * 100) * 4096;
    drv_s1_map_pages(d->mem, TABLE_PA, VA_BASE, d->page_pa, NPAGES);
}

static void firmware_and_hypervisor(drv *d)
{
    char err[128];
    CHECK(armprof_set_el(d->pe, 3, err, sizeof err), "%s", err);
    /* EL3: the Profiling Buffer belongs to Non-secure state. */
    uint64_t mdcr3 = mrs(d, "MDCR_EL3");
    mdcr3 &= ~(fld("MDCR_EL3", "NSPB", 3) | fld("MDCR_EL3", "NSPBE", 1));
    msr(d, "MDCR_EL3", mdcr3 | fld("MDCR_EL3", "NSPB", 3));
    CHECK(armprof_set_security_state(d->pe, ARMPROF_SS_NONSECURE, err, sizeof err), "%s", err);
    CHECK(armprof_set_el(d->pe, 2, err, sizeof err), "%s", err);
    /* EL2: the buffer belongs to EL1 (E2PB 0b10), event counters 0..5 to
     * EL1 and EL0 (HPMN 6); EL1 is AArch64, TGE 0, E2H 0. */
    uint64_t mdcr2 = mrs(d, "MDCR_EL2");
    mdcr2 &= ~(fld("MDCR_EL2", "E2PB", 3) | fld("MDCR_EL2", "HPMN", 31));
    msr(d, "MDCR_EL2", mdcr2 | fld("MDCR_EL2", "E2PB", 2) | fld("MDCR_EL2", "HPMN", 6));
    msr(d, "HCR_EL2", fld("HCR_EL2", "RW", 1));
    /* Physical addresses and CONTEXTIDR in records from EL1 and EL0. */
    msr(d, "PMSCR_EL2", fld("PMSCR_EL2", "PA", 1) | fld("PMSCR_EL2", "CX", 1));
    CHECK(armprof_set_el(d->pe, 1, err, sizeof err), "%s", err);
}

static void kernel_mmu_on(drv *d)
{
    build_tables(d);
    drv_s1_kernel_mmu_on(&d->cpu, TABLE_PA);
}

/* arm_spe_pmu_dev_init(): the probe. */
static void probe(drv *d)
{
    const uint64_t idr = mrs(d, "PMBIDR_EL1");
    CHECK(get_fld("PMBIDR_EL1", "P", idr) == 0, "PMBIDR_EL1.P: the buffer is usable from EL1");
    d->align_log2 = (unsigned)get_fld("PMBIDR_EL1", "Align", idr);
    CHECK(get_fld("PMBIDR_EL1", "F", idr) == 1, "F");
    const uint64_t sidr = mrs(d, "PMSIDR_EL1");
    d->max_size_log2 = (unsigned)get_fld("PMSIDR_EL1", "MaxSize", sidr);
    CHECK(d->max_size_log2 >= 6 && d->max_size_log2 <= 11, "MaxSize %u", d->max_size_log2);
    CHECK(d->align_log2 <= d->max_size_log2, "Align %u <= MaxSize", d->align_log2);
    static const unsigned intervals[] = {256, 512, 768, 1024, 1536, 2048, 3072, 4096};
    const unsigned icode = (unsigned)get_fld("PMSIDR_EL1", "Interval", sidr);
    CHECK(icode < 8 && intervals[icode] <= 256, "minimum interval code %u", icode);
    CHECK(get_fld("PMSIDR_EL1", "FE", sidr) == 1 && get_fld("PMSIDR_EL1", "FT", sidr) == 1 &&
              get_fld("PMSIDR_EL1", "FL", sidr) == 1,
          "filtering supported");
}

static void program_buffer(drv *d)
{
    const uint64_t base = VA_BASE + (uint64_t)d->region * REGION_SIZE;
    d->head = base;
    d->limit = base + REGION_SIZE;
    d->enabled = true;
    msr(d, "PMBPTR_EL1", base);
    msr(d, "PMBLIMITR_EL1", d->limit | fld("PMBLIMITR_EL1", "E", 1));
}

/* arm_spe_pmu_start() */
static void start(drv *d)
{
    d->region = 0;
    program_buffer(d);
    msr(d, "PMSFCR_EL1", 0);
    msr(d, "PMSEVFR_EL1", 0);
    msr(d, "PMSLATFR_EL1", 0);
    msr(d, "PMSIRR_EL1", fld("PMSIRR_EL1", "INTERVAL", 256 >> 8));
    /* isb() */
    msr(d, "PMSICR_EL1", 0);
    msr(d, "PMSCR_EL1",
        fld("PMSCR_EL1", "E0SPE", 1) | fld("PMSCR_EL1", "E1SPE", 1) | fld("PMSCR_EL1", "TS", 1) |
            fld("PMSCR_EL1", "PA", 1) | fld("PMSCR_EL1", "CX", 1));
}

/* arm_spe_pmu_irq_handler() with arm_spe_pmu_buf_get_fault_act(). */
static void pmbirq_handler(drv *d)
{
    char err[128];
    const unsigned el = armprof_current_el(d->pe);
    armprof_set_el(d->pe, 1, err, sizeof err); /* the interrupt is taken to EL1 */
    d->irqs++;
    armprof_psb_csync(d->pe);
    /* dsb(nsh); isb(): no effect in the model */
    const uint64_t sr = mrs(d, "PMBSR_EL1");
    CHECK(get_fld("PMBSR_EL1", "S", sr) == 1, "PMBIRQ with PMBSR_EL1.S 1");
    if (get_fld("PMBSR_EL1", "DL", sr)) d->truncated++;
    const unsigned ec = (unsigned)get_fld("PMBSR_EL1", "EC", sr);
    const unsigned bsc = (unsigned)(sr & 0x3f);
    const bool full = ec == 0 && bsc == 1 && !get_fld("PMBSR_EL1", "EA", sr);
    CHECK(full, "PMBSR_EL1 0x%llx: a buffer full event", (unsigned long long)sr);
    const uint64_t ptr = mrs(d, "PMBPTR_EL1");
    if (full) {
        d->full_events++;
        /* (d) D17.8.2: not enough room for a record of 2^MaxSize bytes, and
         * PMBPTR the first byte after the last complete record (consume()
         * checks that the data ends there). */
        CHECK(ptr <= d->limit && d->limit - ptr < (1ull << d->max_size_log2),
              "buffer full at PMBPTR 0x%llx, limit 0x%llx", (unsigned long long)ptr,
              (unsigned long long)d->limit);
        consume(d, d->head, ptr);
        d->region = (d->region + 1) % NREGIONS;
        program_buffer(d);
        /* isb() */
        msr(d, "PMBSR_EL1", 0);
    } else {
        /* EC 0x24/0x25 or anything else: fatal, stop profiling. */
        d->fatal++;
        msr(d, "PMSCR_EL1", 0);
        msr(d, "PMBLIMITR_EL1", 0);
        d->enabled = false;
        msr(d, "PMBSR_EL1", 0);
    }
    armprof_set_el(d->pe, el, err, sizeof err);
}

/* arm_spe_pmu_stop() */
static void stop(drv *d)
{
    msr(d, "PMSCR_EL1", 0);
    /* isb() */
    armprof_psb_csync(d->pe);
    /* dsb(nsh) */
    const uint64_t ptr = mrs(d, "PMBPTR_EL1");
    const uint64_t sr = mrs(d, "PMBSR_EL1");
    CHECK(get_fld("PMBSR_EL1", "S", sr) == 0, "no event pending at stop: 0x%llx",
          (unsigned long long)sr);
    consume(d, d->head, ptr);
    msr(d, "PMBLIMITR_EL1", 0);
    d->enabled = false;
    /* isb() */
}

static void run(unsigned held)
{
    armprof_config c;
    char err[256];
    armprof_config_preset(&c, "armv9.4-all");
    char buf[32];
    snprintf(buf, sizeof buf, "%u", SBF_EVENT);
    CHECK(armprof_config_set(&c, "event_number_SAMPLE_BUFFER_FULL", buf, err, sizeof err), "%s",
          err);
    CHECK(armprof_config_set(&c, "pmbidr_align", "4", err, sizeof err), "%s", err);
    CHECK(armprof_config_set(&c, "pmsidr_interval", "0", err, sizeof err), "%s", err);
    snprintf(buf, sizeof buf, "%u", held);
    CHECK(armprof_config_set(&c, "spe_held_records", buf, err, sizeof err), "%s", err);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return;

    drv d;
    memset(&d, 0, sizeof d);
    d.pe = pe;
    d.cpu.pe = pe;
    d.mem = armprof_pe_memory(pe);
    armprof_mem_set_observer(d.mem, observer, &d);
    armprof_spe_set_sink(pe, sink, &d);

    firmware_and_hypervisor(&d);
    kernel_mmu_on(&d);
    /* A PMU counter for SAMPLE_BUFFER_FULL, counting at EL0 and EL1. */
    msr(&d, "PMEVTYPER0_EL0", SBF_EVENT);
    msr(&d, "PMCNTENSET_EL0", 1);
    msr(&d, "PMCR_EL0", mrs(&d, "PMCR_EL0") | fld("PMCR_EL0", "E", 1));
    probe(&d);
    start(&d);
    CHECK(armprof_spe_buffer_enabled(pe), "the buffer is enabled after start");
    CHECK(armprof_spe_profiling_enabled(pe, 0) && armprof_spe_profiling_enabled(pe, 1),
          "profiling at EL0 and EL1");

    /* The workload: blocks of user (EL0) and kernel (EL1) code. */
    rng r = {0x9E3779B97F4A7C15ull ^ held};
    unsigned el = 1;
    uint64_t pc = 0, irq_stuck = 0;
    for (unsigned i = 0; i < NOPS; i++) {
        if (i % 997 == 0) {
            el = el == 1 ? 0 : 1;
            armprof_set_el(pe, el, err, sizeof err);
            pc = el ? 0xffff800008010000ull : 0x400000ull;
        }
        const uint64_t x = rnd(&r);
        armprof_op op;
        memset(&op, 0, sizeof op);
        op.pc = pc;
        op.total_latency = 5 + (uint32_t)(x >> 58);
        op.issue_latency = 1 + (uint32_t)((x >> 52) & 7);
        switch (x & 7) {
        case 0:
        case 1:
        case 2:
            op.op_class = ARMPROF_OP_LOAD;
            op.vaddr = (el ? 0xffff000020000000ull : 0x7ff000000ull) + ((x >> 8) & 0xfff8);
            op.paddr = 0x60000000ull + ((x >> 8) & 0xfff8);
            op.l1d_access = true;
            op.l1d_refill = (x >> 20) & 1;
            op.translation_latency = 2;
            break;
        case 3:
        case 4:
            op.op_class = ARMPROF_OP_STORE;
            op.vaddr = (el ? 0xffff000020000000ull : 0x7ff000000ull) + ((x >> 8) & 0xfff8);
            op.paddr = 0x60000000ull + ((x >> 8) & 0xfff8);
            op.l1d_access = true;
            break;
        case 5:
            op.op_class = ARMPROF_OP_BRANCH;
            op.taken = (x >> 9) & 1;
            op.conditional = true;
            op.mispredicted = ((x >> 10) & 15) == 0;
            op.target = pc + 4 * (int64_t)((x >> 12) & 0x3f) - 64;
            break;
        default:
            op.op_class = ARMPROF_OP_OTHER;
            op.fp = (x >> 9) & 1;
            break;
        }
        armprof_set_physical_count(pe, 1000000 + (uint64_t)i * 3);
        armprof_retire(pe, &op);
        armprof_cycles(pe, 1);
        pc = op.op_class == ARMPROF_OP_BRANCH && op.taken ? op.target : pc + 4;
        if (armprof_pmbirq(pe)) pmbirq_handler(&d);
        if (armprof_pmbirq(pe)) irq_stuck++;
    }
    CHECK(irq_stuck == 0, "PMBIRQ stayed high after the handler %llu times",
          (unsigned long long)irq_stuck);
    armprof_set_el(pe, 1, err, sizeof err);
    stop(&d);
    armprof_cycles(pe, 1);

    const armprof_spe_stats s = armprof_spe_get_stats(pe);
    const uint64_t sbf_count = mrs(&d, "PMEVCNTR0_EL0");
    printf("held %u: %llu operations, population %llu, selected %llu, records %llu "
           "(%llu bytes), %llu buffer full events, %llu hypervisor traps\n",
           held, (unsigned long long)NOPS, (unsigned long long)s.population,
           (unsigned long long)s.selected, (unsigned long long)s.records,
           (unsigned long long)s.bytes, (unsigned long long)d.full_events,
           (unsigned long long)d.cpu.traps);

    /* (a) every sample accounted for */
    CHECK(s.population == NOPS, "every operation at EL0/EL1 is in the population: %llu",
          (unsigned long long)s.population);
    CHECK(s.selected > 500, "a few hundred samples at least: %llu", (unsigned long long)s.selected);
    CHECK(s.filtered == s.selected, "no filter: every sample passes (%llu, %llu)",
          (unsigned long long)s.filtered, (unsigned long long)s.selected);
    CHECK(s.discarded == 0, "no Discard mode");
    CHECK(s.records == s.filtered - s.discarded, "a record for each sample kept: %llu vs %llu",
          (unsigned long long)s.records, (unsigned long long)(s.filtered - s.discarded));
    CHECK(s.written == s.records && s.lost == 0 && s.held == 0,
          "all written: written %llu lost %llu held %llu of %llu", (unsigned long long)s.written,
          (unsigned long long)s.lost, (unsigned long long)s.held, (unsigned long long)s.records);
    CHECK(d.parsed_records == s.records, "records parsed out of memory %llu == %llu",
          (unsigned long long)d.parsed_records, (unsigned long long)s.records);
    CHECK(d.full_events >= 10, "many buffer full events: %llu", (unsigned long long)d.full_events);
    CHECK(d.irqs == d.full_events && d.fatal == 0, "irqs %llu, fatal %llu",
          (unsigned long long)d.irqs, (unsigned long long)d.fatal);
    CHECK(s.management_events == d.full_events, "management events %llu",
          (unsigned long long)s.management_events);
    CHECK(sbf_count == d.full_events, "SAMPLE_BUFFER_FULL counted %llu, interrupts %llu",
          (unsigned long long)sbf_count, (unsigned long long)d.full_events);
    CHECK(d.truncated == 0, "no data loss");
    CHECK(d.cpu.traps > 0, "E2PB 0b10 traps EL1's buffer register accesses to EL2");
    /* (b) memory holds the sink's records, in order, and nothing else */
    CHECK(d.sink_count == s.records, "sink saw %zu records", d.sink_count);
    CHECK(d.sink_next == d.sink_count && d.sink_pos == d.sink_len,
          "every sink record matched: %zu of %zu", d.sink_next, d.sink_count);
    CHECK(d.sink_mismatch == 0, "%llu records differ from the sink's",
          (unsigned long long)d.sink_mismatch);
    CHECK(d.consumed_bytes == s.written_bytes && d.observed_bytes == s.written_bytes &&
              s.bytes == s.written_bytes,
          "bytes: consumed %llu observed %llu written %llu constructed %llu",
          (unsigned long long)d.consumed_bytes, (unsigned long long)d.observed_bytes,
          (unsigned long long)s.written_bytes, (unsigned long long)s.bytes);
    /* (c) */
    CHECK(d.bad_writes == 0, "%llu writes outside [PMBPTR at enable, limit)",
          (unsigned long long)d.bad_writes);
    CHECK(d.bad_pas == 0, "%llu writes outside the Non-secure PAS", (unsigned long long)d.bad_pas);
    /* (d) and the record framing */
    CHECK(d.split_records == 0, "%llu records cut at PMBPTR", (unsigned long long)d.split_records);
    CHECK(d.misaligned_records == 0 && d.bad_padding == 0 && d.ptr_not_after_record == 0,
          "alignment: misaligned %llu, nonzero padding %llu, PMBPTR inside padding %llu",
          (unsigned long long)d.misaligned_records, (unsigned long long)d.bad_padding,
          (unsigned long long)d.ptr_not_after_record);

    free(d.sink_bytes);
    free(d.sink_sizes);
    armprof_pe_destroy(pe);
}

int main(void)
{
    run(0);
    run(8);
    return check_summary();
}
