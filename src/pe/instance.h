/* SPDX-License-Identifier: BSD-3-Clause */
/* The whole PE instance: the core and the engine's state (the core first,
 * so an armprof_pe pointer is the instance's address), then each unit's
 * state in its room, side by side (sysreg/units.h), then the façade's own.
 * The register file, the engine's per-register arrays and the units' rooms
 * are sized below the façade; here it checks that everything fits. */
#ifndef ARMPROF_PE_INSTANCE_H
#define ARMPROF_PE_INSTANCE_H

#include <stddef.h>

#include "pcsr/pcsr.h"
#include "pmu/pmu.h"
#include "pe/units.h"
#include "spe/spe_unit.h"

/* The PE's register count and storage slots: the last owner's end. */
#define SR_COUNT  SR_SPE_END
#define STO_COUNT STO_SPE_END

_Static_assert(STO_COUNT <= PE_REG_SLOTS, "the PE's register slots exceed PE_REG_SLOTS");
_Static_assert(SR_COUNT <= SYSREG_MAX_REGS, "the PE's registers exceed SYSREG_MAX_REGS");

/* The interrupt callback and the levels it was last told (outputs.c). */
typedef struct pe_outputs {
    armprof_irq_fn fn;
    void *ctx;
    bool level[ARMPROF_IRQ_COUNT];
    uint8_t spe_el;
    /* What the levels were computed from, to skip recomputing them after
     * an operation that changed none of it. */
    uint32_t seen_gen;
    uint64_t seen_pmovs, seen_pmbsr[3];
} pe_outputs;

typedef struct pe_instance {
    sysreg_level base;
    /* The units' rooms (sysreg/units.h), in memory order; each unit reaches
     * its own through its state macro, and no other code through these. */
    union {
        pcsr_state state;
        char room[PCSR_ROOM];
    } pcsr;
    union {
        pmu_state state;
        char room[PMU_ROOM];
    } pmu;
    union {
        spe_unit state;
        char room[SPE_ROOM];
    } spe;
    pe_outputs out;
    /* Operations armprof_retire() and armprof_dispatch() refused for an
     * op_class out of range (retire.c): the embedder's mistakes, which a
     * reset keeps. */
    uint64_t invalid_ops;
    /* armprof_retire()'s one check (retire.c): the controls generation
     * every unit's cache was last made current at, and what it found. */
    uint32_t retire_gen;
    /* retire_gen when the lean path applies (no counter counts what a
     * retired operation or a sample's population generates, no ERnd ECOUNT,
     * no interrupt callback), else retire_gen - 1: its one check. */
    uint32_t lean_gen;
} pe_instance;

#define PE_INSTANCE(pe) ((pe_instance *)(pe))

/* Each unit's state is where sysreg/units.h says, and fits its room. */
#define UNIT_PLACE_CHECK(name, state, place)                                                       \
    _Static_assert(offsetof(pe_instance, name) == place##_OFFSET,                                  \
                   #name "'s state is not at " #place "_OFFSET (sysreg/units.h)");                 \
    _Static_assert(sizeof(state) <= place##_ROOM,                                                  \
                   #state " outgrew " #place "_ROOM (sysreg/units.h)");
PE_UNITS(UNIT_PLACE_CHECK)
#undef UNIT_PLACE_CHECK
_Static_assert(offsetof(pe_instance, out) >= UNITS_END, "the façade's state overlaps a unit's");

/* The outputs may have changed: tell the callback what did (outputs.c). */
void pe_outputs_check(armprof_pe *pe);
/* The same after an operation: cheap when no register the levels depend on
 * changed. */
static inline void pe_outputs_after_op(armprof_pe *pe)
{
    const pe_outputs *o = &PE_INSTANCE(pe)->out;
    if (!o->fn) return;
    if (o->seen_gen == pe->controls_gen && o->seen_pmovs == REG(pe, PMOVSSET_EL0) &&
        o->seen_pmbsr[0] == REG(pe, PMBSR_EL1) && o->seen_pmbsr[1] == REG(pe, PMBSR_EL2) &&
        o->seen_pmbsr[2] == REG(pe, PMBSR_EL3))
        return;
    pe_outputs_check(pe);
}

/* The tables of every register, generated from the owners' declarations
 * (catalog.c). */
extern const sysreg_catalog sysreg_catalog_all;
extern const ext_catalog ext_catalog_all;

#endif
