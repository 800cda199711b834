# SPDX-License-Identifier: BSD-3-Clause
# The register declaration format's named values (core/regdecl.h): FVAL and
# FVIEW rows become constants of the declared value and position
# (tests/regdecl/probe.c asserts them), and an FVAL value wider than its
# field does not compile.
# Run: cmake -DCC=<compiler> -DSRC=<repo>/src -DDIR=<repo>/tests/regdecl -P regdecl.cmake
cmake_minimum_required(VERSION 3.16)
function(compile def result_var output_var)
  execute_process(
    COMMAND ${CC} -std=c11 -Wall -Wextra -Werror -fsyntax-only -I${SRC} -I${DIR}
            "-DREGDECL_TEST_LIST=\"${DIR}/${def}\"" ${DIR}/probe.c
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${result_var} ${rc} PARENT_SCOPE)
  set(${output_var} "${out}" PARENT_SCOPE)
endfunction()
compile(fits.def rc out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "regdecl: values that fit their fields did not compile:\n${out}")
endif()
compile(too_wide.def rc out)
if(rc EQUAL 0)
  message(FATAL_ERROR "regdecl: FVAL(TEST_REG, FM, TOO_WIDE, 0x4) on a 2-bit field compiled")
endif()
if(NOT out MATCHES "too_wide.def:5")
  message(FATAL_ERROR "regdecl: the error does not name the row (too_wide.def:5):\n${out}")
endif()
message(STATUS "regdecl: named values and views compile to their declarations; a value wider than its field is rejected at its row")
