# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# `armprof run --json` on a scenario whose file name is not valid UTF-8:
# every line must still be valid UTF-8 JSON, each invalid byte of the name
# written as \ufffd and valid UTF-8 kept as it is (issue 15, part 6).
# Run: cmake -DARMPROF=... -DDIR=<scratch folder> -P json_utf8.cmake
string(ASCII 255 ff)   # never in UTF-8
string(ASCII 195 c3)   # starts a 2-byte sequence, here cut short by '('
string(ASCII 192 c0)   # with 0xaf: an overlong '/'
string(ASCII 175 af)
string(ASCII 169 a9)   # 0xc3 0xa9: U+00E9, valid
set(name "json${ff}${c3}(${c0}${af})${c3}${a9}.aps")
file(MAKE_DIRECTORY ${DIR})
file(REMOVE_RECURSE ${DIR}/json_utf8_work)
file(MAKE_DIRECTORY ${DIR}/json_utf8_work)
set(path ${DIR}/json_utf8_work/${name})
file(WRITE "${path}" "preset armv9.4-all\nset MDCR_EL3.NSPB 0b01\nel 1\nmrs PMSCR_EL1 => 0\n")
if(NOT EXISTS "${path}")
  message(STATUS "json_utf8: SKIPPED (the file system refused a name that is not UTF-8)")
  return()
endif()
execute_process(COMMAND ${ARMPROF} run --json "${path}" RESULT_VARIABLE rc
  OUTPUT_FILE ${DIR}/json_utf8_work/out.json ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "armprof run --json failed with ${rc}: ${err}")
endif()

# Valid UTF-8: the bytes as hex pairs, each followed by a space; remove the
# well-formed sequences (Unicode Table 3-7); no byte >= 0x80 may remain.
file(READ ${DIR}/json_utf8_work/out.json hex HEX)
string(REGEX REPLACE "(..)" "\\1 " hex "${hex}")
set(c "[89ab][0-9a-f] ")
set(valid "[0-7][0-9a-f] |c[2-9a-f] ${c}|d[0-9a-f] ${c}|e0 a[0-9a-f] ${c}|e0 b[0-9a-f] ${c}")
string(APPEND valid "|e[1-9a-cef] ${c}${c}|ed [89][0-9a-f] ${c}|f0 9[0-9a-f] ${c}${c}")
string(APPEND valid "|f0 [ab][0-9a-f] ${c}${c}|f[1-3] ${c}${c}${c}|f4 8[0-9a-f] ${c}${c}")
string(REGEX REPLACE "${valid}" "" rest "${hex}")
if(NOT rest STREQUAL "")
  message(FATAL_ERROR "the output is not valid UTF-8; bytes left: ${rest}")
endif()

# The first line (file(STRINGS) would drop bytes above 0x7f).
file(READ ${DIR}/json_utf8_work/out.json out)
string(REGEX MATCH "^[^\n]*" access "${out}")
string(JSON file GET "${access}" file)
string(JSON check GET "${access}" check)
# The JSON's \ufffd decoded: U+FFFD in UTF-8 (ef bf bd).
string(ASCII 239 ef)
string(ASCII 191 bf)
string(ASCII 189 bd)
set(r "${ef}${bf}${bd}")
set(want "/json_utf8_work/json${r}${r}(${r}${r})${c3}${a9}.aps")
string(FIND "${file}" "${want}" at)
if(at EQUAL -1 OR NOT check STREQUAL "pass")
  message(FATAL_ERROR "file or check wrong in: ${access}")
endif()
string(FIND "${access}" "json\\ufffd\\ufffd(\\ufffd\\ufffd)${c3}${a9}.aps\"" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the name is not escaped as expected: ${access}")
endif()
message(STATUS "json_utf8: valid UTF-8, ${r} for each invalid byte")
