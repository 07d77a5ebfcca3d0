# Oracle purity check: the exact model under oracle/ must not use floating point or GMP/MPFR.
#
# Usage: cmake -DORACLE_DIR=<path to oracle/> -P oracle_purity.cmake
#
# Every file under ORACLE_DIR is scanned with its comments and string/character literals removed
# (C++ `//` and `/* */` comments; `#` comments in CMake files), so a comment saying "no float or
# double" is allowed. The remaining code fails the check when it contains:
#   - the words float, double (so also `long double`), mpfr or gmp as identifiers;
#   - GMP/MPFR API identifiers (mpfr_*, gmp_*, mpz_*, mpq_*, mpf_*);
#   - other floating-point types (cpp_bin_float, cpp_dec_float, float128, std::float32_t,
#     std::bfloat16_t, _Float16, __fp16, __bf16, __float128, ...);
#   - floating-point literals (1.5, .5, 1e9, 0x1p3), which would create a double silently;
#   - <cmath>, <math.h>, <cfloat> and the std:: floating-point math functions.
# On any hit it prints file:line and the offending code, and stops with FATAL_ERROR.

cmake_minimum_required(VERSION 3.25)

if(NOT DEFINED ORACLE_DIR OR ORACLE_DIR STREQUAL "")
  message(FATAL_ERROR "oracle_purity: pass -DORACLE_DIR=<path to oracle/>")
endif()
if(NOT IS_DIRECTORY "${ORACLE_DIR}")
  message(FATAL_ERROR "oracle_purity: ORACLE_DIR '${ORACLE_DIR}' is not a directory")
endif()

# Placeholders (control characters) for the characters that CMake lists treat specially.
string(ASCII 1 BS)    # backslash
string(ASCII 2 SEMI)  # ;
string(ASCII 3 LB)    # [
string(ASCII 4 RB)    # ]

set(ID "A-Za-z0-9_")
# Each entry: a regex matched against comment- and literal-free code, and why it is banned.
set(PATTERNS
  "(^|[^${ID}])(float|double|mpfr|gmp)([^${ID}]|$)"
  "(^|[^${ID}])(mpfr|gmp|mpz|mpq|mpf)_[${ID}]*"
  "(cpp_bin_float|cpp_dec_float|float128|b?float(16|32|64|128)_t|_Float[0-9]+|__fp16|__bf16|__float80|__ibm128)"
  "(^|[^${ID}.])[0-9]+\\.([^.]|$)"
  "(^|[^${ID}.])\\.[0-9]"
  "(^|[^${ID}.])[0-9]+[eE][-+]?[0-9]"
  "(^|[^${ID}])0[xX][0-9A-Fa-f]*(\\.[0-9A-Fa-f]*)?[pP][-+]?[0-9]"
  "<(cmath|math\\.h|cfloat|float\\.h|tgmath\\.h)>"
  "std::(pow|powf|sqrt|cbrt|exp|exp2|log|log2|log10|ldexp|frexp|modf|floor|ceil|round|lround|llround|trunc|fma|fmod|nextafter|nearbyint|rint|lrint|hypot|isnan|isinf|isfinite|signbit|copysign)[ \t]*\\("
)

file(GLOB_RECURSE ORACLE_FILES LIST_DIRECTORIES false "${ORACLE_DIR}/*")
list(SORT ORACLE_FILES)
if(NOT ORACLE_FILES)
  message(FATAL_ERROR "oracle_purity: no files under '${ORACLE_DIR}'")
endif()

set(violations 0)
set(scanned 0)
foreach(path IN LISTS ORACLE_FILES)
  math(EXPR scanned "${scanned} + 1")
  get_filename_component(name "${path}" NAME)
  set(cmake_file FALSE)
  if(name STREQUAL "CMakeLists.txt" OR name MATCHES "\\.cmake$")
    set(cmake_file TRUE)
  endif()

  file(READ "${path}" content)
  string(REPLACE "\\" "${BS}" content "${content}")
  string(REPLACE ";" "${SEMI}" content "${content}")
  string(REPLACE "[" "${LB}" content "${content}")
  string(REPLACE "]" "${RB}" content "${content}")
  string(REPLACE "\r" "" content "${content}")
  # A trailing space on every line keeps empty lines as non-empty list elements (line numbers).
  string(REPLACE "\n" " ;" lines "${content} ")

  set(in_block FALSE)
  set(lineno 0)
  foreach(line IN LISTS lines)
    math(EXPR lineno "${lineno} + 1")
    set(code "")
    set(rest "${line}")
    while(NOT rest STREQUAL "")
      if(in_block)
        string(FIND "${rest}" "*/" end)
        if(end EQUAL -1)
          set(rest "")
        else()
          math(EXPR end "${end} + 2")
          string(SUBSTRING "${rest}" ${end} -1 rest)
          set(in_block FALSE)
        endif()
        continue()
      endif()
      # Earliest of the tokens that open a comment or a literal.
      if(cmake_file)
        set(tokens "#" "\"")
      else()
        set(tokens "//" "/*" "\"" "'")
      endif()
      set(first -1)
      set(first_token "")
      foreach(token IN LISTS tokens)
        string(FIND "${rest}" "${token}" at)
        if(NOT at EQUAL -1 AND (first EQUAL -1 OR at LESS first))
          set(first ${at})
          set(first_token "${token}")
        endif()
      endforeach()
      if(first EQUAL -1)
        string(APPEND code "${rest}")
        set(rest "")
        continue()
      endif()
      string(SUBSTRING "${rest}" 0 ${first} before)
      string(SUBSTRING "${rest}" ${first} -1 rest)
      if(first_token STREQUAL "//" OR first_token STREQUAL "#")
        string(APPEND code "${before}")
        set(rest "")
      elseif(first_token STREQUAL "/*")
        string(APPEND code "${before} ")
        string(SUBSTRING "${rest}" 2 -1 rest)
        set(in_block TRUE)
      elseif(first_token STREQUAL "'" AND before MATCHES "[0-9A-Fa-f]$")
        # A digit separator (1'000'000), not a character literal.
        string(APPEND code "${before}")
        string(SUBSTRING "${rest}" 1 -1 rest)
      else()
        # A string or character literal: drop it (an unterminated one ends the line).
        string(APPEND code "${before} ")
        if(first_token STREQUAL "\"")
          set(literal_regex "^\"([^\"${BS}]|${BS}.)*\"")
        else()
          set(literal_regex "^'([^'${BS}]|${BS}.)*'")
        endif()
        if(rest MATCHES "${literal_regex}")
          string(LENGTH "${CMAKE_MATCH_0}" literal_length)
          string(SUBSTRING "${rest}" ${literal_length} -1 rest)
        else()
          set(rest "")
        endif()
      endif()
    endwhile()

    foreach(pattern IN LISTS PATTERNS)
      if(code MATCHES "${pattern}")
        set(shown "${line}")
        string(REPLACE "${BS}" "\\" shown "${shown}")
        string(REPLACE "${SEMI}" ";" shown "${shown}")
        string(REPLACE "${LB}" "[" shown "${shown}")
        string(REPLACE "${RB}" "]" shown "${shown}")
        string(STRIP "${shown}" shown)
        message(SEND_ERROR "oracle_purity: ${path}:${lineno}: '${CMAKE_MATCH_0}' is floating point "
                           "or GMP/MPFR (pattern ${pattern}):\n    ${shown}")
        math(EXPR violations "${violations} + 1")
        break()
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "oracle_purity: ${violations} line(s) under ${ORACLE_DIR} use floating point "
                      "or GMP/MPFR; the oracle must stay exact (cpp_int and exact rationals only)")
endif()
message(STATUS "oracle_purity: ${scanned} file(s) under ${ORACLE_DIR}: no floating point, no GMP/MPFR")
