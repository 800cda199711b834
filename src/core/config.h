/* SPDX-License-Identifier: BSD-3-Clause */
/* The core's part of configuration validation, and the error helper the
 * units' parts share (the façade's armprof_config_validate() runs them in
 * layer order). */
#ifndef ARMPROF_CORE_CONFIG_H
#define ARMPROF_CORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "armprof/config.h"

/* The rules between features (config_rules.def) and the options that are
 * not a unit's own. */
bool config_validate_core(const armprof_config *c, char *err, size_t errlen);
/* Formats fmt with a, b and why into err; returns false. */
bool config_fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b,
                 const char *why);

#endif
