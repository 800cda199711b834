/* SPDX-License-Identifier: BSD-3-Clause */
/* The external debug block and the PMU block of each vCPU
 * (docs/qemu-system.md, "External debug and PMU blocks"): 4KB each in the
 * machine's memory map, every access forwarded to the model's external
 * interface (armprof_external_debug_read/write(), armprof_external_read/
 * write()), which applies the manual's permissions and side effects. The
 * glue brings the PE in step with QEMU first: the Exception level and the
 * registers QEMU owns, the OS Lock and the OS Double Lock (OSLSR_EL1,
 * OSDLR_EL1 are QEMU's), whether the vCPU is powered (PSCI), and, before a
 * read, where the vCPU is now (armprof_pcsr_observe()), so that a read of
 * PMPCSR or EDPCSR samples it there. */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "cpu.h"
#include "internals.h"
#include "exec/cpu-common.h"
#include "exec/memory.h"
#include "hw/core/cpu.h"
#include "tcg/insn-start-words.h"
#include "exec/translation-block.h"
#include "armprof-glue.h"
#include "armprof-glue-cpu.h"
#include "armprof-system.h"

#ifndef CONFIG_USER_ONLY

/* The Physical Address Space of a memory transaction (ArmSecuritySpace). */
static armprof_pas pas_of(MemTxAttrs attrs)
{
    switch (attrs.space) {
    case ARMSS_Secure:
        return ARMPROF_PAS_SECURE;
    case ARMSS_Root:
        return ARMPROF_PAS_ROOT;
    case ARMSS_Realm:
        return ARMPROF_PAS_REALM;
    default:
        return attrs.secure ? ARMPROF_PAS_SECURE : ARMPROF_PAS_NONSECURE;
    }
}

/* The instruction the vCPU is at. Its own load or store to a block: that
 * instruction (with CF_PCREL, env->pc holds the TB's start and the unwind
 * data the page offset of each instruction, as arm_restore_state_to_opc()
 * combines them). Otherwise env->pc, which CF_PCREL keeps at the start of
 * the TB the vCPU is executing (or, halted, at the instruction after its
 * WFI): an instruction it has just executed or is executing. */
static uint64_t current_pc(struct ArmprofCPU *a, bool own_access)
{
    CPUState *cs = CPU(a->cpu);
    CPUARMState *env = &a->cpu->env;
    const uint64_t pc = qatomic_read(&env->pc);
    uint64_t data[TARGET_INSN_START_WORDS];
    if (own_access && cs->mem_io_pc && cpu_unwind_state_data(cs, cs->mem_io_pc, data)) {
        return (cs->tcg_cflags & CF_PCREL) ? (pc & TARGET_PAGE_MASK) | data[0] : data[0];
    }
    return pc;
}

/* The PE in step with what QEMU keeps of the vCPU, and (before a read) at
 * its current PC. From another thread the vCPU runs on: its PC and
 * Exception level are read twice around the rest, so that they belong
 * together (an exception between them is seen as a PC change). */
static void bring_in_step(struct ArmprofCPU *a, bool own_access, bool read)
{
    CPUARMState *env = &a->cpu->env;
    armprof_pe *pe = a->pe;
    armprof_set_core_power(pe, a->cpu->power_state != PSCI_OFF);
    armprof_set_os_lock(pe, qatomic_read(&env->cp15.oslsr_el1) & 2); /* OSLSR_EL1.OSLK */
    armprof_set_os_double_lock(pe, qatomic_read(&env->cp15.osdlr_el1) & 1);
    uint64_t pc = current_pc(a, own_access);
    for (int tries = 0; tries < 4; tries++) {
        armprof_glue_sync_context(a);
        const uint64_t again = current_pc(a, own_access);
        if (again == pc) {
            break;
        }
        pc = again;
    }
    if (read) {
        armprof_pcsr_observe(pe, pc);
    }
}

/* After an external write: the OS Lock back to QEMU (EDOSLAR), and what a
 * write of the model's registers does (armprof_glue_after_write()) on the
 * vCPU's own thread, where the plugin's hook runs. */
static void after_write_on_vcpu(CPUState *cs, run_on_cpu_data data)
{
    struct ArmprofCPU *a = data.host_ptr;
    armprof_glue_lock(a);
    armprof_glue_after_write(a);
    armprof_glue_unlock(a);
}

static void after_external_write(struct ArmprofCPU *a, bool own_access)
{
    CPUARMState *env = &a->cpu->env;
    const bool locked = armprof_os_locked(a->pe);
    if (((env->cp15.oslsr_el1 >> 1) & 1) != locked) {
        env->cp15.oslsr_el1 = deposit32(env->cp15.oslsr_el1, 1, 1, locked);
    }
    if (own_access) {
        armprof_glue_after_write(a);
    } else {
        async_run_on_cpu(CPU(a->cpu), after_write_on_vcpu, RUN_ON_CPU_HOST_PTR(a));
    }
}

static armprof_ext_outcome external_access(struct ArmprofCPU *a, armprof_ext_component block,
                                           uint32_t offset, unsigned size, bool write,
                                           uint64_t value, const armprof_ext_access *how,
                                           bool own_access)
{
    armprof_glue_lock(a);
    if (own_access && a->access_fn) {
        /* the vCPU's own load or store: the operations before it count
         * first, as before an access to one of the model's System
         * registers (a snapshot the store requests saves them) */
        a->access_fn(CPU(a->cpu)->cpu_index, current_pc(a, true), a->access_ctx);
    }
    bring_in_step(a, own_access, !write);
    armprof_ext_outcome o;
    if (block == ARMPROF_EXT_DEBUG) {
        o = write ? armprof_external_debug_write(a->pe, offset, size, value, how)
                  : armprof_external_debug_read(a->pe, offset, size, how);
    } else {
        o = write ? armprof_external_write(a->pe, offset, size, value, how)
                  : armprof_external_read(a->pe, offset, size, how);
    }
    if (write && o.kind == ARMPROF_EXT_OK && !o.ignored) {
        after_external_write(a, own_access);
    }
    armprof_glue_unlock(a);
    return o;
}

static const char *const block_names[] = {
    [ARMPROF_EXT_PMU] = "PMU block",
    [ARMPROF_EXT_DEBUG] = "external debug block",
};

/* The outcome of the guest's access as a memory transaction: an error
 * response is a bus error (the guest takes an External abort); a location
 * the model does not implement reads as zero and ignores writes (logged
 * with -d unimp); an access size or alignment the interface does not
 * define (for the block, or for the register there) is the choice
 * armprof-ext-bad-access names (docs/configuration.md). */
static MemTxResult transaction(ArmprofExtBlock *b, hwaddr addr, unsigned size, bool write,
                               uint64_t *data, MemTxAttrs attrs)
{
    struct ArmprofCPU *a = b->cpu;
    const armprof_ext_access how = {pas_of(attrs), true};
    const bool own = current_cpu == CPU(a->cpu);
    const armprof_ext_outcome o =
        external_access(a, b->block, (uint32_t)addr, size, write, write ? *data : 0, &how, own);
    const int vcpu = CPU(a->cpu)->cpu_index;
    switch (o.kind) {
    case ARMPROF_EXT_OK:
        if (!write) {
            *data = o.value;
        }
        return MEMTX_OK;
    case ARMPROF_EXT_ERROR:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armprof: vCPU %d %s: %s of offset 0x%03" HWADDR_PRIx ": error response (%s)\n",
                      vcpu, block_names[b->block], write ? "write" : "read", addr,
                      o.why ? o.why : "?");
        return MEMTX_ERROR;
    default:
        break;
    }
    /* the model's two reasons: a register it does not implement, or a
     * size or alignment the location does not take */
    const bool unimplemented = o.why && !strcmp(o.why, "register not modelled");
    if (!unimplemented) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armprof: vCPU %d %s: %u-byte %s at offset 0x%03" HWADDR_PRIx
                      ": not an access the external interface defines (%s)\n",
                      vcpu, block_names[b->block], size, write ? "write" : "read", addr,
                      a->cpu->armprof_ext_bad_error ? "error response" : "ignored");
        if (a->cpu->armprof_ext_bad_error) {
            return MEMTX_ERROR;
        }
    } else {
        qemu_log_mask(LOG_UNIMP,
                      "armprof: vCPU %d %s: offset 0x%03" HWADDR_PRIx
                      " is a register the model does not implement: RAZ/WI\n",
                      vcpu, block_names[b->block], addr);
    }
    if (!write) {
        *data = 0;
    }
    return MEMTX_OK;
}

static MemTxResult block_read(void *opaque, hwaddr addr, uint64_t *data, unsigned size,
                              MemTxAttrs attrs)
{
    return transaction(opaque, addr, size, false, data, attrs);
}

static MemTxResult block_write(void *opaque, hwaddr addr, uint64_t data, unsigned size,
                               MemTxAttrs attrs)
{
    return transaction(opaque, addr, size, true, &data, attrs);
}

/* Every size and alignment reaches transaction(), which decides. */
static const MemoryRegionOps block_ops = {
    .read_with_attrs = block_read,
    .write_with_attrs = block_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {.min_access_size = 1, .max_access_size = 8, .unaligned = true},
    .impl = {.min_access_size = 1, .max_access_size = 8, .unaligned = true},
};

void armprof_glue_map_external(ARMCPU *cpu, MemoryRegion *sysmem, hwaddr debug_base,
                               hwaddr pmu_base)
{
    struct ArmprofCPU *a = cpu->armprof_state;
    if (!a) {
        return;
    }
    const hwaddr bases[2] = {[ARMPROF_EXT_PMU] = pmu_base, [ARMPROF_EXT_DEBUG] = debug_base};
    for (int block = 0; block < 2; block++) {
        ArmprofExtBlock *b = &a->blocks[block];
        b->cpu = a;
        b->block = block;
        g_autofree char *name =
            g_strdup_printf("armprof-%s-cpu%d", block == ARMPROF_EXT_DEBUG ? "debug" : "pmu",
                            CPU(cpu)->cpu_index);
        memory_region_init_io(&b->mr, OBJECT(cpu), &block_ops, b, name, ARMPROF_EXT_BLOCK_SIZE);
        memory_region_add_subregion(sysmem, bases[block], &b->mr);
    }
}

armprof_ext_outcome armprof_system_external_access(unsigned vcpu, armprof_ext_component block,
                                                   uint32_t offset, unsigned size, bool write,
                                                   uint64_t value)
{
    CPUState *cs = qemu_get_cpu((int)vcpu);
    struct ArmprofCPU *a = cs ? ARM_CPU(cs)->armprof_state : NULL;
    if (!a || (block != ARMPROF_EXT_PMU && block != ARMPROF_EXT_DEBUG)) {
        const armprof_ext_outcome none = {.kind = ARMPROF_EXT_UNMODELLED, .reg = -1,
                                          .sysreg = -1, .why = "no PE"};
        return none;
    }
    /* a debugger on the external debug interface: no Software Lock */
    const armprof_ext_access how = {ARMPROF_PAS_NONSECURE, false};
    return external_access(a, block, offset, size, write, value, &how, false);
}

#endif
