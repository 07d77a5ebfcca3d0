# Writes the op registry the Python package carries (ptovec/registry.json, read by
# ptovec.registry so that ptovec.stream.cases_from_evaluate starts no process):
#   {"tool_version": "<ptovec --version>", "ops": <ptovec list --json>,
#    "types": <ptovec list --types --json>}
# Usage: cmake -DPTOVEC=<program> -DOUT=<file> -P registry.cmake (python/CMakeLists.txt runs it).
function(ask var)
  execute_process(COMMAND ${PTOVEC} ${ARGN} OUTPUT_VARIABLE out RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PTOVEC} ${ARGN} failed (${rc}): ${err}")
  endif()
  string(STRIP "${out}" out)
  set(${var} "${out}" PARENT_SCOPE)
endfunction()
ask(version --version)
ask(ops list --json)
ask(types list --types --json)
file(WRITE "${OUT}.tmp"
     "{\"tool_version\": \"${version}\",\n\"ops\": ${ops},\n\"types\": ${types}}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
