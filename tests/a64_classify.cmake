# SPDX-License-Identifier: BSD-3-Clause
# The A64 classifier against the cross assembler: every instruction of
# tests/a64/insns.txt (its first column) assembled into one object, its
# words extracted with objcopy -O binary, and the test program run on the
# words and the table.
# Run: cmake -DAS=<aarch64-linux-gnu-as> -DOBJCOPY=<aarch64-linux-gnu-objcopy>
#            -DTABLE=<tests/a64/insns.txt> -DTEST=<test_a64_classify> -DWORK=<dir>
#            -P a64_classify.cmake
# The extensions are those Debian 12's binutils 2.40 knows (it has no
# armv9.4-a, sme2, gcs, rcpc3, lse128, the, d128, wfxt): the table encodes
# the instructions of those with .inst and says so.
cmake_minimum_required(VERSION 3.16)
set(ARCH "armv9.3-a+sve2+sme+sme-i64+sme-f64+mops+memtag+cssc+ls64+sve2-bitperm+sve2-aes+sve2-sm4+sve2-sha3+crypto+sm4+sha3+fp16fml+bf16+i8mm+f32mm+f64mm+tme+rng+flagm+predres+ssbs+sb+hbc")
foreach(tool AS OBJCOPY)
  if(NOT ${tool} OR NOT EXISTS "${${tool}}")
    include(${CMAKE_CURRENT_LIST_DIR}/skip.cmake)
    armprof_skip_tool(a64_classify "no cross ${tool}: apt-get install binutils-aarch64-linux-gnu")
    return()
  endif()
endforeach()
if(NOT EXISTS "${TEST}" OR NOT EXISTS "${TABLE}")
  message(FATAL_ERROR "a64_classify: TEST (${TEST}) and TABLE (${TABLE}) are required")
endif()
file(MAKE_DIRECTORY ${WORK})

# The first column of every instruction line, in order.
file(STRINGS ${TABLE} lines)
set(source "\t.text\n")
foreach(line IN LISTS lines)
  if(line MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  string(REGEX REPLACE "\\|.*" "" insn "${line}")
  string(STRIP "${insn}" insn)
  string(APPEND source "\t${insn}\n")
endforeach()
file(WRITE ${WORK}/a64_insns.s "${source}")

execute_process(COMMAND ${AS} -march=${ARCH} -o ${WORK}/a64_insns.o ${WORK}/a64_insns.s
                RESULT_VARIABLE rc ERROR_VARIABLE err)
# FEAT_MOPS sequences and register overlaps draw warnings; only errors fail.
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a64_classify: ${AS} failed on ${WORK}/a64_insns.s:\n${err}")
endif()
execute_process(COMMAND ${OBJCOPY} -O binary -j .text ${WORK}/a64_insns.o ${WORK}/a64_insns.bin
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a64_classify: ${OBJCOPY} failed: ${err}")
endif()
execute_process(COMMAND ${TEST} ${WORK}/a64_insns.bin ${TABLE} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${err}${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a64_classify: failed")
endif()
