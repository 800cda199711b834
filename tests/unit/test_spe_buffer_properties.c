/* SPDX-License-Identifier: BSD-3-Clause */
/* Randomized property tests of the Profiling Buffer (D17.7, D17.8, D17.9).
 *
 * A fixed-seed xorshift generator draws RUNS configurations, each run
 * retiring a few thousand operations: buffer placement, size and pointer
 * (sometimes breaking RHXSYK or RHLXGD), PMBIDR_EL1.Align, PMSIDR_EL1.MaxSize,
 * spe_held_records, Unpredictable_SPE_BADPTR, nVM (FEAT_SPE_nVM with
 * PMSCR_EL2.EnVM), the owning Exception level (MDCR_EL2.E2PB, HCR_EL2.E2H,
 * SCR_EL3.EEL2) and Security state (MDCR_EL3.NSPB), stage 1 disabled or an
 * identity map (so that VA == PA), and, during the run, the current EL and
 * Security state, the PMSCR_EL1/EL2 enables, PSB CSYNC, writes to PMSICR_EL1
 * (to sample often) and software clearing PMBSR_EL1.S (sometimes moving
 * PMBPTR_EL1). The memory observer sees every write the SPU makes.
 *
 * Properties:
 * P1 (D17.8 "The SPU never writes past the PMBLIMITR_EL1 limit pointer",
 *    D17.8.2 "The SPU never writes beyond the write limit pointer"): every
 *    byte written is below the limit and at or above the PMBPTR_EL1 value
 *    software last wrote (writes go up from there).
 * P2 (D17.7.5: the buffer is enabled only in the owning Security state, and
 *    StatisticalProfilingEnabled() needs ProfilingBufferEnabled()): with no
 *    held records, no byte is written during an operation retired while the
 *    PE is in a Security state other than the owning one.
 * P3 (StatisticalProfilingEnabled(), D17.9 "If the PE takes an exception to
 *    an Exception level where profiling is disabled, no new operations are
 *    selected for sampling"): with no held records, nothing is written during
 *    an operation retired at an EL where profiling is disabled; and with no
 *    held records, writes happen only inside armprof_retire() (the record is
 *    written when its sample completes).
 * P4 (D17.7.5 the owning translation regime; D17.7.2 with nVM: "Physical
 *    addresses in the owning Security state"): every write is to the owning
 *    Security state's physical address space.
 * P5 (accounting): stats.written + stats.lost + stats.held == stats.records
 *    after every step.
 * P6 (D17.9 RTRDTK, IMLGHW: PSB CSYNC synchronizes the profiling operations
 *    of earlier instructions; with PMSCR_EL1 and PMSCR_EL2 0 nothing is
 *    sampled): after PMSCR_EL1 = PMSCR_EL2 = 0 and PSB CSYNC no write reaches
 *    memory, whatever the PE does next. */
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "drv/drv_regs.h"
#include "drv/drv_rng.h"

#define RUNS       300u
#define OPS        2500u
#define STOP_OPS   200u
#define MEM_BASE   0x10000000ull /* the identity map covers [MEM_BASE, MEM_BASE + 4MB) */
#define MEM_SIZE   0x400000ull
#define TABLE_BASE 0x20000000ull

typedef struct run_ctx {
    armprof_pe *pe;
    unsigned run;
    unsigned held; /* spe_held_records */
    int owning_pas;
    /* what the PE is doing while a write arrives */
    bool in_retire;
    bool retire_ss_owning;                 /* CurrentSecurityState() == owning Security state */
    bool retire_el_enabled;                /* StatisticalProfilingEnabled(current EL) */
    bool stopped;                          /* after PMSCR_EL1 = PMSCR_EL2 = 0 and PSB CSYNC */
    uint64_t sw_ptr;                       /* PMBPTR_EL1 as software last wrote it */
    int id_pmblimitr, id_pmbsr, id_pmsicr; /* register ids looked up once */
    /* violations */
    uint64_t p1, p2, p3, p3_outside, p4, p5, p6;
} run_ctx;

typedef struct totals {
    uint64_t runs, skipped, ops, records, written, lost, written_bytes, buffer_full, other_events;
    uint64_t held_runs, badptr_runs, nvm_runs, secure_runs, el2_owned_runs, s1_runs;
    uint64_t p1, p2, p3, p3_outside, p4, p5, p6;
} totals;

static void observer(void *ctx, int pas, uint64_t pa, const uint8_t *data, size_t size,
                     const armprof_mem_attrs *attrs)
{
    run_ctx *c = ctx;
    (void)data;
    (void)attrs;
    const uint64_t limit = armprof_reg_get(c->pe, c->id_pmblimitr, 0) & ~0xFFFull;
    /* P1: VA == PA (identity map or stage 1 disabled). */
    if (pa + size > limit || pa < c->sw_ptr) {
        if (c->p1++ == 0)
            fprintf(stderr, "run %u: P1: write 0x%llx+%zu outside [0x%llx, 0x%llx)\n", c->run,
                    (unsigned long long)pa, size, (unsigned long long)c->sw_ptr,
                    (unsigned long long)limit);
    }
    if (pas != c->owning_pas) {
        if (c->p4++ == 0)
            fprintf(stderr, "run %u: P4: write in PAS %d, owner's is %d\n", c->run, pas,
                    c->owning_pas);
    }
    if (c->held == 0) {
        if (!c->in_retire) {
            if (c->p3_outside++ == 0)
                fprintf(stderr, "run %u: a write outside armprof_retire() with no held records\n",
                        c->run);
        } else {
            if (!c->retire_ss_owning && c->p2++ == 0)
                fprintf(stderr, "run %u: P2: write during an operation in a non-owning SS\n",
                        c->run);
            if (!c->retire_el_enabled && c->p3++ == 0)
                fprintf(stderr, "run %u: P3: write during an operation at a disabled EL (EL%u)\n",
                        c->run, armprof_current_el(c->pe));
        }
    }
    if (c->stopped && c->p6++ == 0)
        fprintf(stderr, "run %u: P6: write after PMSCR = 0 and PSB CSYNC\n", c->run);
}

/* Identity map of [MEM_BASE, MEM_BASE + 4MB) with 2MB blocks, 4KB granule,
 * T0SZ 16: L0[0] -> L1, L1[0] -> L2, L2[i] blocks. Written to the Secure and
 * the Non-secure PAS (a Secure walk reads the Secure one); NS 0 in the
 * blocks, so a Secure regime outputs Secure PAs. */
static void build_identity_map(armprof_mem *mem)
{
    const uint64_t l0 = TABLE_BASE, l1 = TABLE_BASE + 0x1000, l2 = TABLE_BASE + 0x2000;
    for (int pas = ARMPROF_PAS_NONSECURE; pas <= ARMPROF_PAS_SECURE; pas++) {
        armprof_mem_write64(mem, pas, l0 + 8 * ((MEM_BASE >> 39) & 0x1ff), l1 | 3);
        armprof_mem_write64(mem, pas, l1 + 8 * ((MEM_BASE >> 30) & 0x1ff), l2 | 3);
        for (uint64_t a = MEM_BASE; a < MEM_BASE + MEM_SIZE; a += 0x200000)
            /* block: OA | AF | SH Inner | AP 0b00 | AttrIndx 0 | 0b01 */
            armprof_mem_write64(mem, pas, l2 + 8 * ((a >> 21) & 0x1ff), a | 1u << 10 | 3u << 8 | 1);
    }
}

static void set_translation(armprof_pe *pe, rng *r, bool e2h, totals *t)
{
    const bool s1 = chance(r, 2);
    t->s1_runs += s1;
    /* TCR_EL1 (and TCR_EL2 with E2H 1): T0SZ 16, IRGN0/ORGN0 WB, SH0 Inner,
     * TG0 4KB, EPD1, IPS 48 bits. */
    const uint64_t tcr = 16 | 1u << 8 | 1u << 10 | 3u << 12 | 1u << 23 | 5ull << 32;
    /* TCR_EL2 with E2H 0: T0SZ 16, IRGN0/ORGN0, SH0, TG0 4KB, PS 48 bits. */
    const uint64_t tcr_el2 = 16 | 1u << 8 | 1u << 10 | 3u << 12 | 5u << 16;
    drv_set(pe, "TCR_EL1", tcr);
    drv_set(pe, "TCR_EL2", e2h ? tcr : tcr_el2);
    drv_set(pe, "TTBR0_EL1", TABLE_BASE);
    drv_set(pe, "TTBR0_EL2", TABLE_BASE);
    drv_set(pe, "MAIR_EL1", 0xFF);
    drv_set(pe, "MAIR_EL2", 0xFF);
    drv_set_field(pe, "SCTLR_EL1", "M", s1);
    drv_set_field(pe, "SCTLR_EL2", "M", s1);
}

/* Programs PMBPTR_EL1 (and sometimes the limit): mostly within the rules,
 * sometimes breaking RHXSYK (too close to the limit, other top byte) or
 * RHLXGD (misaligned). */
static void program_pointer(run_ctx *c, rng *r, uint64_t base, uint64_t limit, unsigned align)
{
    uint64_t ptr = base + (rnd(r) % (limit - base));
    switch (below(r, 8)) {
    case 0: /* misaligned */
        ptr |= 1;
        break;
    case 1: /* within 2^MaxSize of the limit */
        ptr = limit - 1 - below(r, 512);
        if (ptr < base) ptr = base;
        break;
    case 2: /* another top byte */
        if (chance(r, 4)) ptr |= 1ull << 56;
        break;
    default:
        ptr &= ~((1ull << align) - 1);
        break;
    }
    drv_set(c->pe, "PMBPTR_EL1", ptr);
    c->sw_ptr = ptr;
}

static void random_context(armprof_pe *pe, rng *r)
{
    char err[128];
    armprof_set_security_state(pe, chance(r, 3) ? ARMPROF_SS_SECURE : ARMPROF_SS_NONSECURE, err,
                               sizeof err);
    static const unsigned els[] = {0, 0, 1, 1, 1, 2, 2, 3};
    if (!armprof_set_el(pe, els[below(r, 8)], err, sizeof err))
        armprof_set_el(pe, 1, err, sizeof err);
}

static void random_enables(armprof_pe *pe, rng *r)
{
    drv_set_field(pe, "PMSCR_EL1", "E0SPE", !chance(r, 4));
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", !chance(r, 4));
    drv_set_field(pe, "PMSCR_EL2", "E0HSPE", !chance(r, 3));
    drv_set_field(pe, "PMSCR_EL2", "E2SPE", !chance(r, 3));
}

static void check_accounting(run_ctx *c)
{
    const armprof_spe_stats s = armprof_spe_get_stats(c->pe);
    if (s.written + s.lost + s.held != s.records && c->p5++ == 0)
        fprintf(stderr, "run %u: P5: written %llu + lost %llu + held %llu != records %llu\n",
                c->run, (unsigned long long)s.written, (unsigned long long)s.lost,
                (unsigned long long)s.held, (unsigned long long)s.records);
}

static void retire_one(run_ctx *c, rng *r)
{
    armprof_pe *pe = c->pe;
    armprof_op op;
    memset(&op, 0, sizeof op);
    const uint64_t x = rnd(r);
    op.pc = 0x400000 + ((x >> 8) & 0xffffc);
    op.total_latency = 3 + (uint32_t)(x >> 59);
    op.op_class = (armprof_op_class)(x & 3);
    if (op.op_class == ARMPROF_OP_LOAD || op.op_class == ARMPROF_OP_STORE) {
        op.vaddr = 0x7000000 + ((x >> 20) & 0xfff8);
        op.paddr = op.vaddr;
        op.l1d_access = true;
    } else if (op.op_class == ARMPROF_OP_BRANCH) {
        op.taken = (x >> 30) & 1;
        op.target = op.pc + 64;
    }
    armprof_security_state owner_ss;
    armprof_spe_buffer_owner(pe, &owner_ss, NULL);
    const unsigned el = armprof_current_el(pe);
    c->retire_ss_owning = armprof_current_security_state(pe) == owner_ss;
    c->retire_el_enabled = armprof_spe_profiling_enabled(pe, el);
    c->in_retire = true;
    armprof_retire(pe, &op);
    c->in_retire = false;
    check_accounting(c);
}

static void one_run(unsigned run, rng *r, totals *t)
{
    armprof_config cfg;
    char err[256], v[32];
    armprof_config_preset(&cfg, "armv9.4-all");
    const unsigned maxsize = 7 + below(r, 5); /* 7..11 */
    const unsigned align = below(r, 3) == 0 ? 0 : below(r, maxsize + 1);
    static const unsigned helds[] = {0, 0, 0, 0, 1, 4, 8, 16};
    const unsigned held = helds[below(r, 8)];
    const unsigned badptr = below(r, 6);
    const bool nvm_feature = !chance(r, 4);
#define SETOPT(name, val)                                                                          \
    do {                                                                                           \
        snprintf(v, sizeof v, "%u", (unsigned)(val));                                              \
        CHECK(armprof_config_set(&cfg, name, v, err, sizeof err), "%s", err);                      \
    } while (0)
    SETOPT("pmsidr_maxsize", maxsize);
    SETOPT("pmbidr_align", align);
    SETOPT("spe_held_records", held);
    SETOPT("Unpredictable_SPE_BADPTR", badptr);
    SETOPT("spe_random_seed", run + 1);
#undef SETOPT
    CHECK(armprof_config_set(&cfg, "FEAT_SPE_nVM", nvm_feature ? "on" : "off", err, sizeof err),
          "%s", err);
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) { /* a record can be larger than 2^MaxSize, or a feature conflict */
        t->skipped++;
        return;
    }
    run_ctx c;
    memset(&c, 0, sizeof c);
    c.pe = pe;
    c.run = run;
    c.held = held;
    unsigned idx = 0;
    c.id_pmblimitr = drv_reg("PMBLIMITR_EL1", &idx);
    c.id_pmbsr = drv_reg("PMBSR_EL1", &idx);
    c.id_pmsicr = drv_reg("PMSICR_EL1", &idx);
    armprof_mem *mem = armprof_pe_memory(pe);
    build_identity_map(mem);
    armprof_mem_set_observer(mem, observer, &c);

    /* Owner: MDCR_EL3.NSPB 0b0x Secure, 0b1x Non-secure (NSPBE 0). */
    const unsigned nspb = below(r, 4);
    const bool secure_owner = nspb < 2;
    c.owning_pas = secure_owner ? ARMPROF_PAS_SECURE : ARMPROF_PAS_NONSECURE;
    drv_set_field(pe, "MDCR_EL3", "NSPBE", 0);
    drv_set_field(pe, "MDCR_EL3", "NSPB", nspb);
    drv_set_field(pe, "SCR_EL3", "EEL2", chance(r, 2));
    static const unsigned e2pbs[] = {0, 2, 3};
    drv_set_field(pe, "MDCR_EL2", "E2PB", e2pbs[below(r, 3)]);
    const bool e2h = chance(r, 2);
    drv_set_field(pe, "HCR_EL2", "E2H", e2h);
    drv_set_field(pe, "HCR_EL2", "TGE", 0);
    drv_set_field(pe, "HCR_EL2", "VM", 0);
    drv_set_field(pe, "HCR_EL2", "RW", 1);
    set_translation(pe, r, e2h, t);
    if (nvm_feature) {
        drv_set_field(pe, "PMSCR_EL2", "EnVM", chance(r, 2));
        drv_set_field(pe, "PMBMAR_EL1", "SH", 3);
    }
    drv_set_field(pe, "PMSCR_EL1", "TS", chance(r, 2));
    drv_set_field(pe, "PMSCR_EL1", "PA", chance(r, 2));
    drv_set_field(pe, "PMSCR_EL2", "PA", chance(r, 2));
    drv_set(pe, "PMSIRR_EL1", 1u << 8); /* INTERVAL 256; PMSICR_EL1 writes sample sooner */
    drv_set(pe, "PMSICR_EL1", 0);
    drv_set(pe, "PMSFCR_EL1", 0);
    drv_set(pe, "PMBSR_EL1", 0);

    /* The buffer: 1 to 8 pages somewhere in the identity-mapped range. */
    const uint64_t base = MEM_BASE + (uint64_t)below(r, 512) * 4096;
    const uint64_t limit = base + (uint64_t)(1 + below(r, 8)) * 4096;
    const bool nvm = nvm_feature && chance(r, 3);
    drv_set(pe, "PMBLIMITR_EL1", limit);
    if (nvm) drv_set_field(pe, "PMBLIMITR_EL1", "nVM", 1);
    program_pointer(&c, r, base, limit, align);
    drv_set_field(pe, "PMBLIMITR_EL1", "E", 1);

    random_context(pe, r);
    random_enables(pe, r);
    armprof_security_state owner_ss;
    unsigned owner_el = 0;
    armprof_spe_buffer_owner(pe, &owner_ss, &owner_el);
    CHECK(owner_ss == (secure_owner ? ARMPROF_SS_SECURE : ARMPROF_SS_NONSECURE),
          "run %u: owner %d from NSPB %u", run, (int)owner_ss, nspb);

    t->runs++;
    t->held_runs += held != 0;
    t->badptr_runs += badptr != 1;
    t->nvm_runs += nvm;
    t->secure_runs += secure_owner;
    t->el2_owned_runs += owner_el == 2;

    uint64_t last_sr = 0;
    for (unsigned i = 0; i < OPS; i++) {
        if (chance(r, 16)) random_context(pe, r);
        if (chance(r, 64)) random_enables(pe, r);
        if (chance(r, 3)) armprof_reg_set(pe, c.id_pmsicr, 0, 1); /* the next one is sampled */
        if (chance(r, 50)) {
            c.in_retire = false;
            armprof_psb_csync(pe);
            check_accounting(&c);
        }
        const uint64_t sr = armprof_reg_get(pe, c.id_pmbsr, 0);
        if ((sr >> 17 & 1) && !(last_sr >> 17 & 1)) {
            if (((sr >> 26) & 0x3f) == 0 && (sr & 0x3f) == 1)
                t->buffer_full++;
            else
                t->other_events++;
        }
        last_sr = sr;
        if ((sr >> 17 & 1) && chance(r, 20)) {
            /* The handler: PSB CSYNC, then maybe a new pointer, PMBSR = 0. */
            armprof_psb_csync(pe);
            check_accounting(&c);
            if (chance(r, 2)) program_pointer(&c, r, base, limit, align);
            drv_set(pe, "PMBSR_EL1", 0);
            last_sr = 0;
        }
        retire_one(&c, r);
    }

    /* P6: disable sampling at every EL, PSB CSYNC, then nothing more. */
    drv_set(pe, "PMSCR_EL1", 0);
    drv_set(pe, "PMSCR_EL2", 0);
    armprof_psb_csync(pe);
    check_accounting(&c);
    c.stopped = true;
    for (unsigned i = 0; i < STOP_OPS; i++) {
        if (chance(r, 8)) random_context(pe, r);
        if (chance(r, 2)) armprof_reg_set(pe, c.id_pmsicr, 0, 1);
        if (chance(r, 10)) drv_set(pe, "PMBSR_EL1", 0);
        if (chance(r, 10)) armprof_psb_csync(pe);
        retire_one(&c, r);
    }

    const armprof_spe_stats s = armprof_spe_get_stats(pe);
    CHECK(drv_get_field(pe, "PMBLIMITR_EL1", "E") == 1, "run %u: E still set", run);
    t->ops += OPS + STOP_OPS;
    t->records += s.records;
    t->written += s.written;
    t->lost += s.lost;
    t->written_bytes += s.written_bytes;
    t->p1 += c.p1;
    t->p2 += c.p2;
    t->p3 += c.p3;
    t->p3_outside += c.p3_outside;
    t->p4 += c.p4;
    t->p5 += c.p5;
    t->p6 += c.p6;
    armprof_pe_destroy(pe);
}

int main(void)
{
    rng r = {0x2545F4914F6CDD1Dull};
    totals t;
    memset(&t, 0, sizeof t);
    for (unsigned run = 0; run < RUNS; run++)
        one_run(run, &r, &t);

    printf("%llu runs (%llu configurations rejected), %llu operations, %llu records, %llu "
           "written (%llu bytes), %llu lost, %llu buffer full events, %llu other management "
           "events\n",
           (unsigned long long)t.runs, (unsigned long long)t.skipped, (unsigned long long)t.ops,
           (unsigned long long)t.records, (unsigned long long)t.written,
           (unsigned long long)t.written_bytes, (unsigned long long)t.lost,
           (unsigned long long)t.buffer_full, (unsigned long long)t.other_events);
    printf("runs with: held records %llu, Secure owner %llu, EL2 owner %llu, nVM %llu, stage 1 "
           "%llu, BADPTR other than 1 %llu\n",
           (unsigned long long)t.held_runs, (unsigned long long)t.secure_runs,
           (unsigned long long)t.el2_owned_runs, (unsigned long long)t.nvm_runs,
           (unsigned long long)t.s1_runs, (unsigned long long)t.badptr_runs);

    /* The generator must have reached the cases the properties are about. */
    CHECK(t.runs >= RUNS * 3 / 4, "most configurations accepted: %llu", (unsigned long long)t.runs);
    CHECK(t.written > 10000, "records written: %llu", (unsigned long long)t.written);
    CHECK(t.buffer_full > 100, "buffer full events: %llu", (unsigned long long)t.buffer_full);
    CHECK(t.held_runs > 30 && t.secure_runs > 30 && t.el2_owned_runs > 10 && t.nvm_runs > 10,
          "coverage");

    CHECK(t.p1 == 0, "P1: %llu writes outside [software PMBPTR, limit)", (unsigned long long)t.p1);
    CHECK(t.p2 == 0, "P2: %llu writes in a non-owning Security state", (unsigned long long)t.p2);
    CHECK(t.p3 == 0, "P3: %llu writes at a disabled EL", (unsigned long long)t.p3);
    CHECK(t.p3_outside == 0, "P3: %llu writes outside a retire with no held records",
          (unsigned long long)t.p3_outside);
    CHECK(t.p4 == 0, "P4: %llu writes outside the owner's PAS", (unsigned long long)t.p4);
    CHECK(t.p5 == 0, "P5: %llu accounting mismatches", (unsigned long long)t.p5);
    CHECK(t.p6 == 0, "P6: %llu writes after PMSCR = 0 and PSB CSYNC", (unsigned long long)t.p6);
    return check_summary();
}
