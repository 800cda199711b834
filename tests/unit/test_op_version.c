/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_op is versioned by size (armprof.h): the library reads a field
 * added after the first version only when .size covers it, and .size 0 is
 * the first version. The same exception return, sampled, with target_el 0
 * set: a program that declares the current size gets the branch target
 * tagged with EL0 (ns:el:nse = 1:00:0, top byte 0x80, SPEBranch() at the
 * level the ERET goes to); one compiled against the first version (.size 0,
 * or the first version's size) gets the current level's tag, Non-secure EL1
 * (1:01:0, 0xA0), whatever the later bytes hold. The Address packet of the
 * branch target is header 0xB1 and 8 bytes, little-endian, so the tag is
 * its last byte. */
#include <stddef.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"
#include "fields.h"

typedef struct capture {
    uint8_t record[256];
    size_t size;
} capture;

static void sink(void *ctx, const uint8_t *record, size_t size)
{
    capture *c = ctx;
    c->size = size < sizeof c->record ? size : sizeof c->record;
    memcpy(c->record, record, c->size);
}

static void set_field(armprof_pe *pe, const char *reg, const char *field, uint64_t v)
{
    CHECK(set_field_of(pe, reg, field, v), "%s.%s", reg, field);
}

/* The top byte of the branch target Address packet of the record, or -1. */
static int target_tag(const capture *c)
{
    for (size_t i = 0; i + 9 <= c->size;) {
        const uint8_t h = c->record[i];
        if (h == 0xb1) return c->record[i + 8];
        if (h == 0x01) break; /* End */
        /* Short headers: payload size 1 << bits [5:4] */
        i += 1 + (1u << ((h >> 4) & 3));
    }
    return -1;
}

static int eret_target_tag(uint32_t size)
{
    armprof_config c;
    armprof_config_preset(&c, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s", err);
    if (!pe) return -2;
    CHECK(armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err), "%s", err);
    set_field(pe, "MDCR_EL3", "NSPB", 3);
    set_field(pe, "MDCR_EL2", "E2PB", 2);
    set_field(pe, "HCR_EL2", "TGE", 0);
    set_field(pe, "PMBSR_EL1", "S", 0);
    set_field(pe, "PMBPTR_EL1", "PTR", 0x80000000u);
    set_field(pe, "PMBLIMITR_EL1", "LIMIT", 0x80100u); /* LIMIT is address bits [63:12] */
    set_field(pe, "PMBLIMITR_EL1", "E", 1);
    set_field(pe, "PMSCR_EL1", "E1SPE", 1);
    set_field(pe, "PMSCR_EL1", "E0SPE", 1);
    set_field(pe, "PMSICR_EL1", "COUNT", 1);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    capture cap = {{0}, 0};
    armprof_spe_set_sink(pe, sink, &cap);
    armprof_op op;
    memset(&op, 0x5a, sizeof op); /* bytes past .size must not matter */
    memset(&op, 0, offsetof(armprof_op, target_el_valid));
    op.size = size;
    op.op_class = ARMPROF_OP_BRANCH;
    op.branch_kind = ARMPROF_BRANCH_ERET;
    op.pc = 0x1000;
    op.taken = true;
    op.target = 0x4000;
    if (size == 0 || size >= sizeof op) {
        /* A program that knows the later fields sets them all. */
        op.target_el_valid = true;
        op.target_el = 0;
        op.gcs = false;
        op.misspeculated = false;
        op.data_address_unknown = false;
        op.not_arch_executed = false;
    }
    armprof_retire(pe, &op);
    const int tag = target_tag(&cap);
    armprof_pe_destroy(pe);
    return tag;
}

int main(void)
{
    const int current = eret_target_tag((uint32_t)sizeof(armprof_op));
    const int v1 = eret_target_tag((uint32_t)offsetof(armprof_op, target_el_valid));
    const int zero = eret_target_tag(0);
    CHECK(current == 0x80, "current size: target tag 0x%x, expected 0x80 (EL0)", current);
    CHECK(v1 == 0xa0, "first version's size: target tag 0x%x, expected 0xa0 (EL1)", v1);
    CHECK(zero == 0xa0, ".size 0: target tag 0x%x, expected 0xa0 (EL1)", zero);
    return check_summary();
}
