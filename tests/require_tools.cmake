# SPDX-License-Identifier: BSD-3-Clause
# Issue 44, defect 2: in CI a test whose tool is missing must fail, not
# pass as SKIPPED (a full CI run from a clean clone passed with the 6.1
# guest's record tests skipped). .ci/run sets ARMPROF_REQUIRE_TOOLS=1 under
# CI=true; tests/skip.sh and tests/skip.cmake turn a skip into a failure
# with it. Each test below is run with its tool made absent (an empty
# cache, a QEMU and a perf that do not exist): without the variable it
# says SKIPPED and passes, with it it fails and does not say SKIPPED.
#   -DREPO=<source tree> -DWORK=<scratch folder>
cmake_minimum_required(VERSION 3.19)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/cache)
# one test a line: its name, then its command, each word after a |
set(tests
  # the qemu-system tests (emulator.sh: no emulator in the cache)
  "qemu-system/probe.sh|bash|${REPO}/tests/qemu-system/probe.sh|${REPO}|6.1|1|${WORK}/none"
  # the QEMU plugin tests (tests/qemu/common.sh: no QEMU)
  "qemu/perf_report.sh|bash|${REPO}/tests/qemu/perf_report.sh|${WORK}/none|${WORK}/none|${WORK}/none|6.1"
  # the cmake -P tests (tests/skip.cmake: no perf)
  "perf_demo.cmake|${CMAKE_COMMAND}|-DPERF=|-DPERF_VERSION=6.1|-P|${REPO}/tests/perf_demo.cmake")
foreach(t IN LISTS tests)
  string(REPLACE "|" ";" t "${t}")
  list(POP_FRONT t name)
  foreach(required 0 1)
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env ARMPROF_CACHE=${WORK}/cache ARMPROF_REQUIRE_TOOLS=${required} ${t}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(STRIP "${out}${err}" said)
    string(FIND "${said}" "SKIPPED" skipped)
    if(required EQUAL 0 AND (NOT rc EQUAL 0 OR skipped EQUAL -1))
      message(FATAL_ERROR "${name} without ARMPROF_REQUIRE_TOOLS: status ${rc}, wanted 0 and SKIPPED: ${said}")
    endif()
    if(required EQUAL 1 AND (rc EQUAL 0 OR NOT skipped EQUAL -1))
      message(FATAL_ERROR "${name} with ARMPROF_REQUIRE_TOOLS=1: status ${rc}, wanted a failure without SKIPPED: ${said}")
    endif()
    message("${name}, ARMPROF_REQUIRE_TOOLS=${required}: status ${rc}: ${said}")
  endforeach()
endforeach()
