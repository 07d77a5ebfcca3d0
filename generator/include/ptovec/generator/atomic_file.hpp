// Files that appear under their final name only when complete: written under a temporary name,
// hashed (SHA-256) as written, renamed into place, undone on SIGINT and SIGTERM (interrupts.hpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ptovec/generator/sha256.hpp"

namespace ptovec::generator {

/// A file written under a temporary name in the same folder (`PATH.tmp-PID`) and renamed to its
/// final name only by Commit() (or CommitAll()); destroyed uncommitted, the temporary is removed.
/// Computes SHA-256 as it writes. The temporary is registered for interrupts (interrupts.hpp):
/// SIGINT or SIGTERM removes it, and undoes the commit of a file already renamed into place.
class AtomicFile {
 public:
  /// Opens `path`'s temporary. Throws std::runtime_error naming the path on failure.
  explicit AtomicFile(std::filesystem::path path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  void Write(std::string_view bytes);
  /// Replaces bytes already written, at `offset` (same length; a header rewritten in place).
  /// Throws std::logic_error past the bytes written, std::runtime_error on a write error.
  void Overwrite(std::uint64_t offset, std::string_view bytes);
  /// Flushes, syncs and closes the temporary, keeping it under its temporary name (no more
  /// writes). Returns the SHA-256 (lower-case hex), or "" when Overwrite() was used (the digest
  /// of the streamed bytes no longer describes the file). Throws std::runtime_error on a write
  /// error. Called again, returns the same digest.
  std::string Finish();
  /// Finish(), then renames into place. Returns Finish()'s digest.
  std::string Commit();
  /// Finishes every file and renames them all into place in the order given, as one step with
  /// respect to SIGINT and SIGTERM (put the manifest that names the others last): a suite is
  /// replaced whole or not at all.
  static void CommitAll(const std::vector<AtomicFile*>& files);
  std::uint64_t bytes() const { return bytes_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path temp_;
  std::FILE* file_ = nullptr;
  Sha256 sha_;
  std::string digest_;
  std::uint64_t bytes_ = 0;
  bool finished_ = false;
  bool committed_ = false;
  bool overwritten_ = false;
};

/// Writes `text` to `path` atomically (temporary name, then rename).
void WriteFileAtomically(const std::filesystem::path& path, std::string_view text);

}  // namespace ptovec::generator
