# SPDX-License-Identifier: BSD-3-Clause
# Writes the manual page armprof(1) that `armprof help --man` prints.
# Run: cmake -DARMPROF=<armprof> -DOUT=<armprof.1> -P manpage.cmake
execute_process(COMMAND ${ARMPROF} help --man OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "armprof help --man failed (${rc})")
endif()
