# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# On a terminal, `armprof decode` and `armprof report` show how far they
# have read on stderr, and erase the line at the end (issue 44, part 10).
# script(1) gives the command a pseudo-terminal; stdout goes to /dev/null,
# so what script captures is the command's stderr.
#   -DARMPROF=... -DCMD=decode|report -DFILE=...
find_program(SCRIPT script)
if(NOT SCRIPT)
  message("SKIPPED: no script(1) to give the command a terminal")
  return()
endif()
execute_process(COMMAND ${SCRIPT} -qec "\"${ARMPROF}\" ${CMD} \"${FILE}\" >/dev/null" /dev/null
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "script exited ${rc}\n${out}\n${err}")
endif()
string(ASCII 27 esc)
# a line that says the percentage read, and the erasing at the end
if(NOT out MATCHES "armprof ${CMD}: [^\r]*: +[0-9]+% " OR NOT out MATCHES "\r${esc}\\[K$")
  message(FATAL_ERROR "no progress line, or not erased, on the terminal:\n${out}")
endif()
