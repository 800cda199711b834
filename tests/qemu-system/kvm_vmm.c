/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal VMM on Linux's KVM API for the KVM tests
 * (tests/qemu-system/kvm.sh, issue 40), built static with the cross
 * compiler: one VM, one vCPU at EL1 (KVM_ARM_VCPU_INIT of the preferred
 * target, no features), 64 KB of memory at GUEST_RAM holding the
 * bare-metal program of kvm_guest.S, and an MMIO page with no memory
 * slot, GUEST_MMIO, whose stores come back as KVM_EXIT_MMIO and are
 * decoded here (kvm_guest.S says the layout). Prints one line per report:
 *   kvm: loop VALUE            the guest's known loop (its sum)
 *   kvm: REGISTER VALUE pc PC  an MRS of REGISTER at PC that gave VALUE
 *   kvm: REGISTER esr ESR pc PC elr ELR
 *                              an MRS of REGISTER at PC that took a
 *                              synchronous exception with ESR_EL1 ESR and
 *                              ELR_EL1 ELR (and was skipped)
 *   kvm: write-REGISTER VALUE pc PC
 *                              an MSR of VALUE to REGISTER at PC that went
 *                              through (write-REGISTER esr ...: it did not)
 *   kvm: unexpected vector OFF an exception at another vector: stops
 *   kvm: done                  the guest's end
 *   kvm: ticks N               (repeat mode) the guest's exits between
 *                              its loops, before done
 * Numbers in hexadecimal (0x...). Exits 0 after "done", 1 when the guest
 * stops otherwise, 2 when the KVM API refuses (the call and errno).
 *
 *   kvm_vmm                    the guest's loop once, then its accesses
 *   kvm_vmm repeat N           the guest's loop N times, an exit to the
 *                              host (a world switch) after each but the
 *                              last, then its accesses
 *   kvm_vmm pmu                the guest of kvm_pmu_guest.S on a vCPU with
 *                              KVM's PMU (KVM_ARM_VCPU_PMU_V3, its
 *                              interrupt PPI 23) and an in-kernel GICv3,
 *                              which KVM's PMU needs (the emulated machine
 *                              must have gic-version=3)
 *   kvm_vmm nested             the guest hypervisor of kvm_nested_guest.S
 *                              on a vCPU with KVM_ARM_VCPU_HAS_EL2 (KVM's
 *                              nested virtualization, kvm-arm.mode=nested),
 *                              from EL2h
 *   kvm_vmm spin N | spin-after N
 *                              no VM: a loop of the host's own, N times
 *                              round, in host_spin() or host_spin_after()
 *                              (tests/qemu-system/kvm_record.sh: where a
 *                              host profile's records must be), after
 *                              printing "kvm_vmm: FUNCTION 0xADDRESS" */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/kvm.h>

/* The UAPI's feature bit (Linux 6.3 on); the cross compiler's headers may
 * be older than the kernel the VMM runs on */
#ifndef KVM_ARM_VCPU_HAS_EL2
#define KVM_ARM_VCPU_HAS_EL2 7
#endif

#define GUEST_RAM      0x40000000u
#define GUEST_RAM_SIZE 0x10000u
#define GUEST_MMIO     0x10000000u /* kvm_guest.S's KVM_GUEST_MMIO */
/* a guest that keeps exiting without reporting "done" is stopped (after
 * its repeat mode's exits) */
#define MAX_EXITS 1000

extern const char kvm_guest_start[], kvm_guest_end[];
extern const char kvm_pmu_guest_start[], kvm_pmu_guest_end[];
extern const char kvm_nested_guest_start[], kvm_nested_guest_end[];

/* The in-kernel GICv3's frames in the guest's physical address space (as
 * QEMU's virt machine places them; nothing else is there) and the PMU's
 * interrupt (PPI 7, INTID 23, as on the virt machine) */
#define GUEST_GICD   0x08000000u
#define GUEST_GICR   0x080a0000u
#define GUEST_PMUIRQ 23

/* item numbers of kvm_guest.S, from 1 */
static const char *const items[] = {
    "loop",
    "ID_AA64DFR0_EL1",
    "PMSCR_EL1",
    "PMSIDR_EL1",
    "PMBLIMITR_EL1",
    "PMBPTR_EL1",
    "PMBSR_EL1",
    "PMBIDR_EL1",
    "PMSSCR_EL1",
    "PMCCNTSVR_EL1",
    "PMECR_EL1",
    "PMCR_EL0",
    "write-PMSSCR_EL1",
    "PMSSCR_EL1-after",
    "write-PMSCR_EL1",
    "write-PMBLIMITR_EL1",
    "write-PMBPTR_EL1",
    "write-PMBSR_EL1",
};
#define POISON 0xdeadbeefdeadbeefull

/* kvm_pmu_guest.S's items */
static const char *const pmu_items[] = {
    "loop", "PMEVCNTR0_EL0-before", "PMEVCNTR0_EL0-after", "PMCEID0_EL0", "PMCR_EL0",
};
/* kvm_nested_guest.S's items */
static const char *const nested_items[] = {
    "CurrentEL",        "HCR_EL2",         "ID_AA64DFR0_EL1",  "PMSCR_EL2",
    "PMSCR_EL1",        "PMSCR_EL12",      "PMBLIMITR_EL1",    "write-PMSCR_EL2",
    "write-PMSCR_EL12", "PMSCR_EL2-after", "PMSCR_EL12-after",
};
#define NITEMS(a) (sizeof(a) / sizeof((a)[0]))

/* the guest programs, by kvm_vmm's mode */
enum guest { GUEST_PLAIN, GUEST_PMU, GUEST_NESTED };

static const char *item_name(uint64_t item, int guest)
{
    static const struct {
        const char *const *names;
        size_t n;
    } lists[] = {
        [GUEST_PLAIN] = {items, NITEMS(items)},
        [GUEST_PMU] = {pmu_items, NITEMS(pmu_items)},
        [GUEST_NESTED] = {nested_items, NITEMS(nested_items)},
    };
    return item >= 1 && item <= lists[guest].n ? lists[guest].names[item - 1] : "unknown-item";
}

static int fail(const char *what)
{
    fprintf(stderr, "kvm_vmm: %s: %s\n", what, strerror(errno));
    return 2;
}

static int set_reg(int vcpu, uint64_t id, uint64_t value)
{
    struct kvm_one_reg reg = {.id = id, .addr = (uint64_t)(uintptr_t)&value};
    return ioctl(vcpu, KVM_SET_ONE_REG, &reg);
}

/* the core register at OFFSET in struct kvm_regs (KVM's id: its offset in
 * 32-bit words) */
static uint64_t core_reg(size_t offset)
{
    return KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | (offset / sizeof(uint32_t));
}

/* What the guest's reports say so far: the item being reported, and
 * whether its MRS took an exception */
struct reports {
    int guest; /* enum guest: whose items */
    uint64_t item;
    int trapped;
    uint64_t pc, elr;
    uint64_t ticks;
};

/* one store of the guest to the MMIO page; 1 when the guest is done,
 * -1 when it stopped, 0 to go on */
static int report(struct reports *r, uint64_t offset, uint64_t value)
{
    switch (offset) {
    case 0x00:
        r->item = value;
        r->trapped = 0;
        r->pc = r->elr = 0;
        return 0;
    case 0x30:
        r->pc = value;
        return 0;
    case 0x38:
        r->elr = value;
        return 0;
    case 0x08:
        if (r->item == 1 && r->guest != GUEST_NESTED)
            printf("kvm: loop %" PRIu64 "\n", value);
        else if (!r->trapped || value != POISON)
            printf("kvm: %s 0x%016" PRIx64 " pc 0x%" PRIx64 "\n", item_name(r->item, r->guest),
                   value, r->pc);
        return 0;
    case 0x10:
        r->trapped = 1;
        printf("kvm: %s esr 0x%08" PRIx64 " pc 0x%" PRIx64 " elr 0x%" PRIx64 "\n",
               item_name(r->item, r->guest), value, r->pc, r->elr);
        return 0;
    case 0x18:
        if (r->ticks) printf("kvm: ticks %" PRIu64 "\n", r->ticks);
        printf("kvm: done\n");
        return 1;
    case 0x40:
        r->ticks++;
        return 0;
    case 0x28:
        if (!r->trapped)
            printf("kvm: %s 0x%016" PRIx64 " pc 0x%" PRIx64 "\n", item_name(r->item, r->guest),
                   value, r->pc);
        return 0;
    case 0x20:
        printf("kvm: unexpected vector 0x%03" PRIx64 "\n", value);
        return -1;
    default:
        printf("kvm: store to GUEST_MMIO + 0x%" PRIx64 " (0x%" PRIx64 ")\n", offset, value);
        return -1;
    }
}

static int run(int vcpu, struct kvm_run *kr, uint64_t repeats, int guest)
{
    struct reports r = {guest, 0, 0, 0, 0, 0};
    for (uint64_t n = 0; n < MAX_EXITS + repeats; n++) {
        if (ioctl(vcpu, KVM_RUN, 0) < 0) {
            if (errno == EINTR) continue;
            return fail("KVM_RUN");
        }
        if (kr->exit_reason != KVM_EXIT_MMIO) {
            printf("kvm: exit reason %u\n", kr->exit_reason);
            return 1;
        }
        uint64_t value = 0;
        if (!kr->mmio.is_write || kr->mmio.len > sizeof value || kr->mmio.phys_addr < GUEST_MMIO ||
            kr->mmio.phys_addr >= GUEST_MMIO + 0x1000) {
            printf("kvm: %s of %u bytes at 0x%" PRIx64 "\n", kr->mmio.is_write ? "store" : "load",
                   kr->mmio.len, (uint64_t)kr->mmio.phys_addr);
            return 1;
        }
        memcpy(&value, kr->mmio.data, kr->mmio.len); /* little-endian, as the guest */
        int done = report(&r, kr->mmio.phys_addr - GUEST_MMIO, value);
        fflush(stdout);
        if (done) return done > 0 ? 0 : 1;
    }
    printf("kvm: %" PRIu64 " exits without done\n", MAX_EXITS + repeats);
    return 1;
}

/* The host's loops: separate functions, not inlined, so that a record's PC
 * says which one it sampled; the asm keeps the loop from being folded. */
static __attribute__((noinline)) uint64_t host_spin(uint64_t n)
{
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        sum += i;
        __asm__ volatile("" : "+r"(sum));
    }
    return sum;
}

static __attribute__((noinline)) uint64_t host_spin_after(uint64_t n)
{
    uint64_t sum = 1;
    for (uint64_t i = 0; i < n; i++) {
        sum ^= i;
        __asm__ volatile("" : "+r"(sum));
    }
    return sum;
}

static int usage(void)
{
    fprintf(stderr, "usage: kvm_vmm [repeat N | pmu | nested | spin N | spin-after N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    uint64_t repeats = 0;
    int pmu = 0, nested = 0;
    if (argc == 2 && !strcmp(argv[1], "pmu")) {
        pmu = 1;
    } else if (argc == 2 && !strcmp(argv[1], "nested")) {
        nested = 1;
    } else if (argc == 3) {
        char *end;
        const uint64_t n = strtoull(argv[2], &end, 0);
        if (*end || !*argv[2]) return usage();
        if (!strcmp(argv[1], "spin") || !strcmp(argv[1], "spin-after")) {
            const int after = argv[1][4] == '-';
            printf("kvm_vmm: %s %p\n", after ? "host_spin_after" : "host_spin",
                   after ? (void *)host_spin_after : (void *)host_spin);
            const uint64_t sum = after ? host_spin_after(n) : host_spin(n);
            printf("kvm_vmm: %s done (%" PRIu64 ")\n", argv[1], sum);
            return 0;
        }
        if (strcmp(argv[1], "repeat")) return usage();
        repeats = n;
    } else if (argc != 1) {
        return usage();
    }
    int kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (kvm < 0) return fail("/dev/kvm");
    int version = ioctl(kvm, KVM_GET_API_VERSION, 0);
    if (version != KVM_API_VERSION) {
        fprintf(stderr, "kvm_vmm: KVM API version %d, not %d\n", version, KVM_API_VERSION);
        return 2;
    }
    int vm = ioctl(kvm, KVM_CREATE_VM, 0);
    if (vm < 0) return fail("KVM_CREATE_VM");
    void *ram =
        mmap(NULL, GUEST_RAM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ram == MAP_FAILED) return fail("mmap of the guest's memory");
    const int guest = pmu ? GUEST_PMU : nested ? GUEST_NESTED : GUEST_PLAIN;
    static const struct {
        const char *start, *end;
    } programs[] = {
        [GUEST_PLAIN] = {kvm_guest_start, kvm_guest_end},
        [GUEST_PMU] = {kvm_pmu_guest_start, kvm_pmu_guest_end},
        [GUEST_NESTED] = {kvm_nested_guest_start, kvm_nested_guest_end},
    };
    const char *start = programs[guest].start;
    size_t size = (size_t)(programs[guest].end - start);
    memcpy(ram, start, size);
    struct kvm_userspace_memory_region region = {
        .slot = 0,
        .guest_phys_addr = GUEST_RAM,
        .memory_size = GUEST_RAM_SIZE,
        .userspace_addr = (uint64_t)(uintptr_t)ram,
    };
    if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region) < 0)
        return fail("KVM_SET_USER_MEMORY_REGION");
    /* KVM's PMU needs the in-kernel GIC, made before the vCPU and
     * initialised after it (Documentation/virt/kvm/devices/vcpu.rst) */
    int gic = -1;
    if (pmu || nested) {
        struct kvm_create_device dev = {.type = KVM_DEV_TYPE_ARM_VGIC_V3};
        if (ioctl(vm, KVM_CREATE_DEVICE, &dev) < 0) return fail("KVM_CREATE_DEVICE VGIC_V3");
        gic = (int)dev.fd;
        uint64_t dist = GUEST_GICD, redist = GUEST_GICR;
        struct kvm_device_attr a = {.group = KVM_DEV_ARM_VGIC_GRP_ADDR,
                                    .attr = KVM_VGIC_V3_ADDR_TYPE_DIST,
                                    .addr = (uint64_t)(uintptr_t)&dist};
        if (ioctl(gic, KVM_SET_DEVICE_ATTR, &a) < 0) return fail("the GIC distributor's address");
        a.attr = KVM_VGIC_V3_ADDR_TYPE_REDIST;
        a.addr = (uint64_t)(uintptr_t)&redist;
        if (ioctl(gic, KVM_SET_DEVICE_ATTR, &a) < 0) return fail("the GIC redistributor's address");
    }
    int vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
    if (vcpu < 0) return fail("KVM_CREATE_VCPU");
    struct kvm_vcpu_init init;
    if (ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init) < 0) return fail("KVM_ARM_PREFERRED_TARGET");
    if (pmu) init.features[0] |= 1u << KVM_ARM_VCPU_PMU_V3;
    if (nested) init.features[0] |= 1u << KVM_ARM_VCPU_HAS_EL2;
    if (ioctl(vcpu, KVM_ARM_VCPU_INIT, &init) < 0) return fail("KVM_ARM_VCPU_INIT");
    if (nested) {
        struct kvm_device_attr g = {.group = KVM_DEV_ARM_VGIC_GRP_CTRL,
                                    .attr = KVM_DEV_ARM_VGIC_CTRL_INIT};
        if (ioctl(gic, KVM_SET_DEVICE_ATTR, &g) < 0) return fail("KVM_DEV_ARM_VGIC_CTRL_INIT");
    }
    if (pmu) {
        int irq = GUEST_PMUIRQ;
        struct kvm_device_attr a = {.group = KVM_ARM_VCPU_PMU_V3_CTRL,
                                    .attr = KVM_ARM_VCPU_PMU_V3_IRQ,
                                    .addr = (uint64_t)(uintptr_t)&irq};
        if (ioctl(vcpu, KVM_SET_DEVICE_ATTR, &a) < 0) return fail("KVM_ARM_VCPU_PMU_V3_IRQ");
        struct kvm_device_attr g = {.group = KVM_DEV_ARM_VGIC_GRP_CTRL,
                                    .attr = KVM_DEV_ARM_VGIC_CTRL_INIT};
        if (ioctl(gic, KVM_SET_DEVICE_ATTR, &g) < 0) return fail("KVM_DEV_ARM_VGIC_CTRL_INIT");
        a.attr = KVM_ARM_VCPU_PMU_V3_INIT;
        a.addr = 0;
        if (ioctl(vcpu, KVM_SET_DEVICE_ATTR, &a) < 0) return fail("KVM_ARM_VCPU_PMU_V3_INIT");
    }
    int run_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
    if (run_size < (int)sizeof(struct kvm_run)) return fail("KVM_GET_VCPU_MMAP_SIZE");
    struct kvm_run *kr = mmap(NULL, (size_t)run_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
    if (kr == MAP_FAILED) return fail("mmap of kvm_run");
    /* EL1h (M[3:0] 0b0101), or EL2h (0b1001) for the guest hypervisor,
     * DAIF masked */
    if (set_reg(vcpu, core_reg(offsetof(struct kvm_regs, regs.pstate)), nested ? 0x3c9 : 0x3c5) < 0)
        return fail("KVM_SET_ONE_REG PSTATE");
    if (set_reg(vcpu, core_reg(offsetof(struct kvm_regs, regs.pc)), GUEST_RAM) < 0)
        return fail("KVM_SET_ONE_REG PC");
    if (set_reg(vcpu, core_reg(offsetof(struct kvm_regs, regs.regs[19])), repeats) < 0)
        return fail("KVM_SET_ONE_REG X19");
    printf("kvm: vcpu target %u, guest %zu bytes at 0x%x\n", init.target, size, GUEST_RAM);
    return run(vcpu, kr, repeats, guest);
}
