/* SPDX-License-Identifier: BSD-3-Clause */
/* An embedder's buffer hook that returns a result outside its contract
 * (include/armprof/memory.h): a fault whose `written` is more than the
 * write's size, and an outcome outside armprof_buffer_outcome. The model
 * takes written as at most the size and an unknown outcome as an External
 * abort at byte written: PMBPTR_EL1 never moves past the record the hook
 * was given, and the unknown outcome is a buffer management event
 * (PMBSR_ELx.S set), not a write that succeeded. Before, the fault moved
 * PMBPTR_EL1 5000 bytes on and the unknown outcome counted as written. */
#include <stdbool.h>
#include <stdint.h>

#include "armprof/armprof.h"
#include "armprof/memory.h"
#include "../unit/check.h"
#include "../unit/fields.h"

#define PTR 0x80000000ull

typedef struct answer {
    armprof_buffer_result result;
    size_t size; /* the write the hook was given */
} answer;

static armprof_buffer_result hook(void *ctx, const armprof_buffer_write *w)
{
    answer *a = ctx;
    a->size = w->size;
    return a->result;
}

static uint64_t field(armprof_pe *pe, const char *reg, const char *name)
{
    unsigned idx = 0, hi = 0, lo = 0;
    const int r = armprof_reg_lookup(reg, &idx);
    CHECK(r >= 0 && armprof_reg_field(r, name, &hi, &lo), "%s.%s", reg, name);
    if (r < 0) return 0;
    return (armprof_reg_get(pe, r, idx) >> lo) & (~0ull >> (63 - (hi - lo)));
}

/* One sampled operation at Non-secure EL1 with an EL1-owned buffer at PTR,
 * written through the hook answering a->result. */
static armprof_pe *sample_once(answer *a, const char *preset, bool ea_reported)
{
    armprof_config c;
    armprof_config_preset(&c, preset);
    /* PMBIDR_EL1.EA 0b0000: External aborts reported to the SPU (D17.8.4.4),
     * so that one shows in PMBSR_EL1 */
    if (ea_reported) c.options[ARMPROF_OPT_PMBIDR_EA] = ARMPROF_PMBIDR_EA_NOT_DESCRIBED;
    char err[256];
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe != NULL, "%s: %s", preset, err);
    if (!pe) return NULL;
    CHECK(own_buffer_nonsecure_el1(pe, PTR, 0x100000), "the buffer");
    set_field_of(pe, "PMBLIMITR_EL1", "nVM", 1); /* PMBPTR_EL1 is a PA: no walk */
    set_field_of(pe, "PMSCR_EL1", "E1SPE", 1);
    set_field_of(pe, "PMSICR_EL1", "COUNT", 1);
    CHECK(armprof_set_el(pe, 1, err, sizeof err), "%s", err);
    armprof_spe_set_buffer_hook(pe, hook, a);
    armprof_op op = ARMPROF_OP_INIT;
    op.op_class = ARMPROF_OP_OTHER;
    op.pc = 0x1000;
    armprof_retire(pe, &op);
    armprof_psb_csync(pe);
    return pe;
}

int main(void)
{
    answer fault = {
        .result = {.outcome = ARMPROF_BUFFER_FAULT, .written = 5000, .ec = 0x24, .fsc = 0x07}};
    armprof_pe *pe = sample_once(&fault, "armv9.4-all", false);
    if (pe) {
        const uint64_t ptr = field(pe, "PMBPTR_EL1", "PTR");
        CHECK(fault.size > 0 && ptr <= PTR + fault.size,
              "a fault at byte 5000 of a %zu-byte write: PMBPTR_EL1 0x%llx, past the record",
              fault.size, (unsigned long long)ptr);
        CHECK(field(pe, "PMBSR_EL1", "S") == 1, "the fault is a buffer management event");
        armprof_pe_destroy(pe);
    }
    /* an unknown outcome is what an External abort at byte 0 is: on
     * armv8.2-spe with EA reported to the SPU, a buffer management event
     * with PMBSR_EL1.EA 1 and PMBPTR_EL1 at the record's start */
    answer unknown = {.result = {.outcome = (armprof_buffer_outcome)7, .written = 0}};
    answer abort_ = {.result = {.outcome = ARMPROF_BUFFER_EXTERNAL_ABORT, .written = 0}};
    armprof_pe *a = sample_once(&unknown, "armv8.2-spe", true);
    armprof_pe *b = sample_once(&abort_, "armv8.2-spe", true);
    if (a && b) {
        CHECK(unknown.size > 0, "the hook was called");
        CHECK(field(a, "PMBSR_EL1", "S") == 1 && field(a, "PMBSR_EL1", "EA") == 1,
              "an unknown outcome: PMBSR_EL1 S %llu EA %llu, not an External abort",
              (unsigned long long)field(a, "PMBSR_EL1", "S"),
              (unsigned long long)field(a, "PMBSR_EL1", "EA"));
        CHECK(field(a, "PMBSR_EL1", "S") == field(b, "PMBSR_EL1", "S") &&
                  field(a, "PMBSR_EL1", "EA") == field(b, "PMBSR_EL1", "EA") &&
                  field(a, "PMBSR_EL1", "DL") == field(b, "PMBSR_EL1", "DL"),
              "an unknown outcome reported as an External abort is");
        CHECK(field(a, "PMBPTR_EL1", "PTR") == PTR && field(b, "PMBPTR_EL1", "PTR") == PTR,
              "no byte of either counted as written");
    }
    armprof_pe_destroy(a);
    armprof_pe_destroy(b);
    return check_summary();
}
