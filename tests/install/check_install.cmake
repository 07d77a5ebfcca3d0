# cmake -DBUILD_DIR=... -DWORK=... -DCONSUMER=... -DORACLE_DUT=... -DLIBDIR=lib -DVERSION=0.1.0
#       -DMAJOR=0 -DDEVICE_SOURCE=examples/devices/shift_device.c -P check_install.cmake
#
# Installs the build into a fresh prefix (WORK/prefix), checks the layout (binaries, the C API's
# versioned SONAME and its exports, headers, schemas, package config), builds the consumer project
# (tests/install/consumer) against the prefix with a fresh configure, runs its C and C++ programs
# and checks their values, builds a device on ptovec::dut alone with Boost hidden and gates it, and runs the installed ptovec (eval, `run --dut` through the device
# host found next to it, `coverage --plot` through the installed heat map script). Any difference
# fails with one line saying what.
foreach(var BUILD_DIR WORK CONSUMER ORACLE_DUT LIBDIR VERSION MAJOR DEVICE_SOURCE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)

function(run_checked)
  cmake_parse_arguments(ARG "" "OUTPUT" "COMMAND" ${ARGN})
  execute_process(COMMAND ${ARG_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARG_COMMAND}")
    message(FATAL_ERROR "`${shown}` failed (${rc}):\n${out}${err}")
  endif()
  if(ARG_OUTPUT)
    set(${ARG_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

function(expect_equal what got expected)
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "${what}: got\n${got}\nexpected\n${expected}")
  endif()
endfunction()

run_checked(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# Layout.
set(lib ${prefix}/${LIBDIR})
foreach(path bin/ptovec bin/ptovec-device-host include/ptovec/ptovec.h include/ptovec_dut.h
        include/ptovec/facts.h include/ptovec/oracle/formats.hpp share/ptovec/schemas/vectors.schema.json
        share/ptovec/schemas/dut-protocol.md share/ptovec/dpi/ptovec_dpi.svh
        share/ptovec/dpi/ptovec_dpi.c share/ptovec/coverage_heatmap.py
        share/ptovec/report_html.py share/ptovec/ptovec_heatmap.py share/ptovec/coverage_ucis.py
        ${LIBDIR}/libptovec_oracle.a
        ${LIBDIR}/cmake/ptovec/ptovecConfig.cmake
        ${LIBDIR}/cmake/ptovec/ptovecConfigVersion.cmake
        ${LIBDIR}/cmake/ptovec/ptovecTargets.cmake)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "not installed: ${path}")
  endif()
endforeach()
# libptovec_c.so -> libptovec_c.so.0 -> libptovec_c.so.0.1.0, SONAME libptovec_c.so.0.
file(READ_SYMLINK ${lib}/libptovec_c.so link)
expect_equal("libptovec_c.so links to" "${link}" "libptovec_c.so.${MAJOR}")
file(READ_SYMLINK ${lib}/libptovec_c.so.${MAJOR} link)
expect_equal("libptovec_c.so.${MAJOR} links to" "${link}" "libptovec_c.so.${VERSION}")
run_checked(COMMAND readelf -d ${lib}/libptovec_c.so.${VERSION} OUTPUT dynamic)
if(NOT dynamic MATCHES "Library soname: \\[libptovec_c\\.so\\.${MAJOR}\\]")
  message(FATAL_ERROR "libptovec_c.so.${VERSION} has no SONAME libptovec_c.so.${MAJOR}:\n${dynamic}")
endif()
# Only ptovec_* functions are exported.
run_checked(COMMAND nm -D --defined-only ${lib}/libptovec_c.so.${VERSION} OUTPUT symbols)
string(REGEX MATCHALL "[^\n]+" lines "${symbols}")
set(exported 0)
foreach(line IN LISTS lines)
  if(line MATCHES " T ptovec_[a-z_]+$")
    math(EXPR exported "${exported} + 1")
  elseif(NOT line MATCHES " A ")  # version nodes, if any
    message(FATAL_ERROR "libptovec_c exports more than the C API: ${line}")
  endif()
endforeach()
if(exported LESS 11)
  message(FATAL_ERROR "libptovec_c exports ${exported} ptovec_* functions, expected 11:\n${symbols}")
endif()

# The consumer project, configured fresh against the prefix only.
run_checked(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/consumer -G Ninja
                    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
run_checked(COMMAND ${CMAKE_COMMAND} --build ${WORK}/consumer)
run_checked(COMMAND ${WORK}/consumer/c_consumer OUTPUT c_out)
# tcvt FP16 1.5 -> E8M0 (seed 001): 1.5 lies between 2^0 and 2^1: up (0x80, 2^1) under RNE RTP
# RNA RHB, and RTO (the odd exponent, 1), down (0x7f, 2^0) under RTM RTZ; inexact (NX) always.
expect_equal("c_consumer output" "${c_out}" "ptovec ${VERSION}
RNE 0x80 0x10
RTM 0x7f 0x10
RTP 0x80 0x10
RTZ 0x7f 0x10
RNA 0x80 0x10
RTO 0x80 0x10
RHB 0x80 0x10
error: tcvt takes 1 input (value), got 2
")
run_checked(COMMAND ${WORK}/consumer/oracle_consumer OUTPUT cxx_out)
expect_equal("oracle_consumer output" "${cxx_out}" "e8m0 RTZ 0.75: 0x7f 0x10
e8m0 RTM 0.75: 0x7e 0x10
fp16 RNE 1.5: 0x3e00 0x00
")

# A device project on ptovec::dut alone configures and builds where there is no Boost.
run_checked(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK}/device -G Ninja
                    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
                    -DCMAKE_DISABLE_FIND_PACKAGE_Boost=TRUE -DCONSUMER_DEVICE_ONLY=${DEVICE_SOURCE}
            OUTPUT device_configure)
if(NOT device_configure MATCHES "ptovec: no Boost 1.74 or later: ptovec::oracle cannot be linked")
  message(FATAL_ERROR "configuring a device project without Boost did not say so:\n${device_configure}")
endif()
run_checked(COMMAND ${CMAKE_COMMAND} --build ${WORK}/device)
run_checked(COMMAND ${prefix}/bin/ptovec run --dut ${WORK}/device/libconsumer_device.so --op shift
                    --samples 200 --work ${WORK}/device-run --quiet OUTPUT device_run)

# The installed ptovec: eval, and run --dut through bin/ptovec-device-host.
run_checked(COMMAND ${prefix}/bin/ptovec eval --op tcvt --src fp16 --dst e8m0 --rmode RTP 0x3e00
            OUTPUT eval_out)
if(NOT eval_out MATCHES "\"out\":\"0x80\",\"flags\":\"0x10\"")
  message(FATAL_ERROR "installed ptovec eval printed: ${eval_out}")
endif()
run_checked(COMMAND ${prefix}/bin/ptovec run --dut ${ORACLE_DUT} --op tcvt --src fp16 --dst e8m0
                    --work ${WORK}/run --quiet --report-html ${WORK}/run.html OUTPUT run_out)
file(STRINGS ${WORK}/run.html html_start LIMIT_COUNT 1)
expect_equal("run --report-html with the installed page script wrote" "${html_start}"
             "<!DOCTYPE html>")

# The installed ptovec's coverage --plot runs the installed share/ptovec/coverage_heatmap.py
# (found from bin/ptovec, not through the source tree): first as it is (a PNG is drawn), then
# replaced by a script that only leaves a mark, which must appear.
run_checked(COMMAND ${prefix}/bin/ptovec generate --op shift --samples 200 --out ${WORK}/cov --quiet)
run_checked(COMMAND ${prefix}/bin/ptovec coverage --vectors ${WORK}/cov --quiet
                    --plot ${WORK}/cov.png)
file(READ ${WORK}/cov.png png_magic LIMIT 4 HEX)
expect_equal("coverage --plot with the installed heat map script wrote" "${png_magic}" "89504e47")
file(WRITE ${prefix}/share/ptovec/coverage_heatmap.py
     "import sys\nsys.stdout.write('installed script ran')\n")
run_checked(COMMAND ${prefix}/bin/ptovec coverage --vectors ${WORK}/cov --quiet
                    --plot ${WORK}/mark.png)
file(READ ${WORK}/mark.png mark)
expect_equal("coverage --plot ran" "${mark}" "installed script ran")
# The same for coverage --ucis and share/ptovec/coverage_ucis.py (what it prints is the file), run
# by Debian's python3 (PTOVEC_PYTHON): the installed script, not the source tree's, is found.
file(WRITE ${prefix}/share/ptovec/coverage_ucis.py "print('installed UCIS script ran', end='')\n")
run_checked(COMMAND ${CMAKE_COMMAND} -E env PTOVEC_PYTHON=/usr/bin/python3
                    ${prefix}/bin/ptovec coverage --vectors ${WORK}/cov --quiet
                    --ucis ${WORK}/mark.xml)
file(READ ${WORK}/mark.xml mark)
expect_equal("coverage --ucis ran" "${mark}" "installed UCIS script ran")
file(REMOVE_RECURSE ${WORK})
message(STATUS "installed, consumer built and run, installed ptovec eval, run --dut, "
               "coverage --plot and --ucis pass")
