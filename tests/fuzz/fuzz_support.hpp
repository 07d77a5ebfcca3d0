// Shared by the libFuzzer targets of tests/fuzz: a private scratch folder per process, the fuzz
// input written to a file there for readers that take a path, and the rule for exceptions.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "ptovec/generator/readers.hpp"

namespace ptovec::fuzz {

/// The folder this process writes its inputs to: $TMPDIR (else /tmp)/ptovec-fuzz-PID, removed at
/// exit (WriteInput makes it again should anything else remove it meanwhile).
inline const std::filesystem::path& ScratchFolder() {
  static const std::filesystem::path folder = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path f = std::filesystem::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") /
                              ("ptovec-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(f);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(ScratchFolder(), ignored);
    });
    return f;
  }();
  return folder;
}

/// Writes bytes data[0..size) to ScratchFolder()/name (replacing it) and returns the path.
/// Aborts when the file cannot be written (a broken fuzzing machine, not a finding).
inline std::filesystem::path WriteInput(const std::string& name, const std::uint8_t* data,
                                        std::size_t size) {
  std::error_code ignored;
  std::filesystem::create_directories(ScratchFolder(), ignored);
  const std::filesystem::path path = ScratchFolder() / name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path;
}

/// The descriptors this process has open (entries of /proc/self/fd, less the one listing them).
inline int OpenDescriptors() {
  int n = 0;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    ++n;
  }
  return n - 1;
}

/// Aborts, naming the target, when a reader left a descriptor open (`before`: OpenDescriptors()
/// before it ran): a reader that refuses a file must close it.
inline void RequireNoDescriptorLeak(const char* target, int before) {
  const int after = OpenDescriptors();
  if (after != before) {
    std::fprintf(stderr, "fuzz %s: %d descriptors open after the input, %d before\n", target, after,
                 before);
    std::abort();
  }
}

/// A reader may refuse bad bytes only with the error type it documents (`Expected`): any other
/// exception escaping it is a finding (it would reach the user as a library's raw message), so
/// the target aborts, naming it.
[[noreturn]] inline void UnexpectedException(const char* target, const std::exception& e) {
  std::fprintf(stderr, "fuzz %s: unexpected exception: %s\n", target, e.what());
  std::abort();
}

/// Reads the vector file `path` to its end with generator::VectorReader, as `check` and `run`
/// read one: a bad file may end only in generator::InputError (anything else aborts, naming
/// `target`), and a file read to its end must be done with its digest.
inline void ReadVectorFileToEnd(const std::filesystem::path& path, const char* target) {
  try {
    generator::VectorReader reader(path);
    std::vector<generator::VectorRecord> records;
    while (reader.Read(records, 61) > 0) {
    }
    if (!reader.done() || reader.sha256().size() != 64) std::abort();
  } catch (const generator::InputError&) {
  } catch (const std::exception& e) {
    UnexpectedException(target, e);
  }
}

}  // namespace ptovec::fuzz
