/* SPDX-License-Identifier: BSD-3-Clause */
/* The armprof command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armprof/armprof.h"
#include "cli/commands.h"
#include "cli/example.h"
#include "cli/output.h"
#include "scenario/scenario.h"

static int cmd_run(int argc, char **argv)
{
    scenario_options o = {.json = false, .quiet = false, .out = stdout, .err = stderr};
    int first = 0;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (!strcmp(argv[first], "--json"))
            o.json = true;
        else if (!strcmp(argv[first], "--quiet"))
            o.quiet = true;
        else {
            fprintf(stderr, "armprof run: unknown option '%s'\n", argv[first]);
            return 2;
        }
    }
    if (first == argc) {
        fprintf(stderr, "armprof run: no scenario file given\n");
        return 2;
    }
    int worst = 0;
    for (int i = first; i < argc && !cli_write_failed(stdout); i++) {
        const int rc = scenario_run_file(argv[i], &o);
        if (rc > worst) worst = rc;
    }
    return worst;
}

static void print_field(void *ctx, const char *name, unsigned hi, unsigned lo, const char *kind,
                        bool present)
{
    (void)ctx;
    char bits[16];
    if (hi == lo)
        snprintf(bits, sizeof bits, "[%u]", hi);
    else
        snprintf(bits, sizeof bits, "[%u:%u]", hi, lo);
    printf("    %-8s %-20s %s%s\n", bits, name, kind,
           present ? "" : " (RES0 in this configuration)");
}

static int cmd_regs(int argc, char **argv)
{
    const char *preset = "armv9.4-all";
    const char *only = NULL;
    bool fields = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            preset = argv[++i];
        else if (!strcmp(argv[i], "--fields"))
            fields = true;
        else if (argv[i][0] != '-' && !only)
            only = argv[i];
        else {
            fprintf(stderr, "armprof regs: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    armprof_config cfg;
    if (!armprof_config_preset(&cfg, preset)) {
        fprintf(stderr, "armprof regs: unknown preset '%s'\n", preset);
        return 2;
    }
    char err[256];
    armprof_pe *pe = armprof_pe_create(&cfg, err, sizeof err);
    if (!pe) {
        fprintf(stderr, "armprof regs: %s\n", err);
        return 2;
    }
    int found = only == NULL;
    printf("register table (presence for preset %s)\n", preset);
    for (size_t i = 0; i < armprof_reg_count(); i++) {
        const int r = (int)i;
        unsigned idx;
        if (only && armprof_reg_lookup(only, &idx) != r) continue;
        found = 1;
        const uint32_t e = armprof_reg_encoding(r, 0);
        const unsigned n = armprof_reg_instances(r);
        char encoding[32];
        if (e == 0) /* no MRS/MSR form: an external-only control (PMCCR) */
            snprintf(encoding, sizeof encoding, "(no encoding)");
        else
            snprintf(encoding, sizeof encoding, "S%u_%u_C%u_C%u_%u%s", e >> 14 & 3, e >> 11 & 7,
                     e >> 7 & 15, e >> 3 & 15, e & 7, n > 1 ? "+n" : "");
        printf("%-20s %-18s %-12s%s\n", armprof_reg_name(r), encoding,
               armprof_reg_present(pe, r) ? "present" : "not present", n == 0 ? "  alias" : "");
        if (only || fields) armprof_reg_foreach_field(pe, r, print_field, NULL);
    }
    armprof_pe_destroy(pe);
    if (!found) {
        fprintf(stderr, "armprof regs: unknown register '%s'\n", only);
        return 2;
    }
    return 0;
}

static int cmd_presets(void)
{
    for (size_t i = 0; armprof_preset_name(i); i++)
        printf("%-14s %s\n", armprof_preset_name(i), armprof_preset_doc(i));
    return 0;
}

/* Every feature; or for each name given, the presets that implement it. */
static int cmd_features(int argc, char **argv)
{
    if (argc == 0) {
        for (int i = 0; i < ARMPROF_FEAT_COUNT; i++)
            printf("%s\n", armprof_feature_name((armprof_feature)i));
        return 0;
    }
    for (int a = 0; a < argc; a++) {
        const int f = armprof_feature_lookup(argv[a]);
        if (f < 0) {
            fprintf(stderr, "armprof features: unknown feature '%s'\n", argv[a]);
            return 2;
        }
        printf("%s:", armprof_feature_name((armprof_feature)f));
        for (size_t i = 0; armprof_preset_name(i); i++) {
            armprof_config cfg;
            armprof_config_preset(&cfg, armprof_preset_name(i));
            if (armprof_config_has(&cfg, (armprof_feature)f)) printf(" %s", armprof_preset_name(i));
        }
        printf("\n");
    }
    return 0;
}

static int cmd_help(int argc, char **argv)
{
    if (argc == 0) {
        usage(stdout);
        return 0;
    }
    if (argc == 1 && !strcmp(argv[0], "--man")) {
        print_manual_page(stdout);
        return 0;
    }
    if (argc == 1 && !strcmp(argv[0], "--commands")) {
        print_command_names(stdout);
        return 0;
    }
    if (argc == 1 && argv[0][0] != '-') {
        if (command_usage(stdout, argv[0])) return 0;
        fprintf(stderr, "armprof help: no command '%s' ('armprof help' lists them)\n", argv[0]);
        return 2;
    }
    fprintf(stderr, "armprof help: unexpected argument '%s'\n", argv[0]);
    return 2;
}

/* -h or --help anywhere after a command's name: its usage, as git and perf
 * give theirs. */
static bool wants_help(int argc, char **argv)
{
    /* after "--" the arguments are the profiled program's (armprof record) */
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return true;
    return false;
}

/* One line an option; an enumerated option's default is shown by name and
 * its values follow, indented, one a line. */
static int cmd_options(void)
{
    for (int i = 0; i < ARMPROF_OPT_COUNT; i++) {
        const armprof_option o = (armprof_option)i;
        const uint64_t def = armprof_option_default(o);
        const char *def_name = armprof_option_value_name(o, def);
        char def_text[64];
        if (def_name)
            snprintf(def_text, sizeof def_text, "%s", def_name);
        else
            snprintf(def_text, sizeof def_text, "%llu", (unsigned long long)def);
        printf("%-34s %-8s default %-16s %s\n", armprof_option_name(o),
               armprof_option_is_unpredictable(o) ? "UNPRED" : "IMPDEF", def_text,
               armprof_option_doc(o));
        uint64_t v;
        const char *doc;
        const char *name;
        for (size_t k = 0; (name = armprof_option_value_at(o, k, &v, &doc)) != NULL; k++)
            printf("    %-26s = %-4llu %s\n", name, (unsigned long long)v, doc);
    }
    return 0;
}

static int cmd_example(void)
{
    scenario_options o = {.json = false, .quiet = false, .out = stdout, .err = stderr};
    return scenario_run_text("(built-in example)", armprof_example_scenario, &o);
}

static int command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (wants_help(argc, argv) && command_usage(stdout, cmd)) return 0;
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "regs")) return cmd_regs(argc - 2, argv + 2);
    if (!strcmp(cmd, "presets")) return cmd_presets();
    if (!strcmp(cmd, "features")) return cmd_features(argc - 2, argv + 2);
    if (!strcmp(cmd, "options")) return cmd_options();
    if (!strcmp(cmd, "demo")) return demo_command(argc - 2, argv + 2);
    if (!strcmp(cmd, "example")) return cmd_example();
    if (!strcmp(cmd, "decode")) return decode_command(argc - 2, argv + 2);
    if (!strcmp(cmd, "report")) return report_command(argc - 2, argv + 2);
    if (!strcmp(cmd, "perf-data")) return perfdata_command(argc - 2, argv + 2);
    if (!strcmp(cmd, "record")) return record_command(argc - 2, argv + 2);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
        return cmd_help(argc - 2, argv + 2);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        print_version(stdout);
        return 0;
    }
    fprintf(stderr, "armprof: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}

/* Every command's output to stdout is checked here, once, after it
 * returns: a write that failed is status 2 and a message. */
int main(int argc, char **argv)
{
    cli_keep_standard_fds();
    const int rc = command(argc, argv);
    return cli_finish_output(stdout, false, "armprof", "standard output", rc);
}
