# SPDX-License-Identifier: BSD-3-Clause
# public_functions(<out-var> <headers-dir>): the functions the public headers
# declare ("armprof_x(" at the start of a declaration, after its return
# type, FILE * among them), static inline ones left out. Shared by exports.cmake and man.cmake.
function(public_functions out dir)
  file(GLOB headers ${dir}/*.h)
  set(declared)
  foreach(h ${headers})
    file(READ ${h} text)
    string(REGEX MATCHALL "\n[A-Za-z][A-Za-z_ 0-9]*[ *](armprof_[a-z0-9_]+)\\(" decls "${text}")
    foreach(d ${decls})
      string(REGEX REPLACE ".*[ *](armprof_[a-z0-9_]+)\\($" "\\1" name "${d}")
      string(FIND "${d}" "static inline" inline)
      if(inline EQUAL -1)
        list(APPEND declared ${name})
      endif()
    endforeach()
  endforeach()
  set(${out} ${declared} PARENT_SCOPE)
endfunction()
