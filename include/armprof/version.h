/* SPDX-License-Identifier: BSD-3-Clause */
/* The library's version, declared once: the build reads it from here
 * (CMakeLists.txt), and a program compares what it was built against with
 * what it runs with (armprof_version()). The shared library's soname is
 * libarmprof.so.<MAJOR>: within a major version the interface only grows
 * (docs/embedding.md, "Versions and binary compatibility"). */
#ifndef ARMPROF_VERSION_H
#define ARMPROF_VERSION_H

#define ARMPROF_VERSION_MAJOR 0
#define ARMPROF_VERSION_MINOR 1
#define ARMPROF_VERSION_PATCH 0

#define ARMPROF_VERSION_STRINGIFY_(x) #x
#define ARMPROF_VERSION_STRINGIFY(x)  ARMPROF_VERSION_STRINGIFY_(x)
/* "MAJOR.MINOR.PATCH" */
#define ARMPROF_VERSION_STRING                                                                     \
    ARMPROF_VERSION_STRINGIFY(ARMPROF_VERSION_MAJOR)                                               \
    "." ARMPROF_VERSION_STRINGIFY(ARMPROF_VERSION_MINOR) "." ARMPROF_VERSION_STRINGIFY(            \
        ARMPROF_VERSION_PATCH)
/* MAJOR * 10000 + MINOR * 100 + PATCH, for comparisons in #if */
#define ARMPROF_VERSION_NUMBER                                                                     \
    (ARMPROF_VERSION_MAJOR * 10000 + ARMPROF_VERSION_MINOR * 100 + ARMPROF_VERSION_PATCH)

#endif
