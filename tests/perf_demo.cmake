# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# The demo's records through a real Linux perf (issue 22, part 3):
#   1. `armprof demo --perf-data` writes a perf.data file for this perf;
#   2. `perf script` makes as many samples of each kind as armprof report
#      counts records of that kind, by the rules docs/perf.md gives for this
#      perf version (the events each sample kind follows, and which
#      operations perf makes memory samples of);
#   3. `perf report --sort comm,sym` names the four phases, as commands and
#      as symbols, and perf warns about nothing of the file's making;
#   4. armprof's own reader gives back the records byte for byte: `armprof
#      decode` of the perf.data shows what it shows of the .spe file.
#   -DARMPROF=<armprof> -DPERF="<perf command|args>" -DPERF_VERSION=6.1|7.3
#   -DWORK=<scratch folder> [-DOPS=N]
# Prints "SKIPPED (why)" when the perf command cannot run.
include(${CMAKE_CURRENT_LIST_DIR}/skip.cmake)
string(REPLACE "|" ";" PERF "${PERF}")
if(NOT PERF)
  armprof_skip_tool("perf_demo ${PERF_VERSION}" "no perf ${PERF_VERSION}: see .ci/run and tools/perf-root.sh")
  return()
endif()
execute_process(COMMAND ${PERF} version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE verr)
if(NOT rc EQUAL 0 OR NOT version MATCHES "perf version ${PERF_VERSION}")
  armprof_skip_tool("perf_demo ${PERF_VERSION}" "perf does not run as ${PERF_VERSION}: ${version}${verr}")
  return()
endif()
if(NOT OPS)
  set(OPS 1000000)
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "perf_demo ${PERF_VERSION}: ${what} exited ${rc}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

# 1
run("armprof demo" ${ARMPROF} demo --quiet --ops ${OPS} -o ${WORK}/demo.spe
    --perf-data ${WORK}/demo.data --perf-version ${PERF_VERSION})
run("armprof report" ${ARMPROF} report ${WORK}/demo.spe)
set(report "${out}")

# 2: armprof's counts
function(count var pattern)
  if(NOT report MATCHES "\n *${pattern} +([0-9]+)")
    message(FATAL_ERROR "perf_demo: armprof report has no line '${pattern}'")
  endif()
  set(${var} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
count(records "records")
count(loads "loads")
count(stores "stores")
count(branches "branches")
count(link "with link \\(CR 0b01\\)")
count(return "procedure return \\(CR 0b10\\)")
count(mispredicted "mispredicted \\(E\\[7\\]\\)")
count(l1d_access "E\\[2\\] Level 1 data cache access")
count(l1d_miss "E\\[3\\] Level 1 data cache refill or miss")
count(tlb_access "E\\[4\\] TLB access")
count(tlb_miss "E\\[5\\] TLB walk")
count(llc_access "E\\[8\\] Last Level cache access")
count(llc_miss "E\\[9\\] Last Level cache miss")
set(sve_dp 0)
if(report MATCHES "\n +Data processing, SVE vector +([0-9]+)")
  set(sve_dp ${CMAKE_MATCH_1})
endif()
set(other_ase 0)
if(report MATCHES "\n +other: Advanced SIMD \\(ASE\\) +([0-9]+)")
  set(other_ase ${CMAKE_MATCH_1})
endif()

# perf's sample kinds, from armprof's counts (docs/perf.md)
set(want_l1d-access ${l1d_access})
set(want_l1d-miss ${l1d_miss})
set(want_tlb-access ${tlb_access})
set(want_tlb-miss ${tlb_miss})
set(want_llc-access ${llc_access})
set(want_llc-miss ${llc_miss})
if(PERF_VERSION VERSION_LESS 6.13)
  # a branch-miss sample per mispredicted branch; memory samples for loads
  # and stores, and for SVE data processing
  set(kinds l1d-access l1d-miss tlb-access tlb-miss llc-access llc-miss branch-miss memory)
  set(want_branch-miss ${mispredicted})
  math(EXPR want_memory "${loads} + ${stores} + ${sve_dp}")
else()
  # a branch sample per branch and an instructions sample per record;
  # memory samples also for Other operations with ASE and for BL/RET
  set(kinds l1d-access l1d-miss tlb-access tlb-miss llc-access llc-miss branch memory instructions)
  set(want_branch ${branches})
  set(want_instructions ${records})
  math(EXPR want_memory "${loads} + ${stores} + ${sve_dp} + ${other_ase} + ${link} + ${return}")
endif()

# perf's counts
run("perf script" ${PERF} script -i ${WORK}/demo.data -F event)
string(REGEX MATCHALL "[a-z0-9-]+:" events "${out}")
set(seen)
foreach(e ${events})
  string(REGEX REPLACE ":$" "" e "${e}")
  if(NOT DEFINED got_${e})
    set(got_${e} 0)
    list(APPEND seen ${e})
  endif()
  math(EXPR got_${e} "${got_${e}} + 1")
endforeach()
set(bad 0)
foreach(k ${kinds})
  if(NOT DEFINED got_${k})
    set(got_${k} 0)
  endif()
  if(NOT got_${k} EQUAL want_${k})
    message(SEND_ERROR "perf_demo ${PERF_VERSION}: ${got_${k}} '${k}' samples in perf script, "
                       "armprof counts ${want_${k}}")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()
foreach(e ${seen})
  list(FIND kinds ${e} at)
  if(at EQUAL -1)
    message(SEND_ERROR "perf_demo ${PERF_VERSION}: perf script made ${got_${e}} '${e}' samples, "
                       "a kind this test does not expect")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()

# 3
run("perf report" ${PERF} report -i ${WORK}/demo.data --stdio --sort comm,sym)
foreach(phase stream-copy pointer-chase interpreter sve-compute)
  if(NOT out MATCHES "%  ${phase} +\\[\\.\\] ${phase}\n")
    message(SEND_ERROR "perf_demo ${PERF_VERSION}: perf report does not name ${phase} as command and symbol")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()
if(err MATCHES "Old SPE metadata|Failed to|not found|has no samples")
  message(SEND_ERROR "perf_demo ${PERF_VERSION}: perf report warned:\n${err}")
  math(EXPR bad "${bad} + 1")
endif()

# 4
run("armprof decode (perf.data)" ${ARMPROF} decode ${WORK}/demo.data)
string(REGEX REPLACE "^cpu 0: [^\n]*\n" "" from_perf "${out}")
run("armprof decode (.spe)" ${ARMPROF} decode ${WORK}/demo.spe)
if(NOT from_perf STREQUAL out)
  message(SEND_ERROR "perf_demo ${PERF_VERSION}: the perf.data's AUX data does not decode as the .spe file does")
  math(EXPR bad "${bad} + 1")
endif()

if(bad GREATER 0)
  message(FATAL_ERROR "perf_demo ${PERF_VERSION}: ${bad} checks failed")
endif()
message("perf_demo ${PERF_VERSION}: ${records} records; perf script samples:")
foreach(k ${kinds})
  message("  ${k} ${got_${k}}")
endforeach()
