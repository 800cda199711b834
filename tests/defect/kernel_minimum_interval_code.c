/* SPDX-License-Identifier: BSD-3-Clause */
/* The virtual kernel's minimum sampling interval from PMSIDR_EL1.Interval,
 * whose codes are (PMSIDR_EL1, "Interval, bits [11:8]") 0b0000 256 (or no
 * minimum), 0b0010 512, 0b0011 768, 0b0100 1024, 0b0101 1536, 0b0110 2048,
 * 0b0111 3072, 0b1000 4096, 0b0001 reserved. Asked for 256 operations, the
 * kernel raises the interval to that minimum, as Linux's arm_spe_pmu does,
 * and programs PMSIRR_EL1.INTERVAL (bits [31:8]) with it. The defect: the
 * kernel indexed {256, 512, 768, ...} by the code itself, so every code
 * from 0b0010 up gave the next value (0b0011, the default preset's, gave
 * 1024: the QEMU plugin's interval=256 and 512 sampled every 1024
 * operations while its summary said 256). Found by the deferred visits'
 * tests (issue 41, part 1). */
#include <stdio.h>

#include "armprof/config.h"
#include "armprof/kernel.h"
#include "check.h"
#include "fields.h"

int main(void)
{
    static const struct {
        const char *code;
        uint32_t minimum;
    } table[] = {{"0", 256},  {"2", 512},  {"3", 768},  {"4", 1024},
                 {"5", 1536}, {"6", 2048}, {"7", 3072}, {"8", 4096}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        char err[256];
        armprof_pe *pe = new_pe_with_or_exit("armv9.4-all", "pmsidr_interval", table[i].code);
        armprof_kernel_params p;
        armprof_kernel_params_default(&p);
        p.interval = 256;
        p.random = false;
        armprof_kernel *k = armprof_kernel_boot(pe, &p, err, sizeof err);
        CHECK(k != NULL, "pmsidr_interval=%s: boot: %s", table[i].code, err);
        if (k) {
            const armprof_kernel_setup s = armprof_kernel_get_setup(k);
            CHECK(s.interval == table[i].minimum, "pmsidr_interval=%s: interval %u, wanted %u",
                  table[i].code, s.interval, table[i].minimum);
            unsigned idx = 0;
            const uint64_t pmsirr =
                armprof_reg_get(pe, armprof_reg_lookup("PMSIRR_EL1", &idx), idx);
            CHECK((pmsirr >> 8 & 0xffffff) == table[i].minimum >> 8,
                  "pmsidr_interval=%s: PMSIRR_EL1.INTERVAL %llu, wanted %u", table[i].code,
                  (unsigned long long)(pmsirr >> 8 & 0xffffff), table[i].minimum >> 8);
            armprof_kernel_destroy(k);
        }
        armprof_pe_destroy(pe);
    }
    return check_summary();
}
