/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's version at run time (armprof/version.h declares it). */
#include "armprof/armprof.h"

const char *armprof_version(void)
{
    return ARMPROF_VERSION_STRING;
}

unsigned armprof_version_number(void)
{
    return ARMPROF_VERSION_NUMBER;
}
