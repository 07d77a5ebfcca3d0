#include "ptovec/generator/framing.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "ptovec/generator/errors.hpp"

namespace ptovec::generator {

namespace {

constexpr std::size_t kFrameChunkBytes = 1 << 20;

}  // namespace

std::array<unsigned char, kFixedHeaderBytes> EncodeFixedHeader(const FixedHeader& fixed) {
  std::array<unsigned char, kFixedHeaderBytes> out{};
  std::memcpy(out.data(), fixed.magic.data(), 8);
  StoreLittleEndian(out.data() + 8, fixed.version, 2);
  StoreLittleEndian(out.data() + 10, fixed.record_size, 2);
  StoreLittleEndian(out.data() + 12, fixed.header_bytes, 4);
  StoreLittleEndian(out.data() + kFixedHeaderCountOffset, fixed.count, 8);
  StoreLittleEndian(out.data() + 24, fixed.data_offset, 8);
  return out;
}

FixedHeader DecodeFixedHeader(const unsigned char* bytes) {
  FixedHeader fixed;
  std::memcpy(fixed.magic.data(), bytes, 8);
  fixed.version = static_cast<std::uint16_t>(LoadLittleEndian(bytes + 8, 2));
  fixed.record_size = static_cast<std::uint16_t>(LoadLittleEndian(bytes + 10, 2));
  fixed.header_bytes = static_cast<std::uint32_t>(LoadLittleEndian(bytes + 12, 4));
  fixed.count = LoadLittleEndian(bytes + kFixedHeaderCountOffset, 8);
  fixed.data_offset = LoadLittleEndian(bytes + 24, 8);
  return fixed;
}

std::string FramedPreamble(std::string_view magic, unsigned version, unsigned record_size,
                           std::uint64_t count, std::string_view text) {
  if (magic.size() != 8) throw std::invalid_argument("FramedPreamble: the magic is 8 bytes");
  const std::uint64_t unpadded = kFixedHeaderBytes + text.size();
  const std::uint64_t data_offset = (unpadded + 7) / 8 * 8;
  const std::uint64_t header_bytes = data_offset - kFixedHeaderBytes;
  if (header_bytes > UINT32_MAX) {
    throw std::invalid_argument("FramedPreamble: a header of " + std::to_string(text.size()) +
                                " bytes does not fit the 4-byte header_bytes");
  }
  FixedHeader fixed;
  std::memcpy(fixed.magic.data(), magic.data(), 8);
  fixed.version = static_cast<std::uint16_t>(version);
  fixed.record_size = static_cast<std::uint16_t>(record_size);
  fixed.header_bytes = static_cast<std::uint32_t>(header_bytes);
  fixed.count = count;
  fixed.data_offset = data_offset;
  const auto bytes = EncodeFixedHeader(fixed);
  std::string out(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  out += text;
  out.append(static_cast<std::size_t>(data_offset - unpadded), ' ');
  return out;
}

FramedHeader ReadFramedHeader(std::FILE* file, const std::filesystem::path& path,
                              const FramedFileKind& kind) {
  const auto fail = [&](const std::string& what) {
    throw InputError(std::string(kind.noun) + " " + path.string() + " " + what);
  };
  const bool vectors = kind.wording == FramedFileKind::Wording::Vectors;
  FramedHeader h;
  const std::size_t got = std::fread(h.fixed_bytes.data(), 1, kFixedHeaderBytes, file);
  if (got >= 8 && std::memcmp(h.fixed_bytes.data(), kind.magic.data(), 8) != 0) {
    throw std::logic_error("ReadFramedHeader: " + path.string() + " lacks the magic");
  }
  if (got != kFixedHeaderBytes) {
    fail(std::string("is truncated: shorter than ") + (vectors ? "the " : "its ") +
         std::to_string(kFixedHeaderBytes) + "-byte fixed header");
  }
  h.fixed = DecodeFixedHeader(h.fixed_bytes.data());
  const FixedHeader& f = h.fixed;
  if (f.version < kind.oldest_version || f.version > kind.version) {
    fail("has format version " + std::to_string(f.version) + " (this ptovec reads versions " +
         std::to_string(static_cast<std::uint64_t>(kind.oldest_version)) + " to " +
         std::to_string(static_cast<std::uint64_t>(kind.version)) + ")");
  }
  if (f.data_offset != kFixedHeaderBytes + std::uint64_t{f.header_bytes} ||
      f.data_offset % 8 != 0) {
    fail("has a corrupt fixed header: data offset " + std::to_string(f.data_offset) +
         (vectors ? " (expected 32 + header bytes " + std::to_string(f.header_bytes) +
                        ", a multiple of 8)"
                  : ", header bytes " + std::to_string(f.header_bytes)));
  }
  std::error_code error;
  h.file_size = std::filesystem::file_size(path, error);
  if (error) fail("cannot be sized: " + error.message());
  if (f.header_bytes > kind.max_header_bytes) {
    fail("has a corrupt fixed header: header bytes " + std::to_string(f.header_bytes) +
         " (accepted: at most " + std::to_string(kind.max_header_bytes) + ")");
  }
  if (h.file_size < f.data_offset) {
    fail((vectors ? "is truncated: its header needs "
                  : "is truncated inside its header: header bytes " +
                        std::to_string(f.header_bytes) + " need ") +
         std::to_string(f.data_offset) + " bytes but the file has " + std::to_string(h.file_size));
  }
  h.text.assign(f.header_bytes, '\0');
  if (std::fread(h.text.data(), 1, h.text.size(), file) != h.text.size()) fail("cannot be read");
  try {
    h.json = nlohmann::ordered_json::parse(h.text);
  } catch (const nlohmann::json::exception&) {
    fail("has a JSON header that does not parse (corrupt header)");
  }
  return h;
}

std::string PeekStart(std::FILE* file, std::size_t bytes) {
  std::string out(bytes, '\0');
  out.resize(std::fread(out.data(), 1, bytes, file));
  std::rewind(file);
  return out;
}

// ---- LineReader ----

LineReader::LineReader(std::FILE* file, Options options)
    : file_(file), options_(std::move(options)) {
  buffer_.resize(options_.max_line_bytes != 0 ? options_.max_line_bytes : kFrameChunkBytes);
}

LineReader::LineReader(int fd, Options options) : fd_(fd), options_(std::move(options)) {
  buffer_.resize(options_.max_line_bytes != 0 ? options_.max_line_bytes : kFrameChunkBytes);
}

LineReader::Filled LineReader::Fill() {
  if (file_ != nullptr) {
    const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
    if (got == 0) return Filled::End;
    if (options_.on_read) options_.on_read(std::string_view(buffer_.data() + end_, got));
    end_ += got;
    return Filled::Data;
  }
  for (;;) {
    if (options_.timeout_ms >= 0) {
      pollfd pfd{fd_, POLLIN, 0};
      const int r = ::poll(&pfd, 1, options_.timeout_ms);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) {
        timed_out_ = true;
        return Filled::Stop;
      }
    }
    const ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Filled::Stop;
    if (n == 0) return Filled::End;
    const auto got = static_cast<std::size_t>(n);
    if (options_.on_read) options_.on_read(std::string_view(buffer_.data() + end_, got));
    end_ += got;
    return Filled::Data;
  }
}

bool LineReader::Next(std::string_view& line, Ending* ending) {
  timed_out_ = false;
  const auto give = [&](std::size_t begin, std::size_t size, Ending how) {
    line = std::string_view(buffer_.data() + begin, size);
    if (ending != nullptr) *ending = how;
    if (how != Ending::TooLong) ++lines_;
    return true;
  };
  for (;;) {
    if (const void* nl = std::memchr(buffer_.data() + start_, '\n', end_ - start_)) {
      const auto e = static_cast<std::size_t>(static_cast<const char*>(nl) - buffer_.data());
      std::size_t size = e - start_;
      if (options_.strip_cr && size > 0 && buffer_[e - 1] == '\r') --size;
      const std::size_t begin = start_;
      start_ = e + 1;
      return give(begin, size, Ending::Newline);
    }
    if (eof_) {
      if (start_ >= end_) return false;
      const std::size_t begin = start_;
      start_ = end_;
      return give(begin, end_ - begin, Ending::EndOfInput);
    }
    if (start_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + start_, end_ - start_);
      end_ -= start_;
      start_ = 0;
    }
    if (end_ == buffer_.size()) {
      if (options_.max_line_bytes != 0) return give(0, end_, Ending::TooLong);
      buffer_.resize(buffer_.size() + kFrameChunkBytes);
    }
    const Filled filled = Fill();
    if (filled == Filled::Stop) return false;
    if (filled == Filled::End) eof_ = true;
  }
}

}  // namespace ptovec::generator
