// The framing ptovec's files share: the 32-byte fixed header that opens a binary vector file
// (magic PTOVEC\0B) or a binary results file (PTOVEC\0R), little-endian integers, and a buffered
// line reader for the JSON forms (and the device line protocol). Layouts:
// schemas/binary-format.md section 1 and schemas/results-format.md.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ptovec::generator {

/// Bytes of the fixed header that opens a binary vector or results file.
inline constexpr unsigned kFixedHeaderBytes = 32;
/// Offset of the fixed header's 8-byte `count` (a results file that stops early rewrites it).
inline constexpr unsigned kFixedHeaderCountOffset = 16;

/// Stores the low `bytes` bytes (1 to 8) of `value` at `out`, least significant byte first
/// (inline, with fixed-size copies for 1, 2, 4 and 8 bytes: it packs every record).
inline void StoreLittleEndian(unsigned char* out, std::uint64_t value, unsigned bytes) {
  if constexpr (std::endian::native == std::endian::little) {
    switch (bytes) {
      case 1:
        *out = static_cast<unsigned char>(value);
        break;
      case 2:
        std::memcpy(out, &value, 2);
        break;
      case 4:
        std::memcpy(out, &value, 4);
        break;
      case 8:
        std::memcpy(out, &value, 8);
        break;
      default:
        std::memcpy(out, &value, bytes);
        break;
    }
  } else {
    for (unsigned i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
  }
}
/// Appends the low `bytes` bytes (1 to 8) of `value` to `out`, least significant byte first.
inline void AppendLittleEndian(std::string& out, std::uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}
/// The unsigned integer of `bytes` bytes (1 to 8) at `in`, least significant byte first.
inline std::uint64_t LoadLittleEndian(const unsigned char* in, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = bytes; i-- > 0;) v = (v << 8) | in[i];
  return v;
}

/// The fixed header's fields, in file order (all little-endian, unsigned):
/// offset 0 magic (8 bytes), 8 version (2), 10 record_size (2; results files write 0),
/// 12 header_bytes (4: the JSON header text with its padding), 16 count (8: records),
/// 24 data_offset (8: 32 + header_bytes, a multiple of 8).
struct FixedHeader {
  std::array<char, 8> magic{};
  std::uint16_t version = 0;
  std::uint16_t record_size = 0;
  std::uint32_t header_bytes = 0;
  std::uint64_t count = 0;
  std::uint64_t data_offset = 0;
};

/// The 32 bytes of `fixed`.
std::array<unsigned char, kFixedHeaderBytes> EncodeFixedHeader(const FixedHeader& fixed);
/// The fields of the 32 bytes at `bytes` (no checks: ReadFramedHeader checks them).
FixedHeader DecodeFixedHeader(const unsigned char* bytes);

/// The bytes that open a framed file: the fixed header (`magic`, 8 bytes; `version`;
/// `record_size`; `count`) and then `text` followed by 0 to 7 spaces so that the records start
/// at a multiple of 8 (header_bytes and data_offset count the spaces). Throws
/// std::invalid_argument when `magic` is not 8 bytes or the text exceeds 2^32 - 8 bytes.
std::string FramedPreamble(std::string_view magic, unsigned version, unsigned record_size,
                           std::uint64_t count, std::string_view text);

/// What a reader expects of a framed file.
struct FramedFileKind {
  std::string_view noun;   ///< "vector file": every message reads "<noun> <path> <what>"
  std::string_view magic;  ///< the 8 magic bytes
  int oldest_version = 1;  ///< the versions accepted
  int version = 1;
  std::uint64_t max_header_bytes = 0;  ///< the largest header_bytes accepted (a sanity bound)
  /// Vector and results files have worded three of the messages differently since version 1
  /// (kept: tests and users match them): the short file, the data offset and the header that
  /// the file cannot hold.
  enum class Wording { Vectors, Results } wording = Wording::Vectors;
};

/// A framed file's fixed header and JSON header, checked.
struct FramedHeader {
  FixedHeader fixed;
  std::array<unsigned char, kFixedHeaderBytes> fixed_bytes{};  ///< as read (for a digest)
  std::string text;  ///< the JSON header text with its padding, as read (header_bytes bytes)
  nlohmann::ordered_json json;  ///< `text` parsed
  std::uint64_t file_size = 0;  ///< bytes of the whole file
};

/// Reads the fixed header and the JSON header of the framed file `file` (opened on `path`,
/// positioned at its start, whose first 8 bytes the caller found to be `kind.magic`) and checks
/// them, leaving `file` at data_offset: 32 bytes present, a version from kind.oldest_version to
/// kind.version, data_offset = 32 + header_bytes and a multiple of 8, header_bytes at most
/// kind.max_header_bytes, a file at least data_offset bytes long, a JSON header that parses.
/// The records (their size and count) are the caller's to check. Throws InputError
/// ("<noun> <path> is truncated: ...") naming the check and the values found.
FramedHeader ReadFramedHeader(std::FILE* file, const std::filesystem::path& path,
                              const FramedFileKind& kind);

/// Up to `bytes` bytes from the start of `file`, which is then rewound (telling formats apart
/// by their first bytes). Fewer when the file is shorter.
std::string PeekStart(std::FILE* file, std::size_t bytes);

/// Buffered lines of a file or of a file descriptor (a pipe), split at '\n'. Reading a file
/// uses std::fread and never times out; reading a descriptor uses ::read, after ::poll when a
/// timeout is set. A read error on a descriptor makes Next return false (what was buffered
/// stays unread).
class LineReader {
 public:
  /// How the line Next returned ended.
  enum class Ending {
    Newline,     ///< a '\n' (not part of the line)
    EndOfInput,  ///< the input ended without a '\n' after this last line
    TooLong,     ///< the line and its '\n' exceed max_line_bytes: the line is the first
                 ///< max_line_bytes bytes, not consumed (the next Next returns them again)
  };
  struct Options {
    /// The most bytes of one line including its '\n' (the buffer's size); 0: no limit (the
    /// buffer grows as a line needs).
    std::size_t max_line_bytes = 0;
    /// Drop one '\r' before a '\n' (the device line protocol); files keep it.
    bool strip_cr = false;
    /// Descriptors only: milliseconds to wait for input before Next gives up (timed_out()
    /// true); < 0 waits without limit.
    int timeout_ms = -1;
    /// Called with every block read, in order (e.g. to digest the whole input).
    std::function<void(std::string_view)> on_read;
  };

  /// Lines of `file` from its current position (the file stays the caller's to close).
  LineReader(std::FILE* file, Options options);
  /// Lines read from descriptor `fd` (the descriptor stays the caller's to close).
  LineReader(int fd, Options options);

  /// The next line without its '\n' (valid until the next call); false at the end of the input
  /// or when nothing arrived within the timeout (timed_out() then true). `ending`, when given,
  /// says how the line ended.
  bool Next(std::string_view& line, Ending* ending = nullptr);
  /// Sets the timeout of the following Next() calls (< 0: none).
  void SetTimeout(int timeout_ms) { options_.timeout_ms = timeout_ms; }
  /// The last Next() returned false because nothing arrived within the timeout.
  bool timed_out() const { return timed_out_; }
  /// Lines returned so far: the 1-based number of the last one.
  std::uint64_t line_number() const { return lines_; }

 private:
  /// Data: more input after end_. End: the input ended. Stop: a timeout or a read error (Next
  /// returns false, the input not marked ended).
  enum class Filled { Data, End, Stop };
  Filled Fill();

  std::FILE* file_ = nullptr;
  int fd_ = -1;
  Options options_;
  std::vector<char> buffer_;
  std::size_t start_ = 0;  // the unread bytes are buffer_[start_, end_)
  std::size_t end_ = 0;
  bool eof_ = false;
  bool timed_out_ = false;
  std::uint64_t lines_ = 0;
};

}  // namespace ptovec::generator
