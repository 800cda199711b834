# SPDX-License-Identifier: BSD-3-Clause
# Debian packages, one per install component (`cpack -G DEB`, in a build
# configured with any prefix: the packages install into /usr, as Debian
# policy wants, whatever CMAKE_INSTALL_PREFIX `cmake --install` uses; every
# install destination is relative to the prefix, and the pkg-config and
# CMake files find it from their own place):
#   libarmprof0     the shared library (soname libarmprof.so.0)
#   libarmprof-dev  headers, static library, the .so link, pkg-config and
#                   CMake files, armprof(3)
#   armprof         the command, armprof(1), bash completion
#   armprof-qemu    the QEMU plugins (lib/armprof/), when this build made
#                   them: `armprof record` and qemu-aarch64 -plugin
# Dependencies on the C library come from dpkg-shlibdeps; the -dev package
# depends on the library of its own version.
set(CPACK_PACKAGE_NAME armprof)
set(CPACK_PACKAGE_VENDOR "The armprof authors")
set(CPACK_PACKAGE_CONTACT "The armprof authors <armprof@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Executable model of the Arm profiling extensions (PMU snapshots, PC sampling, SPE)")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL lib dev bin)
if(ARMPROF_QEMU_PLUGINS)
  list(APPEND CPACK_COMPONENTS_ALL qemu)
endif()
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libarmprof${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_LIB_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_COMPONENT_LIB_DESCRIPTION
    "Executable model of the Arm A-profile profiling extensions (shared library)\n The PMU with PMU snapshots (FEAT_PMUv3_SS), PC Sample-based Profiling\n (FEAT_PCSR) and the Statistical Profiling Extension (FEAT_SPE) with its\n Profiling Buffer, as the Arm Architecture Reference Manual specifies them,\n for simulators to embed.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libarmprof-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libarmprof${PROJECT_VERSION_MAJOR} (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "Executable model of the Arm A-profile profiling extensions (development files)\n Headers, the static library, pkg-config and CMake package files, and the\n manual page armprof(3).")

set(CPACK_DEBIAN_BIN_PACKAGE_NAME armprof)
set(CPACK_DEBIAN_BIN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_BIN_PACKAGE_SHLIBDEPS ON)
set(CPACK_COMPONENT_BIN_DESCRIPTION
    "Executable model of the Arm A-profile profiling extensions (command)\n armprof runs scenario files against the model, profiles a built-in\n workload as an operating system would, and decodes and reports SPE record\n files.")

# The plugins: glib (dpkg-shlibdeps) and a QEMU whose plugin API one of
# them fits (Debian 12's qemu-user is QEMU 7.2); the command finds them.
set(CPACK_DEBIAN_QEMU_PACKAGE_NAME armprof-qemu)
set(CPACK_DEBIAN_QEMU_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_QEMU_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_QEMU_PACKAGE_DEPENDS "qemu-user")
set(CPACK_DEBIAN_QEMU_PACKAGE_ENHANCES "armprof")
set(CPACK_DEBIAN_BIN_PACKAGE_SUGGESTS "armprof-qemu")
set(CPACK_COMPONENT_QEMU_DESCRIPTION
    "Executable model of the Arm A-profile profiling extensions (QEMU plugins)\n TCG plugins for qemu-aarch64 (QEMU 7.2's and 10.0's plugin API) that give\n an AArch64 Linux program's threads a PE of the model: SPE records, PMU\n counts and PC samples, as a record file and a perf.data file. armprof\n record -- PROGRAM runs a program under them.")

# Debian's copyright file in each package's documentation directory.
foreach(comp ${CPACK_COMPONENTS_ALL})
  string(TOUPPER ${comp} COMP)
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${COMP}_PACKAGE_NAME}
          RENAME copyright COMPONENT ${comp})
endforeach()

include(CPack)
