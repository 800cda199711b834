/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof in QEMU's Arm CPU (docs/qemu-system.md): the Statistical
 * Profiling Extension's System registers, PSB CSYNC, the Profiling Buffer
 * and its interrupt, all from the armprof model, one PE per vCPU. Copied
 * into target/arm/ by frontends/qemu-system/build.sh. */
#ifndef TARGET_ARM_ARMPROF_GLUE_H
#define TARGET_ARM_ARMPROF_GLUE_H

/* -cpu ...,armprof=on: before the ID registers are registered, the PE from
 * armprof-preset (or armv9.4-all) less what the CPU lacks (EL2, EL3), and
 * ID_AA64DFR0_EL1.PMSVer from it. False with errp set on a bad preset. */
bool armprof_glue_realize(ARMCPU *cpu, Error **errp);
/* After QEMU's own registers: the model's SPE registers QEMU does not
 * have, each access forwarded to the PE. */
void armprof_glue_register_cpregs(ARMCPU *cpu);

/* The size of each external block (the external debug block, the PMU
 * block): 4KB. */
#define ARMPROF_EXT_BLOCK_SIZE 0x1000
/* The vCPU's external debug block and PMU block into sysmem at debug_base
 * and pmu_base (armprof-external.c); nothing without armprof=on. */
void armprof_glue_map_external(ARMCPU *cpu, MemoryRegion *sysmem, hwaddr debug_base,
                               hwaddr pmu_base);

#endif
