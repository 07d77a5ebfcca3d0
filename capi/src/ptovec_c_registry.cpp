// libptovec_c: editions, ops, types and rounding modes of include/ptovec/ptovec.h (the registry
// of the edition asked: generator::AllOps, oracle::AllFormats).
#include <cstddef>
#include <exception>
#include <optional>
#include <string>

#include "c_common.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/rounding.hpp"

namespace generator = ptovec::generator;
namespace oracle = ptovec::oracle;
using ptovec::capi::EditionOfCode;
using ptovec::capi::Fail;
using ptovec::capi::FormatOfCode;
using ptovec::capi::Internal;
using ptovec::capi::UnknownEdition;

PTOVEC_C_EXPORT int ptovec_edition_code(const char* name) {
  try {
    if (name == nullptr) {
      Fail(PTOVEC_ERROR_NULL_ARGUMENT, "name is NULL (expected an edition name)");
      return -1;
    }
    const std::optional<oracle::Edition> edition = oracle::ParseEdition(name);
    if (!edition) {
      Fail(PTOVEC_ERROR_UNKNOWN_EDITION, "unknown edition '" + std::string(name) +
                                             "' (accepted: " + oracle::EditionNamesList() + ")");
      return -1;
    }
    return static_cast<int>(*edition);
  } catch (...) {
    return -1;
  }
}

PTOVEC_C_EXPORT const char* ptovec_edition_name(int edition) {
  const std::optional<oracle::Edition> e = EditionOfCode(edition);
  return e ? oracle::EditionName(*e).data() : nullptr;  // EditionName's are string literals
}

PTOVEC_C_EXPORT size_t ptovec_op_count_edition(int edition) {
  try {
    const std::optional<oracle::Edition> e = EditionOfCode(edition);
    return e ? generator::AllOps(*e).size() : 0;
  } catch (...) {
    return 0;
  }
}

PTOVEC_C_EXPORT size_t ptovec_op_count(void) { return ptovec_op_count_edition(0); }

PTOVEC_C_EXPORT const char* ptovec_op_name_edition(int edition, size_t index) {
  try {
    const std::optional<oracle::Edition> e = EditionOfCode(edition);
    if (!e) return nullptr;
    const auto& ops = generator::AllOps(*e);
    return index < ops.size() ? ops[index].name.c_str() : nullptr;
  } catch (...) {
    return nullptr;
  }
}

PTOVEC_C_EXPORT const char* ptovec_op_name(size_t index) {
  return ptovec_op_name_edition(0, index);
}

PTOVEC_C_EXPORT int ptovec_op_input_count_edition(int edition, const char* op) {
  try {
    const std::optional<oracle::Edition> e = EditionOfCode(edition);
    if (!e) {
      UnknownEdition(edition);
      return -1;
    }
    if (op == nullptr) {
      Fail(PTOVEC_ERROR_NULL_ARGUMENT, "op is NULL (expected an op name)");
      return -1;
    }
    const generator::OpDef& def = generator::RequireOp(op, *e);
    return static_cast<int>(def.slots.size());
  } catch (const generator::InputError& e) {
    Fail(PTOVEC_ERROR_UNKNOWN_OP, e.what());
  } catch (const std::exception& e) {
    Internal(e.what());
  } catch (...) {
    Internal("unknown exception");
  }
  return -1;
}

PTOVEC_C_EXPORT int ptovec_op_input_count(const char* op) {
  return ptovec_op_input_count_edition(0, op);
}

PTOVEC_C_EXPORT int ptovec_type_code_edition(int edition, const char* name) {
  try {
    const std::optional<oracle::Edition> e = EditionOfCode(edition);
    if (name == nullptr || !e) return -1;
    const auto type = oracle::ParseTileDataType(name, *e);
    return type ? static_cast<int>(*type) : -1;
  } catch (...) {
    return -1;
  }
}

PTOVEC_C_EXPORT int ptovec_type_code(const char* name) { return ptovec_type_code_edition(0, name); }

PTOVEC_C_EXPORT const char* ptovec_type_name_edition(int edition, int code) {
  const std::optional<oracle::Edition> e = EditionOfCode(edition);
  const oracle::FormatInfo* f = e ? FormatOfCode(code, *e) : nullptr;
  return f == nullptr ? nullptr : f->name.data();  // the table's names are string literals
}

PTOVEC_C_EXPORT const char* ptovec_type_name(int code) { return ptovec_type_name_edition(0, code); }

PTOVEC_C_EXPORT unsigned ptovec_type_width_edition(int edition, int code) {
  const std::optional<oracle::Edition> e = EditionOfCode(edition);
  const oracle::FormatInfo* f = e ? FormatOfCode(code, *e) : nullptr;
  return f == nullptr ? 0 : f->width;
}

PTOVEC_C_EXPORT unsigned ptovec_type_width(int code) { return ptovec_type_width_edition(0, code); }

PTOVEC_C_EXPORT int ptovec_rounding_mode(const char* name) {
  try {
    if (name == nullptr) return -1;
    const auto mode = oracle::ParseRoundingMode(name);
    return mode ? static_cast<int>(*mode) : -1;
  } catch (...) {
    return -1;
  }
}
