/* SPDX-License-Identifier: BSD-3-Clause */
/* Features, options, presets and the validation of a configuration. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

/* armprof_config's layout is fixed (config.h): the library refuses to be
 * built with more features or options than it has room for. */
_Static_assert(ARMPROF_FEAT_COUNT <= ARMPROF_FEAT_CAPACITY,
               "features exceed ARMPROF_FEAT_CAPACITY");
_Static_assert(ARMPROF_OPT_COUNT <= ARMPROF_OPT_CAPACITY, "options exceed ARMPROF_OPT_CAPACITY");

static const char *const feature_names[] = {
#define FEATURE(id, name) [ARMPROF_FEAT_##id] = name,
#include "armprof/features.def"
#undef FEATURE
};

enum { IMPDEF, UNPRED };
static const struct option_desc {
    const char *name;
    int kind;
    uint64_t def, min, max;
    const char *doc;
} options[] = {
#define OPTION(id, nm, k, d, lo, hi, text) [ARMPROF_OPT_##id] = {nm, k, d, lo, hi, text},
#include "armprof/options.def"
#undef OPTION
};

static const struct named_value {
    armprof_option option;
    const char *name;
    uint64_t value;
    const char *doc;
} named_values[] = {
#define NAMED_VALUE(opt, nm, v, text) {ARMPROF_OPT_##opt, #nm, ARMPROF_##opt##_##nm, text},
#include "armprof/option_values.def"
#undef NAMED_VALUE
};
#define NAMED_VALUE_COUNT (sizeof named_values / sizeof named_values[0])

const char *armprof_feature_name(armprof_feature f)
{
    return (unsigned)f < ARMPROF_FEAT_COUNT ? feature_names[f] : NULL;
}
const char *armprof_option_name(armprof_option o)
{
    return (unsigned)o < ARMPROF_OPT_COUNT ? options[o].name : NULL;
}
const char *armprof_option_doc(armprof_option o)
{
    return (unsigned)o < ARMPROF_OPT_COUNT ? options[o].doc : NULL;
}
bool armprof_option_is_unpredictable(armprof_option o)
{
    return (unsigned)o < ARMPROF_OPT_COUNT && options[o].kind == UNPRED;
}
uint64_t armprof_option_default(armprof_option o)
{
    return (unsigned)o < ARMPROF_OPT_COUNT ? options[o].def : 0;
}

const char *armprof_option_value_at(armprof_option o, size_t i, uint64_t *value, const char **doc)
{
    for (size_t k = 0; k < NAMED_VALUE_COUNT; k++) {
        if (named_values[k].option != o || i-- > 0) continue;
        if (value) *value = named_values[k].value;
        if (doc) *doc = named_values[k].doc;
        return named_values[k].name;
    }
    return NULL;
}

const char *armprof_option_value_name(armprof_option o, uint64_t v)
{
    for (size_t k = 0; k < NAMED_VALUE_COUNT; k++)
        if (named_values[k].option == o && named_values[k].value == v) return named_values[k].name;
    return NULL;
}

static const struct named_value *find_named_value(armprof_option o, const char *name)
{
    for (size_t k = 0; k < NAMED_VALUE_COUNT; k++)
        if (named_values[k].option == o && !strcmp(named_values[k].name, name))
            return &named_values[k];
    return NULL;
}

/* The option's value names as "NAME=n ..." for a message; empty when it has
 * none. */
static void value_names(armprof_option o, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    uint64_t v;
    const char *nm;
    for (size_t i = 0; (nm = armprof_option_value_at(o, i, &v, NULL)) != NULL && used < len; i++) {
        const int n = snprintf(buf + used, len - used, "%s%s=%" PRIu64, i ? " " : "", nm, v);
        if (n < 0) break;
        used += (size_t)n;
    }
}

int armprof_feature_lookup(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < ARMPROF_FEAT_COUNT; i++) {
        const char *n = feature_names[i];
        if (strcmp(n, name) == 0) return i;
        if (strncmp(n, "FEAT_", 5) == 0 && strcmp(n + 5, name) == 0) return i;
    }
    return -1;
}

int armprof_option_lookup(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < ARMPROF_OPT_COUNT; i++)
        if (strcmp(options[i].name, name) == 0) return i;
    return -1;
}

void armprof_config_set_feature(armprof_config *c, armprof_feature f, bool on)
{
    if ((unsigned)f >= ARMPROF_FEAT_COUNT) return;
    if (on)
        c->features[f / 64] |= 1ull << (f % 64);
    else
        c->features[f / 64] &= ~(1ull << (f % 64));
}

/* ---- Presets ---- */
struct preset {
    const char *name;
    const char *doc;
    const char *features; /* space-separated feature names */
    const char *options;  /* space-separated name=value */
};

#define V8_2_BASE                                                                                  \
    "AA64 AA32EL0 AA32EL1 EL2 EL3 VHE PAN LPA RAS Debugv8p1 Debugv8p2 PMUv3 PMUv3p1 GICv3 "        \
    "TGran4K TGran16K TGran64K "
#define V8_4_ADD "SEL2 NV NV2 Debugv8p4 PMUv3p4 TRF MPAM AMUv1 DoubleLock "
#define V9_4_ADD                                                                                   \
    "E2H0 FGT FGT2 ECV LPA2 D128 RME MEC MOPS BRBE BRBEv1p1 MTE MTE2 E0PD TRBE SCTLR2 TCR2 HCX "   \
    "CSV2 SVE SME PAuth Debugv8p8 Debugv8p9 PMUv3p5 PMUv3p7 PMUv3p8 PMUv3p9 PMUv3_SS PMUv3_ICNTR " \
    "PMUv3_EXT PMUv3_EXT64 PMUv3_EXTPMN PMUv3_TH PMUv3_EDGE EBEP SEBEP HPMN0 MTPMU PCSRv8p2 "      \
    "PCSRv8p9 SPE SPEv1p1 SPEv1p2 SPEv1p3 SPEv1p4 SPE_nVM SPE_EXC SPE_FnE SPE_ERnd SPE_CRR "       \
    "SPE_FDS SPE_FPF SPE_SME SPE_EFT SPE_DPFZS ITE ABLE SPMU "

static const struct preset presets[] = {
    {"armv9.4-all",
     "Armv9.4 PE with every profiling feature the model knows: PMUv3p9, PMU snapshots, "
     "the instruction counter, PC sampling v8.9, SPE v1.4 with every option, RME",
     V8_2_BASE V8_4_ADD V9_4_ADD, "num_event_counters=8 pa_size=52"},
    {"armv8.2-spe",
     "Armv8.2 PE with SPE v1, PMUv3p1, PC sampling in the PMU block, no PMU snapshots",
     V8_2_BASE "PCSRv8p2 SPE PMUv3_EXT PMUv3_EXT32", "num_event_counters=6 pa_size=48"},
    {"armv8.4-nv",
     "Armv8.4 PE with Secure EL2, nested virtualization (FEAT_NV2), SPE v1.1, PMUv3p4",
     V8_2_BASE V8_4_ADD "PCSRv8p2 SPE SPEv1p1 PMUv3_EXT PMUv3_EXT32", "num_event_counters=6"},
    {"armv8.0-pcsr",
     "Armv8.0 PE with PMUv3 and PC sampling in the external debug registers (FEAT_PCSRv8)",
     "AA64 AA32EL0 AA32EL1 EL2 EL3 PMUv3 PCSRv8 PMUv3_EXT PMUv3_EXT32 TGran4K TGran16K TGran64K",
     "num_event_counters=6"},
    {"minimal", "AArch64 at EL0 and EL1 only: no EL2, no EL3, no PMU, no SPE", "AA64 TGran4K",
     "num_event_counters=0 pa_size=40"},
};

const char *armprof_preset_name(size_t i)
{
    return i < sizeof presets / sizeof presets[0] ? presets[i].name : NULL;
}
const char *armprof_preset_doc(size_t i)
{
    return i < sizeof presets / sizeof presets[0] ? presets[i].doc : NULL;
}

static void config_defaults(armprof_config *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < ARMPROF_OPT_COUNT; i++)
        c->options[i] = options[i].def;
}

bool armprof_config_preset(armprof_config *c, const char *name)
{
    if (!c || !name) return false;
    const struct preset *p = NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(presets[i].name, name) == 0) p = &presets[i];
    if (!p) return false;
    config_defaults(c);
    char word[64];
    for (const char *s = p->features; *s;) {
        size_t n = strcspn(s, " ");
        if (n > 0 && n < sizeof word) {
            memcpy(word, s, n);
            word[n] = 0;
            int f = armprof_feature_lookup(word);
            if (f >= 0) armprof_config_set_feature(c, (armprof_feature)f, true);
        }
        s += n;
        s += strspn(s, " ");
    }
    for (const char *s = p->options; *s;) {
        size_t n = strcspn(s, " ");
        if (n > 0 && n < sizeof word) {
            memcpy(word, s, n);
            word[n] = 0;
            char *eq = strchr(word, '=');
            if (eq) {
                *eq = 0;
                armprof_config_set(c, word, eq + 1, NULL, 0);
            }
        }
        s += n;
        s += strspn(s, " ");
    }
    return true;
}

bool config_fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b,
                 const char *why)
{
    if (err && errlen) snprintf(err, errlen, fmt, a, b, why);
    return false;
}

bool armprof_parse_number(const char *s, uint64_t *out)
{
    if (!s || !out) return false;
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    }
    /* Digits of the base, each '_' between two of them: no sign, no space,
     * no '_' first, last or next to another. */
    uint64_t v = 0;
    bool digit_before = false;
    for (; *s; s++) {
        if (*s == '_') {
            if (!digit_before) return false; /* first, or after another '_' */
            digit_before = false;
            continue;
        }
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a') + 10;
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A') + 10;
        else
            return false;
        if (d >= base || v > (UINT64_MAX - d) / base) return false;
        v = v * base + d;
        digit_before = true;
    }
    if (!digit_before) return false; /* no digits, or a '_' last */
    *out = v;
    return true;
}

bool armprof_config_set(armprof_config *c, const char *name, const char *value, char *err,
                        size_t errlen)
{
    if (!c || !name || !value)
        return config_fail(err, errlen, "armprof_config_set: %s is NULL%s%s",
                           !c      ? "the configuration"
                           : !name ? "the name"
                                   : "the value",
                           "", "");
    const int f = armprof_feature_lookup(name);
    if (f >= 0) {
        bool on;
        if (!strcmp(value, "on") || !strcmp(value, "1") || !strcmp(value, "true"))
            on = true;
        else if (!strcmp(value, "off") || !strcmp(value, "0") || !strcmp(value, "false"))
            on = false;
        else
            return config_fail(err, errlen, "feature %s: value '%s' is not on or off%s", name,
                               value, "");
        armprof_config_set_feature(c, (armprof_feature)f, on);
        return true;
    }
    const int o = armprof_option_lookup(name);
    if (o < 0) return config_fail(err, errlen, "unknown feature or option '%s'%s%s", name, "", "");
    uint64_t v;
    const struct named_value *nv = find_named_value((armprof_option)o, value);
    if (nv)
        v = nv->value;
    else if (!armprof_parse_number(value, &v)) {
        char names[512];
        value_names((armprof_option)o, names, sizeof names);
        if (!names[0])
            return config_fail(err, errlen, "option %s: '%s' is not a number%s", name, value, "");
        return config_fail(err, errlen, "option %s: '%s' is not a number or one of its values (%s)",
                           name, value, names);
    }
    if (v < options[o].min || v > options[o].max) {
        if (err && errlen)
            snprintf(err, errlen, "option %s: %s is outside %" PRIu64 "..%" PRIu64, name, value,
                     options[o].min, options[o].max);
        return false;
    }
    c->options[o] = v;
    return true;
}

void armprof_config_drop_feature(armprof_config *c, armprof_feature f)
{
    if (!c) return;
    armprof_config_set_feature(c, f, false);
#define HAS(x) armprof_config_has(c, ARMPROF_FEAT_##x)
#define DROP(x)                                                                                    \
    do {                                                                                           \
        armprof_config_set_feature(c, ARMPROF_FEAT_##x, false);                                    \
        changed = true;                                                                            \
    } while (0)
#define RULE_REQUIRES(a, b, why)                                                                   \
    if (HAS(a) && !HAS(b)) DROP(a);
#define RULE_EXCLUDES(a, b, why)
    /* until nothing more goes: a requirement can be several rules away */
    for (bool changed = true; changed;) {
        changed = false;
#include "config_rules.def"
        if (HAS(AA32EL2) && !HAS(EL2)) DROP(AA32EL2);
        if (HAS(AA32EL3) && !HAS(EL3)) DROP(AA32EL3);
    }
#undef RULE_REQUIRES
#undef RULE_EXCLUDES
#undef DROP
#undef HAS
}

bool config_validate_core(const armprof_config *c, char *err, size_t errlen)
{
#define HAS(x) armprof_config_has(c, ARMPROF_FEAT_##x)
#define RULE_REQUIRES(a, b, why)                                                                   \
    if (HAS(a) && !HAS(b))                                                                         \
        return config_fail(err, errlen, "%s requires %s (%s)", feature_names[ARMPROF_FEAT_##a],    \
                           feature_names[ARMPROF_FEAT_##b], why);
#define RULE_EXCLUDES(a, b, why)                                                                   \
    if (HAS(a) && HAS(b))                                                                          \
        return config_fail(err, errlen, "%s conflicts with %s (%s)",                               \
                           feature_names[ARMPROF_FEAT_##a], feature_names[ARMPROF_FEAT_##b], why);
#include "config_rules.def"
    /* HaveAArch32EL(): AArch32 at an Exception level needs it at the levels
     * below (the state of a lower level is never wider). Without FEAT_AA64
     * the highest level, and so every level, uses AArch32 (HaveAArch64(),
     * ELStateUsingAArch32K()). */
    if (HAS(AA32EL1) && !HAS(AA32EL0))
        return config_fail(err, errlen, "%s requires %s (%s)", "FEAT_AA32EL1", "FEAT_AA32EL0",
                           "EL0 uses AArch32 under an AArch32 EL1");
    if (HAS(AA32EL2) && (!HAS(EL2) || !HAS(AA32EL1)))
        return config_fail(err, errlen, "%s requires %s (%s)", "FEAT_AA32EL2",
                           "EL2 and FEAT_AA32EL1", "the levels below an AArch32 EL2 use AArch32");
    if (HAS(AA32EL3) && (!HAS(EL3) || !HAS(AA32EL1) || (HAS(EL2) && !HAS(AA32EL2))))
        return config_fail(err, errlen, "%s requires %s (%s)", "FEAT_AA32EL3",
                           "EL3, FEAT_AA32EL1 and FEAT_AA32EL2 with EL2",
                           "the levels below an AArch32 EL3 use AArch32");
    if (!HAS(AA64)) {
        if (!HAS(AA32EL1) || (HAS(EL2) && !HAS(AA32EL2)) || (HAS(EL3) && !HAS(AA32EL3)))
            return config_fail(err, errlen, "without %s every Exception level needs AArch32 (%s%s)",
                               "FEAT_AA64", "FEAT_AA32EL0, FEAT_AA32EL1, and FEAT_AA32EL2/EL3 ",
                               "for the EL2/EL3 implemented");
        /* The AArch64-only features the model knows (their registers and
         * pseudocode are AArch64's). */
        static const int aarch64_only[] = {
            ARMPROF_FEAT_SEL2, ARMPROF_FEAT_RME,   ARMPROF_FEAT_VHE,  ARMPROF_FEAT_NV,
            ARMPROF_FEAT_FGT,  ARMPROF_FEAT_ECV,   ARMPROF_FEAT_MTE,  ARMPROF_FEAT_SME,
            ARMPROF_FEAT_SVE,  ARMPROF_FEAT_BRBE,  ARMPROF_FEAT_TRBE, ARMPROF_FEAT_SCTLR2,
            ARMPROF_FEAT_TCR2, ARMPROF_FEAT_HCX,   ARMPROF_FEAT_LPA2, ARMPROF_FEAT_D128,
            ARMPROF_FEAT_MOPS, ARMPROF_FEAT_PAuth, ARMPROF_FEAT_EBEP, ARMPROF_FEAT_PMUv3_ICNTR,
        };
        for (size_t i = 0; i < sizeof aarch64_only / sizeof aarch64_only[0]; i++)
            if (armprof_config_has(c, (armprof_feature)aarch64_only[i]))
                return config_fail(err, errlen, "%s requires %s (%s)",
                                   feature_names[aarch64_only[i]], "FEAT_AA64",
                                   "an AArch64 feature");
    }
#undef RULE_REQUIRES
#undef RULE_EXCLUDES
    for (int i = 0; i < ARMPROF_OPT_COUNT; i++) {
        if (c->options[i] < options[i].min || c->options[i] > options[i].max)
            return config_fail(err, errlen, "option %s is outside its range%s%s", options[i].name,
                               "", "");
        /* An option with named values takes only those: the others in its
         * range are reserved encodings, such as the reserved value itself
         * that ConstrainUnpredictableBits() must not return
         * (Unpredictable_RESPMSSE 0b01, Unpredictable_PMSCR_PCT 0b10,
         * Unpredictable_RESPMSEE 0b01 and 0b10) or a reserved
         * PMSIDR_EL1.ALTCLK. */
        const armprof_option o = (armprof_option)i;
        if (armprof_option_value_at(o, 0, NULL, NULL) &&
            !armprof_option_value_name(o, c->options[i])) {
            char names[512];
            value_names(o, names, sizeof names);
            if (err && errlen)
                snprintf(err, errlen,
                         "option %s: %" PRIu64 " is reserved, not one of its values (%s)",
                         options[i].name, c->options[i], names);
            return false;
        }
    }
    const uint64_t pa = c->options[ARMPROF_OPT_PA_SIZE];
    static const uint8_t pa_sizes[] = {32, 36, 40, 42, 44, 48, 52, 56};
    bool pa_ok = false;
    for (size_t i = 0; i < sizeof pa_sizes; i++)
        pa_ok |= pa == pa_sizes[i];
    if (!pa_ok)
        return config_fail(err, errlen,
                           "option %s: %s%s is not a PARange size (32 36 40 42 44 48 52 56)",
                           "pa_size", "", "");
    if (pa == 52 && !HAS(LPA) && !HAS(LPA2))
        return config_fail(err, errlen, "pa_size 52 requires %s or %s%s", "FEAT_LPA", "FEAT_LPA2",
                           "");
    if (pa == 56 && !HAS(D128))
        return config_fail(err, errlen, "pa_size 56 requires %s%s%s", "FEAT_D128", "", "");
    const uint64_t brps = c->options[ARMPROF_OPT_BRPS], wrps = c->options[ARMPROF_OPT_WRPS];
    if ((brps > 16 || wrps > 16) && !HAS(Debugv8p9))
        return config_fail(err, errlen, "more than 16 breakpoints or watchpoints requires %s%s%s",
                           "FEAT_Debugv8p9", "", "");
    if (c->options[ARMPROF_OPT_CTX_CMPS] > brps)
        return config_fail(err, errlen, "%s must not exceed %s%s", "num_context_comparators",
                           "num_breakpoints", "");
    if (c->options[ARMPROF_OPT_PMSIDR_INTERVAL] == 1)
        return config_fail(err, errlen, "option %s: 1 is a reserved PMSIDR_EL1.Interval value%s%s",
                           "pmsidr_interval", "", "");
    if (HAS(PMUv3_ICNTR) && HAS(EL2) && !HAS(FGT2))
        return config_fail(err, errlen, "%s with EL2 requires %s (%s)", "FEAT_PMUv3_ICNTR",
                           "FEAT_FGT2", "its traps are FEAT_FGT2 traps");
    if (HAS(EL3) && c->options[ARMPROF_OPT_SECURE_ONLY])
        return config_fail(err, errlen,
                           "option secure_only_implementation applies only without %s%s%s", "EL3",
                           "", "");
    /* AArch64.S1DecodeTG0()/S1DecodeTG1(): a granule that is not implemented
     * becomes the "TG0 (TG1) encoded granule size", which must be one that is.
     * Options' values are the encodings: TG0 00 4KB, 01 64KB, 10 16KB; TG1
     * 01 16KB, 10 4KB, 11 64KB. */
    if (HAS(AA64) && !HAS(TGran4K) && !HAS(TGran16K) && !HAS(TGran64K))
        return config_fail(err, errlen, "at least one of %s, %s and %s must be implemented",
                           "FEAT_TGran4K", "FEAT_TGran16K", "FEAT_TGran64K");
    {
        static const int tg0_feature[3] = {ARMPROF_FEAT_TGran4K, ARMPROF_FEAT_TGran64K,
                                           ARMPROF_FEAT_TGran16K};
        static const int tg1_feature[4] = {-1, ARMPROF_FEAT_TGran16K, ARMPROF_FEAT_TGran4K,
                                           ARMPROF_FEAT_TGran64K};
        const uint64_t tg0 = c->options[ARMPROF_OPT_MMU_TG0_GRANULE];
        const uint64_t tg1 = c->options[ARMPROF_OPT_MMU_TG1_GRANULE];
        if (HAS(AA64) && tg0 < 3 && !armprof_config_has(c, (armprof_feature)tg0_feature[tg0]))
            return config_fail(err, errlen, "option %s names a granule (%s) that is %s",
                               "mmu_tg0_encoded_granule_size",
                               armprof_feature_name((armprof_feature)tg0_feature[tg0]),
                               "not implemented");
        if (HAS(AA64) && tg1 >= 1 && tg1 <= 3 &&
            !armprof_config_has(c, (armprof_feature)tg1_feature[tg1]))
            return config_fail(err, errlen, "option %s names a granule (%s) that is %s",
                               "mmu_tg1_encoded_granule_size",
                               armprof_feature_name((armprof_feature)tg1_feature[tg1]),
                               "not implemented");
    }
    if (!HAS(PMUv3) && c->options[ARMPROF_OPT_NUM_EVENT_COUNTERS] != 0)
        return config_fail(err, errlen, "num_event_counters must be 0 without %s%s%s", "FEAT_PMUv3",
                           "", "");
#undef HAS
    return true;
}
