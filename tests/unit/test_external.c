/* SPDX-License-Identifier: BSD-3-Clause */
/* The external register table (src/sysreg/regs/external_all.def: the PMU
 * block of external_pmu.def and external_pcsr.def, the external debug block
 * of external_debug.def): offsets and widths as chapter I5 (Tables I5-1,
 * I5-2), H7.1.2 (Table H7-1) and the registers/<NAME>.external.md and
 * .external-debug.md pages give them, no two locations of one configuration
 * and one block overlapping, every location aligned to its size, and each
 * view naming a System register the table declares. Expected offsets and
 * widths are copied from the pages' 'Accessible at offset' lines and
 * 'Component / Offset' tables, not from the program. */
#include <stdio.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "pe/catalog.h"

typedef struct layout {
    const char *preset;
    const char *features_on[6];
    const char *features_off[6];
} layout;

static armprof_pe *make(const layout *l)
{
    armprof_config c;
    armprof_config_preset(&c, l->preset);
    for (int i = 0; i < 6 && l->features_on[i]; i++)
        armprof_config_set_feature(&c, (armprof_feature)armprof_feature_lookup(l->features_on[i]),
                                   true);
    for (int i = 0; i < 6 && l->features_off[i]; i++)
        armprof_config_set_feature(&c, (armprof_feature)armprof_feature_lookup(l->features_off[i]),
                                   false);
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s: %s", l->preset, err);
    return pe;
}

/* The entry named name that is present in pe, -1 if none. */
static int present_entry(const armprof_pe *pe, const char *name)
{
    for (int r = 0; r < (int)armprof_ext_reg_count(); r++)
        if (!strcmp(armprof_ext_reg_name(r), name) && armprof_ext_reg_present(pe, r)) return r;
    return -1;
}

/* One location the page gives: name, offset of instance 0 (and of instance
 * n for an array), width. */
typedef struct expect_loc {
    const char *name;
    uint32_t offset;
    uint32_t offset_n; /* instance 3 for an array, 0 otherwise */
    unsigned width;
} expect_loc;

static void check_locations(const char *what, const armprof_pe *pe, const expect_loc *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const int r = present_entry(pe, e[i].name);
        CHECK(r >= 0, "%s: %s is present", what, e[i].name);
        if (r < 0) continue;
        CHECK(armprof_ext_reg_offset(r, 0) == e[i].offset, "%s: %s at 0x%03x, table 0x%03x", what,
              e[i].name, e[i].offset, armprof_ext_reg_offset(r, 0));
        if (e[i].offset_n)
            CHECK(armprof_ext_reg_offset(r, 3) == e[i].offset_n, "%s: %s instance 3 at 0x%03x",
                  what, e[i].name, e[i].offset_n);
        CHECK(armprof_ext_reg_width(r) == e[i].width, "%s: %s is %u bits", what, e[i].name,
              e[i].width);
    }
}

/* The entry named name present in pe at offset (an alias has the name of its
 * original at another offset), -1 if none. */
static int present_at(const armprof_pe *pe, const char *name, uint32_t offset)
{
    for (int r = 0; r < (int)armprof_ext_reg_count(); r++)
        if (!strcmp(armprof_ext_reg_name(r), name) && armprof_ext_reg_present(pe, r) &&
            armprof_ext_reg_offset(r, 0) == offset)
            return r;
    return -1;
}

/* Each of names is present in pe at its offset, with its width, in block
 * component. */
static void check_at(const char *what, const armprof_pe *pe, armprof_ext_component component,
                     const expect_loc *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const int r = present_at(pe, e[i].name, e[i].offset);
        CHECK(r >= 0, "%s: %s at 0x%03x", what, e[i].name, e[i].offset);
        if (r < 0) continue;
        CHECK(armprof_ext_reg_width(r) == e[i].width, "%s: %s at 0x%03x is %u bits", what,
              e[i].name, e[i].offset, e[i].width);
        CHECK(armprof_ext_reg_component(r) == component, "%s: %s in block %d", what, e[i].name,
              (int)component);
    }
}

/* No two present locations of one block overlap; each is aligned to its size
 * and inside the 4KB block. */
static void check_block_no_overlap(const char *what, const armprof_pe *pe, unsigned component)
{
    static uint8_t owner[0x1000];
    memset(owner, 0, sizeof owner);
    for (unsigned id = 0; id < EXT_COUNT; id++) {
        const ext_desc *d = &ext_table[id];
        if (d->component != component || !armprof_ext_reg_present(pe, (int)id)) continue;
        const unsigned bytes = d->width / 8u;
        for (unsigned m = 0; m < d->count; m++) {
            const uint32_t off = armprof_ext_reg_offset((int)id, m);
            CHECK(off % bytes == 0, "%s: %s instance %u at 0x%03x is aligned to %u", what, d->name,
                  m, off, bytes);
            CHECK(off + bytes <= 0x1000, "%s: %s inside the block", what, d->name);
            for (uint32_t b = off; b < off + bytes && b < 0x1000; b++) {
                CHECK(owner[b] == 0, "%s: %s instance %u at 0x%03x overlaps %s", what, d->name, m,
                      off, owner[b] ? ext_table[owner[b] - 1].name : "");
                owner[b] = (uint8_t)(id + 1);
            }
        }
    }
}

static void check_no_overlap(const char *what, const armprof_pe *pe)
{
    check_block_no_overlap(what, pe, ARMPROF_EXT_PMU);
    check_block_no_overlap(what, pe, ARMPROF_EXT_DEBUG);
}

int main(void)
{
    /* ---- The declarations themselves ---- */
    for (unsigned id = 0; id < EXT_COUNT; id++) {
        const ext_desc *d = &ext_table[id];
        CHECK(d->width == 32 || d->width == 64, "%s: width 32 or 64", d->name);
        CHECK(d->offset % (d->width / 8u) == 0, "%s: offset aligned", d->name);
        CHECK(d->count >= 1 && (d->count == 1 || d->stride >= d->width / 8u),
              "%s: instances do not overlap each other", d->name);
        /* A view shows some bits; a 32-bit view shows at most one word. */
        if (d->sysreg >= 0) {
            CHECK(d->mask != 0, "%s: shows some bits", d->name);
            if (d->width == 32)
                CHECK((d->mask & 0xffffffffu) == 0 || (d->mask >> 32) == 0,
                      "%s: a 32-bit location shows one word", d->name);
            CHECK(d->read == NULL, "%s: a view reads through the System register's hook", d->name);
        } else {
            CHECK(d->read != NULL || d->write != NULL, "%s: external-only with a function",
                  d->name);
        }
        /* Per-counter entries: 'n = 0 - 30'. */
        if (d->flags & EXT_CTR) CHECK(d->count == 31, "%s: 31 event counters", d->name);
        /* The same name at the same offset twice only as the EXT32 and EXT64
         * forms of one register, which differ in width (PMCFGR, PMIIDR). */
        for (unsigned j = id + 1; j < EXT_COUNT; j++)
            CHECK(strcmp(ext_table[j].name, d->name) || ext_table[j].offset != d->offset ||
                      ext_table[j].width != d->width || ext_table[j].component != d->component,
                  "%s declared twice", d->name);
        CHECK(d->component == ARMPROF_EXT_PMU || d->component == ARMPROF_EXT_DEBUG,
              "%s: in a block", d->name);
    }

    /* ---- The debug block's identity (option ed_iidr) as Linux's AMBA bus
     * reads it: PIDR0 | PIDR1 << 8 | PIDR2 << 16 | PIDR3 << 24, matched by
     * coresight-cpu-debug against 0x000bbd03 (Cortex-A53), 0x000bbd07 (A57),
     * 0x000bbd08 (A72), 0x000bbd09 (A73) under the mask 0x000fffff: part
     * number, Arm's JEP106 identity 0x3B and the JEDEC bit. ed_iidr packs
     * ProductID [31:20], Variant [19:16], Revision [15:12], Implementer
     * [11:0] (continuation 4, identity 0x3B); r1p3 here. ---- */
    static const struct {
        uint32_t part, amba;
    } cores[] = {{0xD03, 0xbbd03}, {0xD07, 0xbbd07}, {0xD08, 0xbbd08}, {0xD09, 0xbbd09}};
    for (size_t i = 0; i < sizeof cores / sizeof cores[0]; i++) {
        armprof_config c;
        char err[256], value[32];
        armprof_config_preset(&c, "armv8.0-pcsr");
        snprintf(value, sizeof value, "0x%x", cores[i].part << 20 | 1u << 16 | 3u << 12 | 0x43Bu);
        CHECK(armprof_config_set(&c, "ed_iidr", value, err, sizeof err), "ed_iidr: %s", err);
        armprof_pe *p = armprof_pe_create(&c, err, sizeof err);
        CHECK(p != NULL, "%s", err);
        if (!p) continue;
        uint32_t pidr[5];
        static const uint32_t at[5] = {0xFE0, 0xFE4, 0xFE8, 0xFEC, 0xFD0};
        for (unsigned n = 0; n < 5; n++) {
            const armprof_ext_outcome r = armprof_external_debug_read(p, at[n], 4, NULL);
            CHECK(r.kind == ARMPROF_EXT_OK, "EDPIDR%u readable", n);
            pidr[n] = (uint32_t)r.value;
        }
        const uint32_t id = pidr[0] | pidr[1] << 8 | pidr[2] << 16 | pidr[3] << 24;
        CHECK((id & 0xfffff) == cores[i].amba, "part 0x%x: peripheral ID 0x%08x matches 0x%05x",
              cores[i].part, id, cores[i].amba);
        /* REVISION = Variant 1, REVAND = Revision 3; EDPIDR4.DES_2 = 4. */
        CHECK(pidr[2] >> 4 == 1 && pidr[3] >> 4 == 3 && pidr[4] == 4,
              "part 0x%x: r1p3, continuation code 4", cores[i].part);
        armprof_pe_destroy(p);
    }

    /* ---- The Component ID of both blocks: CIDR0..3 composed as the
     * CoreSight preamble 0xB105_900D with CLASS 0x9 (PMCIDR0 'Reads as
     * 0x0D'; CIDR1 [7:4] CLASS). Readable under the OS Lock (a Cold reset
     * leaves it locked) and, without FEAT_DoPD, with the Core off. ---- */
    {
        const layout v80c = {"armv8.0-pcsr", {0}, {0}};
        armprof_pe *p = make(&v80c);
        armprof_set_core_power(p, false);
        uint32_t pm = 0, ed = 0;
        for (unsigned n = 0; n < 4; n++) {
            const armprof_ext_outcome rp = armprof_external_read(p, 0xFF0 + 4 * n, 4, NULL);
            const armprof_ext_outcome rd = armprof_external_debug_read(p, 0xFF0 + 4 * n, 4, NULL);
            CHECK(rp.kind == ARMPROF_EXT_OK && rd.kind == ARMPROF_EXT_OK, "CIDR%u readable", n);
            pm |= (uint32_t)rp.value << (8 * n);
            ed |= (uint32_t)rd.value << (8 * n);
        }
        CHECK(pm == 0xB105900Du, "PMCIDR0..3 compose 0xB105900D (0x%08x)", pm);
        CHECK(ed == 0xB105900Du, "EDCIDR0..3 compose 0xB105900D (0x%08x)", ed);
        armprof_pe_destroy(p);
    }

    /* ---- FEAT_PMUv3_EXT64 (armv9.4-all: PMUv3p9, ICNTR, SS, TH), Table I5-1 ---- */
    const layout v94 = {"armv9.4-all", {0}, {0}};
    armprof_pe *pe = make(&v94);
    static const expect_loc ext64[] = {
        {"PMEVCNTR<n>_EL0", 0x000, 0x018, 64},   /* 0x000 + (8 * n) */
        {"PMCCNTR_EL0", 0x0F8, 0, 64},           /* 0x0F8 */
        {"PMICNTR_EL0", 0x100, 0, 64},           /* 0x100 */
        {"PMEVTYPER<n>_EL0", 0x400, 0x418, 64},  /* 0x400 + (8 * n) */
        {"PMCCFILTR_EL0", 0x4F8, 0, 64},         /* 0x4F8 */
        {"PMICFILTR_EL0", 0x500, 0, 64},         /* 0x500 */
        {"PMEVCNTSVR<n>_EL1", 0x600, 0x618, 64}, /* 0x600 + (8 * n) */
        {"PMCCNTSVR_EL1", 0x6F8, 0, 64},         /* 0x6F8 */
        {"PMICNTSVR_EL1", 0x700, 0, 64},         /* 0x700 */
        {"PMCNTENSET_EL0", 0xC00, 0, 64},        /* [63:0] 0xC00 */
        {"PMCNTENCLR_EL0", 0xC20, 0, 64},        /* [63:0] 0xC20 */
        {"PMINTENSET_EL1", 0xC40, 0, 64},        /* [63:0] 0xC40 */
        {"PMINTENCLR_EL1", 0xC60, 0, 64},        /* [63:0] 0xC60 */
        {"PMOVSCLR_EL0", 0xC80, 0, 64},          /* [63:0] 0xC80 */
        {"PMZR_EL0", 0xCA0, 0, 64},              /* 0xCA0, a 64-bit register */
        {"PMOVSSET_EL0", 0xCC0, 0, 64},          /* [63:0] 0xCC0 */
        {"PMCFGR", 0xE00, 0, 64},                /* [63:0] 0xE00 with EXT64 */
        {"PMIIDR", 0xE08, 0, 64},                /* 0xE08, 64-bit with EXT64 */
        {"PMCR_EL0", 0xE10, 0, 64},              /* 0xE10 with EXT64 */
        {"PMSSCR_EL1", 0xE30, 0, 64},            /* 0xE30 */
        {"PMLAR", 0xFB0, 0, 32},                 /* 0xFB0, 32-bit */
        {"PMLSR", 0xFB4, 0, 32},                 /* 0xFB4 */
        {"PMAUTHSTATUS", 0xFB8, 0, 32},          /* 0xFB8 */
        {"PMDEVARCH", 0xFBC, 0, 32},             /* 0xFBC */
        {"PMDEVID", 0xFC8, 0, 32},               /* 0xFC8 */
        {"PMDEVTYPE", 0xFCC, 0, 32},             /* 0xFCC */
        {"PMPIDR0", 0xFE0, 0, 32},               /* 0xFE0 */
        {"PMCIDR0", 0xFF0, 0, 32},               /* 0xFF0 */
        /* Table I5-1: 'PMDEVAFF 0xFA8'; 'PMPIDR4 PMPIDR0 PMPIDR1 ... 0xFD0
         * 0xFE0 0xFE4', PMPIDR2 0xFE8, PMPIDR3 0xFEC; PMCIDR1..3 0xFF4,
         * 0xFF8, 0xFFC. */
        {"PMDEVAFF", 0xFA8, 0, 64},
        {"PMPIDR4", 0xFD0, 0, 32},
        {"PMPIDR1", 0xFE4, 0, 32},
        {"PMPIDR2", 0xFE8, 0, 32},
        {"PMPIDR3", 0xFEC, 0, 32},
        {"PMCIDR1", 0xFF4, 0, 32},
        {"PMCIDR2", 0xFF8, 0, 32},
        {"PMCIDR3", 0xFFC, 0, 32},
    };
    check_locations("EXT64", pe, ext64, sizeof ext64 / sizeof ext64[0]);
    check_no_overlap("EXT64", pe);
    /* The EXT32 words are absent with EXT64. */
    CHECK(present_entry(pe, "PMCCNTR_EL0[31:0]") < 0, "EXT64: no [31:0] word of PMCCNTR_EL0");
    CHECK(present_entry(pe, "PMEVTYPER<n>_EL0[63:32]") < 0, "EXT64: no 0xA00 words");
    /* Views share the System register: PMU.PMSSCR_EL1 is PMSSCR_EL1. */
    unsigned idx = 0;
    CHECK(armprof_ext_reg_sysreg(present_entry(pe, "PMSSCR_EL1")) ==
              armprof_reg_lookup("PMSSCR_EL1", &idx),
          "PMU.PMSSCR_EL1 is a view of PMSSCR_EL1");
    CHECK(armprof_ext_reg_sysreg(present_entry(pe, "PMCFGR")) == -1, "PMCFGR is external only");
    armprof_pe_destroy(pe);

    /* ---- FEAT_PMUv3_EXT32 without FEAT_PMUv3p5 (armv8.2-spe), Table I5-2 ---- */
    const layout v82 = {"armv8.2-spe", {0}, {0}};
    pe = make(&v82);
    static const expect_loc ext32[] = {
        {"PMEVCNTR<n>_EL0[31:0]", 0x000, 0x018, 32},  /* 0x000 + 8n */
        {"PMEVCNTR<n>_EL0[63:32]", 0x004, 0x01C, 32}, /* 0x004 + 8n (Table I5-2) */
        {"PMCCNTR_EL0[31:0]", 0x0F8, 0, 32},          /* 0x0F8 */
        {"PMCCNTR_EL0[63:32]", 0x0FC, 0, 32},         /* 0x0FC */
        {"PMEVTYPER<n>_EL0[31:0]", 0x400, 0x40C, 32}, /* 0x400 + (4 * n) */
        {"PMCCFILTR_EL0[31:0]", 0x47C, 0, 32},        /* 0x47C */
        {"PMCNTENSET_EL0", 0xC00, 0, 32},             /* [31:0] 0xC00 */
        {"PMCNTENCLR_EL0", 0xC20, 0, 32},
        {"PMINTENSET_EL1", 0xC40, 0, 32},
        {"PMINTENCLR_EL1", 0xC60, 0, 32},
        {"PMOVSCLR_EL0", 0xC80, 0, 32},
        {"PMOVSSET_EL0", 0xCC0, 0, 32},
        {"PMCFGR", 0xE00, 0, 32},   /* [31:0] 0xE00 with EXT32 */
        {"PMCR_EL0", 0xE04, 0, 32}, /* 0xE04 with EXT32 */
        {"PMIIDR", 0xE08, 0, 32},   /* pmiidr defaults to 0x43B: implemented */
        {"PMDEVARCH", 0xFBC, 0, 32},
        {"PMCIDR0", 0xFF0, 0, 32},
        /* Table I5-2: 'PMDEVAFF0 PMDEVAFF1 0xFA8 0xFAC'. */
        {"PMDEVAFF0", 0xFA8, 0, 32},
        {"PMDEVAFF1", 0xFAC, 0, 32},
        {"PMPIDR4", 0xFD0, 0, 32},
        {"PMCIDR3", 0xFFC, 0, 32},
    };
    check_locations("EXT32", pe, ext32, sizeof ext32 / sizeof ext32[0]);
    check_no_overlap("EXT32", pe);
    /* No FEAT_PMUv3_SS: 0x600-0x7FC and 0xE30 hold nothing; no FEAT_PMUv3p9
     * and no ext_pmswinc: 0xCA0 holds nothing; no TH/p8/SME: no 0xA00 words. */
    CHECK(present_entry(pe, "PMSSCR_EL1") < 0, "EXT32 v8.2: no PMSSCR_EL1");
    CHECK(present_entry(pe, "PMZR_EL0") < 0 && present_entry(pe, "PMSWINC_EL0") < 0,
          "EXT32 v8.2: nothing at 0xCA0");
    CHECK(present_entry(pe, "PMEVTYPER<n>_EL0[63:32]") < 0, "EXT32 v8.2: no 0xA00 words");
    CHECK(present_entry(pe, "PMICNTR_EL0") < 0, "EXT32 v8.2: no PMICNTR_EL0");
    armprof_pe_destroy(pe);

    /* ---- EXT32 with PMUv3p9, ICNTR, SS, TH (armv9.4-all with EXT32 for EXT64) ---- */
    const layout v94_32 = {"armv9.4-all", {"FEAT_PMUv3_EXT32"}, {"FEAT_PMUv3_EXT64"}};
    pe = make(&v94_32);
    static const expect_loc ext32_v9[] = {
        {"PMEVCNTR<n>_EL0", 0x000, 0x018, 64},         /* EXT32 + PMUv3p5: [63:0] at 0x000 + 8n */
        {"PMCCNTR_EL0[31:0]", 0x0F8, 0, 32},           /* 0x0F8 */
        {"PMCCNTR_EL0[63:32]", 0x0FC, 0, 32},          /* 0x0FC */
        {"PMICNTR_EL0", 0x100, 0, 64},                 /* 0x100 */
        {"PMEVTYPER<n>_EL0[31:0]", 0x400, 0x40C, 32},  /* 0x400 + 4n */
        {"PMCCFILTR_EL0[31:0]", 0x47C, 0, 32},         /* 0x47C */
        {"PMICFILTR_EL0[31:0]", 0x480, 0, 32},         /* 0x480 */
        {"PMEVTYPER<n>_EL0[63:32]", 0xA00, 0xA0C, 32}, /* 0xA00 + 4n (FEAT_PMUv3_TH) */
        {"PMCCFILTR_EL0[63:32]", 0xA7C, 0, 32},        /* 0xA7C */
        {"PMICFILTR_EL0[63:32]", 0xA80, 0, 32},        /* 0xA80 */
        {"PMCNTENSET_EL0", 0xC00, 0, 64},              /* [63:0]: FEAT_PMUv3p9/ICNTR */
        {"PMOVSSET_EL0", 0xCC0, 0, 64},
        {"PMZR_EL0", 0xCA0, 0, 64},  /* FEAT_PMUv3p9 */
        {"PMCFGR", 0xE00, 0, 32},    /* [31:0] */
        {"PMCR_EL0", 0xE04, 0, 32},  /* 0xE04 */
        {"PMIIDR", 0xE08, 0, 32},    /* 32-bit without EXT64 */
        {"PMSSCR_EL1", 0xE30, 0, 64} /* 0xE30 */
    };
    check_locations("EXT32 v9.4", pe, ext32_v9, sizeof ext32_v9 / sizeof ext32_v9[0]);
    check_no_overlap("EXT32 v9.4", pe);
    armprof_pe_destroy(pe);

    /* ---- Without FEAT_PMUv3_EXT: every offset is RES0 ---- */
    const layout noext = {
        "armv9.4-all", {0}, {"FEAT_PMUv3_EXT", "FEAT_PMUv3_EXT64", "FEAT_PMUv3_EXTPMN"}};
    pe = make(&noext);
    for (int r = 0; r < (int)armprof_ext_reg_count(); r++)
        if (armprof_ext_reg_component(r) == ARMPROF_EXT_PMU)
            CHECK(!armprof_ext_reg_present(pe, r), "no FEAT_PMUv3_EXT: %s absent",
                  armprof_ext_reg_name(r));
    armprof_pe_destroy(pe);

    /* ---- The PC sample registers (FEAT_PCSRv8p2), H7.1.2 ----
     * EXT64 (armv9.4-all, FEAT_PCSRv8p9): PMPCSR '[63:0] Accessible at offset
     * 0x200' and 0x220, PMVCIDSR 0x208, PMCCIDSR 0x228, PMPCSCTL 0xE50. */
    pe = make(&v94);
    static const expect_loc pcsr64[] = {
        {"PMPCSR", 0x200, 0, 64},   {"PMVCIDSR", 0x208, 0, 64}, {"PMPCSR", 0x220, 0, 64},
        {"PMCCIDSR", 0x228, 0, 64}, {"PMPCSCTL", 0xE50, 0, 64},
    };
    check_at("PCSR EXT64", pe, ARMPROF_EXT_PMU, pcsr64, sizeof pcsr64 / sizeof pcsr64[0]);
    CHECK(present_entry(pe, "PMPCSR[31:0]") < 0 && present_entry(pe, "PMCID1SR") < 0 &&
              present_entry(pe, "PMCID2SR") < 0 && present_entry(pe, "PMVIDSR") < 0,
          "PCSR EXT64: no EXT32 registers");
    armprof_pe_destroy(pe);
    /* EXT32 (armv8.2-spe: FEAT_PCSRv8p2, EL2, no FEAT_PCSRv8p9): PMPCSR[31:0]
     * 0x200 and 0x220, PMPCSR[63:32] 0x204 and 0x224, PMCID1SR 0x208 and
     * 0x228, PMVIDSR 0x20C, PMCID2SR 0x22C. */
    pe = make(&v82);
    static const expect_loc pcsr32[] = {
        {"PMPCSR[31:0]", 0x200, 0, 32}, {"PMPCSR[63:32]", 0x204, 0, 32},
        {"PMCID1SR", 0x208, 0, 32},     {"PMVIDSR", 0x20C, 0, 32},
        {"PMPCSR[31:0]", 0x220, 0, 32}, {"PMPCSR[63:32]", 0x224, 0, 32},
        {"PMCID1SR", 0x228, 0, 32},     {"PMCID2SR", 0x22C, 0, 32},
    };
    check_at("PCSR EXT32", pe, ARMPROF_EXT_PMU, pcsr32, sizeof pcsr32 / sizeof pcsr32[0]);
    CHECK(present_entry(pe, "PMPCSR") < 0 && present_entry(pe, "PMCCIDSR") < 0 &&
              present_entry(pe, "PMVCIDSR") < 0 && present_entry(pe, "PMPCSCTL") < 0,
          "PCSR EXT32 v8.2: no EXT64 registers, no PMPCSCTL");
    /* No FEAT_PCSRv8: nothing in the external debug block but EDSCR and the
     * identification. */
    CHECK(present_entry(pe, "EDPCSR[31:0]") < 0 && present_entry(pe, "EDVIDSR") < 0,
          "FEAT_PCSRv8p2: no EDPCSR");
    armprof_pe_destroy(pe);
    /* Table H7-1: FEAT_PCSRv8p2 without FEAT_PMUv3 - the EXT32 layout and the
     * management registers in the area reserved for the PMU, nothing else. */
    {
        armprof_config c;
        char err[256];
        armprof_config_preset(&c, "armv8.2-spe");
        static const char *const off[] = {"FEAT_PMUv3", "FEAT_PMUv3p1", "FEAT_PMUv3_EXT",
                                          "FEAT_PMUv3_EXT32"};
        for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
            armprof_config_set_feature(&c, (armprof_feature)armprof_feature_lookup(off[i]), false);
        armprof_config_set(&c, "num_event_counters", "0", err, sizeof err);
        pe = armprof_pe_create(&c, err, sizeof err);
        CHECK(pe != NULL, "FEAT_PCSRv8p2 without FEAT_PMUv3: %s", err);
    }
    static const expect_loc table_h7_1[] = {
        {"PMPCSR[31:0]", 0x200, 0, 32}, {"PMPCSR[63:32]", 0x204, 0, 32},
        {"PMCID1SR", 0x208, 0, 32},     {"PMVIDSR", 0x20C, 0, 32},
        {"PMPCSR[31:0]", 0x220, 0, 32}, {"PMPCSR[63:32]", 0x224, 0, 32},
        {"PMCID1SR", 0x228, 0, 32},     {"PMCID2SR", 0x22C, 0, 32},
        {"PMDEVARCH", 0xFBC, 0, 32},    {"PMDEVTYPE", 0xFCC, 0, 32},
        {"PMDEVID", 0xFC8, 0, 32},      {"PMCIDR0", 0xFF0, 0, 32},
    };
    check_at("Table H7-1", pe, ARMPROF_EXT_PMU, table_h7_1,
             sizeof table_h7_1 / sizeof table_h7_1[0]);
    check_no_overlap("Table H7-1", pe);
    CHECK(present_entry(pe, "PMCFGR") < 0 && present_entry(pe, "PMCR_EL0") < 0 &&
              present_entry(pe, "PMCCNTR_EL0[31:0]") < 0,
          "Table H7-1: no PMU registers");
    armprof_pe_destroy(pe);

    /* ---- The external debug block (FEAT_PCSRv8: armv8.0-pcsr) ----
     * EDSCR 0x088; EDPCSR[31:0] 0x0A0, EDCIDSR 0x0A4, EDVIDSR 0x0A8,
     * EDPCSR[63:32] 0x0AC; DBGAUTHSTATUS_EL1 0xFB8, EDDEVID1 0xFC4, EDDEVID
     * 0xFC8 - the 'Component Debug, Offset' rows of the pages. */
    const layout v80 = {"armv8.0-pcsr", {0}, {0}};
    pe = make(&v80);
    static const expect_loc debug[] = {
        {"EDSCR", 0x088, 0, 32},
        {"EDPCSR[31:0]", 0x0A0, 0, 32},
        {"EDCIDSR", 0x0A4, 0, 32},
        {"EDVIDSR", 0x0A8, 0, 32},
        {"EDPCSR[63:32]", 0x0AC, 0, 32},
        {"EDDEVID1", 0xFC4, 0, 32},
        {"EDDEVID", 0xFC8, 0, 32},
        {"DBGAUTHSTATUS_EL1", 0xFB8, 0, 32},
        /* OSLAR_EL1 'Debug 0x300', EDPRSR 'Debug 0x314'; without a page here
         * (the full manual's map): EDPRCR 0x310, EDITCTRL 0xF00, EDCLAIMSET
         * 0xFA0, EDCLAIMCLR 0xFA4, EDDEVAFF0/1 0xFA8/0xFAC, EDLAR 0xFB0,
         * EDLSR 0xFB4, EDDEVARCH 0xFBC, EDDEVID2 0xFC0, EDDEVTYPE 0xFCC,
         * EDPIDR4 0xFD0, EDPIDR0..3 0xFE0..0xFEC, EDCIDR0..3 0xFF0..0xFFC. */
        {"OSLAR_EL1", 0x300, 0, 32},
        {"EDPRCR", 0x310, 0, 32},
        {"EDPRSR", 0x314, 0, 32},
        {"EDITCTRL", 0xF00, 0, 32},
        {"EDCLAIMSET", 0xFA0, 0, 32},
        {"EDCLAIMCLR", 0xFA4, 0, 32},
        {"EDDEVAFF0", 0xFA8, 0, 32},
        {"EDDEVAFF1", 0xFAC, 0, 32},
        {"EDLAR", 0xFB0, 0, 32},
        {"EDLSR", 0xFB4, 0, 32},
        {"EDDEVARCH", 0xFBC, 0, 32},
        {"EDDEVID2", 0xFC0, 0, 32},
        {"EDDEVTYPE", 0xFCC, 0, 32},
        {"EDPIDR4", 0xFD0, 0, 32},
        {"EDPIDR0", 0xFE0, 0, 32},
        {"EDPIDR1", 0xFE4, 0, 32},
        {"EDPIDR2", 0xFE8, 0, 32},
        {"EDPIDR3", 0xFEC, 0, 32},
        {"EDCIDR0", 0xFF0, 0, 32},
        {"EDCIDR1", 0xFF4, 0, 32},
        {"EDCIDR2", 0xFF8, 0, 32},
        {"EDCIDR3", 0xFFC, 0, 32},
    };
    check_at("debug", pe, ARMPROF_EXT_DEBUG, debug, sizeof debug / sizeof debug[0]);
    check_no_overlap("debug", pe);
    CHECK(present_entry(pe, "PMPCSR[31:0]") < 0, "FEAT_PCSRv8: no PMPCSR");
    CHECK(armprof_ext_reg_sysreg(present_entry(pe, "DBGAUTHSTATUS_EL1")) ==
              armprof_reg_lookup("DBGAUTHSTATUS_EL1", &idx),
          "Debug DBGAUTHSTATUS_EL1 is a view of the System register");
    /* An offset of the debug block no entry declares is another external
     * debug register, which the model does not implement; a declared one
     * absent in the configuration is RES0 ('direct accesses ... are RES0'). */
    armprof_set_os_lock(pe, false);
    CHECK(armprof_external_debug_read(pe, 0x080, 4, NULL).kind == ARMPROF_EXT_UNMODELLED,
          "debug 0x080 (EDRCR) not modelled");
    /* OSLAR_EL1 at 0x300: 'bit[0] is copied to the OS Lock' (the lock
     * OSLockStatus() reads); then EDPCSR, EDCIDSR: 'When ... OSLockStatus(),
     * accesses to this register return an ERROR'. AllowExternalDebugAccess()
     * without FEAT_Debugv8p4 needs ExternalInvasiveDebugEnabled() (DBGEN). */
    armprof_set_signal(pe, ARMPROF_SIG_DBGEN, true);
    armprof_ext_outcome o = armprof_external_debug_write(pe, 0x300, 4, 1, NULL);
    CHECK(o.kind == ARMPROF_EXT_OK && !o.ignored && armprof_os_locked(pe),
          "OSLAR_EL1 write of 1 locks the OS Lock");
    o = armprof_external_debug_read(pe, 0x0A0, 4, NULL);
    CHECK(o.kind == ARMPROF_EXT_ERROR && o.why && !strcmp(o.why, "OSLockStatus()"),
          "EDPCSR under the OS Lock set through OSLAR_EL1: ERROR, OSLockStatus()");
    o = armprof_external_debug_read(pe, 0x314, 4, NULL);
    CHECK(o.kind == ARMPROF_EXT_OK && (o.value & 0x20) != 0, "EDPRSR.OSLK follows the lock");
    o = armprof_external_debug_write(pe, 0x300, 4, 0, NULL);
    CHECK(o.kind == ARMPROF_EXT_OK && !armprof_os_locked(pe), "OSLAR_EL1 write of 0 unlocks");
    CHECK(armprof_external_debug_read(pe, 0x0A0, 4, NULL).kind == ARMPROF_EXT_OK,
          "EDPCSR readable once unlocked");
    /* DBGEN LOW: AllowExternalDebugAccess() is FALSE; OSLAR_EL1 returns an
     * ERROR (option ed_oslar_edad's default, the Armv8.2 rule) and the lock
     * does not change. */
    armprof_set_signal(pe, ARMPROF_SIG_DBGEN, false);
    o = armprof_external_debug_write(pe, 0x300, 4, 1, NULL);
    CHECK(o.kind == ARMPROF_EXT_ERROR && o.why && !strcmp(o.why, "!AllowExternalDebugAccess()") &&
              !armprof_os_locked(pe),
          "OSLAR_EL1 without AllowExternalDebugAccess(): ERROR");
    armprof_pe_destroy(pe);
    pe = make(&v82);
    armprof_set_os_lock(pe, false);
    o = armprof_external_debug_read(pe, 0x0A0, 4, NULL);
    CHECK(o.kind == ARMPROF_EXT_OK && o.reg < 0 && o.value == 0,
          "EDPCSR without FEAT_PCSRv8 is RES0");
    armprof_pe_destroy(pe);

    /* ---- The access API ---- */
    pe = make(&v94);
    armprof_set_os_lock(pe, false);
    /* Sizes other than 4 and 8 bytes, misaligned offsets and offsets beyond
     * the 4KB block are not defined by the model. */
    CHECK(armprof_external_read(pe, 0xFF0, 2, NULL).kind == ARMPROF_EXT_UNMODELLED, "2 bytes");
    CHECK(armprof_external_read(pe, 0xFF0, 1, NULL).kind == ARMPROF_EXT_UNMODELLED, "1 byte");
    CHECK(armprof_external_read(pe, 0x0F4, 8, NULL).kind == ARMPROF_EXT_UNMODELLED, "misaligned");
    CHECK(armprof_external_read(pe, 0x1000, 4, NULL).kind == ARMPROF_EXT_UNMODELLED, "0x1000");
    /* A view reports the System register it reached and the instance:
     * PMEVTYPER3_EL0 at 0x400 + 8 * 3. NULL how is a Non-secure external
     * debugger access (allowed: MDCR_EL3.<EPMADE,EPMAD> = '00'). */
    o = armprof_external_read(pe, 0x418, 8, NULL);
    CHECK(o.kind == ARMPROF_EXT_OK && o.index == 3 &&
              o.sysreg == armprof_reg_lookup("PMEVTYPER3_EL0", &idx) &&
              !strcmp(armprof_ext_reg_name(o.reg), "PMEVTYPER<n>_EL0"),
          "0x418 is PMEVTYPER3_EL0 (kind %d, index %u)", (int)o.kind, o.index);
    /* A write outcome gives the value the location reads as afterwards. */
    o = armprof_external_write(pe, 0x0F8, 8, 0x1234, NULL);
    CHECK(o.kind == ARMPROF_EXT_OK && !o.ignored && o.value == 0x1234, "PMCCNTR_EL0 written");
    /* The external access context is cleared after the access. */
    const armprof_ext_access root = {ARMPROF_PAS_ROOT, false};
    o = armprof_external_read(pe, 0xE30, 8, &root);
    CHECK(o.kind == ARMPROF_EXT_OK && o.value == 0x100000000ull, "PMSSCR_EL1 from Root");
    o = armprof_external_read(pe, 0xE30, 8, NULL);
    CHECK(o.kind == ARMPROF_EXT_ERROR && o.why && !strcmp(o.why, "!AllowExternalPMSSAccess()"),
          "PMSSCR_EL1 from Non-secure: MDCR_EL3.EPMSSAD = '00' allows Root only");
    armprof_pe_destroy(pe);

    return check_summary();
}
