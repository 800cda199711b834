/* The register table's integrity (DESIGN principle 3): every bit of every
 * register accounted for exactly once, each range declared for its own
 * register, field names unique, encodings unique, arrays' instances in range.
 * The build checks coverage too (sysreg_check.c); this test also catches a
 * range written under the wrong register name. */
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

int main(void)
{
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
