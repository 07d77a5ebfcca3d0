// The error type of bad user input, apart from the op registry so that a file or policy reader
// can throw it without including every op (cases.hpp includes it for its other users).
#pragma once

#include <stdexcept>
#include <string>

#include "ptovec/generator/escape.hpp"

namespace ptovec::generator {

/// Bad user input: the message is one line naming the bad value and what is accepted. Bytes
/// quoted from a file are escaped (EscapeText: `\xff`, `\x0a`), so the message is printable
/// UTF-8 on one line whatever the file held.
class InputError : public std::invalid_argument {
 public:
  explicit InputError(const std::string& what) : std::invalid_argument(EscapeText(what)) {}
  explicit InputError(const char* what) : InputError(std::string(what)) {}
};

}  // namespace ptovec::generator
