/* The whole PE instance: every layer's state, nested in layer order (the
 * core first, so an armprof_pe pointer is the instance's address). The
 * register file and the engine's per-register arrays have room reserved
 * by the layers that hold them; here the façade checks that the PE's
 * registers fit. */
#ifndef ARMPROF_PE_INSTANCE_H
#define ARMPROF_PE_INSTANCE_H

#include "spe/spe_level.h"

/* The PE's register count and storage slots: the last owner's end. */
#define SR_COUNT  SR_SPE_END
#define STO_COUNT STO_SPE_END

_Static_assert(STO_COUNT <= PE_REG_SLOTS, "the PE's register slots exceed PE_REG_SLOTS");
_Static_assert(SR_COUNT <= SYSREG_MAX_REGS, "the PE's registers exceed SYSREG_MAX_REGS");

typedef struct pe_instance {
    spe_level base;
} pe_instance;

/* The tables of every register, generated from the owners' declarations
 * (catalog.c). */
extern const sysreg_catalog sysreg_catalog_all;
extern const ext_catalog ext_catalog_all;

#endif
