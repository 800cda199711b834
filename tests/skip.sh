# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# The skip rule of the bash tests that need a tool (sourced): without the
# tool a test says "SKIPPED: why" and passes, so that the suite runs
# anywhere; with ARMPROF_REQUIRE_TOOLS=1 (.ci/run sets it under CI=true,
# where it installs every such tool) a missing tool is a failure instead,
# so that a CI run cannot pass with a test that did not run.
#   skip WHY...
skip() {
  if [ "${ARMPROF_REQUIRE_TOOLS:-0}" = 1 ]; then
    echo "FAIL: a tool CI provides is missing (ARMPROF_REQUIRE_TOOLS=1): $*"
    exit 1
  fi
  echo "SKIPPED: $*"
  exit 0
}
