# SPDX-License-Identifier: BSD-3-Clause
# armprof_write_if_changed(FILE TEXT): FILE holds TEXT afterwards, written
# only when it held something else, so that what depends on a generated
# file is not rebuilt for nothing (included by the generator scripts).
function(armprof_write_if_changed file text)
  set(old "")
  if(EXISTS "${file}")
    file(READ "${file}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${file}" "${text}")
  endif()
endfunction()
