# ptovec_add_dut(<target> SOURCES <file>...): a `ptovec run --dut` device, as a shared library
# linked with ptovec::dut (the device ABI header ptovec_dut.h and the streaming harness
# ptovec_dut_stream.hpp, docs/rtl.md), that exports the ABI only: hidden visibility and the
# linker version script ptovec_dut_exports.map (every symbol but ptovec_dut_* local, so a model,
# a static library or two copies of a runtime bind inside the device). Add the model afterwards,
# e.g. verilate(<target> SOURCES ...) of Verilator's CMake package.
#
# Read by ptovecConfig.cmake (installed: find_package(ptovec) defines it) and by the tree's own
# CMakeLists.txt, each having set PTOVEC_DUT_EXPORTS_MAP to the map's path first.
function(ptovec_add_dut target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_SOURCES)
    message(FATAL_ERROR "ptovec_add_dut(${target} ${ARGN}): expected ptovec_add_dut(<target> "
                        "SOURCES <file>...)")
  endif()
  add_library(${target} SHARED ${arg_SOURCES})
  target_link_libraries(${target} PRIVATE ptovec::dut)
  set_target_properties(${target} PROPERTIES C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE "LINKER:--version-script=${PTOVEC_DUT_EXPORTS_MAP}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${PTOVEC_DUT_EXPORTS_MAP})
endfunction()
