/* SPDX-License-Identifier: BSD-3-Clause */
/* Configuration: presets validate, each architectural rule rejects a
 * configuration that breaks it with a message naming the conflict, options
 * are range-checked, and the PE refuses an invalid configuration. */
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

/* Every feature on except the first of each mutually exclusive pair. */
static void everything(armprof_config *c)
{
    armprof_config_preset(c, "minimal");
    for (int f = 0; f < ARMPROF_FEAT_COUNT; f++)
        armprof_config_set_feature(c, (armprof_feature)f, true);
#define RULE_REQUIRES(a, b, why)
#define RULE_EXCLUDES(a, b, why) armprof_config_set_feature(c, ARMPROF_FEAT_##a, false);
#include "core/config_rules.def"
#undef RULE_REQUIRES
#undef RULE_EXCLUDES
    armprof_config_set(c, "num_event_counters", "31", NULL, 0);
}

static bool rejected_with(const armprof_config *c, const char *text, char *err, size_t len)
{
    return !armprof_config_validate(c, err, len) && strstr(err, text) != NULL;
}

int main(void)
{
    armprof_config c;
    char err[256];

    for (size_t i = 0; armprof_preset_name(i); i++) {
        CHECK(armprof_config_preset(&c, armprof_preset_name(i)), "preset %zu", i);
        CHECK(armprof_config_validate(&c, err, sizeof err), "preset %s: %s", armprof_preset_name(i),
              err);
    }
    CHECK(!armprof_config_preset(&c, "no-such-preset"), "unknown preset accepted");

    everything(&c);
    CHECK(armprof_config_validate(&c, err, sizeof err), "all features: %s", err);

    /* Each rule of the table, broken on its own. */
#define RULE_REQUIRES(a, b, why)                                                                   \
    everything(&c);                                                                                \
    armprof_config_set_feature(&c, ARMPROF_FEAT_##b, false);                                       \
    CHECK(rejected_with(&c, "requires " #b " (", err, sizeof err) ||                               \
              rejected_with(&c, "requires FEAT_" #b " (", err, sizeof err),                        \
          #a " without " #b ": %s", err);
#define RULE_EXCLUDES(a, b, why)                                                                   \
    everything(&c);                                                                                \
    armprof_config_set_feature(&c, ARMPROF_FEAT_##a, true);                                        \
    CHECK(rejected_with(&c, "conflicts with", err, sizeof err), #a " with " #b ": %s", err);
#include "core/config_rules.def"
#undef RULE_REQUIRES
#undef RULE_EXCLUDES

    /* The conflicts the issue names, with the exact message. */
    armprof_config_preset(&c, "armv8.2-spe");
    armprof_config_set_feature(&c, ARMPROF_FEAT_PCSRv8, true);
    CHECK(rejected_with(&c, "FEAT_PCSRv8 conflicts with FEAT_PCSRv8p2", err, sizeof err), "%s",
          err);
    armprof_config_preset(&c, "minimal");
    armprof_config_set_feature(&c, ARMPROF_FEAT_PMUv3_SS, true);
    CHECK(rejected_with(&c, "FEAT_PMUv3_SS requires FEAT_PMUv3", err, sizeof err), "%s", err);
    armprof_config_preset(&c, "armv8.4-nv");
    armprof_config_set_feature(&c, ARMPROF_FEAT_NV, false);
    CHECK(rejected_with(&c, "FEAT_NV2 requires FEAT_NV", err, sizeof err), "%s", err);
    armprof_config_preset(&c, "minimal");
    armprof_config_set_feature(&c, ARMPROF_FEAT_AA64, false);
    CHECK(
        rejected_with(&c, "without FEAT_AA64 every Exception level needs AArch32", err, sizeof err),
        "%s", err);

    /* Options: names, ranges, numbers. */
    armprof_config_preset(&c, "armv9.4-all");
    CHECK(!armprof_config_set(&c, "num_event_counters", "32", err, sizeof err) &&
              strstr(err, "num_event_counters") && strstr(err, "0..31"),
          "num_event_counters 32: %s", err);
    CHECK(!armprof_config_set(&c, "num_event_counters", "six", err, sizeof err) &&
              strstr(err, "not a number"),
          "%s", err);
    CHECK(!armprof_config_set(&c, "no_such_option", "1", err, sizeof err) &&
              strstr(err, "no_such_option"),
          "%s", err);
    CHECK(!armprof_config_set(&c, "FEAT_SPE", "maybe", err, sizeof err) && strstr(err, "maybe"),
          "%s", err);
    CHECK(armprof_config_set(&c, "pmsidr_interval", "0x8", err, sizeof err), "hex: %s", err);
    CHECK(armprof_config_set(&c, "pa_size", "50", err, sizeof err), "%s", err);
    CHECK(rejected_with(&c, "pa_size", err, sizeof err), "pa_size 50: %s", err);
    armprof_config_set(&c, "pa_size", "56", NULL, 0);
    armprof_config_set_feature(&c, ARMPROF_FEAT_D128, false);
    CHECK(rejected_with(&c, "FEAT_D128", err, sizeof err), "pa_size 56 without D128: %s", err);
    armprof_config_preset(&c, "minimal");
    armprof_config_set(&c, "num_event_counters", "4", NULL, 0);
    CHECK(rejected_with(&c, "FEAT_PMUv3", err, sizeof err), "counters without PMU: %s", err);
    armprof_config_preset(&c, "armv8.2-spe");
    armprof_config_set(&c, "secure_only_implementation", "1", NULL, 0);
    CHECK(rejected_with(&c, "secure_only_implementation", err, sizeof err), "%s", err);

    /* PMBIDR_EL1.EA 0b0000 and F 0 are not permitted from Armv8.8
     * (registers/PMBIDR_EL1.md; FEAT_SPEv1p3), and EA 0 cannot go with
     * FEAT_SPE_EXC (DebugWriteExternalAbort()'s assertion). armv8.2-spe
     * may use both. */
    armprof_config_preset(&c, "armv8.2-spe");
    armprof_config_set(&c, "pmbidr_ea", "0", NULL, 0);
    armprof_config_set(&c, "pmbidr_f", "0", NULL, 0);
    CHECK(armprof_config_validate(&c, err, sizeof err), "armv8.2-spe EA 0, F 0: %s", err);
    armprof_config_preset(&c, "armv9.4-all");
    armprof_config_set(&c, "pmbidr_ea", "0", NULL, 0);
    CHECK(rejected_with(&c, "pmbidr_ea", err, sizeof err), "armv9.4 EA 0: %s", err);
    armprof_config_preset(&c, "armv9.4-all");
    armprof_config_set(&c, "pmbidr_f", "0", NULL, 0);
    CHECK(rejected_with(&c, "pmbidr_f", err, sizeof err), "armv9.4 F 0: %s", err);

    /* Record size bounds (spe/record.c). A record's largest form, from the
     * packet sizes of D18 (header + payload): two Context packets 2 x (1+4),
     * Counter packets 3 x (1+2) (4 with FEAT_SPE_ALTCLK), a load's three
     * Address packets 3 x (1+8), Data Source 1+2, Operation Type 1+1, Events
     * 1+2 (SPEv1) or 1+4 (SPEv1p4), Timestamp 1+8. armv8.2-spe: 63 bytes,
     * fits MaxSize 6 (64); armv9.4-all: 10+12+27+3+2+5+9 = 68, needs 7. */
    armprof_config_preset(&c, "armv8.2-spe");
    armprof_config_set(&c, "pmsidr_maxsize", "6", NULL, 0);
    CHECK(armprof_config_validate(&c, err, sizeof err), "armv8.2-spe MaxSize 6: %s", err);
    armprof_config_set(&c, "pmbidr_align", "7", NULL, 0); /* padded to 128 */
    CHECK(rejected_with(&c, "pmsidr_maxsize", err, sizeof err), "align 7, MaxSize 6: %s", err);
    armprof_config_preset(&c, "armv9.4-all");
    armprof_config_set(&c, "pmsidr_maxsize", "6", NULL, 0);
    CHECK(rejected_with(&c, "pmsidr_maxsize", err, sizeof err), "armv9.4 MaxSize 6: %s", err);
    armprof_config_set(&c, "pmsidr_maxsize", "7", NULL, 0);
    CHECK(armprof_config_validate(&c, err, sizeof err), "armv9.4 MaxSize 7: %s", err);
    /* Events 23:19 (FEAT_SPEv1p4) need a 4-byte Events payload. */
    armprof_config_set(&c, "spe_events_payload_bytes", "2", NULL, 0);
    CHECK(rejected_with(&c, "spe_events_payload_bytes", err, sizeof err), "2-byte events: %s", err);
    armprof_config_set(&c, "spe_events_payload_bytes", "3", NULL, 0);
    CHECK(rejected_with(&c, "spe_events_payload_bytes", err, sizeof err), "3-byte events: %s", err);
    armprof_config_set(&c, "spe_events_payload_bytes", "0", NULL, 0);
    armprof_config_set(&c, "spe_data_source_bytes", "0", NULL, 0);
    CHECK(rejected_with(&c, "FEAT_SPE_FDS", err, sizeof err), "FDS without Data Source: %s", err);

    /* Names. */
    CHECK(armprof_feature_lookup("FEAT_PMUv3_SS") == ARMPROF_FEAT_PMUv3_SS, "feature by name");
    CHECK(armprof_feature_lookup("PMUv3_SS") == ARMPROF_FEAT_PMUv3_SS, "feature without FEAT_");
    CHECK(armprof_feature_lookup("FEAT_NOPE") < 0, "unknown feature");

    /* Named values (option_values.def): each in its option's range, unique
     * in its option by name and by value, and an enumerated option's default
     * is one of them; armprof_config_set() takes the name for the number. */
    for (int i = 0; i < ARMPROF_OPT_COUNT; i++) {
        const armprof_option o = (armprof_option)i;
        const char *name;
        uint64_t v;
        size_t n = 0;
        for (size_t k = 0; (name = armprof_option_value_at(o, k, &v, NULL)) != NULL; k++, n++) {
            CHECK(armprof_option_value_name(o, v) == name, "%s: value %llu named twice",
                  armprof_option_name(o), (unsigned long long)v);
            for (size_t j = 0; j < k; j++)
                CHECK(strcmp(armprof_option_value_at(o, j, NULL, NULL), name) != 0,
                      "%s: name %s twice", armprof_option_name(o), name);
            armprof_config_preset(&c, "armv9.4-all");
            CHECK(armprof_config_set(&c, armprof_option_name(o), name, err, sizeof err) &&
                      c.options[o] == v,
                  "%s %s: %s", armprof_option_name(o), name, err);
        }
        if (n > 0)
            CHECK(armprof_option_value_name(o, armprof_option_default(o)) != NULL,
                  "%s: the default has no name", armprof_option_name(o));
    }
    CHECK(armprof_option_value_at(ARMPROF_OPT_NUM_EVENT_COUNTERS, 0, NULL, NULL) == NULL,
          "a count has no value names");
    armprof_config_preset(&c, "armv9.4-all");
    CHECK(armprof_config_set(&c, "Unpredictable_SPE_BADPTR", "ALIGNMENT_FAULT", err, sizeof err) &&
              c.options[ARMPROF_OPT_UNPRED_SPE_BADPTR] == ARMPROF_UNPRED_SPE_BADPTR_ALIGNMENT_FAULT,
          "by name: %s", err);
    CHECK(!armprof_config_set(&c, "Unpredictable_SPE_BADPTR", "FAULT", err, sizeof err) &&
              strstr(err, "ALIGNMENT_FAULT=3"),
          "a name of another option's value: %s", err);
    CHECK(!armprof_config_set(&c, "num_event_counters", "TRUE", err, sizeof err) &&
              strstr(err, "not a number"),
          "a name for a count: %s", err);
    /* A value in the range without a name is a reserved encoding. */
    armprof_config_set(&c, "Unpredictable_RESPMSSE", "1", NULL, 0);
    CHECK(rejected_with(&c, "Unpredictable_RESPMSSE: 1 is reserved", err, sizeof err), "%s", err);
    armprof_config_preset(&c, "armv9.4-all");
    armprof_config_set(&c, "pmsidr_altclk", "2", NULL, 0);
    CHECK(rejected_with(&c, "SMCU=1 IMPDEF_CLOCK=15", err, sizeof err), "%s", err);

    /* A PE is not created from an invalid configuration. */
    armprof_config_preset(&c, "minimal");
    armprof_config_set_feature(&c, ARMPROF_FEAT_NV2, true);
    armprof_pe *pe = armprof_pe_create(&c, err, sizeof err);
    CHECK(pe == NULL && strstr(err, "FEAT_NV2"), "invalid PE created: %s", err);
    armprof_pe_destroy(pe);

    /* Dropping a feature drops what requires it (config_rules.def: FEAT_VHE,
     * FEAT_NV and FEAT_NV2 need EL2, FEAT_NV2 needs FEAT_NV), nothing else:
     * the result validates, and features that need neither stay. */
    armprof_config_preset(&c, "armv9.4-all");
    armprof_config_drop_feature(&c, ARMPROF_FEAT_EL2);
    CHECK(armprof_config_validate(&c, err, sizeof err), "without EL2: %s", err);
    CHECK(!armprof_config_has(&c, ARMPROF_FEAT_EL2) && !armprof_config_has(&c, ARMPROF_FEAT_VHE) &&
              !armprof_config_has(&c, ARMPROF_FEAT_NV) && !armprof_config_has(&c, ARMPROF_FEAT_NV2),
          "EL2 and what needs it are gone");
    CHECK(armprof_config_has(&c, ARMPROF_FEAT_SPE) && armprof_config_has(&c, ARMPROF_FEAT_EL3) &&
              armprof_config_has(&c, ARMPROF_FEAT_PMUv3),
          "the rest stays");
    armprof_config_preset(&c, "armv9.4-all");
    armprof_config_drop_feature(&c, ARMPROF_FEAT_PMUv3);
    CHECK(!armprof_config_has(&c, ARMPROF_FEAT_PMUv3p9) &&
              !armprof_config_has(&c, ARMPROF_FEAT_PMUv3_SS),
          "without the PMU, its versions several rules away go too");
    /* options are the caller's: the counters of a PMU that is gone */
    CHECK(!armprof_config_validate(&c, err, sizeof err) && strstr(err, "num_event_counters"),
          "options stay as they were: %s", err);
    armprof_config_drop_feature(NULL, ARMPROF_FEAT_EL2); /* nothing */
    return check_summary();
}
