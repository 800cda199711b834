# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# Runs `armprof run FILE` and checks it fails with status 2 and that stderr
# contains WANT (which names the file and line).
execute_process(COMMAND ${ARMPROF} run ${FILE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected status 2, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${err}" "${WANT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "stderr does not contain '${WANT}':\n${err}")
endif()
