/* SPDX-License-Identifier: BSD-3-Clause */
/* What Linux's arm_spe_pmu should report of the model's SPE in the
 * armprof qemu-system-aarch64 (tests/qemu-system/probe.sh): the PE the
 * glue makes on the virt machine's default CPU (virt_pe.h); its
 * PMSIDR_EL1 and PMBIDR_EL1 decoded with the manual's field tables
 * (registers/PMSIDR_EL1.md Interval, CountSize, MaxSize, ERnd, ArchInst;
 * registers/PMBIDR_EL1.md Align), one line each as the guest prints them:
 *   caps min_interval N / caps count_size N / caps ernd N / caps arch_inst N
 *   probe max_record_sz N, align N / version SPEv1.N (ID_AA64DFR0_EL1.PMSVer)
 *   spe_caps [PRESET] */
#include <stdio.h>
#include <stdlib.h>

#include "armprof/armprof.h"
#include "virt_pe.h"

static unsigned field(armprof_pe *pe, const char *reg, const char *name)
{
    const int id = armprof_reg_lookup(reg, NULL);
    unsigned hi, lo;
    if (id < 0 || !armprof_reg_field(id, name, &hi, &lo)) {
        fprintf(stderr, "spe_caps: no %s.%s\n", reg, name);
        exit(1);
    }
    return (unsigned)(armprof_reg_get(pe, id, 0) >> lo & ((1ull << (hi - lo + 1)) - 1));
}

int main(int argc, char **argv)
{
    armprof_pe *pe = virt_pe_create("spe_caps", argc > 1 ? argv[1] : "armv9.4-all");
    if (!pe) return 1;
    /* PMSIDR_EL1.Interval: 0b0000 256, 0b0010 512 ... 0b1000 4096 */
    static const unsigned interval[16] = {256, 0, 512, 768, 1024, 1536, 2048, 3072, 4096};
    /* PMSIDR_EL1.CountSize: 0b0010 12-bit, 0b0011 16-bit saturating counters */
    static const unsigned count_size[16] = {[2] = 12, [3] = 16};
    const unsigned i = field(pe, "PMSIDR_EL1", "Interval");
    const unsigned cs = field(pe, "PMSIDR_EL1", "CountSize");
    const unsigned max = field(pe, "PMSIDR_EL1", "MaxSize");
    if (!interval[i] || !count_size[cs] || max < 4 || max > 11) {
        fprintf(stderr, "spe_caps: reserved Interval %u, CountSize %u or MaxSize %u\n", i, cs, max);
        return 1;
    }
    printf("caps min_interval %u\n", interval[i]);
    printf("caps count_size %u\n", count_size[cs]);
    printf("caps ernd %u\n", field(pe, "PMSIDR_EL1", "ERnd"));
    printf("caps arch_inst %u\n", field(pe, "PMSIDR_EL1", "ArchInst"));
    /* MaxSize: 2^MaxSize bytes (0b0100 16 bytes ... 0b1011 2KB); PMBIDR_EL1.Align:
     * 2^Align bytes (0b0000 byte ... 0b1011 2KB) */
    /* ID_AA64DFR0_EL1.PMSVer: 0b0001 FEAT_SPE, 0b0010 FEAT_SPEv1p1 ... 0b0110
     * FEAT_SPEv1p5 (Linux 7.3 names it in its probe line) */
    const unsigned pmsver = field(pe, "ID_AA64DFR0_EL1", "PMSVer");
    if (pmsver < 1 || pmsver > 6) {
        fprintf(stderr, "spe_caps: PMSVer %u\n", pmsver);
        return 1;
    }
    printf("version SPEv1.%u\n", pmsver - 1);
    printf("probe max_record_sz %u, align %u\n", 1u << max, 1u << field(pe, "PMBIDR_EL1", "Align"));
    armprof_pe_destroy(pe);
    return 0;
}
