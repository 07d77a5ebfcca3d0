# Fails when a committed schemas/*.schema.json differs from what `ptovec schema NAME` prints (the
# schemas are derived from the op registry; regenerate them as the message says).
# Usage: cmake -DPTOVEC=<ptovec binary> -DSCHEMA_DIR=<source>/schemas -P check_schemas.cmake
set(stale "")
foreach(pair vectors:vectors manifest:manifest eval:eval-line binary-header:binary-header
             results:results results-binary-header:results-binary-header coverage:coverage
             known-differences:known-differences report:report)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 file)
  execute_process(COMMAND ${PTOVEC} schema ${name} OUTPUT_VARIABLE printed RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "`ptovec schema ${name}` failed (exit ${rc})")
  endif()
  file(READ ${SCHEMA_DIR}/${file}.schema.json committed)
  if(NOT printed STREQUAL committed)
    string(APPEND stale "  ${PTOVEC} schema ${name} > ${SCHEMA_DIR}/${file}.schema.json\n")
  endif()
endforeach()
if(stale)
  message(FATAL_ERROR "schemas/ is out of date with the op registry; regenerate with:\n${stale}")
endif()
message(STATUS "schemas/*.schema.json match `ptovec schema`")
