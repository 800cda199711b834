# SPDX-License-Identifier: BSD-3-Clause
# The skip rule of the cmake -P tests that need a tool (include()d), as
# tests/skip.sh's: "NAME: SKIPPED (why)" without the tool; a failure
# instead with ARMPROF_REQUIRE_TOOLS=1 in the environment (.ci/run sets it
# under CI=true, where it installs every such tool). The caller return()s
# after it.
#   armprof_skip_tool(NAME WHY)
function(armprof_skip_tool name why)
  if("$ENV{ARMPROF_REQUIRE_TOOLS}" STREQUAL "1")
    message(FATAL_ERROR "${name}: a tool CI provides is missing (ARMPROF_REQUIRE_TOOLS=1): ${why}")
  endif()
  message("${name}: SKIPPED (${why})")
endfunction()
