/* SPDX-License-Identifier: BSD-3-Clause */
/* armprof_parse_number(): the forms the configuration and the scenario
 * language accept, and those it refuses (issue 15, part 5: a sign after
 * the 0x or 0b prefix used to be taken by strtoull, so that "0x-1" was all
 * ones). */
#include <stdint.h>

#include "armprof/config.h"
#include "check.h"

static void accepts(const char *s, uint64_t want, int line)
{
    uint64_t v = 0xdeadbeef;
    const bool ok = armprof_parse_number(s, &v);
    CHECK(ok && v == want, "line %d: '%s' gave %d, 0x%llx, want 0x%llx", line, s, ok,
          (unsigned long long)v, (unsigned long long)want);
}

static void refuses(const char *s, int line)
{
    uint64_t v = 0x5a5a;
    const bool ok = armprof_parse_number(s, &v);
    CHECK(!ok && v == 0x5a5a, "line %d: '%s' accepted as 0x%llx", line, s, (unsigned long long)v);
}

#define ACCEPTS(s, v) accepts(s, v, __LINE__)
#define REFUSES(s)    refuses(s, __LINE__)

int main(void)
{
    /* Decimal, hexadecimal, binary. */
    ACCEPTS("0", 0);
    ACCEPTS("7", 7);
    ACCEPTS("007", 7);
    ACCEPTS("18446744073709551615", UINT64_MAX);
    ACCEPTS("0x0", 0);
    ACCEPTS("0xff", 0xff);
    ACCEPTS("0XFF", 0xff);
    ACCEPTS("0xDeadBeef", 0xdeadbeef);
    ACCEPTS("0xffffffffffffffff", UINT64_MAX);
    ACCEPTS("0x0000000000000000000000000001", 1);
    ACCEPTS("0b0", 0);
    ACCEPTS("0b101", 5);
    ACCEPTS("0B11", 3);
    ACCEPTS("0b1111111111111111111111111111111111111111111111111111111111111111", UINT64_MAX);
    /* '_' between digits. */
    ACCEPTS("1_000", 1000);
    ACCEPTS("0xffff_0000", 0xffff0000);
    ACCEPTS("0xffff_ffff_ffff_ffff", UINT64_MAX);
    ACCEPTS("0b1_0_1", 5);
    ACCEPTS("1_8446744073709551615", UINT64_MAX);

    /* A sign, before or after the prefix. */
    REFUSES("-1");
    REFUSES("+1");
    REFUSES("0x-1");
    REFUSES("0b-1");
    REFUSES("0x+5");
    REFUSES("0b+1");
    REFUSES("0X-1");
    REFUSES("0B+1");
    REFUSES("0x-0");
    REFUSES("1-");
    REFUSES("0x1-1");
    /* White space anywhere. */
    REFUSES(" 1");
    REFUSES("1 ");
    REFUSES("1 2");
    REFUSES("0x 5");
    REFUSES("0x\t5");
    REFUSES("0b\n1");
    REFUSES("\t0x5");
    REFUSES("0x5\n");
    /* '_' first, last, doubled, only, or next to the prefix. */
    REFUSES("_");
    REFUSES("___");
    REFUSES("_1");
    REFUSES("1_");
    REFUSES("1__0");
    REFUSES("0x_");
    REFUSES("0x_5");
    REFUSES("0x5_");
    REFUSES("0b_1");
    REFUSES("0b1_");
    REFUSES("_0x5");
    REFUSES("0_x5");
    REFUSES("0_b1");
    /* A prefix with no digits, digits outside the base, other text. */
    REFUSES("");
    REFUSES("0x");
    REFUSES("0b");
    REFUSES("0X");
    REFUSES("0b2");
    REFUSES("0b12");
    REFUSES("12a");
    REFUSES("0xg");
    REFUSES("0x0x5");
    REFUSES("1e3");
    REFUSES("1.0");
    REFUSES("x5");
    REFUSES("0o7");
    /* More than 64 bits. */
    REFUSES("18446744073709551616");
    REFUSES("99999999999999999999");
    REFUSES("0x1_0000_0000_0000_0000");
    REFUSES("0b1_0000000000000000000000000000000000000000000000000000000000000000");
    /* NULL. */
    uint64_t v = 3;
    CHECK(!armprof_parse_number(NULL, &v) && v == 3, "NULL string accepted");
    CHECK(!armprof_parse_number("5", NULL), "NULL out accepted");

    return check_summary();
}
