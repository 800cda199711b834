# SPDX-License-Identifier: BSD-3-Clause
# The units are side by side (docs/architecture.md, "Units side by side"):
#   1. no file under src/<unit>/ includes a sibling unit's file
#      ("<sibling>/..."): what a unit asks of a sibling is declared in
#      core/siblings.h;
#   2. the build does not put a unit below a sibling (LAYERS, the
#      armprof_layer() map: "name:below1,below2|name:...").
# The units are the table's (src/pe/units.h, PE_UNITS: X(name, state, place)),
# read here, so a unit added there is checked with no change to this file.
# Run: cmake -DSRC=<repo>/src -DLAYERS=... -P layering_siblings.cmake
cmake_minimum_required(VERSION 3.16)
file(READ ${SRC}/pe/units.h table)
# A row: X(name, state, PLACE), the place in capitals (the comment's
# "X(name, state, place)" is not a row).
string(REGEX MATCHALL "X\\([a-z0-9_]+, *[a-z0-9_]+, *[A-Z0-9_]+\\)" rows "${table}")
string(REGEX REPLACE "X\\(([a-z0-9_]+),[^)]*\\)" "\\1" units "${rows}")
list(LENGTH units nunits)
if(nunits LESS 2)
  message(FATAL_ERROR "src/pe/units.h: found ${nunits} unit(s) in PE_UNITS; the table's format changed?")
endif()

set(errors 0)
foreach(unit ${units})
  if(NOT IS_DIRECTORY ${SRC}/${unit})
    message(SEND_ERROR "src/pe/units.h: unit '${unit}' has no folder src/${unit}")
    math(EXPR errors "${errors} + 1")
    continue()
  endif()
  set(siblings ${units})
  list(REMOVE_ITEM siblings ${unit})
  file(GLOB_RECURSE files ${SRC}/${unit}/*.c ${SRC}/${unit}/*.h ${SRC}/${unit}/*.def)
  foreach(f ${files})
    file(RELATIVE_PATH rel ${SRC} ${f})
    file(STRINGS ${f} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<][a-z0-9_]+/")
    foreach(inc IN LISTS includes)
      string(REGEX REPLACE "^[^\"<]*[\"<]([a-z0-9_]+)/.*" "\\1" target "${inc}")
      if(target IN_LIST siblings)
        message(SEND_ERROR "src/${rel}: unit '${unit}' includes its sibling's header (${inc}); "
                           "ask a sibling through core/siblings.h")
        math(EXPR errors "${errors} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

string(REPLACE "|" ";" LAYERS "${LAYERS}")
foreach(entry ${LAYERS})
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 name)
  list(LENGTH parts n)
  if(name IN_LIST units AND n GREATER 1)
    list(GET parts 1 below)
    string(REPLACE "," ";" below "${below}")
    foreach(b ${below})
      if(b IN_LIST units)
        message(SEND_ERROR "CMakeLists.txt: armprof_layer(${name} BELOW ... ${b}): a unit below its sibling")
        math(EXPR errors "${errors} + 1")
      endif()
    endforeach()
  endif()
endforeach()

if(errors EQUAL 0)
  string(REPLACE ";" ", " names "${units}")
  message(STATUS "layering_siblings: ${nunits} units side by side (${names})")
endif()
