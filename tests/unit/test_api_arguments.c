/* SPDX-License-Identifier: BSD-3-Clause */
/* The public functions with arguments out of range or NULL (issue 15,
 * part 7): each gives the result its header documents instead of aliasing
 * another argument (el & 3, pas & 3, another register's encoding) or
 * reading past a table. */
#include <stdint.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

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

int main(void)
{
    config_has();
    el_using_aarch32();
    reg_index();
    memory_pas();
    return check_summary();
}
