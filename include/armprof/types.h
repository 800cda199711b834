/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof: the types more than one public header names, declared once so
 * that each header can be included alone and all of them together (a
 * typedef repeated is C11, not C99 or every C++ compiler's -pedantic).
 * armprof.h includes this header; a program includes armprof.h. */
#ifndef ARMPROF_TYPES_H
#define ARMPROF_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/* A processing element: every unit's state (armprof.h). */
typedef struct armprof_pe armprof_pe;

/* The physical address space of an access, addrdesc.paddress.paspace.
 * An enum has the size and the calling convention of int in the C ABIs
 * armprof is built for (AAPCS64, x86-64 System V), so a function that
 * takes one is the same to a caller as one that takes int. */
typedef enum armprof_pas {
    ARMPROF_PAS_NONSECURE,
    ARMPROF_PAS_SECURE,
    ARMPROF_PAS_REALM,
    ARMPROF_PAS_ROOT,
} armprof_pas;

#ifdef __cplusplus
}
#endif
#endif
