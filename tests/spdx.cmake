# SPDX-License-Identifier: BSD-3-Clause
# Every source file of the project carries the licence's SPDX identifier in
# its first three lines (after a #! line): C sources, headers and
# declaration tables, CMake files, scripts. Test inputs (scenarios, record
# files) and prose are not sources. Run: cmake -DROOT=<repo> -P spdx.cmake
cmake_minimum_required(VERSION 3.16)
file(GLOB_RECURSE candidates RELATIVE ${ROOT}
     ${ROOT}/src/* ${ROOT}/include/* ${ROOT}/tests/* ${ROOT}/bench/* ${ROOT}/examples/*
     ${ROOT}/tools/* ${ROOT}/cmake/* ${ROOT}/.ci/* ${ROOT}/CMakeLists.txt)
set(missing 0)
set(checked 0)
foreach(rel ${candidates})
  # GLOB_RECURSE matches the root's CMakeLists.txt in every folder, a build
  # tree's too, where CMake writes its own (check_language()'s CheckCXX).
  if(rel MATCHES "(^|/)CMakeFiles/")
    continue()
  endif()
  if(NOT rel MATCHES "(\\.(c|h|def|cmake|py|in|sh|bash)|CMakeLists\\.txt|^\\.ci/run)$")
    continue()
  endif()
  file(STRINGS ${ROOT}/${rel} head LIMIT_COUNT 3)
  math(EXPR checked "${checked} + 1")
  string(FIND "${head}" "SPDX-License-Identifier: BSD-3-Clause" at)
  if(at EQUAL -1)
    message(SEND_ERROR "${rel}: no 'SPDX-License-Identifier: BSD-3-Clause' in its first lines")
    math(EXPR missing "${missing} + 1")
  endif()
endforeach()
if(missing EQUAL 0)
  message(STATUS "spdx: ${checked} source files, each with its licence identifier")
endif()
