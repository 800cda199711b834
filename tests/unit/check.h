/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal test harness: CHECK records a failure with its file and line
 * and goes on; check_summary prints "N passed, N failed" and gives the exit
 * status. */
#ifndef ARMPROF_TEST_CHECK_H
#define ARMPROF_TEST_CHECK_H

#include <stdio.h>

static unsigned check_passed, check_failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            check_passed++;                                                                        \
        } else {                                                                                   \
            check_failed++;                                                                        \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static inline int check_summary(void)
{
    printf("%u passed, %u failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
