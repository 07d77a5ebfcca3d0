// The internals every file of libptovec_c shares (capi/src): the thread's last error, the
// edition and type codes of include/ptovec/ptovec.h. Not installed.
#pragma once

#include <optional>
#include <string>

#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/ptovec.h"

#define PTOVEC_C_EXPORT extern "C" __attribute__((visibility("default")))

namespace ptovec::capi {

/// Sets the thread's last error (ptovec_last_error) to `message` and returns `error`.
ptovec_error Fail(ptovec_error error, std::string message);

/// PTOVEC_ERROR_INTERNAL with "internal error: <what>" (the previous message when even that
/// cannot be allocated).
ptovec_error Internal(const char* what);

/// The edition of an edition code (PTOVEC_EDITION_0_58_3 0, PTOVEC_EDITION_2026_09 1: the index
/// in oracle::kAllEditions), or nullopt.
std::optional<oracle::Edition> EditionOfCode(int code);

/// PTOVEC_ERROR_UNKNOWN_EDITION naming `code` and the accepted codes.
ptovec_error UnknownEdition(int code);

/// The format row of a type code of `edition`, or nullptr (codes no type of it has).
const oracle::FormatInfo* FormatOfCode(int code, oracle::Edition edition = oracle::kDefaultEdition);

/// "1 fp32, 4 fp16, ...": the type codes of `edition` and their names, for error lines.
std::string TypeCodesList(oracle::Edition edition = oracle::kDefaultEdition);

}  // namespace ptovec::capi
