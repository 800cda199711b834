# SPDX-License-Identifier: BSD-3-Clause
cmake_minimum_required(VERSION 3.19)
# armprof report of a perf.data file of PC samples (issue 43, part 3), on
# the file tests/unit/test_pc_samples.c writes: 20 samples, of pid 100
# (COMM pcs_prog; MMAP2 of an ELF with user_hot and user_cold) 9 at
# user_hot, 3 at user_cold, 4 at kfunc_hot; of pid 0 (the idle task, which
# has no COMM: "swapper", as perf names it) 2 at kfunc_hot and 2 at
# kfunc_cold; the kallsyms copy names kfunc_hot and kfunc_cold. So:
#   by symbol: user_hot 9 (45%), kfunc_hot 6 (30%), user_cold 3 (15%),
#              kfunc_cold 2 (10%);
#   without --kallsyms the 8 kernel samples are one row, [kernel.kallsyms];
#   --folded: "pcs_prog;user_hot 9", "pcs_prog;kfunc_hot 4",
#             "pcs_prog;user_cold 3", then the two of swapper, 2 each
#             (equal counts by name);
#   errors: a missing kallsyms file; --folded with SPE records; --html
#           with samples.
#   -DARMPROF=<armprof> -DWRITER=<test_pc_samples> -DSPE=<a record file> -DWORK=<dir>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${WRITER} --write ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the writer exited ${rc}: ${err}")
endif()
function(run want_rc)
  execute_process(COMMAND ${ARMPROF} report ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL want_rc)
    message(FATAL_ERROR "armprof report ${ARGN}: exit ${rc}, not ${want_rc}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
function(expect text want)
  string(REGEX MATCHALL "[0-9.]+% +[0-9]+  [^\n]+" rows "${text}")
  if(NOT rows STREQUAL want)
    message(FATAL_ERROR "rows\n${rows}\nnot\n${want}\n${text}")
  endif()
endfunction()
set(data ${WORK}/pcs.data)
run(0 --kallsyms ${WORK}/kallsyms ${data})
if(NOT out MATCHES "20 samples \\(8 kernel, 12 user\\)")
  message(FATAL_ERROR "the totals:\n${out}")
endif()
expect("${out}" "45.00%           9  [.] user_hot;30.00%           6  [k] kfunc_hot;15.00%           3  [.] user_cold;10.00%           2  [k] kfunc_cold")
run(0 ${data})
expect("${out}" "45.00%           9  [.] user_hot;40.00%           8  [k] [kernel.kallsyms];15.00%           3  [.] user_cold")
run(0 --top 1 -o ${WORK}/top1.txt --kallsyms ${WORK}/kallsyms ${data})
file(READ ${WORK}/top1.txt out)
expect("${out}" "45.00%           9  [.] user_hot")
run(0 --folded --kallsyms ${WORK}/kallsyms ${data})
set(folded "pcs_prog;user_hot 9\npcs_prog;kfunc_hot 4\npcs_prog;user_cold 3\nswapper;kfunc_cold 2\nswapper;kfunc_hot 2\n")
if(NOT out STREQUAL folded)
  message(FATAL_ERROR "--folded:\n${out}\nnot\n${folded}")
endif()
run(2 --kallsyms ${WORK}/none ${data})
if(NOT err MATCHES "--kallsyms: ${WORK}/none: No such file")
  message(FATAL_ERROR "a missing kallsyms: ${err}")
endif()
run(2 --folded ${SPE})
if(NOT err MATCHES "are for a perf.data file of samples")
  message(FATAL_ERROR "--folded with SPE records: ${err}")
endif()
run(2 --html ${data})
if(NOT err MATCHES "a file of samples: --html and --svg are for SPE records")
  message(FATAL_ERROR "--html with samples: ${err}")
endif()
message("report_pc_samples: ok")
