/* The PE instance as far as the Statistical Profiling unit knows it: the
 * PMU's part, then the unit's own state (sampling and the Profiling Buffer),
 * private to spe/. The façade's pe_instance (pe/instance.h) extends it. */
#ifndef ARMPROF_SPE_SPE_LEVEL_H
#define ARMPROF_SPE_SPE_LEVEL_H

#include "pmu/pmu.h"
#include "spe/buffer.h"
#include "spe/sample.h"
#include "spe/spe_regs.h"

typedef struct spe_level {
    pmu_level base;
    spe_state spe;
    spe_buffer_state buf;
} spe_level;
#define SPE_STATE(pe)  (&((spe_level *)(pe))->spe)
#define SPE_BUFFER(pe) (&((spe_level *)(pe))->buf)

#endif
