# Writes the op registry the Python package carries (ptovec/registry.json, read by
# ptovec.registry so that ptovec.stream.cases_from_evaluate starts no process):
#   {"tool_version": "<ptovec --version>", "ops": <ptovec list --json>,
#    "types": <ptovec list --types --json>,
#    "editions": {"2026-09": {"ops": <ptovec list --json --edition 2026-09>,
#                             "types": <ptovec list --types --json --edition 2026-09>}}}
# (the top level is the default edition 0.58.3's)
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
ask(ops_2026_09 list --json --edition 2026-09)
ask(types_2026_09 list --types --json --edition 2026-09)
file(WRITE "${OUT}.tmp"
     "{\"tool_version\": \"${version}\",\n\"ops\": ${ops},\n\"types\": ${types},\n"
     "\"editions\": {\"2026-09\": {\"ops\": ${ops_2026_09},\n\"types\": ${types_2026_09}}}}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
