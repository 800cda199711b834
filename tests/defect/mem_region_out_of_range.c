/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 44, part 10: armprof_mem_add_region() accepted a type and a fault
 * outside their enums (and a Normal region's Device type, a Device
 * region's cacheability out of range), which no access could then be
 * described by. memory.h: false with a message naming the field, the
 * table unchanged. */
#include <stdint.h>
#include <string.h>

#include "armprof/memory.h"
#include "check.h"

static armprof_mem_region good(void)
{
    return (armprof_mem_region){.base = 0x40000, .size = 0x1000, .pas = -1, .shareability = 3};
}

/* Adds r to an empty table: false with a message that names what, and
 * nothing added. */
static void refused(const armprof_mem_region *r, const char *what, const char *why)
{
    armprof_mem *mem = armprof_mem_create();
    CHECK(mem != NULL, "mem_create");
    if (!mem) return;
    char err[160] = "";
    const bool ok = armprof_mem_add_region(mem, r, err, sizeof err);
    CHECK(!ok, "%s: accepted", why);
    CHECK(strstr(err, what) != NULL, "%s: message \"%s\" does not name %s", why, err, what);
    CHECK(armprof_mem_region_at(mem, 0, r->base) == NULL, "%s: a region was added", why);
    armprof_mem_destroy(mem);
}

int main(void)
{
    /* every valid combination is taken */
    armprof_mem *mem = armprof_mem_create();
    CHECK(mem != NULL, "mem_create");
    if (!mem) return check_summary();
    char err[160] = "";
    for (int type = ARMPROF_MEM_NORMAL; type <= ARMPROF_MEM_DEVICE; type++)
        for (int fault = ARMPROF_MEM_FAULT_NONE; fault <= ARMPROF_MEM_FAULT_GPT_WALK; fault++) {
            armprof_mem_region r = good();
            r.type = (armprof_memtype)type;
            r.fault = (armprof_mem_fault)fault;
            r.device = 3;
            r.cacheability = 2;
            CHECK(armprof_mem_add_region(mem, &r, err, sizeof err), "type %d fault %d: %s", type,
                  fault, err);
        }
    armprof_mem_destroy(mem);

    const int bad_type[] = {2, 3, 255, -1};
    for (size_t i = 0; i < sizeof bad_type / sizeof bad_type[0]; i++) {
        armprof_mem_region r = good();
        r.type = (armprof_memtype)bad_type[i];
        refused(&r, "type", "type out of range");
    }
    const int bad_fault[] = {ARMPROF_MEM_FAULT_GPT_WALK + 1, 7, 1000, -1};
    for (size_t i = 0; i < sizeof bad_fault / sizeof bad_fault[0]; i++) {
        armprof_mem_region r = good();
        r.fault = (armprof_mem_fault)bad_fault[i];
        refused(&r, "fault", "fault out of range");
    }
    /* the other type's field is checked too: a value no region can have */
    armprof_mem_region r = good();
    r.device = 4;
    refused(&r, "Device type", "Normal region with Device type 4");
    r = good();
    r.type = ARMPROF_MEM_DEVICE;
    r.cacheability = 3;
    refused(&r, "cacheability", "Device region with cacheability 3");
    r = good();
    r.shareability = 1;
    refused(&r, "shareability", "shareability 1");
    r = good();
    r.gpi = 0x10;
    refused(&r, "gpi", "gpi bit 4");
    r = good();
    r.pas = 4;
    refused(&r, "address space", "pas 4");
    return check_summary();
}
