/* SPDX-License-Identifier: BSD-3-Clause */
/* The public functions with arguments out of range or NULL (issue 15,
 * part 7): each gives the result its header documents instead of aliasing
 * another argument (el & 3, pas & 3, another register's encoding) or
 * reading past a table. */
#include <stdint.h>
#include <string.h>

#include "armprof/armprof.h"
#include "check.h"

static void config_has(void)
{
    armprof_config c;
    armprof_config_preset(&c, "minimal");
    /* Every bit of the feature words set: a feature number past the count
     * would read one of them (1000 / 64 is past the array). */
    memset(c.features, 0xff, sizeof c.features);
    CHECK(armprof_config_has(&c, ARMPROF_FEAT_AA64), "a feature that is on");
    CHECK(!armprof_config_has(&c, ARMPROF_FEAT_COUNT), "ARMPROF_FEAT_COUNT is not a feature");
    CHECK(!armprof_config_has(&c, (armprof_feature)(ARMPROF_FEAT_CAPACITY - 1)),
          "a free slot is not a feature");
    CHECK(!armprof_config_has(&c, (armprof_feature)1000), "feature 1000");
    CHECK(!armprof_config_has(&c, (armprof_feature)-1), "feature -1");
}

int main(void)
{
    config_has();
    return check_summary();
}
