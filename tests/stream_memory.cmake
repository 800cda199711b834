# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# `armprof decode` and `armprof report` read a stream a block at a time
# (issue 15, item 8): a stream larger than the address space they are given
# still decodes. The stream comes down a pipe (so it is never a file the
# command could map), and `ulimit -v` gives the command less virtual memory
# than the stream's size, which the old read-it-all-first code needed twice.
#   -DARMPROF=... -DCMD=decode|report -DBYTES=N -DLIMIT_KB=N -DWANT=regex
# Not under AddressSanitizer, whose shadow memory needs terabytes of
# address space.
find_program(SH sh)
find_program(HEAD head)
if(NOT SH OR NOT HEAD OR NOT EXISTS /dev/zero)
  message("stream_memory: SKIPPED (needs sh, head and /dev/zero)")
  return()
endif()
# The stream: BYTES of Padding (0x00, D18.2.8) and then one End packet
# (0x01, D18.2.5), which ends an empty record.
execute_process(
  COMMAND ${SH} -c "ulimit -v ${LIMIT_KB} && { head -c ${BYTES} /dev/zero; printf '\\001'; } | \"$0\" ${CMD} /dev/stdin"
          ${ARMPROF}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "stream_memory: ${CMD} exited ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT out MATCHES "${WANT}")
  message(FATAL_ERROR "stream_memory: ${CMD}: output does not match '${WANT}':\n${out}")
endif()
