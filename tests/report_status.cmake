# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.16)
# Runs `ARMPROF ARGS...` and checks the exit status is WANT_RC and that
# stderr contains WANT.
execute_process(COMMAND ${ARMPROF} ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL WANT_RC)
  message(FATAL_ERROR "expected status ${WANT_RC}, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${err}" "${WANT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr does not contain '${WANT}':\n${err}")
endif()
