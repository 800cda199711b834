# SPDX-License-Identifier: BSD-3-Clause
# The layering rule of docs/architecture.md, checked on the sources
# themselves (headers included: a header no source of its own layer
# includes escapes the build's check):
#   1. a file under src/<layer>/ includes "<other>/..." only for <other> its
#      layer, a layer below it or the public API (LAYERS:
#      "name:below1,below2|name:...");
#   2. a unit's state is private: PCSR_STATE() only in src/pcsr, PMU_STATE()
#      only in src/pmu, SPE_STATE()/SPE_BUFFER() only in src/spe, and the
#      engine's SYSREG_LEVEL() only in src/sysreg and the façade (src/pe);
#   3. no include climbs out of its folder with "../".
# Run: cmake -DSRC=<repo>/src -DLAYERS=... -P layering.cmake
cmake_minimum_required(VERSION 3.16)
set(errors 0)
set(allowed_names)
string(REPLACE "|" ";" LAYERS "${LAYERS}")
foreach(entry ${LAYERS})
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 name)
  list(LENGTH parts n)
  set(below_${name} "")
  if(n GREATER 1)
    list(GET parts 1 below)
    string(REPLACE "," ";" below_${name} "${below}")
  endif()
  list(APPEND allowed_names ${name})
endforeach()

set(private_PCSR_STATE pcsr)
set(private_PMU_STATE pmu)
set(private_SPE_STATE spe)
set(private_SPE_BUFFER spe)
set(private_SYSREG_LEVEL "sysreg;pe")

foreach(name ${allowed_names})
  file(GLOB_RECURSE files ${SRC}/${name}/*.c ${SRC}/${name}/*.h ${SRC}/${name}/*.def)
  foreach(f ${files})
    file(RELATIVE_PATH rel ${SRC} ${f})
    file(STRINGS ${f} lines)
    set(lineno 0)
    foreach(line IN LISTS lines)
      math(EXPR lineno "${lineno} + 1")
      if(line MATCHES "^#include \"([a-z_]+)/")
        set(target ${CMAKE_MATCH_1})
        if(NOT target STREQUAL name AND NOT target STREQUAL "armprof" AND NOT target IN_LIST below_${name})
          message(SEND_ERROR "src/${rel}:${lineno}: layer '${name}' includes '${target}', which is not below it")
          math(EXPR errors "${errors} + 1")
        endif()
      endif()
      if(line MATCHES "^#include \"\\.\\./")
        message(SEND_ERROR "src/${rel}:${lineno}: include climbs out of its folder")
        math(EXPR errors "${errors} + 1")
      endif()
      foreach(macro PCSR_STATE PMU_STATE SPE_STATE SPE_BUFFER SYSREG_LEVEL)
        if(line MATCHES "${macro}\\(" AND NOT name IN_LIST private_${macro})
          message(SEND_ERROR "src/${rel}:${lineno}: ${macro}() is private to src/${private_${macro}}")
          math(EXPR errors "${errors} + 1")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
if(errors EQUAL 0)
  list(LENGTH allowed_names nlayers)
  message(STATUS "layering: ${nlayers} layers, no include of a higher layer, unit state private")
endif()
