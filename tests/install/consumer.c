/* SPDX-License-Identifier: BSD-3-Clause */
/* The README's example: PMSSCR_EL1 from Non-secure EL1 on an Armv9.4 PE traps
 * to EL2 after reset (SCR_EL3.FGTEn2 resets to 0). Then the installed record
 * decoder reads the smallest record of D18.1.2: Operation Type, Events, End. */
#include <armprof/armprof.h>
#include <armprof/decode.h>
#include <stdio.h>

/* Operation Type (0x48: CLASS 0, Other, SUBCLASS 0), Events (0x52: SZ 0b01,
 * E[1] retired), End (0x01). */
static int decoder_works(void)
{
    static const uint8_t record[] = {0x48, 0x00, 0x52, 0x02, 0x00, 0x01};
    armprof_spe_decoder d;
    armprof_spe_decoder_init(&d, record, sizeof record);
    armprof_spe_record r;
    return armprof_spe_next_record(&d, &r) == ARMPROF_SPE_DECODE_OK && r.op_valid &&
           r.events == 2 && r.size == sizeof record;
}

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
    const int ok =
        o.kind == ARMPROF_TRAP && o.target_el == 2 && o.iss == 0x36241b && decoder_works();
    printf("consumer: %s\n", ok ? "trap to EL2 as expected" : "unexpected outcome");
    armprof_pe_destroy(pe);
    return ok ? 0 : 1;
}
