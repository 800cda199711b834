# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# The perf quirks of docs/perf-quirks.md, one hand-made record file each
# (tests/data/perf-quirks, every byte explained in its README.md):
#   1. make_quirks.sh, run again into WORK, must write the files as they are
#      committed;
#   2. `armprof decode` reads each file as the doc says (the manual's values);
#   3. `armprof perf-data --perf-version PERF_VERSION` makes a perf.data of
#      each, and `perf script` / `perf report -D` must still show what the doc
#      says this perf version shows. A check that fails names its quirk: a
#      perf update has changed that behaviour, and the doc must follow.
#   -DARMPROF=<armprof> -DDATA=<tests/data/perf-quirks>
#   -DPERF="<perf command and leading args, ;- or |-separated>"
#   -DPERF_VERSION=6.1|7.3 -DWORK=<scratch folder>
# Prints "perf_quirks: SKIPPED (why)" when the perf command cannot run, or does
# not say it is PERF_VERSION (step 1 is done all the same, where there is a sh).

if(NOT PERF_VERSION MATCHES "^(6\\.1|7\\.3)$")
  message(FATAL_ERROR "perf_quirks: PERF_VERSION must be 6.1 or 7.3, not '${PERF_VERSION}'")
endif()
foreach(var ARMPROF DATA WORK)
  if(NOT ${var})
    message(FATAL_ERROR "perf_quirks: -D${var}= is missing")
  endif()
endforeach()
string(REPLACE "|" ";" PERF "${PERF}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

set(quirks q1-context q2-sve-memory q3-indirect q4-events q5-br q6-evl q7-ets)

# 1: the committed files are make_quirks.sh's output
find_program(SH sh)
if(SH)
  execute_process(COMMAND ${SH} ${DATA}/make_quirks.sh ${WORK}/regenerated
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "perf_quirks: make_quirks.sh exited ${rc}: ${err}")
  endif()
  foreach(q ${quirks})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
      ${DATA}/${q}.spe ${WORK}/regenerated/${q}.spe RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "perf_quirks: ${DATA}/${q}.spe is not what make_quirks.sh writes; "
                          "run `sh make_quirks.sh` in that folder and update README.md")
    endif()
  endforeach()
endif()

if(NOT PERF)
  include(${CMAKE_CURRENT_LIST_DIR}/skip.cmake)
  armprof_skip_tool(perf_quirks "no perf ${PERF_VERSION} command given: see .ci/run and tools/perf-root.sh")
  return()
endif()
execute_process(COMMAND ${PERF} version RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE verr)
string(REPLACE "." "\\." version_re "${PERF_VERSION}")
if(NOT rc EQUAL 0 OR NOT version MATCHES "perf version ${version_re}([^0-9]|$)")
  string(STRIP "${version}${verr}" said)
  string(REPLACE ";" " " cmd "${PERF}")
  include(${CMAKE_CURRENT_LIST_DIR}/skip.cmake)
  armprof_skip_tool(perf_quirks "`${cmd} version` does not run as perf ${PERF_VERSION}: ${rc} ${said}")
  return()
endif()

set(bad 0)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "perf_quirks ${PERF_VERSION}: ${what} exited ${rc}\n${out}\n${err}")
  endif()
  string(REPLACE ";" "," out "${out}")
  set(out "${out}" PARENT_SCOPE)
endfunction()

# prepare(QUIRK PID=NAME...): the perf.data of tests/data/perf-quirks/QUIRK.spe,
# then `armprof decode`, `perf script` and `perf report -D` of it, kept in
# the variables decode, script and dump (and in WORK/QUIRK.*.txt).
macro(prepare q)
  set(quirk ${q})
  set(comms)
  foreach(c ${ARGN})
    list(APPEND comms --comm ${c})
  endforeach()
  run("armprof decode ${q}.spe" ${ARMPROF} decode ${DATA}/${q}.spe)
  set(decode "${out}")
  run("armprof perf-data ${q}.spe" ${ARMPROF} perf-data ${DATA}/${q}.spe -o ${WORK}/${q}.data
      --perf-version ${PERF_VERSION} ${comms})
  run("perf script of ${q}" ${PERF} script -i ${WORK}/${q}.data -F hw:comm,tid,event,ip,addr,flags)
  set(script "${out}")
  run("perf report -D of ${q}" ${PERF} report -i ${WORK}/${q}.data -D)
  set(dump "${out}")
  file(WRITE ${WORK}/${q}.decode.txt "${decode}")
  file(WRITE ${WORK}/${q}.script.txt "${script}")
  file(WRITE ${WORK}/${q}.dump.txt "${dump}")
  if(NOT decode MATCHES "\\(0 ignored\\)")
    message(SEND_ERROR "perf_quirks: armprof decode ignores packets of ${q}.spe:\n${decode}")
    math(EXPR bad "${bad} + 1")
  endif()
endmacro()

# check_output(WANT WHERE REGEX WHY): whether the output WHERE (decode, script
# or dump) of the current quirk matches REGEX is WANT (TRUE or FALSE); if not,
# an error that names the quirk and says WHY (what the line shows).
function(check_output want where regex why)
  if(where STREQUAL "decode")
    set(tool "armprof decode")
  elseif(where STREQUAL "script")
    set(tool "perf ${PERF_VERSION} script")
  else()
    set(tool "perf ${PERF_VERSION} report -D")
  endif()
  set(matched FALSE)
  if("${${where}}" MATCHES "${regex}")
    set(matched TRUE)
  endif()
  if(NOT matched STREQUAL want)
    if(where STREQUAL "decode")
      set(how "armprof's decoder no longer reads the record as the doc says")
    elseif(want)
      set(how "perf no longer shows")
    else()
      set(how "perf now shows otherwise")
    endif()
    if(want)
      set(verb "no match for")
    else()
      set(verb "unexpected match of")
    endif()
    string(REPLACE "\n" "\\n" shown "${regex}")
    message(SEND_ERROR "perf_quirks ${PERF_VERSION}: ${quirk} (docs/perf-quirks.md): ${how}: ${why}\n"
                       "  ${verb} /${shown}/ in ${tool} (${WORK}/${quirk}.${where}.txt)")
    math(EXPR bad "${bad} + 1")
    set(bad ${bad} PARENT_SCOPE)
  endif()
endfunction()
# has(WHERE REGEX WHY): WHERE matches REGEX; lacks(...): it does not.
macro(has where regex why)
  check_output(TRUE ${where} "${regex}" "${why}")
endmacro()
macro(lacks where regex why)
  check_output(FALSE ${where} "${regex}" "${why}")
endmacro()

set(v61 FALSE)
if(PERF_VERSION STREQUAL "6.1")
  set(v61 TRUE)
endif()

# Q1: the thread is the last Context packet's value
prepare(q1-context 1000=q1-el1 2000=q1-el2)
has(decode "Context CONTEXTIDR_EL1 CONTEXT=0x3e8\n[^\n]*Context CONTEXTIDR_EL2 CONTEXT=0x7d0\n"
    "record 0 holds CONTEXTIDR_EL1 1000 then CONTEXTIDR_EL2 2000")
has(script "q1-el2 +2000 +memory: +10002000 +401000\n"
    "Q1: record 0 (EL1 1000, then EL2 2000) is given to thread 2000")
has(script "q1-el1 +1000 +memory: +10002008 +401004\n"
    "Q1: record 1 (EL2 2000, then EL1 1000) is given to thread 1000, the last packet's")

# Q2: operations without a data access become memory samples, address 0
prepare(q2-sve-memory 1000=q2-sve 1001=q2-ase 1002=q2-fp 1003=q2-bl 1004=q2-ret
        1005=q2-b 1006=q2-sme)
has(decode "48 38 +Operation Type CLASS=0 SUBCLASS=0x38 Data processing, SVE vector EVL=256 "
    "record 0 is SVE data processing")
has(decode "48 88 +Operation Type CLASS=0 SUBCLASS=0x88 Data processing, SME array ETS=128 "
    "record 6 is SME array data processing")
has(script "q2-sve +1000 +memory: +0 +401000\n"
    "Q2: the SVE data-processing record is a memory sample at address 0")
lacks(script "q2-(fp|b) +[0-9]+ +memory:"
    "Q2: no memory sample of an FP Other operation or of a plain branch (CR=0b11)")
if(v61)
  lacks(script "q2-(ase|bl|ret|sme) +[0-9]+ +memory:"
      "Q2: perf 6.1 makes no memory sample of Other+ASE, BL, RET or SME array records")
else()
  has(script "q2-ase +1001 +memory: +0 +401004\n" "Q2: Other with ASE is a memory sample at 0")
  has(script "q2-bl +1003 +memory: +0 +40100c\n" "Q2: BL (CR=0b01) is a memory sample at 0")
  has(script "q2-ret +1004 +memory: +0 +401010\n" "Q2: RET (CR=0b10) is a memory sample at 0")
  has(script "q2-sme +1006 +memory: +0 +401018\n" "Q2: SME array is a memory sample at 0")
endif()

# Q3: perf 6.1 hides IND when CR or GCS is set
prepare(q3-indirect 1000=q3-ind 1001=q3-blr 1002=q3-ret 1003=q3-gcs 1004=q3-cond)
has(decode "4a 0a +Operation Type CLASS=2 SUBCLASS=0xa Branch CR=1 GCS=0 IND=1 COND=0\n"
    "record 1 is an indirect branch with link")
has(decode "4a 06 +Operation Type CLASS=2 SUBCLASS=0x6 Branch CR=0 GCS=1 IND=1 COND=0\n"
    "record 3 is an indirect branch with a GCS access")
if(v61)
  has(dump "  4a 02 +B IND\n" "Q3: IND alone is shown")
  has(dump "  4a 0a +B\n" "Q3: IND with CR=0b01 is shown as a plain B")
  has(dump "  4a 12 +B\n" "Q3: IND with CR=0b10 is shown as a plain B")
  has(dump "  4a 06 +B\n" "Q3: IND with GCS is shown as a plain B")
  has(dump "  4a 03 +B COND IND\n" "Q3: IND with COND is shown")
else()
  has(dump "  4a 0a +B IND CR-BL\n" "Q3 (not in 7.3): IND with CR=0b01 is shown")
  has(dump "  4a 12 +B IND CR-RET\n" "Q3 (not in 7.3): IND with CR=0b10 is shown")
  has(dump "  4a 06 +B IND GCS\n" "Q3 (not in 7.3): IND with GCS is shown")
endif()

# Q4: perf 6.1 drops Events E[19] and E[20] (and E[21] to E[25])
prepare(q4-events 1000=q4-l2d 1001=q4-sve-ld)
has(decode "62 0e 00 18 00 +Events E=0x18000e retired l1d-access l1d-refill l2d-access l2d-miss\n"
    "record 0 has E[19] and E[20]")
has(decode "62 0e 00 e2 03 +Events E=0x3e2000e [a-z0-9 -]* partial-pred cache-modified recently-fetched snooped streaming smcu\n"
    "record 1 has E[17], E[21] to E[25]")
if(v61)
  has(dump "  62 0e 00 18 00 +EV RETIRED L1D-ACCESS L1D-REFILL\n" "Q4: E[19] and E[20] are not shown")
  has(dump "  62 0e 00 e2 03 +EV RETIRED L1D-ACCESS L1D-REFILL SVE-PARTIAL-PRED\n" "Q4: E[21] to E[25] are not shown")
else()
  has(dump "  62 0e 00 18 00 +EV RETIRED L1D-ACCESS L1D-REFILL L2D-ACCESS L2D-MISS\n"
      "Q4 (not in 7.3): E[19] and E[20] are shown")
  has(dump "  62 0e 00 e2 03 +EV RETIRED L1D-ACCESS L1D-REFILL SVE-PARTIAL-PRED HITM LFB SNOOPED STREAMING-SVE SMCU\n"
      "Q4 (not in 7.3): E[21] to E[25] are shown")
endif()
lacks(script " l2d[a-z-]*:" "Q4: no sample kind for the level 2 events")

# Q5: perf 7.3 flags BR (IND, CR=0b11) as a return
prepare(q5-br 1000=q5-br 1001=q5-br-miss 1002=q5-b 1003=q5-ret 1004=q5-blr)
has(decode "4a 1a +Operation Type CLASS=2 SUBCLASS=0x1a Branch CR=3 GCS=0 IND=1 COND=0\n"
    "record 0 is an indirect branch, neither with link nor a return")
if(v61)
  has(dump "  4a 1a +B\n" "Q5/Q3: perf 6.1 shows BR as a plain B")
  has(script "q5-br-miss +1001 +branch-miss: +403000 +401004\n"
      "Q5: perf 6.1 gives its branch-miss sample no flags")
else()
  has(dump "  4a 1a +B IND CR-NON-BL-RET\n" "Q5: the dump shows CR=0b11")
  has(script "q5-br +1000 +branch: +return +403000 +401000\n" "Q5: BR is flagged as a return")
  has(script "q5-br-miss +1001 +branch: +return/miss/ +403000 +401004\n"
      "Q5: a mispredicted BR is flagged as a return")
  has(script "q5-b +1002 +branch: +jmp +403000 +401008\n" "Q5: the direct B (CR=0b11) is a jump")
  has(script "q5-ret +1003 +branch: +return +403000 +40100c\n" "Q5: RET is a return")
  has(script "q5-blr +1004 +branch: +call +403000 +401010\n" "Q5: BLR is a call")
endif()

# Q6: EVL 0b111 ("More than 2048 bits") printed as 4096
prepare(q6-evl 1000=q6-evl7 1001=q6-evl6 1002=q6-ld-evl7)
has(decode "48 78 +Operation Type CLASS=0 SUBCLASS=0x78 Data processing, SVE vector EVL=>2048 "
    "record 0 has EVL 0b111")
has(dump "  48 78 +SVE-OTHER EVLEN 4096\n" "Q6: EVL 0b111 of SVE data processing is shown as 4096")
has(dump "  48 68 +SVE-OTHER EVLEN 2048\n" "Q6: EVL 0b110 is shown as 2048")
if(v61)
  has(dump "  49 78 +LD EVLEN 4096\n" "Q6: EVL 0b111 of an SVE load is shown as 4096")
else()
  has(dump "  49 78 +LD SVE-SME-REG EVLEN 4096\n" "Q6: EVL 0b111 of an SVE load is shown as 4096")
endif()

# Q7: ETS 0b1111 ("Whole ZA array") printed as 4194304
prepare(q7-ets 1000=q7-za 1001=q7-ets11)
has(decode "48 fc +Operation Type CLASS=0 SUBCLASS=0xfc Data processing, SME array ETS=ZA "
    "record 0 has ETS 0b1111")
if(v61)
  has(dump "  48 fc +OTHER INSN-OTHER\n" "Q7: perf 6.1 shows an SME array operation as Other")
else()
  has(dump "  48 fc +SME-OTHER ETS 4194304\n" "Q7: ETS 0b1111 is shown as 4194304")
  has(dump "  48 dc +SME-OTHER ETS 262144\n" "Q7: ETS 0b1011 is shown as 262144")
endif()

if(bad GREATER 0)
  message(FATAL_ERROR "perf_quirks ${PERF_VERSION}: ${bad} checks failed; "
                      "the outputs are in ${WORK}")
endif()
message("perf_quirks ${PERF_VERSION}: the 7 quirk files show what docs/perf-quirks.md says")
