# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# PC samples (docs/pc-sampling.md) through a real Linux perf: the file
# tests/unit/test_pc_samples.c writes (20 samples: 9 in user_hot, 3 in
# user_cold of an ELF its MMAP2 maps for pid 100; 6 in kfunc_hot and 2 in
# kfunc_cold of a kernel its kallsyms names, under the kernel's MMAP) read
# by perf report --kallsyms --sort sym: 45%, 30%, 15%, 10% in that order,
# the user functions [.], the kernel's [k]; perf script names pid 100's
# command from its COMM and the idle task (pid 0) swapper.
#   -DWRITER=<test_pc_samples> -DPERF="<perf command|args>" -DPERF_VERSION=6.1|7.3 -DWORK=<dir>
include(${CMAKE_CURRENT_LIST_DIR}/skip.cmake)
string(REPLACE "|" ";" PERF "${PERF}")
if(NOT PERF)
  armprof_skip_tool("perf_pc_samples ${PERF_VERSION}" "no perf ${PERF_VERSION}: see .ci/run and tools/perf-root.sh")
  return()
endif()
execute_process(COMMAND ${PERF} version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE verr)
if(NOT rc EQUAL 0 OR NOT version MATCHES "perf version ${PERF_VERSION}")
  armprof_skip_tool("perf_pc_samples ${PERF_VERSION}" "perf does not run as ${PERF_VERSION}: ${version}${verr}")
  return()
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${WRITER} --write ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "perf_pc_samples: the writer exited ${rc}: ${err}")
endif()
execute_process(COMMAND ${PERF} report -i ${WORK}/pcs.data --stdio --kallsyms=${WORK}/kallsyms --sort sym
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "perf_pc_samples ${PERF_VERSION}: perf report exited ${rc}\n${out}\n${err}")
endif()
string(REGEX MATCHALL "[0-9.]+%  \\[[.k]\\] [a-z_]+" rows "${out}")
set(want "45.00%  [.] user_hot;30.00%  [k] kfunc_hot;15.00%  [.] user_cold;10.00%  [k] kfunc_cold")
if(NOT rows STREQUAL want)
  message(FATAL_ERROR "perf_pc_samples ${PERF_VERSION}: perf report gives\n${rows}\nnot\n${want}\n${out}\n${err}")
endif()
if(NOT out MATCHES "of event 'pc-sample'")
  message(FATAL_ERROR "perf_pc_samples ${PERF_VERSION}: the event is not named pc-sample\n${out}")
endif()
execute_process(COMMAND ${PERF} script -i ${WORK}/pcs.data --kallsyms=${WORK}/kallsyms -F comm,pid,cpu,ip,sym
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "pcs_prog +100 +\\[000\\] +400104 user_hot"
   OR NOT out MATCHES "swapper +0 +\\[001\\] +ffff800080010108 kfunc_cold")
  message(FATAL_ERROR "perf_pc_samples ${PERF_VERSION}: perf script exited ${rc}\n${out}\n${err}")
endif()
message("perf_pc_samples ${PERF_VERSION}: ok: ${rows}")
