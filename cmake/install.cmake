# `cmake --install build --prefix P`: what a user links and runs, and the CMake package config.
#   bin/ptovec, bin/ptovec-device-host    the command line and its device host (found next to it)
#   lib/libptovec_c.so*                   the C API (capi/), SONAME libptovec_c.so.MAJOR
#   lib/libptovec_oracle.a                the exact oracle (C++20)
#   include/ptovec/ptovec.h               the C API header
#   include/ptovec/facts.h                the constants it, the device ABI and the oracle share
#   include/ptovec/oracle/*.hpp           the oracle's headers
#   include/ptovec_dut.h                  the device ABI of `run --dut` (include)
#   include/ptovec_dut_stream.hpp         the streaming harness for clocked RTL devices (C++17)
#   share/ptovec/schemas/                 the JSON schemas and the device protocol (schemas/)
#   share/ptovec/known-differences/       example behaviour-model compositions to copy (the
#                                         built-in models are in the oracle)
#   share/ptovec/coverage_heatmap.py      the heat map of `ptovec coverage --plot` (found from
#                                         bin/ptovec; matplotlib)
#   share/ptovec/report_html.py           the HTML page of `--report-html` and `ptovec report`
#   share/ptovec/ptovec_heatmap.py        the drawing code the two share
#   share/ptovec/coverage_ucis.py         the UCIS database of `ptovec coverage --ucis` (found
#                                         the same way; pyucis)
#   share/ptovec/dpi/                     ptovec_dpi.svh and ptovec_dpi.c: the C API for
#                                         SystemVerilog testbenches (import "DPI-C")
#   lib/cmake/ptovec/                     ptovecConfig.cmake, its version file and targets:
#                                         find_package(ptovec CONFIG) gives ptovec::oracle,
#                                         ptovec::ptovec_c and ptovec::dut, and ptovec_add_dut
#                                         (ptovecDut.cmake, ptovec_dut_exports.map)
# tests/install/check_install.cmake proves it with a consumer project (tests/install/consumer).
include(CMakePackageConfigHelpers)

set(PTOVEC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptovec)
set(PTOVEC_INSTALL_SCHEMADIR ${CMAKE_INSTALL_DATADIR}/ptovec/schemas)

set_target_properties(ptovec_oracle PROPERTIES EXPORT_NAME oracle)
set_target_properties(ptovec_dut_abi PROPERTIES EXPORT_NAME dut)
install(TARGETS ptovec_oracle ptovec_c ptovec_dut_abi EXPORT ptovecTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptovec
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/oracle/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/ptovec_dut.h
              ${PROJECT_SOURCE_DIR}/include/ptovec_dut_stream.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/ptovec/facts.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ptovec)
install(TARGETS ptovec ptovec-device-host RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schemas/ DESTINATION ${PTOVEC_INSTALL_SCHEMADIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/known-differences/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptovec/known-differences)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/cli/coverage_heatmap.py
                 ${PROJECT_SOURCE_DIR}/tools/cli/report_html.py
                 ${PROJECT_SOURCE_DIR}/tools/cli/coverage_ucis.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptovec)
install(FILES ${PROJECT_SOURCE_DIR}/tools/cli/ptovec_heatmap.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptovec)
install(FILES ${PROJECT_SOURCE_DIR}/capi/dpi/ptovec_dpi.svh ${PROJECT_SOURCE_DIR}/capi/dpi/ptovec_dpi.c
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ptovec/dpi)

install(EXPORT ptovecTargets NAMESPACE ptovec:: DESTINATION ${PTOVEC_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ptovecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ptovecConfig.cmake INSTALL_DESTINATION ${PTOVEC_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR PTOVEC_INSTALL_SCHEMADIR)
# 0.x: a minor release may change the API, so only the same MAJOR.MINOR is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ptovecConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ptovecConfig.cmake ${PROJECT_BINARY_DIR}/ptovecConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/ptovecDut.cmake
        DESTINATION ${PTOVEC_INSTALL_CMAKEDIR})
install(FILES ${PTOVEC_DUT_EXPORTS_MAP} DESTINATION ${PTOVEC_INSTALL_CMAKEDIR}
        RENAME ptovec_dut_exports.map)
