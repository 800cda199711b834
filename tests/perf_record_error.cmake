# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# A perf.data that perf itself wrote, without SPE data (issue 22, part 2):
# perf records a software event (cpu-clock) while `true` runs, and
# `armprof decode` must refuse the file with status 2 and a message naming
# it and saying it has no SPE data. `armprof report` reads such a file as
# samples (issue 43, docs/pc-sampling.md): as many as perf's own dump
# (perf report -D) has PERF_RECORD_SAMPLE events.
#   -DARMPROF=<armprof> -DPERF=<perf> -DWORK=<scratch folder>
# Prints "SKIPPED (why)" when perf is missing or may not record here
# (kernel.perf_event_paranoid).
if(NOT PERF)
  include(${CMAKE_CURRENT_LIST_DIR}/skip.cmake)
  armprof_skip_tool(perf_record_error "no perf: .ci/run installs linux-perf")
  return()
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(data ${WORK}/software.data)
execute_process(COMMAND ${PERF} record -q -e cpu-clock -o ${data} -- true
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${data})
  message("perf_record_error: SKIPPED (perf record cannot record here: ${err})")
  return()
endif()
file(READ ${data} head LIMIT 8 HEX)
if(NOT head STREQUAL "50455246494c4532")
  message(FATAL_ERROR "perf_record_error: perf's file starts ${head}, not with PERFILE2")
endif()
execute_process(COMMAND ${ARMPROF} decode ${data}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "software.data: no SPE data")
  message(FATAL_ERROR "perf_record_error: armprof decode exited ${rc}, said:\n${err}${out}")
endif()
set(refused "${err}")
execute_process(COMMAND ${PERF} report -D -i ${data} OUTPUT_VARIABLE dump ERROR_QUIET)
string(REGEX MATCHALL "PERF_RECORD_SAMPLE" samples "${dump}")
list(LENGTH samples nsamples)
execute_process(COMMAND ${ARMPROF} report ${data}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "software.data: ${nsamples} samples")
  message(FATAL_ERROR "perf_record_error: armprof report exited ${rc}, not 0 with ${nsamples} samples:\n${err}${out}")
endif()
message("perf_record_error: a perf.data of cpu-clock samples is refused by decode (${refused}) and reported as ${nsamples} samples")
