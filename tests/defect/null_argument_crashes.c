/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 44, part 10: armprof_retire_run(NULL, ...) and (pe, NULL) crashed,
 * against armprof.h's rule for arguments: a function that reports failure
 * (false, NULL, 0 or -1) reports it for a NULL pointer argument too, err
 * may be NULL whatever errlen says, and a NULL that a comment allows does
 * what the comment says. Every public function of armprof.h, config.h,
 * memory.h, decode.h and kernel.h that the rule makes safe is called here
 * with each such NULL, each call in a child process of its own, so that
 * one crash does not hide the next: the report names every call that
 * crashes or gives another result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "armprof/armprof.h"
#include "armprof/decode.h"
#include "armprof/kernel.h"

/* A case returns true when the calls gave what the headers say. */
typedef bool (*null_case)(armprof_pe *pe);

static armprof_pe *make_pe(void)
{
    armprof_config c;
    char err[160];
    if (!armprof_config_preset(&c, "armv9.4-all")) return NULL;
    return armprof_pe_create(&c, err, sizeof err);
}

static int reg_id(const char *name)
{
    return armprof_reg_lookup(name, NULL);
}

/* ---- armprof.h: the PE ---- */

static bool retire_run_null_pe(armprof_pe *pe)
{
    (void)pe;
    armprof_op_run run = ARMPROF_OP_RUN_INIT;
    run.ops = 1;
    return !armprof_retire_run(NULL, &run);
}

static bool retire_run_null_run(armprof_pe *pe)
{
    const uint64_t before = armprof_reg_get(pe, reg_id("PMSICR_EL1"), 0);
    return !armprof_retire_run(pe, NULL) && !armprof_retire_run(NULL, NULL) &&
           armprof_reg_get(pe, reg_id("PMSICR_EL1"), 0) == before;
}

static bool checkpoints(armprof_pe *pe)
{
    uint8_t buf[16];
    char err[128] = "";
    bool ok = armprof_checkpoint_size(NULL) == 0 &&
              armprof_checkpoint_save(NULL, buf, sizeof buf) == 0 &&
              armprof_checkpoint_save(pe, NULL, 1u << 30) == 0 &&
              !armprof_checkpoint_restore(NULL, buf, sizeof buf, err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_checkpoint_restore(pe, NULL, 0, err, sizeof err) && err[0];
    return ok && !armprof_checkpoint_restore(pe, NULL, 0, NULL, 128);
}

static bool create_destroy_config(armprof_pe *pe)
{
    (void)pe;
    char err[128] = "";
    armprof_pe_destroy(NULL);
    return armprof_pe_create(NULL, err, sizeof err) == NULL && err[0] &&
           armprof_pe_create(NULL, NULL, 128) == NULL && armprof_pe_config(NULL) == NULL;
}

static bool context_setters(armprof_pe *pe)
{
    char err[128] = "";
    bool ok = !armprof_set_el(NULL, 1, err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_set_security_state(NULL, ARMPROF_SS_SECURE, err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_set_aarch32(NULL, 0, true, err, sizeof err) && err[0];
    /* err NULL with a length: no message, and no write through NULL */
    ok = ok && !armprof_set_el(NULL, 1, NULL, 128) && !armprof_set_el(pe, 7, NULL, 128) &&
         !armprof_set_security_state(pe, (armprof_security_state)9, NULL, 128) &&
         !armprof_set_aarch32(pe, 9, true, NULL, 128);
    return ok;
}

static bool el_using_aarch32(armprof_pe *pe)
{
    (void)pe;
    return !armprof_el_using_aarch32(NULL, 0) && !armprof_el_using_aarch32(NULL, 1);
}

static bool spe_queries(armprof_pe *pe)
{
    uint64_t v = 5;
    unsigned el = 9;
    bool ok = !armprof_spe_profiling_enabled(NULL, 1) && !armprof_spe_value(NULL, "owner_el", &v) &&
              v == 5 && !armprof_spe_value(pe, NULL, &v) &&
              !armprof_spe_value(pe, "owner_el", NULL);
    /* either pointer may be NULL */
    const bool enabled = armprof_spe_buffer_owner(pe, NULL, NULL);
    ok = ok && enabled == armprof_spe_buffer_enabled(pe);
    const bool pending = armprof_spe_exception(pe, NULL);
    ok = ok && pending == armprof_spe_exception(pe, &el);
    return ok;
}

static bool pmu_event_number(armprof_pe *pe)
{
    (void)pe;
    return armprof_pmu_event_number(NULL) == -1;
}

static bool callbacks_removed(armprof_pe *pe)
{
    /* fn NULL removes (irq callback, sink, buffer hook, provider) */
    armprof_set_irq_callback(pe, NULL, NULL);
    armprof_spe_set_sink(pe, NULL, NULL);
    armprof_spe_set_buffer_hook(pe, NULL, NULL);
    return armprof_set_reg_provider(pe, NULL, NULL, 0, NULL, NULL, NULL, 128);
}

static void no_values(void *ctx, uint64_t *values)
{
    (void)ctx;
    (void)values;
}

static bool reg_provider(armprof_pe *pe)
{
    char err[128] = "";
    bool ok =
        !armprof_set_reg_provider(NULL, NULL, NULL, 0, no_values, NULL, err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_set_reg_provider(pe, NULL, NULL, 1, no_values, NULL, err, sizeof err) &&
         err[0];
    return ok && !armprof_set_reg_provider(pe, NULL, NULL, 1, no_values, NULL, NULL, 128);
}

static int fields_seen;
static void count_field(void *ctx, const char *name, unsigned hi, unsigned lo, const char *kind,
                        bool present)
{
    (void)ctx, (void)name, (void)hi, (void)lo, (void)kind, (void)present;
    fields_seen++;
}

static bool register_table(armprof_pe *pe)
{
    const int pmscr = reg_id("PMSCR_EL1");
    unsigned hi = 0, lo = 0, index = 3;
    char buf[32];
    bool ok = pmscr >= 0 && armprof_reg_lookup(NULL, &index) == -1 &&
              !armprof_reg_field(pmscr, NULL, &hi, &lo) &&
              armprof_reg_field(pmscr, "E1SPE", NULL, NULL) &&
              armprof_reg_instance_name(reg_id("PMEVCNTR0_EL0"), 1, NULL, sizeof buf) == NULL;
    armprof_reg_foreach_field(pe, pmscr, NULL, NULL);
    return ok;
}

static bool reg_present_null(armprof_pe *pe)
{
    (void)pe;
    return !armprof_reg_present(NULL, reg_id("PMSCR_EL1"));
}

static bool reg_get_null(armprof_pe *pe)
{
    (void)pe;
    return armprof_reg_get(NULL, reg_id("PMSCR_EL1"), 0) == 0;
}

static bool reg_set_null(armprof_pe *pe)
{
    (void)pe;
    armprof_reg_set(NULL, reg_id("PMSCR_EL1"), 0, 1);
    return true;
}

static bool reg_foreach_field_null(armprof_pe *pe)
{
    (void)pe;
    fields_seen = 0;
    armprof_reg_foreach_field(NULL, reg_id("PMSCR_EL1"), count_field, NULL);
    return fields_seen == 0;
}

static bool ext_reg_present_null(armprof_pe *pe)
{
    (void)pe;
    return !armprof_ext_reg_present(NULL, 0);
}

static bool external_how_null(armprof_pe *pe)
{
    /* how NULL stands for {Non-secure, not memory-mapped} */
    const armprof_ext_access ns = {ARMPROF_PAS_NONSECURE, false};
    const armprof_ext_outcome a = armprof_external_read(pe, 0xe00, 4, NULL);
    const armprof_ext_outcome b = armprof_external_read(pe, 0xe00, 4, &ns);
    return a.kind == b.kind && a.value == b.value;
}

/* ---- memory.h ---- */

static bool mem_region_at_null(armprof_pe *pe)
{
    (void)pe;
    return armprof_mem_region_at(NULL, ARMPROF_PAS_NONSECURE, 0) == NULL;
}

static bool mem_read_null(armprof_pe *pe)
{
    (void)pe;
    uint8_t got[8];
    memset(got, 0xa5, sizeof got);
    armprof_mem_read(NULL, ARMPROF_PAS_NONSECURE, 0, got, sizeof got);
    for (size_t i = 0; i < sizeof got; i++)
        if (got[i]) return false;
    return armprof_mem_read64(NULL, ARMPROF_PAS_NONSECURE, 0) == 0;
}

static bool mem_write_null(armprof_pe *pe)
{
    (void)pe;
    const uint8_t b[4] = {1, 2, 3, 4};
    armprof_mem_write(NULL, ARMPROF_PAS_NONSECURE, 0, b, sizeof b);
    armprof_mem_write64(NULL, ARMPROF_PAS_NONSECURE, 0, 1);
    armprof_mem_clear_regions(NULL);
    armprof_mem_set_observer(NULL, NULL, NULL);
    return true;
}

static bool mem_documented(armprof_pe *pe)
{
    armprof_mem *mem = armprof_pe_memory(pe);
    char err[128] = "";
    armprof_mem_region r = {.base = 0x1000, .size = 0x1000, .pas = -1};
    bool ok = mem && !armprof_mem_add_region(NULL, &r, err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_mem_add_region(mem, NULL, err, sizeof err) && err[0] &&
         !armprof_mem_add_region(mem, NULL, NULL, 128);
    armprof_mem_read(mem, ARMPROF_PAS_NONSECURE, 0, NULL, 0);
    armprof_mem_write(mem, ARMPROF_PAS_NONSECURE, 0, NULL, 0);
    armprof_mem_set_observer(mem, NULL, NULL);
    armprof_mem_destroy(NULL);
    return ok;
}

static bool pe_memory_null(armprof_pe *pe)
{
    (void)pe;
    return armprof_pe_memory(NULL) == NULL;
}

/* ---- config.h ---- */

static bool config_functions(armprof_pe *pe)
{
    (void)pe;
    armprof_config c;
    char err[128] = "";
    uint64_t v = 7;
    bool ok = armprof_config_preset(&c, "minimal") && !armprof_config_preset(NULL, "minimal") &&
              !armprof_config_preset(&c, NULL) && armprof_feature_lookup(NULL) == -1 &&
              armprof_option_lookup(NULL) == -1 && !armprof_parse_number(NULL, &v) && v == 7 &&
              !armprof_parse_number("1", NULL);
    ok = ok && !armprof_config_set(NULL, "FEAT_SPE", "on", err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_config_set(&c, NULL, "on", err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_config_set(&c, "FEAT_SPE", NULL, err, sizeof err) && err[0];
    err[0] = 0;
    ok = ok && !armprof_config_validate(NULL, err, sizeof err) && err[0];
    ok = ok && !armprof_config_set(&c, "FEAT_SPE", NULL, NULL, 128) &&
         !armprof_config_set(&c, "no_such_option", "1", NULL, 128) &&
         !armprof_config_validate(NULL, NULL, 128);
    armprof_config_drop_feature(NULL, ARMPROF_FEAT_SPE);
    /* value and doc may be NULL */
    ok = ok && armprof_option_value_at(ARMPROF_OPT_PCSR_UNKNOWN_SAMPLE, 0, NULL, NULL) != NULL;
    return ok;
}

/* ---- decode.h ---- */

static bool decode_functions(armprof_pe *pe)
{
    (void)pe;
    armprof_spe_decoder d;
    armprof_spe_packet p;
    armprof_spe_record r;
    memset(&r, 0, sizeof r);
    armprof_spe_decoder_init(&d, NULL, 64); /* data NULL: an empty stream */
    bool ok = armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_EOF;
    static const uint8_t end = 0x01;
    armprof_spe_decoder_init(&d, &end, 1);
    ok = ok && armprof_spe_next_packet(&d, &p) == ARMPROF_SPE_DECODE_OK;
    ok = ok && !armprof_spe_record_add_packet(NULL, &p) && !armprof_spe_record_add_packet(&r, NULL);
    char one[1];
    const int n = armprof_spe_packet_text(&p, NULL, 0);
    ok = ok && n > 0 && armprof_spe_packet_text(&p, one, 0) == n &&
         armprof_spe_packet_json(&p, NULL, 0) > 0;
    return ok;
}

/* ---- kernel.h: boot reports failure as NULL with a message ---- */

static bool kernel_boot_null(armprof_pe *pe)
{
    armprof_kernel_params params;
    armprof_kernel_params_default(&params);
    char err[128] = "";
    bool ok = armprof_kernel_boot(NULL, &params, err, sizeof err) == NULL && err[0];
    err[0] = 0;
    ok = ok && armprof_kernel_boot(pe, NULL, err, sizeof err) == NULL && err[0];
    return ok && armprof_kernel_boot(NULL, &params, NULL, 128) == NULL &&
           armprof_kernel_boot(pe, NULL, NULL, 128) == NULL;
}

static const struct {
    const char *name;
    null_case fn;
} cases[] = {
#define CASE(f)                                                                                    \
    {                                                                                              \
#f, f                                                                                      \
    }
    CASE(retire_run_null_pe),    CASE(retire_run_null_run), CASE(checkpoints),
    CASE(create_destroy_config), CASE(context_setters),     CASE(el_using_aarch32),
    CASE(spe_queries),           CASE(pmu_event_number),    CASE(callbacks_removed),
    CASE(reg_provider),          CASE(register_table),      CASE(reg_present_null),
    CASE(reg_get_null),          CASE(reg_set_null),        CASE(reg_foreach_field_null),
    CASE(ext_reg_present_null),  CASE(external_how_null),   CASE(mem_region_at_null),
    CASE(mem_read_null),         CASE(mem_write_null),      CASE(mem_documented),
    CASE(pe_memory_null),        CASE(config_functions),    CASE(decode_functions),
    CASE(kernel_boot_null),
#undef CASE
};

int main(void)
{
    unsigned failed = 0;
    const size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++) {
        fflush(NULL);
        const pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            armprof_pe *pe = make_pe();
            if (!pe) _exit(3);
            const bool ok = cases[i].fn(pe);
            armprof_pe_destroy(pe);
            _exit(ok ? 0 : 1);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            return 1;
        }
        if (WIFSIGNALED(status)) {
            printf("%s: crashed (signal %d)\n", cases[i].name, WTERMSIG(status));
            failed++;
        } else if (WEXITSTATUS(status) != 0) {
            printf("%s: %s\n", cases[i].name,
                   WEXITSTATUS(status) == 1 ? "a result other than the header's"
                                            : "failed (a sanitizer's report above, or no PE)");
            failed++;
        }
    }
    printf("%zu passed, %u failed\n", n - failed, failed);
    return failed ? 1 : 0;
}
