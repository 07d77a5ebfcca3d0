// Writing a results file (ResultsWriter): the header, then the answers streamed section by
// section (binary records or JSON lines), the header rewritten in place when the run stops early,
// and the atomic commit.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/framing.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/results.hpp"
#include "report/report_text.hpp"
#include "results/results_internal.hpp"

namespace ptovec::tools {

namespace {

using text::Str;

using oracle::Word;
using results_internal::DstBytes;
using results_internal::DstWidth;
using results_internal::Dump;
using J = nlohmann::ordered_json;

// Spaces reserved at the end of the header (both formats) so that Stop() can rewrite it in place
// with "stopped" added; the reason is shortened to fit.
constexpr std::size_t kStopReserve = 512;
constexpr std::size_t kStopReasonBytes = 300;

// Binary records of `answers` (of a section of `pair`, the first at record `first` unless
// `indices` gives each one's index): index (8 bytes), word (the destination's storage bytes),
// flags, little-endian.
void AppendBinary(std::string& out, TypePair pair, std::uint64_t first,
                  std::span<const DeviceAnswer> answers, std::span<const std::uint64_t> indices) {
  const unsigned width = DstWidth(pair);
  const unsigned bytes = DstBytes(pair);
  const std::size_t record = 8 + bytes + 1;
  std::size_t at = out.size();
  out.resize(at + answers.size() * record);
  for (std::size_t k = 0; k < answers.size(); ++k, at += record) {
    const DeviceAnswer& a = answers[k];
    const std::uint64_t index = indices.empty() ? first + k : indices[k];
    const Word word = a.supported ? oracle::LowBits(a.result.word, width) : 0;
    for (unsigned i = 0; i < 8; ++i) out[at + i] = static_cast<char>((index >> (8 * i)) & 0xFF);
    for (unsigned i = 0; i < bytes; ++i) {
      out[at + 8 + i] = static_cast<char>((word >> (8 * i)) & 0xFF);
    }
    out[at + 8 + bytes] = static_cast<char>(a.supported ? a.result.status : kUnsupportedFlags);
  }
}

// The JSON lines of the same, of section `section`.
void AppendJson(std::string& out, std::size_t section, TypePair pair, std::uint64_t first,
                std::span<const DeviceAnswer> answers, std::span<const std::uint64_t> indices) {
  const unsigned width = DstWidth(pair);
  for (std::size_t k = 0; k < answers.size(); ++k) {
    const DeviceAnswer& a = answers[k];
    const std::uint64_t index = indices.empty() ? first + k : indices[k];
    out += "{\"s\":" + Str(section) + ",\"i\":" + Str(index);
    if (a.supported) {
      out += ",\"out\":\"" + generator::HexWord(oracle::LowBits(a.result.word, width), pair.dst) +
             "\",\"flags\":\"" + generator::HexStatus(a.result.status) + "\"}\n";
    } else {
      out += ",\"flags\":\"unsupported\"}\n";
    }
  }
}

}  // namespace

struct ResultsWriter::Impl {
  generator::AtomicFile file;
  ResultsFormat format;
  std::vector<ResultsSection> sections;
  std::string device;
  J judged;
  std::size_t section = 0;
  std::uint64_t in_section = 0;  // records written to the current section
  std::uint64_t records = 0;     // records written in all
  std::size_t header_bytes = 0;  // the header text's room (JSON: line 1 without its newline)
  bool stopped = false;
  std::string buffer;

  Impl(const std::filesystem::path& path, ResultsFormat f, std::vector<ResultsSection> s,
       std::string d, J j)
      : file(path), format(f), sections(std::move(s)), device(std::move(d)), judged(std::move(j)) {}

  void SkipEmpty() {
    while (section < sections.size() && in_section == sections[section].count) {
      ++section;
      in_section = 0;
    }
  }

  // The header text padded with spaces to `room` bytes (0: the natural size plus the reserve).
  std::string HeaderText(const std::optional<ResultsStop>& stop, std::size_t room) const {
    J header = ResultsHeader(sections, format, device, judged);
    if (stop) header["stopped"] = {{"reason", stop->reason}, {"records", stop->records}};
    std::string text = Dump(header);  // names with invalid UTF-8 become U+FFFD, never throw
    if (room == 0) room = text.size() + kStopReserve;
    if (text.size() > room) throw std::logic_error("ResultsWriter: header outgrew its room");
    text.append(room - text.size(), ' ');
    return text;
  }
};

ResultsWriter::ResultsWriter(const std::filesystem::path& path, ResultsFormat format,
                             std::vector<ResultsSection> sections, const std::string& device_name,
                             nlohmann::ordered_json judged)
    : impl_(std::make_unique<Impl>(path, format, std::move(sections), device_name,
                                   std::move(judged))) {
  std::string text = impl_->HeaderText(std::nullopt, 0);
  if (format == ResultsFormat::Json) {
    impl_->header_bytes = text.size();
    impl_->file.Write(text + "\n");
  } else {
    std::uint64_t total = 0;
    for (const ResultsSection& s : impl_->sections) total += s.count;
    const std::string preamble =
        generator::FramedPreamble(kResultsMagic, kResultsFormatVersion, 0, total, text);
    impl_->header_bytes = preamble.size() - kResultsFixedHeaderBytes;
    impl_->file.Write(preamble);
  }
  impl_->SkipEmpty();
}

ResultsWriter::~ResultsWriter() = default;

void ResultsWriter::Append(std::span<const DeviceAnswer> answers,
                           std::span<const std::uint64_t> indices) {
  Impl& w = *impl_;
  if (w.stopped) throw std::logic_error("ResultsWriter: Append after Stop");
  if (!indices.empty() && indices.size() != answers.size()) {
    throw std::logic_error("ResultsWriter: indices and answers differ in number");
  }
  std::string& out = w.buffer;
  out.clear();
  // Section by section: the answers up to the end of the current one share its pair.
  for (std::size_t k = 0; k < answers.size();) {
    w.SkipEmpty();
    if (w.section >= w.sections.size()) {
      throw std::logic_error("ResultsWriter: more answers than the sections hold");
    }
    const ResultsSection& section = w.sections[w.section];
    if (indices.empty() && !section.controls.empty()) {
      throw std::logic_error("ResultsWriter: a section with controls needs record indices");
    }
    const std::size_t n = static_cast<std::size_t>(
        std::min<std::uint64_t>(answers.size() - k, section.count - w.in_section));
    const std::span<const DeviceAnswer> part = answers.subspan(k, n);
    const std::span<const std::uint64_t> part_indices =
        indices.empty() ? indices : indices.subspan(k, n);
    if (w.format == ResultsFormat::Binary) {
      AppendBinary(out, section.pair, w.in_section, part, part_indices);
    } else {
      AppendJson(out, w.section, section.pair, w.in_section, part, part_indices);
    }
    w.in_section += n;
    w.records += n;
    k += n;
  }
  w.file.Write(out);
}

void ResultsWriter::Stop(const std::string& reason) {
  Impl& w = *impl_;
  if (w.stopped) return;
  w.stopped = true;
  std::string shown = reason.substr(0, kStopReasonBytes);
  std::replace(shown.begin(), shown.end(), '\n', ' ');
  const std::string text = w.HeaderText(ResultsStop{shown, w.records}, w.header_bytes);
  if (w.format == ResultsFormat::Json) {
    w.file.Overwrite(0, text);
  } else {
    std::string total;
    generator::AppendLittleEndian(total, w.records, 8);
    w.file.Overwrite(generator::kFixedHeaderCountOffset, total);
    w.file.Overwrite(kResultsFixedHeaderBytes, text);
  }
}

void ResultsWriter::Commit() {
  impl_->SkipEmpty();
  if (!impl_->stopped && impl_->section != impl_->sections.size()) {
    throw std::logic_error("ResultsWriter: section " + Str(impl_->section) + " is incomplete (" +
                           Str(impl_->in_section) + " of " +
                           Str(impl_->sections[impl_->section].count) + ")");
  }
  impl_->file.Commit();
}

}  // namespace ptovec::tools
