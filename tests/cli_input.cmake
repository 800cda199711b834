# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# `armprof decode` and `armprof report` on their input (issue 44, parts 4
# and 10). Runs `ARMPROF ARGS...` and checks its exit status (WANT_RC),
# that stderr contains WANT_ERR (when given) or is empty (EMPTY_ERR), and
# that stdout matches WANT_OUT (when given). Standard input:
#   STDIN_FILE  given as a file (seekable)
#   STDIN_PIPE  given through a pipe (`cat FILE |`), which cannot seek
#   NEEDS       a path that must exist, or the test says SKIPPED
# SAME_AS: ARGS with "-" and the input on standard input must print what
# SAME_AS (the same arguments with the file named) prints, the lines that
# name the input aside.
if(NEEDS AND NOT EXISTS "${NEEDS}")
  message("SKIPPED: ${NEEDS} does not exist")
  return()
endif()
if(STDIN_PIPE)
  find_program(SH sh)
  string(REPLACE ";" " " args "${ARGS}")
  execute_process(COMMAND ${SH} -c "cat \"$0\" | \"$1\" ${args}" ${STDIN_PIPE} ${ARMPROF}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
elseif(STDIN_FILE)
  execute_process(COMMAND ${ARMPROF} ${ARGS} INPUT_FILE ${STDIN_FILE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
  execute_process(COMMAND ${ARMPROF} ${ARGS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
if(NOT DEFINED WANT_RC)
  set(WANT_RC 0)
endif()
if(NOT rc EQUAL WANT_RC)
  message(FATAL_ERROR "expected status ${WANT_RC}, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(WANT_ERR)
  string(FIND "${err}" "${WANT_ERR}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "stderr does not contain '${WANT_ERR}':\n${err}")
  endif()
endif()
if(EMPTY_ERR AND NOT err STREQUAL "")
  message(FATAL_ERROR "stderr is not empty:\n${err}")
endif()
if(WANT_OUT AND NOT out MATCHES "${WANT_OUT}")
  message(FATAL_ERROR "stdout does not match '${WANT_OUT}':\n${out}")
endif()
if(SAME_AS)
  execute_process(COMMAND ${ARMPROF} ${SAME_AS} RESULT_VARIABLE rc2 OUTPUT_VARIABLE out2)
  # the report's title names its input
  string(REGEX REPLACE "armprof report: [^\n<]*" "" a "${out}")
  string(REGEX REPLACE "armprof report: [^\n<]*" "" b "${out2}")
  if(NOT rc2 EQUAL rc OR NOT a STREQUAL b OR a STREQUAL "")
    message(FATAL_ERROR "'-' prints other than the file (status ${rc} and ${rc2}):\n${out}\n---\n${out2}")
  endif()
endif()
