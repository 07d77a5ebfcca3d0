// Shared by the tests that read and write files (tests/generator, and tests/tools through
// gate_test_support.hpp): whole files as bytes, and the one-line message of an InputError.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "ptovec/generator/cases.hpp"

namespace ptovec::generator::testing {

inline std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void WriteAll(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

/// The message of the generator::InputError `f` throws ("" when it does not throw).
template <typename F>
std::string ErrorOf(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace ptovec::generator::testing
