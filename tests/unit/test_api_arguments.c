/* SPDX-License-Identifier: BSD-3-Clause */
/* The public functions with arguments out of range or NULL (issue 15,
 * part 7): each gives the result its header documents instead of aliasing
 * another argument (el & 3, pas & 3, another register's encoding) or
 * reading past a table. */
#include <stdint.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "drv/drv_regs.h"

static void config_has(void)
{
    armprof_config c;
    armprof_config_preset(&c, "minimal");
    /* Every bit of the feature words set: a feature number past the count
     * would read one of them (1000 / 64 is past the array). */
    memset(c.features, 0xff, sizeof c.features);
    CHECK(armprof_config_has(&c, ARMPROF_FEAT_AA64), "a feature that is on");
    CHECK(!armprof_config_has(&c, ARMPROF_FEAT_COUNT), "ARMPROF_FEAT_COUNT is not a feature");
    CHECK(!armprof_config_has(&c, (armprof_feature)(ARMPROF_FEAT_CAPACITY - 1)),
          "a free slot is not a feature");
    CHECK(!armprof_config_has(&c, (armprof_feature)1000), "feature 1000");
    CHECK(!armprof_config_has(&c, (armprof_feature)-1), "feature -1");
}

/* A PE with AArch32 at EL1 and EL0: el 5 used to answer for EL1 (5 & 3). */
static void el_using_aarch32(void)
{
    armprof_config c;
    char err[128];
    armprof_config_preset(&c, "armv9.4-all");
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "create: %s", err);
    if (!pe) return;
    CHECK(armprof_set_el(pe, 0, err, sizeof err), "EL0: %s", err);
    CHECK(armprof_set_aarch32(pe, 1, true, err, sizeof err), "AArch32 EL1: %s", err);
    CHECK(armprof_el_using_aarch32(pe, 1) && armprof_el_using_aarch32(pe, 0), "EL1, EL0 AArch32");
    CHECK(!armprof_el_using_aarch32(pe, 3), "EL3 is AArch64");
    for (unsigned el = 4; el < 12; el++)
        CHECK(!armprof_el_using_aarch32(pe, el), "EL%u is not an Exception level", el);
    CHECK(!armprof_el_using_aarch32(pe, ~0u), "EL 0xffffffff");
    CHECK(!armprof_set_aarch32(pe, 5, false, err, sizeof err), "set_aarch32 at EL5 accepted");
    CHECK(armprof_el_using_aarch32(pe, 1), "EL5's refusal left EL1 alone");
    armprof_pe_destroy(pe);
}

/* The register table: an index past a register's instances is not another
 * register's encoding or a name the table does not have. */
static void reg_index(void)
{
    unsigned idx = 99;
    const int cnt = armprof_reg_lookup("PMEVCNTR0_EL0", &idx);
    const int pmscr = armprof_reg_lookup("PMSCR_EL1", &idx);
    const int alias = armprof_reg_lookup("PMSCR_EL12", &idx);
    CHECK(cnt >= 0 && pmscr >= 0 && alias >= 0, "lookups %d %d %d", cnt, pmscr, alias);
    if (cnt < 0 || pmscr < 0 || alias < 0) return;
    const unsigned n = armprof_reg_instances(cnt);
    CHECK(n == 31, "PMEVCNTR<n>_EL0 has %u instances", n);
    CHECK(armprof_reg_encoding(cnt, 0) == armprof_sysreg_encoding(3, 3, 14, 8, 0), "PMEVCNTR0");
    CHECK(armprof_reg_encoding(cnt, n - 1) == armprof_sysreg_encoding(3, 3, 14, 11, 6),
          "PMEVCNTR30");
    CHECK(armprof_reg_encoding(cnt, n) == 0, "PMEVCNTR31_EL0 gave 0x%x",
          armprof_reg_encoding(cnt, n));
    /* PMEVTYPER<n>_EL0 index 31 would be PMCCFILTR_EL0's encoding. */
    const int typer = armprof_reg_lookup("PMEVTYPER0_EL0", &idx);
    const int ccfiltr = armprof_reg_lookup("PMCCFILTR_EL0", &idx);
    CHECK(typer >= 0 && ccfiltr >= 0, "lookups %d %d", typer, ccfiltr);
    CHECK(armprof_reg_encoding(ccfiltr, 0) == armprof_sysreg_encoding(3, 3, 14, 15, 7),
          "PMCCFILTR_EL0");
    CHECK(armprof_reg_encoding(typer, 30) == armprof_sysreg_encoding(3, 3, 14, 15, 6),
          "PMEVTYPER30_EL0");
    CHECK(armprof_reg_encoding(typer, 31) == 0, "PMEVTYPER31_EL0 gave 0x%x",
          armprof_reg_encoding(typer, 31));
    CHECK(armprof_reg_encoding(cnt, 1000) == 0, "index 1000");
    CHECK(armprof_reg_encoding(pmscr, 0) == armprof_sysreg_encoding(3, 0, 9, 9, 0), "PMSCR_EL1");
    CHECK(armprof_reg_encoding(pmscr, 1) == 0, "PMSCR_EL1 has one instance");
    CHECK(armprof_reg_encoding(alias, 0) == armprof_sysreg_encoding(3, 5, 9, 9, 0), "PMSCR_EL12");
    CHECK(armprof_reg_encoding(alias, 1) == 0, "PMSCR_EL12 has one encoding");
    CHECK(armprof_reg_encoding(-1, 0) == 0 && armprof_reg_encoding(1 << 20, 0) == 0,
          "unknown register");

    char buf[64];
    const char *nm = armprof_reg_instance_name(cnt, 30, buf, sizeof buf);
    CHECK(nm && !strcmp(nm, "PMEVCNTR30_EL0"), "instance 30: %s", nm ? nm : "NULL");
    CHECK(armprof_reg_instance_name(cnt, 31, buf, sizeof buf) == NULL, "instance 31 has a name");
    CHECK(armprof_reg_instance_name(cnt, 0, NULL, 0) == NULL, "an indexed name with no buffer");
    CHECK(armprof_reg_instance_name(cnt, 0, buf, 0) == NULL, "an indexed name in 0 bytes");
    nm = armprof_reg_instance_name(pmscr, 0, NULL, 0);
    CHECK(nm && !strcmp(nm, "PMSCR_EL1"), "a plain name needs no buffer");
    CHECK(armprof_reg_instance_name(pmscr, 1, buf, sizeof buf) == NULL, "PMSCR_EL1 instance 1");

    /* External offsets: no location is at UINT32_MAX. */
    int ext = -1;
    for (int r = 0; r < (int)armprof_ext_reg_count(); r++)
        if (armprof_ext_reg_instances(r) > 1 && armprof_ext_reg_component(r) == ARMPROF_EXT_PMU)
            ext = r;
    CHECK(ext >= 0, "an indexed external register");
    if (ext >= 0) {
        const unsigned en = armprof_ext_reg_instances(ext);
        CHECK(armprof_ext_reg_offset(ext, en - 1) != UINT32_MAX, "last instance");
        CHECK(armprof_ext_reg_offset(ext, en) == UINT32_MAX, "%s instance %u at 0x%x",
              armprof_ext_reg_name(ext), en, armprof_ext_reg_offset(ext, en));
    }
    CHECK(armprof_ext_reg_offset(-1, 0) == UINT32_MAX, "unknown external register");
    CHECK(armprof_ext_reg_offset((int)armprof_ext_reg_count(), 0) == UINT32_MAX,
          "unknown external register");
}

/* The memory functions with a physical address space outside armprof_pas:
 * 4 used to be Non-secure (4 & 3), -1 Root. */
static void memory_pas(void)
{
    armprof_mem *mem = armprof_mem_create();
    CHECK(mem != NULL, "mem_create");
    if (!mem) return;
    const uint64_t pa = 0x8000;
    for (int pas = ARMPROF_PAS_NONSECURE; pas <= ARMPROF_PAS_ROOT; pas++)
        armprof_mem_write64(mem, pas, pa, 0x1111111111111111ull * (unsigned)(pas + 1));
    const int bad[] = {-1, -4, 4, 5, 7, 8, 0x100, 0x7fffffff, -0x7fffffff - 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const int pas = bad[i];
        /* Writes do nothing. */
        armprof_mem_write64(mem, pas, pa, 0xdeadbeefdeadbeefull);
        const uint8_t bytes[4] = {1, 2, 3, 4};
        armprof_mem_write(mem, pas, pa + 8, bytes, sizeof bytes);
        /* Reads give zeros. */
        CHECK(armprof_mem_read64(mem, pas, pa) == 0, "pas %d: read64 gave 0x%llx", pas,
              (unsigned long long)armprof_mem_read64(mem, pas, pa));
        uint8_t got[16];
        memset(got, 0xa5, sizeof got);
        armprof_mem_read(mem, pas, pa, got, sizeof got);
        bool zero = true;
        for (size_t k = 0; k < sizeof got; k++)
            zero = zero && got[k] == 0;
        CHECK(zero, "pas %d: read gave nonzero bytes", pas);
    }
    for (int pas = ARMPROF_PAS_NONSECURE; pas <= ARMPROF_PAS_ROOT; pas++) {
        CHECK(armprof_mem_read64(mem, pas, pa) == 0x1111111111111111ull * (unsigned)(pas + 1),
              "pas %d changed by a write to an invalid pas", pas);
        CHECK(armprof_mem_read64(mem, pas, pa + 8) == 0, "pas %d: bytes at +8", pas);
    }
    armprof_mem_read(mem, 9, pa, NULL, 0); /* nothing to write to */

    /* Regions: for every PAS (-1) or one; a lookup needs a real PAS. */
    char err[128] = "";
    armprof_mem_region r = {.base = 0x10000, .size = 0x1000, .pas = -1};
    CHECK(armprof_mem_add_region(mem, &r, err, sizeof err), "region for every PAS: %s", err);
    r.base = 0x20000;
    r.pas = ARMPROF_PAS_SECURE;
    CHECK(armprof_mem_add_region(mem, &r, err, sizeof err), "Secure region: %s", err);
    CHECK(armprof_mem_region_at(mem, ARMPROF_PAS_ROOT, 0x10000) != NULL, "every PAS: Root");
    CHECK(armprof_mem_region_at(mem, ARMPROF_PAS_SECURE, 0x20000) != NULL, "Secure region");
    CHECK(armprof_mem_region_at(mem, ARMPROF_PAS_SECURE + 4, 0x20000) == NULL, "pas 5");
    CHECK(armprof_mem_region_at(mem, 4, 0x10000) == NULL, "pas 4, region for every PAS");
    CHECK(armprof_mem_region_at(mem, -1, 0x10000) == NULL, "pas -1");
    r.pas = 4;
    CHECK(!armprof_mem_add_region(mem, &r, err, sizeof err) && strstr(err, "address space"),
          "region in pas 4: %s", err);
    r.pas = -2;
    CHECK(!armprof_mem_add_region(mem, &r, NULL, 0), "region in pas -2");
    /* NULL arguments of the function that reports errors. */
    err[0] = 0;
    CHECK(!armprof_mem_add_region(NULL, &r, err, sizeof err) && err[0], "NULL mem: %s", err);
    err[0] = 0;
    CHECK(!armprof_mem_add_region(mem, NULL, err, sizeof err) && err[0], "NULL region: %s", err);
    CHECK(!armprof_mem_add_region(mem, NULL, NULL, 0), "NULL region, no message");
    armprof_mem_destroy(mem);
    armprof_mem_destroy(NULL);
}

/* ---- armprof_op with enum values out of range ---- */

static unsigned records;
static void count_record(void *ctx, const uint8_t *record, size_t size)
{
    (void)ctx;
    (void)record;
    (void)size;
    records++;
}

/* A PE at Non-secure EL1 that owns the Profiling Buffer and profiles EL1. */
static armprof_pe *profiling_pe(void)
{
    armprof_config c;
    char err[128];
    armprof_config_preset(&c, "armv9.4-all");
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "create: %s", err);
    if (!pe) return NULL;
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    drv_set_field(pe, "MDCR_EL3", "NSPB", 3);
    drv_set_field(pe, "MDCR_EL2", "E2PB", 2);
    drv_set(pe, "HCR_EL2", 1ull << 31);
    drv_set_field(pe, "SCTLR_EL1", "M", 0);
    drv_set(pe, "PMSCR_EL2", 0);
    drv_set(pe, "PMBSR_EL1", 0);
    drv_set(pe, "PMBPTR_EL1", 0x100000);
    drv_set(pe, "PMBLIMITR_EL1", 0x200000);
    drv_set_field(pe, "PMBLIMITR_EL1", "E", 1);
    drv_set(pe, "PMSFCR_EL1", 0);
    drv_set(pe, "PMSIRR_EL1", 0);
    drv_set_field(pe, "PMSIRR_EL1", "INTERVAL", 1);
    drv_set(pe, "PMSCR_EL1", 0);
    drv_set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "EL1: %s", err);
    CHECK(armprof_spe_profiling_enabled(pe, 1), "profiling at EL1");
    armprof_spe_set_sink(pe, count_record, NULL);
    return pe;
}

/* Retires op, sampled (the interval counter at 1) or not; returns the
 * changes in the population, the samples completed, the records and
 * armprof_invalid_ops(). */
typedef struct delta {
    uint64_t population, selected, records, invalid;
} delta;

static delta retire(armprof_pe *pe, const armprof_op *op, bool sampled)
{
    unsigned idx;
    armprof_reg_set(pe, armprof_reg_lookup("PMSICR_EL1", &idx), 0, sampled ? 1 : 1000);
    const armprof_spe_stats a = armprof_spe_get_stats(pe);
    const unsigned r = records;
    const uint64_t inv = armprof_invalid_ops(pe);
    armprof_retire(pe, op);
    const armprof_spe_stats b = armprof_spe_get_stats(pe);
    return (delta){b.population - a.population, b.selected - a.selected, records - r,
                   armprof_invalid_ops(pe) - inv};
}

#define DELTA_IS(d, pop, sel, rec, inv)                                                            \
    ((d).population == (pop) && (d).selected == (sel) && (d).records == (rec) &&                   \
     (d).invalid == (inv))
#define DELTA_ARGS(d)                                                                              \
    (unsigned long long)(d).population, (unsigned long long)(d).selected,                          \
        (unsigned long long)(d).records, (unsigned long long)(d).invalid

static void op_values(void)
{
    armprof_pe *pe = profiling_pe();
    if (!pe) return;
    CHECK(armprof_invalid_ops(pe) == 0, "a new PE has refused nothing");
    armprof_op op = ARMPROF_OP_INIT;
    op.pc = 0xffff800000001000ull;
    op.op_class = ARMPROF_OP_LOAD;
    op.vaddr = 0xffff800000100000ull;
    delta d = retire(pe, &op, true);
    CHECK(DELTA_IS(d, 1, 1, 1, 0), "a valid load: %llu %llu %llu %llu", DELTA_ARGS(d));

    /* op_class out of range: refused, sampled or not. */
    const int bad_class[] = {4, 5, 1000, -1};
    for (size_t i = 0; i < sizeof bad_class / sizeof bad_class[0]; i++) {
        op.op_class = (armprof_op_class)bad_class[i];
        d = retire(pe, &op, true);
        CHECK(DELTA_IS(d, 0, 0, 0, 1), "op_class %d: %llu %llu %llu %llu", bad_class[i],
              DELTA_ARGS(d));
        d = retire(pe, &op, false);
        CHECK(DELTA_IS(d, 0, 0, 0, 1), "op_class %d unsampled: %llu %llu %llu %llu", bad_class[i],
              DELTA_ARGS(d));
        armprof_op o = op;
        o.dispatched = o.spe_selected = true;
        const uint64_t inv = armprof_invalid_ops(pe);
        CHECK(!armprof_dispatch(pe, &o) && !o.dispatched && !o.spe_selected,
              "dispatch of op_class %d", bad_class[i]);
        CHECK(armprof_invalid_ops(pe) == inv + 1, "dispatch of op_class %d counted", bad_class[i]);
    }

    /* A kind out of range for the class: the sample is dropped, counted. */
    struct {
        armprof_op_class cls;
        int field; /* 0 branch_kind, 1 ldst_kind, 2 other_kind, 3 pas */
        int value;
    } const bad_kind[] = {
        {ARMPROF_OP_BRANCH, 0, ARMPROF_BRANCH_EXCEPTION + 1}, {ARMPROF_OP_BRANCH, 0, -1},
        {ARMPROF_OP_LOAD, 1, ARMPROF_LDST_NV2 + 1},           {ARMPROF_OP_STORE, 1, 1000},
        {ARMPROF_OP_LOAD, 3, ARMPROF_PAS_ROOT + 1},           {ARMPROF_OP_STORE, 3, -1},
        {ARMPROF_OP_OTHER, 2, ARMPROF_OTHER_SME + 1},         {ARMPROF_OP_OTHER, 2, 99},
    };
    for (size_t i = 0; i < sizeof bad_kind / sizeof bad_kind[0]; i++) {
        armprof_op o = ARMPROF_OP_INIT;
        o.pc = 0xffff800000002000ull;
        o.op_class = bad_kind[i].cls;
        o.vaddr = 0xffff800000100000ull;
        o.taken = true;
        o.target = 0xffff800000003000ull;
        d = retire(pe, &o, true);
        CHECK(DELTA_IS(d, 1, 1, 1, 0), "case %zu valid: %llu %llu %llu %llu", i, DELTA_ARGS(d));
        switch (bad_kind[i].field) {
        case 0:
            o.branch_kind = (armprof_branch_kind)bad_kind[i].value;
            break;
        case 1:
            o.ldst_kind = (armprof_ldst_kind)bad_kind[i].value;
            break;
        case 2:
            o.other_kind = (armprof_other_kind)bad_kind[i].value;
            break;
        default:
            o.pas = (armprof_pas)bad_kind[i].value;
            break;
        }
        d = retire(pe, &o, true);
        CHECK(DELTA_IS(d, 1, 0, 0, 1), "case %zu sampled: %llu %llu %llu %llu", i, DELTA_ARGS(d));
        /* Not sampled: the kind is not read, the operation counts. */
        d = retire(pe, &o, false);
        CHECK(DELTA_IS(d, 1, 0, 0, 0), "case %zu unsampled: %llu %llu %llu %llu", i, DELTA_ARGS(d));
        /* Dispatched, then retired: dropped at completion. */
        unsigned idx;
        armprof_reg_set(pe, armprof_reg_lookup("PMSICR_EL1", &idx), 0, 1);
        const uint64_t inv = armprof_invalid_ops(pe);
        CHECK(armprof_dispatch(pe, &o), "case %zu dispatched and selected", i);
        d = retire(pe, &o, false);
        CHECK(DELTA_IS(d, 0, 0, 0, 1) && armprof_invalid_ops(pe) == inv + 1,
              "case %zu dispatched: %llu %llu %llu %llu", i, DELTA_ARGS(d));
    }
    /* The valid load once more: nothing was left in flight. */
    op.op_class = ARMPROF_OP_LOAD;
    d = retire(pe, &op, true);
    CHECK(DELTA_IS(d, 1, 1, 1, 0), "valid load after: %llu %llu %llu %llu", DELTA_ARGS(d));
    /* The kinds of another class are not read. */
    op.other_kind = (armprof_other_kind)99;
    op.branch_kind = (armprof_branch_kind)99;
    d = retire(pe, &op, true);
    CHECK(DELTA_IS(d, 1, 1, 1, 0), "load with other kinds out of range: %llu %llu %llu %llu",
          DELTA_ARGS(d));

    const uint64_t n = armprof_invalid_ops(pe);
    CHECK(n == 4 * 3 + 8 * 2, "armprof_invalid_ops() %llu", (unsigned long long)n);
    armprof_reset(pe, ARMPROF_RESET_COLD);
    CHECK(armprof_invalid_ops(pe) == n, "a reset cleared armprof_invalid_ops()");
    armprof_pe_destroy(pe);
}

/* ---- NULL pointers where a function can report failure ---- */

static int fields_seen;
static void count_field(void *ctx, const char *name, unsigned hi, unsigned lo, const char *kind,
                        bool present)
{
    (void)ctx, (void)name, (void)hi, (void)lo, (void)kind, (void)present;
    fields_seen++;
}

static void null_arguments(void)
{
    char err[128];
    armprof_config c;
    CHECK(armprof_config_preset(&c, "minimal"), "minimal preset");
    CHECK(!armprof_config_preset(NULL, "minimal"), "preset into NULL");
    CHECK(!armprof_config_preset(&c, NULL), "preset NULL name");
    CHECK(armprof_feature_lookup(NULL) == -1 && armprof_option_lookup(NULL) == -1, "lookups");
    err[0] = 0;
    CHECK(!armprof_config_set(NULL, "FEAT_SPE", "on", err, sizeof err) && err[0], "set in NULL");
    err[0] = 0;
    CHECK(!armprof_config_set(&c, NULL, "on", err, sizeof err) && err[0], "set NULL name");
    err[0] = 0;
    CHECK(!armprof_config_set(&c, "FEAT_SPE", NULL, err, sizeof err) && err[0], "NULL value");
    CHECK(!armprof_config_set(&c, "FEAT_SPE", NULL, NULL, 0), "NULL value, no message");
    err[0] = 0;
    CHECK(!armprof_config_validate(NULL, err, sizeof err) && err[0], "validate NULL");
    err[0] = 0;
    CHECK(armprof_pe_create(NULL, err, sizeof err) == NULL && err[0], "create from NULL");
    CHECK(armprof_pe_create(NULL, NULL, 0) == NULL, "create from NULL, no message");

    /* The PE's functions that report failure. */
    err[0] = 0;
    CHECK(!armprof_set_el(NULL, 1, err, sizeof err) && err[0], "set_el on NULL");
    err[0] = 0;
    CHECK(!armprof_set_security_state(NULL, ARMPROF_SS_NONSECURE, err, sizeof err) && err[0],
          "set_security_state on NULL");
    err[0] = 0;
    CHECK(!armprof_set_aarch32(NULL, 0, true, err, sizeof err) && err[0], "set_aarch32 on NULL");
    CHECK(armprof_pe_config(NULL) == NULL, "config of NULL");
    CHECK(armprof_checkpoint_size(NULL) == 0, "checkpoint size of NULL");
    uint8_t buf[16];
    CHECK(armprof_checkpoint_save(NULL, buf, sizeof buf) == 0, "checkpoint of NULL");
    err[0] = 0;
    CHECK(!armprof_checkpoint_restore(NULL, buf, sizeof buf, err, sizeof err) && err[0],
          "restore into NULL");
    armprof_pe_destroy(NULL);

    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "create: %s", err);
    if (!pe) return;
    CHECK(armprof_checkpoint_save(pe, NULL, 1u << 30) == 0, "checkpoint into NULL");
    err[0] = 0;
    CHECK(!armprof_checkpoint_restore(pe, NULL, 0, err, sizeof err) && err[0], "restore NULL");
    CHECK(!armprof_set_security_state(pe, (armprof_security_state)7, err, sizeof err),
          "Security state 7");
    const unsigned el = armprof_current_el(pe);
    armprof_reset(pe, (armprof_reset_kind)5); /* nothing */
    CHECK(armprof_current_el(pe) == el, "reset kind 5");
    CHECK(!strcmp(armprof_security_state_name((armprof_security_state)4), "?"), "name of 4");
    CHECK(!strcmp(armprof_signal_name(ARMPROF_SIG_COUNT), "?"), "signal name");
    CHECK(!strcmp(armprof_pas_name((armprof_pas)4), "?"), "PAS name");

    /* The register table. */
    unsigned idx = 7;
    CHECK(armprof_reg_lookup(NULL, &idx) == -1, "lookup NULL");
    const int pmscr = armprof_reg_lookup("PMSCR_EL1", NULL);
    CHECK(pmscr >= 0, "lookup with no index");
    unsigned hi = 0, lo = 99;
    CHECK(!armprof_reg_field(pmscr, NULL, &hi, &lo), "field NULL");
    CHECK(armprof_reg_field(pmscr, "E1SPE", NULL, &lo) && lo == 1, "field, no hi");
    CHECK(armprof_reg_field(pmscr, "E1SPE", &hi, NULL) && hi == 1, "field, no lo");
    armprof_reg_foreach_field(pe, pmscr, NULL, NULL); /* nothing */
    armprof_reg_foreach_field(pe, pmscr, count_field, NULL);
    CHECK(fields_seen > 0, "foreach_field");

    /* Lookups by name that report "unknown" report a NULL name alike. */
    CHECK(armprof_pmu_event_number(NULL) == -1, "PMU event NULL");
    CHECK(armprof_pmu_event_number("INST_RETIRED") == 0x08, "INST_RETIRED is common event 0x0008");
    uint64_t v = 77;
    CHECK(!armprof_spe_value(pe, NULL, &v) && v == 77, "spe value, NULL name");
    CHECK(!armprof_spe_value(pe, "owner_el", NULL), "spe value, NULL value");
    CHECK(armprof_spe_value(pe, "owner_el", &v), "spe value owner_el");
    armprof_pe_destroy(pe);
}

int main(void)
{
    config_has();
    el_using_aarch32();
    reg_index();
    memory_pas();
    op_values();
    null_arguments();
    return check_summary();
}
