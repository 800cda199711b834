/* SPDX-License-Identifier: BSD-3-Clause */
/* System mode (docs/qemu-system.md): in the armprof qemu-system-aarch64
 * the emulator owns each vCPU's PE, which the guest's own kernel programs;
 * the plugin only gives it the operations, on the fast path as in user
 * mode, entering and leaving through the emulator (armprof-system.h) so
 * that the PE is at the vCPU's Exception level and PMBIRQ reaches the GIC.
 *
 *   qemu-system-aarch64 -cpu max,armprof=on -plugin libarmprof_qemu.so ...   (no options)
 */
#include <dlfcn.h>
#include <string.h>

#include "qprof.h"

#if QPROF_SCOREBOARDS
/* The emulator's functions, by name (frontends/qemu-system/glue). */
static bool find(void **fn, const char *name)
{
    *fn = dlsym(RTLD_DEFAULT, name);
    if (*fn) return true;
    fprintf(stderr,
            "armprof: this qemu-system-aarch64 has no %s: system mode needs the armprof "
            "one (frontends/qemu-system/build.sh)\n",
            name);
    return false;
}

bool qp_system_bind(void)
{
    return find((void **)&qp.sys.pe, "armprof_system_pe") &&
           find((void **)&qp.sys.enter, "armprof_system_enter") &&
           find((void **)&qp.sys.leave, "armprof_system_leave") &&
           find((void **)&qp.sys.translate, "armprof_system_translate") &&
           find((void **)&qp.sys.set_exception_hook, "armprof_system_set_exception_hook");
}

/* Just before the vCPU's Exception level changes: what ran at the old one
 * goes to the PE now, and the next TB visits it at the new one (budget 0),
 * where profiling may be otherwise enabled. An exception in the middle of
 * a TB (a load's translation fault) cuts it at stop_pc: the rest did not
 * run, and is not counted (it runs again after the exception returns). */
static void el_change(unsigned vcpu, uint64_t stop_pc, void *ctx)
{
    (void)ctx;
    qp_thread *t = qp_thread_enter(vcpu);
    if (!t) return;
    qp_fast_settle_cut(t, stop_pc);
    qp_counters *c = qp_counters_of(t);
    c->tally = 0;
    c->sample_idx = 0;
    t->synced_budget = 0;
    t->synced_mix = 0;
    qp_visit_end(t);
}

bool qp_system_thread(qp_thread *t)
{
    t->pe = qp.sys.pe(t->vcpu);
    if (!t->pe) {
        fprintf(stderr, "armprof: vCPU %u has no PE: run it with -cpu ...,armprof=on\n", t->vcpu);
        return false;
    }
    t->k = NULL;
    qp.sys.set_exception_hook(t->vcpu, el_change, NULL);
    return true;
}

void qp_system_summary(void)
{
    FILE *out = stderr;
    fprintf(out, "armprof qemu plugin: system mode (the guest programs SPE; timing modelled, not "
                 "measured)\n");
    for (unsigned v = 0; v < QP_MAX_VCPUS; v++) {
        qp_thread *t = qp.threads[v];
        if (!t || !t->pe) continue;
        qp_fast_settle(t, NULL);
        qp_visit_end(t);
        const armprof_spe_stats s = armprof_spe_get_stats(t->pe);
        fprintf(out,
                "vcpu %u: operations %llu, population %llu, samples %llu, records %llu, bytes "
                "%llu, discarded %llu, no_address %llu, no_pa %llu\n",
                v, (unsigned long long)t->retired, (unsigned long long)s.population,
                (unsigned long long)s.selected, (unsigned long long)s.records,
                (unsigned long long)s.bytes, (unsigned long long)s.discarded,
                (unsigned long long)t->no_address, (unsigned long long)t->no_pa);
    }
}
#else
bool qp_system_bind(void)
{
    fprintf(stderr, "armprof: system mode needs QEMU 10.0's plugin API\n");
    return false;
}
bool qp_system_thread(qp_thread *t)
{
    (void)t;
    return false;
}
void qp_system_summary(void) {}
#endif
