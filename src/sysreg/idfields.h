/* SPDX-License-Identifier: BSD-3-Clause */
/* ID register fields derived from the configuration: the row format every
 * owner's table of ID fields uses, and the function that fills the
 * registers from a table.
 *
 * One row per ID register field the model reports. A row either lists
 * feature levels, in increasing order, and the field takes the value of the
 * last level whose feature is implemented (0 when none is), or names a
 * function of the configuration. Fields with no row read as 0: the model has
 * no feature for them. */
#ifndef ARMPROF_SYSREG_IDFIELDS_H
#define ARMPROF_SYSREG_IDFIELDS_H

#include "sysreg/sysreg.h"

typedef struct id_level {
    uint16_t feat1; /* ARMPROF_FEAT_<X> + 1; 0 ends the list */
    uint8_t value;
} id_level;

typedef struct id_field {
    uint16_t reg;
    uint8_t lo, width;
    uint64_t (*fn)(const armprof_pe *pe); /* NULL: use levels */
    id_level levels[8];
} id_field;

#define L(feat, v)                                                                                 \
    {                                                                                              \
        ARMPROF_FEAT_##feat + 1, (v)                                                               \
    }
#define IDV(reg, field, ...)                                                                       \
    {                                                                                              \
        SR_##reg, reg##_##field##_LO, reg##_##field##_W, NULL,                                     \
        {                                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }
#define IDF(reg, field, fn)                                                                        \
    {                                                                                              \
        SR_##reg, reg##_##field##_LO, reg##_##field##_W, fn,                                       \
        {                                                                                          \
            {                                                                                      \
                0, 0                                                                               \
            }                                                                                      \
        }                                                                                          \
    }

/* Fills the registers the rows name from the PE's configuration (after
 * reset): fields with no row read as 0, absent (FC) fields as RES0. */
void sysreg_apply_id_fields(armprof_pe *pe, const id_field *rows, unsigned n);

#endif
