// Files written under a temporary name and renamed into place when complete (atomic_file.hpp).
#include "ptovec/generator/atomic_file.hpp"

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "ptovec/generator/interrupts.hpp"

namespace ptovec::generator {

namespace {

std::string SystemError(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  temp_ = path_;
  temp_ += ".tmp-" + std::to_string(::getpid());
  file_ = CreateTemporary(temp_);
  if (file_ == nullptr) throw std::runtime_error(SystemError("cannot create", temp_));
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!committed_) RemoveTemporary(temp_);
}

void AtomicFile::Write(std::string_view bytes) {
  if (bytes.empty()) return;
  if (finished_) throw std::logic_error("AtomicFile::Write after Finish: " + temp_.string());
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
    throw std::runtime_error(SystemError("cannot write", temp_));
  }
  sha_.Update(bytes.data(), bytes.size());
  bytes_ += bytes.size();
}

void AtomicFile::Overwrite(std::uint64_t offset, std::string_view bytes) {
  if (finished_ || offset + bytes.size() > bytes_) {
    throw std::logic_error("AtomicFile::Overwrite past the bytes written to " + temp_.string());
  }
  if (std::fflush(file_) != 0 ||
      ::pwrite(fileno(file_), bytes.data(), bytes.size(), static_cast<off_t>(offset)) !=
          static_cast<ssize_t>(bytes.size())) {
    throw std::runtime_error(SystemError("cannot write", temp_));
  }
  overwritten_ = true;
}

std::string AtomicFile::Finish() {
  if (finished_) return digest_;
  const bool flushed = std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  finished_ = true;
  if (!flushed || !closed) throw std::runtime_error(SystemError("cannot write", temp_));
  digest_ = overwritten_ ? std::string() : sha_.HexDigest();
  return digest_;
}

std::string AtomicFile::Commit() {
  CommitAll({this});
  return digest_;
}

void AtomicFile::CommitAll(const std::vector<AtomicFile*>& files) {
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> renames;
  for (AtomicFile* f : files) {
    f->Finish();
    renames.emplace_back(f->temp_, f->path_);
  }
  CommitTemporaries(renames);
  for (AtomicFile* f : files) f->committed_ = true;
}

void WriteFileAtomically(const std::filesystem::path& path, std::string_view text) {
  AtomicFile file(path);
  file.Write(text);
  file.Commit();
}

}  // namespace ptovec::generator
