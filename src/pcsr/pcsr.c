/* PC Sample-based Profiling: the hook for PMU snapshot Capture events. */
#include <stdbool.h>

#include "pcsr/pcsr.h"

/* PMPCSCTL and the PC sample registers are not modelled yet (issue 4): the
 * PC sample registers are unchanged by a Capture event. */
void pcsr_on_capture(struct armprof_pe *pe, bool debug_state)
{
    (void)pe;
    (void)debug_state;
}
