/* The README's example: PMSSCR_EL1 from Non-secure EL1 on an Armv9.4 PE traps
 * to EL2 after reset (SCR_EL3.FGTEn2 resets to 0). */
#include <armprof/armprof.h>
#include <stdio.h>

int main(void)
{
    armprof_config cfg;
    armprof_config_preset(&cfg, "armv9.4-all");
    char err[256];
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    armprof_set_security_state(pe, ARMPROF_SS_NONSECURE, err, sizeof err);
    armprof_set_el(pe, 1, err, sizeof err);
    armprof_outcome o = armprof_mrs(pe, armprof_sysreg_encoding(3, 0, 9, 13, 3), 0);
    const int ok = o.kind == ARMPROF_TRAP && o.target_el == 2 && o.iss == 0x36241b;
    printf("consumer: %s\n", ok ? "trap to EL2 as expected" : "unexpected outcome");
    armprof_pe_destroy(pe);
    return ok ? 0 : 1;
}
