# Device tests' wiring (tools/devices): the built device paths for tests/tools/device_test.cpp, and
# the F16C example device through the gate (skipped where the CPU lacks F16C).
if(TARGET ptovec_tools_tests)
  target_compile_definitions(ptovec_tools_tests PRIVATE
    PTOVEC_ORACLE_DUT="$<TARGET_FILE:ptovec_oracle_dut>"
    PTOVEC_ORACLE_DEVICE="$<TARGET_FILE:ptovec-oracle-device>"
    PTOVEC_SHIFT_EXAMPLE="${PROJECT_SOURCE_DIR}/examples/devices/shift_device.py"
    PTOVEC_TEST_DUT_DIR="$<TARGET_FILE_DIR:ptovec_test_dut_abi_mismatch>")
  add_dependencies(ptovec_tools_tests ptovec_oracle_dut ptovec-oracle-device
                   ptovec_test_dut_missing_evaluate ptovec_test_dut_abi_mismatch
                   ptovec_test_dut_init_refuses ptovec_test_dut_bad_flags
                   ptovec_test_dut_bad_return ptovec_test_dut_dut_error
                   ptovec_test_dut_v2_missing_batch ptovec_test_dut_batch_bad_status
                   ptovec_test_dut_batch_error_unmarked ptovec_test_dut_batch_second_fails
                   ptovec_test_dut_batch_explained
                   ptovec_test_dut_policy)
  if(TARGET ptovec_f16c_dut)
    target_compile_definitions(ptovec_tools_tests PRIVATE
      PTOVEC_F16C_DUT="$<TARGET_FILE:ptovec_f16c_dut>")
    add_dependencies(ptovec_tools_tests ptovec_f16c_dut)
  endif()
endif()

# The Python example device (a simulator in another language) passes the gate for its op.
add_test(NAME ptovec_dut_python_shift_gate
         COMMAND $<TARGET_FILE:ptovec> run
                 --dut-cmd "${PTOVEC_FILES_PYTHON} '${PROJECT_SOURCE_DIR}/examples/devices/shift_device.py'"
                 --op shift --samples 2000 --work python-shift --results python-shift.bin --quiet
         WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(ptovec_dut_python_shift_gate PROPERTIES LABELS tools TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "2000 matched, 0 mismatched, 0 unsupported")

# The F16C example device through the gate: only the documented disagreement classes
# (docs/f16c.md); skipped on CPUs without F16C.
if(TARGET ptovec_f16c_dut)
  add_test(NAME ptovec_dut_f16c_gate
           COMMAND ${PTOVEC_FILES_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/f16c_gate.py
                   $<TARGET_FILE:ptovec> $<TARGET_FILE:ptovec_f16c_dut>
                   ${CMAKE_CURRENT_BINARY_DIR}/devices/f16c-gate 3000)
  set_tests_properties(ptovec_dut_f16c_gate PROPERTIES LABELS tools TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()

# The host IEEE device (C fenv, _Float16, cvtss2si: no oracle code) passes the gate with the x86
# behaviour model alone and fails without it; skipped only on CPUs without F16C. It runs every FP16
# and BF16 code (330 MB of vectors, twice), so it also carries the label `bulk`, which the asan pass
# leaves out (there it took two minutes); ptovec_dut_host_ieee_broken runs the same device there.
if(TARGET ptovec_host_ieee_dut)
  add_test(NAME ptovec_dut_host_ieee_gate
           COMMAND ${PTOVEC_FILES_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/host_ieee_gate.py
                   $<TARGET_FILE:ptovec> $<TARGET_FILE:ptovec_host_ieee_dut>
                   ${CMAKE_CURRENT_BINARY_DIR}/devices/host-ieee-gate 2000)
  set_tests_properties(ptovec_dut_host_ieee_gate PROPERTIES LABELS "tools;bulk" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
  # Its eight broken variants (--dut-arg) fail the same gate, and the diagnosis names their causes.
  add_test(NAME ptovec_dut_host_ieee_broken
           COMMAND ${PTOVEC_FILES_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/host_ieee_broken.py
                   $<TARGET_FILE:ptovec> $<TARGET_FILE:ptovec_host_ieee_dut>
                   ${PROJECT_SOURCE_DIR}/vectors/smoke
                   ${CMAKE_CURRENT_BINARY_DIR}/devices/host-ieee-broken)
  set_tests_properties(ptovec_dut_host_ieee_broken PROPERTIES LABELS tools TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()
