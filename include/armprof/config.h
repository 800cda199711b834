/* SPDX-License-Identifier: BSD-3-Clause */
/* PE configuration: implemented features and the IMPLEMENTATION DEFINED and
 * CONSTRAINED UNPREDICTABLE choices (docs/design.md rule 2). */
#ifndef ARMPROF_CONFIG_H
#define ARMPROF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "armprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif
ARMPROF_API_BEGIN

typedef enum armprof_feature {
#define FEATURE(id, name) ARMPROF_FEAT_##id,
#include "armprof/features.def"
#undef FEATURE
    ARMPROF_FEAT_COUNT
} armprof_feature;

typedef enum armprof_option {
#define OPTION(id, name, kind, def, min, max, doc) ARMPROF_OPT_##id,
#include "armprof/options.def"
#undef OPTION
    ARMPROF_OPT_COUNT
} armprof_option;

/* The named values of the enumerated options: ARMPROF_<option id>_<NAME>
 * (for example ARMPROF_UNPRED_RESPMSSE_DISABLED), from option_values.def. */
enum armprof_option_value {
#define NAMED_VALUE(opt, name, value, doc) ARMPROF_##opt##_##name = (value),
#include "armprof/option_values.def"
#undef NAMED_VALUE
};

/* Room for features and options. The layout of armprof_config stays the
 * same while the model gains features and options within these capacities,
 * so a program built against an older header keeps working with a newer
 * library of the same major version (docs/embedding.md). Start a
 * configuration from armprof_config_preset(): it sets every option the
 * library knows to its default, including those a program's header may
 * not name. */
#define ARMPROF_FEAT_CAPACITY 256
#define ARMPROF_OPT_CAPACITY  128
#define ARMPROF_FEAT_WORDS    (ARMPROF_FEAT_CAPACITY / 64)

typedef struct armprof_config {
    uint64_t features[ARMPROF_FEAT_WORDS];  /* bit f: feature f (armprof_feature) */
    uint64_t options[ARMPROF_OPT_CAPACITY]; /* [o]: option o (armprof_option); the rest 0 */
} armprof_config;

/* That the features and options fit these capacities is checked where the
 * library is built (src/core/config.c), not here: a file-scope
 * _Static_assert is C11 only, and C++ and C99 programs include this header
 * too (ctest public_headers/cxx17, public_headers/c99_pedantic). */

/* Arguments: as armprof.h says. A configuration pointer must not be NULL
 * except where a comment says what a NULL one does.
 *
 * Names. Return NULL for an id out of range; for it
 * armprof_option_is_unpredictable() is false and armprof_option_default()
 * 0. */
const char *armprof_feature_name(armprof_feature f);
const char *armprof_option_name(armprof_option o);
const char *armprof_option_doc(armprof_option o);
bool armprof_option_is_unpredictable(armprof_option o);
uint64_t armprof_option_default(armprof_option o);
/* The named values of option o (option_values.def): the i-th for i = 0, 1,
 * ... until it returns NULL, with its value and what it does (either pointer
 * may be NULL). */
const char *armprof_option_value_at(armprof_option o, size_t i, uint64_t *value, const char **doc);
/* The name of value v of option o; NULL when it has none (or o is out of
 * range). */
const char *armprof_option_value_name(armprof_option o, uint64_t v);
/* Look up by name ("FEAT_SPE" or "SPE"; option names as in options.def).
 * Return -1 when unknown or name is NULL. */
int armprof_feature_lookup(const char *name);
int armprof_option_lookup(const char *name);

/* Whether feature f is on in c (which must not be NULL); false for an f
 * that is not a feature (f < 0 or f >= ARMPROF_FEAT_COUNT). Setting such an
 * f does nothing. */
static inline bool armprof_config_has(const armprof_config *c, armprof_feature f)
{
    return (unsigned)f < ARMPROF_FEAT_COUNT &&
           ((c->features[(unsigned)f / 64] >> ((unsigned)f % 64)) & 1);
}
void armprof_config_set_feature(armprof_config *c, armprof_feature f, bool on);
/* Turns f off, and then every feature whose requirement is missing (the
 * rules armprof_config_validate() checks, followed as far as they go): for
 * an embedder whose PE lacks EL2, say, and so everything that needs it.
 * Options stay as they are (num_event_counters without FEAT_PMUv3 is the
 * caller's to set). Nothing for a NULL c. */
void armprof_config_drop_feature(armprof_config *c, armprof_feature f);

/* Named presets: "armv9.4-all", "armv8.2-spe", "minimal" and others listed by
 * armprof_preset_name(i) for i = 0, 1, ... until it returns NULL.
 * Returns false, c unchanged, for an unknown name or a NULL c or name. */
bool armprof_config_preset(armprof_config *c, const char *name);
const char *armprof_preset_name(size_t i);
const char *armprof_preset_doc(size_t i);

/* Parses a number as the configuration and the scenario language write it:
 * decimal, 0x hexadecimal or 0b binary (the prefix in either case), at most
 * 64 bits. A single '_' may separate two digits ("0xffff_0000", "1_000").
 * Anything else is refused: a sign or white space anywhere (also after the
 * prefix: "0x-1", "0b+1", "0x 5"), a '_' first, last, next to another '_'
 * or next to the prefix, a prefix with no digits, a value above
 * UINT64_MAX. Returns false and leaves *out unchanged when s is not such a
 * number or s or out is NULL. */
bool armprof_parse_number(const char *s, uint64_t *out);

/* Sets a feature ("FEAT_X" with "on"/"off"/"1"/"0") or an option (a number
 * as armprof_parse_number() reads it, in the option's range, or the name of
 * one of its values). On error (an unknown name, a value it does not take,
 * c, name or value NULL) writes a message and returns false. */
bool armprof_config_set(armprof_config *c, const char *name, const char *value, char *err,
                        size_t errlen);

/* Checks the configuration against the architecture's rules. On the first
 * violation writes a message naming the conflict and returns false; also
 * for c NULL. */
bool armprof_config_validate(const armprof_config *c, char *err, size_t errlen);

ARMPROF_API_END
#ifdef __cplusplus
}
#endif
#endif
