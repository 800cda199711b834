/* SPDX-License-Identifier: BSD-3-Clause */
/* What QEMU's plugin interface costs before the plugin does any work: the
 * registrations of the armprof plugin's modes with callbacks that do
 * nothing (bench/qemu.sh prints them beside the plugin's own figures,
 * docs/qemu.md reads them). One source for both plugin APIs.
 *   what=callbacks  a callback per TB and per load or store access (exact
 *                   mode on either QEMU, fast mode on QEMU 7.2)
 *   what=blocks     the callback per TB alone: what the access callbacks
 *                   cost is the difference (QEMU 7.2's fast mode needs them
 *                   for the sampled access's address alone)
 *   what=count      QEMU 10.0: per TB one inline add to a per-vCPU
 *                   scoreboard and a conditional callback that never fires
 *                   (fast mode's counting)
 *   what=visits     QEMU 10.0: as count, the callback firing once every
 *                   interval=N instructions (default 1024) and doing
 *                   nothing but give the countdown N more (fast mode's
 *                   visits at perf's usual interval, without the model) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum floor_what { FLOOR_CALLBACKS, FLOOR_BLOCKS, FLOOR_COUNT, FLOOR_VISITS };

/* Plugin state: QEMU's interface has no context pointer at installation. */
static struct {
    enum floor_what what;
    uint64_t interval;
    uint64_t tbs, accesses, visits; /* one vCPU's counts, for the summary */
#if QEMU_PLUGIN_VERSION >= 2
    struct qemu_plugin_scoreboard *sb;
    qemu_plugin_u64 countdown;
#endif
} floor_state;

static void on_tb(unsigned vcpu, void *udata)
{
    (void)udata;
    if (vcpu == 0) floor_state.tbs++;
}

static void on_access(unsigned vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
    (void)info;
    (void)vaddr;
    (void)udata;
    if (vcpu == 0) floor_state.accesses++;
}

#if QEMU_PLUGIN_VERSION >= 2
static void on_due(unsigned vcpu, void *udata)
{
    (void)udata;
    if (vcpu == 0) floor_state.visits++;
    const qemu_plugin_u64 c = floor_state.countdown;
    qemu_plugin_u64_set(c, vcpu, qemu_plugin_u64_get(c, vcpu) + floor_state.interval);
}

/* The countdown falls by the TB's instructions after the conditional
 * callback, which fires while fewer are left than the TB has: the plugin's
 * arrangement (frontends/qemu/translate.c). */
static void instrument_count(struct qemu_plugin_tb *tb)
{
    const uint64_t n = qemu_plugin_tb_n_insns(tb);
    const bool visits = floor_state.what == FLOOR_VISITS;
    qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, on_due, QEMU_PLUGIN_CB_R_REGS,
                                              QEMU_PLUGIN_COND_LT, floor_state.countdown,
                                              visits ? n : 0, NULL);
    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
        tb, QEMU_PLUGIN_INLINE_ADD_U64, floor_state.countdown, visits ? (uint64_t)0 - n : n);
}
#endif

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
#if QEMU_PLUGIN_VERSION >= 2
    if (floor_state.what == FLOOR_COUNT || floor_state.what == FLOOR_VISITS) {
        instrument_count(tb);
        return;
    }
#endif
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (floor_state.what == FLOOR_BLOCKS) return;
    const size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++)
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_access,
                                         QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    fprintf(stderr, "floor: vCPU 0: %llu TB callbacks, %llu access callbacks, %llu visits\n",
            (unsigned long long)floor_state.tbs, (unsigned long long)floor_state.accesses,
            (unsigned long long)floor_state.visits);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                           char **argv)
{
    (void)info;
    floor_state.what = FLOOR_CALLBACKS;
    floor_state.interval = 1024;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "what=callbacks") == 0) {
            floor_state.what = FLOOR_CALLBACKS;
        } else if (strcmp(argv[i], "what=blocks") == 0) {
            floor_state.what = FLOOR_BLOCKS;
        } else if (strcmp(argv[i], "what=count") == 0 || strcmp(argv[i], "what=visits") == 0) {
#if QEMU_PLUGIN_VERSION >= 2
            floor_state.what = argv[i][5] == 'c' ? FLOOR_COUNT : FLOOR_VISITS;
#else
            fprintf(stderr, "floor: %s needs QEMU's plugin API 2 or later\n", argv[i]);
            return -1;
#endif
        } else if (strncmp(argv[i], "interval=", 9) == 0 && atoll(argv[i] + 9) > 0) {
            floor_state.interval = (uint64_t)atoll(argv[i] + 9);
        } else {
            fprintf(stderr,
                    "floor: unknown argument '%s' (what=callbacks|blocks|count|visits, "
                    "interval=N)\n",
                    argv[i]);
            return -1;
        }
    }
#if QEMU_PLUGIN_VERSION >= 2
    floor_state.sb = qemu_plugin_scoreboard_new(sizeof(uint64_t));
    floor_state.countdown = qemu_plugin_scoreboard_u64(floor_state.sb);
#endif
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
