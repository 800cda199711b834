# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.16)
# Runs `ARMPROF ARGS...` with its standard output on /dev/full (every write
# fails with ENOSPC) or, with -DCLOSED=1, closed; the command must exit
# with status 2 and say on stderr that standard output could not be
# written. Without /dev/full (or sh, to close the descriptor) it prints
# SKIPPED.
if(CLOSED)
  find_program(SH sh)
  if(NOT SH)
    message(STATUS "stdout_error: SKIPPED (no sh to close standard output)")
    return()
  endif()
  # sh runs the command with descriptor 1 closed: "$0" "$@" >&-
  execute_process(COMMAND ${SH} -c "exec \"$0\" \"$@\" >&-" ${ARMPROF} ${ARGS}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  set(want "armprof: standard output: ")
else()
  if(NOT EXISTS /dev/full)
    message(STATUS "stdout_error: SKIPPED (no /dev/full)")
    return()
  endif()
  execute_process(COMMAND ${ARMPROF} ${ARGS} OUTPUT_FILE /dev/full
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  set(want "armprof: standard output: No space left on device")
endif()
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "armprof ${ARGS}: expected status 2, got ${rc}\nstderr: ${err}")
endif()
string(FIND "${err}" "${want}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "armprof ${ARGS}: stderr does not contain '${want}':\n${err}")
endif()
