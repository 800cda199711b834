/* ID register values derived from the configuration. */
#include "sysreg/idregs.h"

void idregs_init(armprof_pe *pe) { (void)pe; }
