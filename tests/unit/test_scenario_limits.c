/* SPDX-License-Identifier: BSD-3-Clause */
/* scenario_options.max_operations: a run stops with an error, instead of
 * running for hours, when `retire ... xN` would retire more operations than
 * the embedder allows (the fuzzer's `x8000_0000`). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "scenario/scenario.h"

static int run(const char *text, uint64_t limit, char *err, size_t errlen)
{
    FILE *out = fopen("/dev/null", "w");
    FILE *errf = tmpfile();
    CHECK(out && errf, "temporary files");
    if (!out || !errf) return -1;
    scenario_options o = {.out = out, .err = errf, .quiet = true, .max_operations = limit};
    const int rc = scenario_run_text("limits", text, &o);
    rewind(errf);
    const size_t n = fread(err, 1, errlen - 1, errf);
    err[n] = 0;
    fclose(out);
    fclose(errf);
    return rc;
}

int main(void)
{
    char err[512];
    /* 600 + 400 = the limit: allowed */
    CHECK(
        run("preset armv9.4-all\nel 1\nretire other pc 0x1000 x600\nretire other pc 0x1004 x400\n",
            1000, err, sizeof err) == SCENARIO_PASSED,
        "1000 operations within a limit of 1000: %s", err);
    /* one more: the line that would exceed it is named */
    CHECK(
        run("preset armv9.4-all\nel 1\nretire other pc 0x1000 x600\nretire other pc 0x1004 x401\n",
            1000, err, sizeof err) == SCENARIO_ERROR,
        "1001 operations with a limit of 1000");
    CHECK(strstr(err, "limits:4:") && strstr(err, "more than 1000 operations"), "message: %s", err);
    /* a count near 2^64 does not wrap the sum */
    CHECK(run("preset armv9.4-all\nel 1\nretire other pc 0x1000\nretire other pc 0x1004 "
              "x0xffffffffffffffff\n",
              1000, err, sizeof err) == SCENARIO_ERROR,
          "2^64 - 1 operations");
    /* 0: no limit (the command line's runs) */
    CHECK(run("preset armv9.4-all\nel 1\nretire other pc 0x1000 x5000\n", 0, err, sizeof err) ==
              SCENARIO_PASSED,
          "no limit: %s", err);
    return check_summary();
}
