/* SPDX-License-Identifier: BSD-3-Clause */
/* The register table's integrity (docs/design.md rule 3): every bit of every
 * register accounted for exactly once, each range declared for its own
 * register, field names unique, encodings unique, arrays' instances in range.
 * The build checks coverage too (sysreg_check.c); this test also catches a
 * range written under the wrong register name. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "pe/catalog.h"

static void check_ranges(const sysreg_desc *d, unsigned id)
{
    uint64_t covered = 0;
    unsigned width = 0;
    for (unsigned i = 0; i < d->nfields; i++) {
        const sysreg_field *f = &d->fields[i];
        CHECK(f->owner == id, "%s: range %s [%u:%u] is declared for %s", d->name, f->name, f->hi,
              f->lo, sysreg_table[f->owner].name);
        CHECK(f->hi >= f->lo && f->hi < 64, "%s: range %s [%u:%u] is malformed", d->name, f->name,
              f->hi, f->lo);
        const uint64_t m = BITS_MASK(f->hi, f->lo);
        CHECK((covered & m) == 0, "%s: range %s [%u:%u] overlaps another", d->name, f->name, f->hi,
              f->lo);
        covered |= m;
        width += f->hi - f->lo + 1u;
        if (f->access < FA_RES0)
            for (unsigned j = i + 1; j < d->nfields; j++)
                CHECK(strcmp(f->name, d->fields[j].name) != 0, "%s: field %s declared twice",
                      d->name, f->name);
    }
    if (d->flags & SR_ALIAS) {
        CHECK(d->nfields == 0, "%s: an alias has no bits of its own", d->name);
        return;
    }
    CHECK(covered == ~0ull, "%s: bits 0x%016llx are not declared", d->name,
          (unsigned long long)~covered);
    CHECK(width == 64, "%s: ranges add up to %u bits", d->name, width);
}

/* The pages' facts (sysreg_facts) are consistent with the manual's layout
 * of them: an MRS fine-grained trap bit is in a read trap register
 * (HDFGRTR_EL2, HDFGRTR2_EL2), an MSR one in a write trap register, and a
 * FEAT_FGT2 kind in a FEAT_FGT2 register; no MRS bit on a register without an
 * MRS form, no MSR bit without an MSR form; the NVMem offsets are distinct
 * doublewords of the VNCR_EL2 page (D8.13.2: 'offset ... from the address
 * in VNCR_EL2', 8-byte aligned, within 4KB); an EL2 host view is an _EL2
 * register; an EL12 alias names its _EL1 register. */
static bool fgt_is(const sysreg_fgt *f, unsigned slot_a, unsigned slot_b)
{
    return f->slot == slot_a || f->slot == slot_b;
}
static void check_facts(void)
{
    static uint16_t nv2_owner[0x1000 / 8];
    memset(nv2_owner, 0, sizeof nv2_owner);
    unsigned with_fgt = 0, with_nv2 = 0;
    for (unsigned id = 0; id < SR_COUNT; id++) {
        const sysreg_desc *d = &sysreg_table[id];
        const sysreg_facts *f = d->facts;
        CHECK(f != NULL, "%s has no facts", d->name);
        if (!f) continue;
        const sysreg_fgt *r = &f->fgt_read, *w = &f->fgt_write;
        if (r->kind) {
            with_fgt++;
            CHECK(!(d->flags & SR_WO), "%s: MRS trap bit without an MRS form", d->name);
            CHECK(r->kind == SR_FGT_FGT2 ? fgt_is(r, STO_HDFGRTR2_EL2, STO_HDFGRTR2_EL2)
                                         : fgt_is(r, STO_HDFGRTR_EL2, STO_HDFGRTR_EL2),
                  "%s: MRS trap bit not in a read trap register of its kind", d->name);
        }
        if (w->kind) {
            CHECK(!(d->flags & SR_RO), "%s: MSR trap bit without an MSR form", d->name);
            CHECK(w->kind == SR_FGT_FGT2 ? fgt_is(w, STO_HDFGWTR2_EL2, STO_HDFGWTR2_EL2)
                                         : fgt_is(w, STO_HDFGWTR_EL2, STO_HDFGWTR_EL2),
                  "%s: MSR trap bit not in a write trap register of its kind", d->name);
        }
        if (f->nv2_offset) {
            with_nv2++;
            CHECK(f->nv2_offset % 8 == 0 && f->nv2_offset < 0x1000,
                  "%s: NVMem offset 0x%x is not a doubleword of the page", d->name, f->nv2_offset);
            const unsigned slot = (f->nv2_offset / 8) % (0x1000 / 8);
            CHECK(nv2_owner[slot] == 0, "%s and %s share NVMem offset 0x%x", d->name,
                  nv2_owner[slot] ? sysreg_table[nv2_owner[slot] - 1].name : "", f->nv2_offset);
            nv2_owner[slot] = (uint16_t)(id + 1);
        }
        if (f->host_target) {
            const char *t = sysreg_table[f->host_target - 1].name;
            CHECK(strlen(t) > 4 && strcmp(t + strlen(t) - 4, "_EL2") == 0,
                  "%s: EL2 host view %s is not an EL2 register", d->name, t);
        }
        if (d->alias_of) {
            char want[64];
            snprintf(want, sizeof want, "%s", d->name);
            char *el12 = strstr(want, "_EL12");
            CHECK(el12 != NULL, "%s names a register but is not an EL12 alias", d->name);
            if (el12) strcpy(el12, "_EL1");
            CHECK(strcmp(sysreg_table[d->alias_of - 1].name, want) == 0, "%s names %s", d->name,
                  sysreg_table[d->alias_of - 1].name);
        }
    }
    /* The declarations carry the facts (values the pages give). */
    CHECK(sysreg_table[SR_PMSCR_EL1].facts->nv2_offset == 0x828, "PMSCR_EL1 NVMem[0x828]");
    CHECK(sysreg_table[SR_PMBSR_EL1].facts->nv2_offset == 0x820, "PMBSR_EL1 NVMem[0x820]");
    CHECK(sysreg_table[SR_PMSFCR_EL1].facts->nv2_offset == 0, "PMSFCR_EL1 has no NVMem branch");
    CHECK(sysreg_table[SR_PMSNEVFR_EL1].facts->fgt_read.kind == SR_FGT_FGTN,
          "HDFGRTR_EL2.nPMSNEVFR_EL1 traps when 0");
    CHECK(sysreg_table[SR_PMCR_EL0].facts->fgt_read.kind == SR_FGT_NONE &&
              sysreg_table[SR_PMCR_EL0].facts->fgt_write.kind == SR_FGT_FGT,
          "PMCR_EL0: HDFGWTR_EL2.PMCR_EL0 only (HDFGRTR_EL2 has no PMCR_EL0 bit)");
    CHECK(with_fgt >= 30 && with_nv2 >= 20, "facts declared: %u FGT, %u NVMem", with_fgt, with_nv2);
}

int main(void)
{
    check_facts();
    static uint16_t owner[1u << 16];
    memset(owner, 0, sizeof owner);
    for (unsigned id = 0; id < SR_COUNT; id++) {
        const sysreg_desc *d = &sysreg_table[id];
        CHECK(d->name && d->access, "register %u has no name or access check", id);
        check_ranges(d, id);
        const unsigned n = d->count ? d->count : 1;
        for (unsigned m = 0; m < n; m++) {
            const uint16_t e = (uint16_t)(d->enc + m);
            CHECK(owner[e] == 0, "%s and %s share encoding 0x%04x", d->name,
                  owner[e] ? sysreg_table[owner[e] - 1].name : "", e);
            owner[e] = (uint16_t)(id + 1);
        }
        /* Names resolve back to the register. */
        char buf[64];
        unsigned got_m;
        const unsigned probe = n > 1 ? n - 1 : 0;
        const char *nm = sysreg_instance_name(d, probe, buf, sizeof buf);
        CHECK(sysreg_lookup_name(&sysreg_catalog_all, nm, &got_m) == (int)id && got_m == probe,
              "%s does not resolve to itself", nm);
    }
    /* An array's instance beyond its count is not a name. */
    unsigned m;
    CHECK(sysreg_lookup_name(&sysreg_catalog_all, "PMEVCNTSVR31_EL1", &m) < 0,
          "PMEVCNTSVR31_EL1 must not exist");
    CHECK(sysreg_lookup_name(&sysreg_catalog_all, "PMEVCNTSVR01_EL1", &m) < 0,
          "leading zero must not resolve");
    CHECK(sysreg_lookup_name(&sysreg_catalog_all, "S3_0_C9_C13_3", &m) == SR_PMSSCR_EL1,
          "generic name");
    CHECK(sysreg_lookup_name(&sysreg_catalog_all, "S2_0_C14_C9_6", &m) == SR_PMEVCNTSVR_EL1 &&
              m == 14,
          "generic name of PMEVCNTSVR14_EL1 (CRm = 0b10:n<4:3>, op2 = n<2:0>)");
    return check_summary();
}
