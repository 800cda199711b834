# SPDX-License-Identifier: BSD-3-Clause
# A test script with `set -o pipefail` (and errexit) must not pipe into
# `head`: head exits after its lines, the command before it may then be
# killed by SIGPIPE while it still writes, the pipeline's status is 141
# and the script stops there, silently, without its FAIL line
# (qemu-system/pcsample_7.3 failed so once in CI: perf report's output cut
# after `all:`). `sed -n '1,Np'` reads to the end instead.
# Run: cmake -DROOT=<repo> -P pipefail_head_sigpipe.cmake
cmake_minimum_required(VERSION 3.16)
file(GLOB_RECURSE scripts RELATIVE ${ROOT} ${ROOT}/tests/*.sh ${ROOT}/bench/*.sh ${ROOT}/.ci/run)
set(bad 0)
set(checked 0)
foreach(rel ${scripts})
  file(READ ${ROOT}/${rel} text)
  if(NOT text MATCHES "pipefail")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  file(STRINGS ${ROOT}/${rel} lines)
  foreach(line IN LISTS lines)
    # a pipe into head on the host; a line the guest's shell runs (inside
    # quotes handed to the guest) is not the script's
    if(line MATCHES "\\|[ ]*head( |$)" AND NOT line MATCHES "^[ ]*echo '")
      message(SEND_ERROR "${rel}: a pipe into head under pipefail: ${line}")
      math(EXPR bad "${bad} + 1")
    endif()
  endforeach()
endforeach()
if(bad EQUAL 0)
  message(STATUS "pipefail_head_sigpipe: ${checked} scripts with pipefail, none pipes into head")
endif()
