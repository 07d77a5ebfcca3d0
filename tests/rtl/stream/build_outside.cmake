# cmake -DBUILD_DIR=<ptovec build> -DSOURCE_DIR=<ptovec tree> -DWORK=<folder> -P build_outside.cmake
#
# The streaming-harness example as a user's project would build it: installs the ptovec build
# into WORK/prefix, copies examples/rtl/stream_example and the two .sv files it verilates into WORK/outside
# (a folder outside the tree), configures it afresh against the prefix only (find_package(ptovec)
# -> ptovec::dut, ptovec_add_dut) and builds its two devices:
#   WORK/outside/build/libptovec_pipe_dut.so, WORK/outside/build/libptovec_pipe_dut_planted_bug.so
# Any failing step fails with its command and output.
foreach(var BUILD_DIR SOURCE_DIR WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "build_outside.cmake: -D${var}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
function(run_checked)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "`${shown}` failed (${rc}):\n${out}${err}")
  endif()
endfunction()
run_checked(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
file(COPY ${SOURCE_DIR}/examples/rtl/stream_example/ DESTINATION ${WORK}/outside/stream_example)
file(COPY ${SOURCE_DIR}/examples/rtl/ptovec_tcvt_e8m0_pipe.sv ${SOURCE_DIR}/examples/rtl/ptovec_tcvt_e8m0.sv
     DESTINATION ${WORK}/outside)
run_checked(${CMAKE_COMMAND} -S ${WORK}/outside/stream_example -B ${WORK}/outside/build -G Ninja
            -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK}/prefix)
run_checked(${CMAKE_COMMAND} --build ${WORK}/outside/build)
foreach(lib libptovec_pipe_dut.so libptovec_pipe_dut_planted_bug.so)
  if(NOT EXISTS ${WORK}/outside/build/${lib})
    message(FATAL_ERROR "build_outside.cmake: no ${WORK}/outside/build/${lib}")
  endif()
endforeach()
