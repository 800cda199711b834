# SPDX-License-Identifier: BSD-3-Clause
# Writes the manual page armprof(1) that `armprof help --man` prints and,
# with GZIP, each page given in GZ (armprof(1) among them) compressed beside
# it as PAGE.gz, as Debian installs manual pages: gzip -9n, no name or time
# in the header, so the same page gives the same bytes.
# Run: cmake -DARMPROF=<armprof> -DOUT=<armprof.1> [-DGZIP=<gzip> -DGZ=<pages>]
#            [-DDIR=<dir for the .gz files>] -P manpage.cmake
if(ARMPROF)
  execute_process(COMMAND ${ARMPROF} help --man OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "armprof help --man failed (${rc})")
  endif()
endif()
if(GZIP)
  foreach(page ${GZ})
    get_filename_component(name ${page} NAME)
    execute_process(COMMAND ${GZIP} -9n -c ${page} OUTPUT_FILE ${DIR}/${name}.gz RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${GZIP} ${page} failed (${rc})")
    endif()
  endforeach()
endif()
