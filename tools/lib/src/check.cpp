#include "ptovec/tools/check.hpp"
#include "ptovec/tools/parallel_rounds.hpp"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <functional>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/writers.hpp"

namespace ptovec::tools {

namespace {

using generator::InputError;
using generator::VectorRecord;
using generator::VectorSource;

std::string Str(std::uint64_t v) { return std::to_string(v); }

std::size_t ControlIndex(const Case& c) {
  if (!c.op->uses_controls) return 0;
  return static_cast<std::size_t>(c.control.rounding_mode) * 2 + (c.control.saturating ? 1 : 0);
}

std::string TypeName(TileDataType t) { return std::string(oracle::Format(t).name); }

std::string ModeName(std::size_t control) {
  return std::string(
      oracle::RoundingModeName(static_cast<oracle::NumericRoundingMode>(control / 2)));
}

// The bytes of the character at text[i] (a well-formed UTF-8 sequence, else 1 byte) and whether
// XML 1.0 allows it (#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]).
std::pair<std::size_t, bool> XmlChar(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned b0 = byte(i);
  if (b0 < 0x80) return {1, b0 >= 0x20 || b0 == 0x9 || b0 == 0xA || b0 == 0xD};
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2, cp = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3, cp = b0 & 0x0F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4, cp = b0 & 0x07;
  } else {
    return {1, false};
  }
  if (i + n > text.size()) return {1, false};
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return {1, false};
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  const std::uint32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < least || cp > 0x10FFFF) return {1, false};  // overlong or beyond Unicode
  return {n, !(cp >= 0xD800 && cp <= 0xDFFF) && cp != 0xFFFE && cp != 0xFFFF};
}

// XML text: markup characters escaped; a character XML 1.0 does not allow (controls, U+FFFE,
// U+FFFF, surrogates) and each byte that is not well-formed UTF-8 become one '?'.
std::string XmlEscape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    switch (ch) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&apos;"; ++i; continue;
      default: break;
    }
    const auto [n, allowed] = XmlChar(text, i);
    if (allowed) {
      out.append(text, i, n);
    } else {
      out += '?';
    }
    i += n;
  }
  return out;
}

// "in value=0x3e00 scale=0x3f800000"
std::string InputsText(const Case& c) {
  std::string out;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    out += (i == 0 ? "" : " ") + c.op->slots[i].name + "=" +
           generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return out;
}

std::string ResultText(const Encoded& e, TileDataType dst) {
  return generator::HexWord(e.word, dst) + " flags " + generator::HexStatus(e.status) + " (" +
         FlagNames(e.status) + ")";
}

std::string MismatchText(const Mismatch& m, const std::string& indent) {
  const Case& c = m.c;
  std::string out = m.file + " record " + Str(m.index) + ": " + c.op->name + " " +
                    TypeName(c.pair.src) + " -> " + TypeName(c.pair.dst) + " " +
                    std::string(oracle::RoundingModeName(c.control.rounding_mode)) +
                    " sat=" + (c.control.saturating ? "on" : "off") + " " + InputsText(c) + "\n";
  out += indent + "expected " + ResultText(m.expected, c.pair.dst) + ", got " +
         (m.got.supported ? ResultText(m.got.result, c.pair.dst) : std::string("unsupported")) +
         " [" + std::string(MismatchKindName(m.kind)) + "]\n";
  out += indent + generator::EvalCommand(c) + "\n";
  return out;
}

// Opens the vector sources one by one and checks them against the results sections.
void CheckSection(const ResultsSection& section, std::size_t s, const VectorSource& source,
                  const generator::VectorFileInfo& info) {
  const auto refuse = [&](const std::string& what, const std::string& in_results,
                          const std::string& in_vectors) {
    throw InputError("results section " + Str(s) + " (" + section.file +
                     ") does not match the vectors: " + what + " " + in_results +
                     " in the results, " + in_vectors + " in " + source.path.string() +
                     " (results of another suite, file or order?)");
  };
  if (section.file != source.name) {
    refuse("file", section.file + (section.file.find('/') != std::string::npos
                                       ? " (a section names its vector file by its bare name, as "
                                         "manifest.json's path does)"
                                       : ""),
           source.name);
  }
  if (section.op != info.op) {
    refuse("op", section.op->name + " " + TypeName(section.pair.src) + " -> " +
                     TypeName(section.pair.dst),
           info.op->name + " " + TypeName(info.pair.src) + " -> " + TypeName(info.pair.dst));
  }
  if (section.pair != info.pair) {
    refuse("types", TypeName(section.pair.src) + " -> " + TypeName(section.pair.dst),
           TypeName(info.pair.src) + " -> " + TypeName(info.pair.dst));
  }
  std::uint64_t expected = info.count;
  if (!section.controls.empty()) {
    std::uint64_t kept = 0;
    for (const auto& c : section.controls) {
      if (std::find(info.controls.begin(), info.controls.end(), c) == info.controls.end()) {
        refuse("control", std::string(oracle::RoundingModeName(c.rounding_mode)) + " Sat " +
                              (c.saturating ? "on" : "off"),
               "no such control");
      }
      ++kept;
    }
    expected = info.count / info.controls.size() * kept;
  }
  if (section.count != expected) refuse("count", Str(section.count), Str(expected));
  if (source.sha256 && section.sha256 != *source.sha256) {
    refuse("SHA-256", section.sha256, *source.sha256);
  }
}

// The shared loop of check and ResultsMismatches. Stops early (without the end-of-file checks)
// when stop() says so.
// Keeps in `records`, in place and in order, those a results section answers (every record, or
// those of `controls` when it lists some), at most `limit`; positions gets each kept record's
// index in its file, `first` being the index of records[0]. Nothing is copied when all are kept.
void KeepSectionRecords(std::vector<VectorRecord>& records, std::uint64_t first,
                        const std::vector<generator::NumericExecutionControl>& controls,
                        std::uint64_t limit, std::vector<std::uint64_t>& positions) {
  positions.clear();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < records.size() && kept < limit; ++k) {
    if (!controls.empty() &&
        std::find(controls.begin(), controls.end(), records[k].c.control) == controls.end()) {
      continue;
    }
    if (kept != k) records[kept] = records[k];
    positions.push_back(first + k);
    ++kept;
  }
  records.resize(kept);
}

// The --mismatches file: one JSON line per failed vector, committed when asked.
class MismatchFile {
 public:
  explicit MismatchFile(const std::filesystem::path& path) {
    if (!path.empty()) file_.emplace(path);
  }
  std::function<void(const Mismatch&)> Sink() {
    if (!file_) return {};
    return [this](const Mismatch& m) {
      buffer_ += MismatchJsonLine(m);
      buffer_ += '\n';
      if (buffer_.size() > (1 << 20)) Flush();
    };
  }
  void Commit() {
    if (!file_) return;
    Flush();
    file_->Commit();
  }

 private:
  void Flush() {
    file_->Write(buffer_);
    buffer_.clear();
  }
  std::optional<generator::AtomicFile> file_;
  std::string buffer_;
};

template <typename Stop>
CheckReport Compare(const generator::VectorSelection& vectors,
                    const std::filesystem::path& results, std::size_t max_report, bool progress,
                    Stop stop, const std::filesystem::path& mismatches = {},
                    const generator::ControlFilter& filter = {}) {
  std::uint64_t left_out = 0;  // answers of controls the filter drops
  const std::vector<VectorSource> sources = generator::SelectVectorFiles(vectors);
  ResultsReader reader(results);
  const auto& sections = reader.sections();
  if (sections.size() != sources.size()) {
    std::size_t named = 0;
    for (const ResultsSection& section : sections) {
      for (const VectorSource& source : sources) named += section.file == source.name ? 1 : 0;
    }
    const std::string hint =
        sections.size() < sources.size() && named == sections.size()
            ? "results of a run of part of it? Give check the same --op/--src/--dst as the run"
            : "results of another suite?";
    throw InputError("results file " + results.string() + " has " + Str(sections.size()) +
                     " section(s) but " + vectors.Describe() + " holds " +
                     Str(sources.size()) + " vector file(s) (" + hint + ")");
  }
  MismatchFile export_file(mismatches);
  CheckAccumulator acc(max_report, export_file.Sink());
  std::vector<VectorRecord> records;
  std::vector<std::uint64_t> positions;
  std::vector<std::uint64_t> indices;
  std::vector<DeviceAnswer> answers;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    auto vr = generator::OpenVectorSource(sources[s]);
    CheckSection(sections[s], s, sources[s], vr->info());
    acc.BeginFile(sources[s].name, *vr->info().op, vr->info().pair, sections[s].count);
    const auto& controls = sections[s].controls;
    std::uint64_t left = reader.RecordsIn(s);  // answers in the file (fewer after a stop)
    std::uint64_t index = 0;
    while (!vr->done()) {
      const std::size_t n = vr->Read(records, 4096);
      KeepSectionRecords(records, index, controls, left, positions);
      answers.resize(records.size());
      indices.resize(records.size());
      reader.Read(s, answers, indices);
      for (std::size_t k = 0; k < records.size(); ++k) {
        if (indices[k] != positions[k]) {
          throw InputError("results file " + results.string() + " section " + Str(s) + " (" +
                           sections[s].file + ") answers record " + Str(indices[k]) +
                           " where the vector file's next record of its controls is " +
                           Str(positions[k]));
        }
        if (!filter.all() && records[k].c.op->uses_controls &&
            !filter.Accepts(records[k].c.control)) {
          ++left_out;
          continue;
        }
        acc.Add(positions[k], records[k], answers[k]);
      }
      left -= records.size();
      index += n;
      if (stop(acc)) return acc.Finish();
    }
    generator::CheckSourceDigest(sources[s], *vr);
    if (sections[s].sha256 != vr->sha256()) {
      throw InputError("results section " + Str(s) + " (" + sections[s].file +
                       ") does not match the vectors: SHA-256 " + sections[s].sha256 +
                       " in the results, " + vr->sha256() + " for " + sources[s].path.string() +
                       " (results of another version of the file?)");
    }
    if (progress) {
      std::cerr << "ptovec: [" << s + 1 << "/" << sources.size() << "] " << sources[s].name << ": "
                << index << " vectors checked\n";
    }
  }
  reader.Finish();
  export_file.Commit();
  CheckReport report = acc.Finish();
  if (reader.stopped()) {
    report.incomplete = "the run stopped after " + Str(reader.stopped()->records) + " of " +
                        Str([&] {
                          std::uint64_t total = 0;
                          for (const ResultsSection& x : sections) total += x.count;
                          return total;
                        }()) +
                        " records: " + reader.stopped()->reason;
    return report;
  }
  if (report.vectors == 0 && left_out > 0) {
    throw InputError("--rmode/--sat (" + filter.Describe() + ") keep none of the " +
                     Str(left_out) + " answers of results file " + results.string());
  }
  if (report.vectors == 0) {
    throw InputError("--vectors " + vectors.Describe() + " holds zero vectors (nothing to check)");
  }
  if (!filter.all()) {
    report.scope = "checked only the vectors of " + filter.Describe() + " (" + Str(left_out) +
                   " answers of other controls in the results file were not compared)";
  }
  report.device = reader.device();
  return report;
}

}  // namespace

std::string_view MismatchKindName(MismatchKind kind) {
  switch (kind) {
    case MismatchKind::Word: return "wrong word";
    case MismatchKind::Flags: return "wrong flags";
    case MismatchKind::Both: return "both";
    case MismatchKind::Unsupported: return "unsupported";
  }
  return "?";
}

std::string MismatchJsonLine(const Mismatch& m) {
  const Case& c = m.c;
  nlohmann::ordered_json j;
  j["file"] = m.file;
  j["record"] = m.index;
  j["op"] = c.op->name;
  j["src"] = TypeName(c.pair.src);
  j["dst"] = TypeName(c.pair.dst);
  j["rmode"] = oracle::RoundingModeName(c.control.rounding_mode);
  j["sat"] = c.control.saturating;
  nlohmann::ordered_json in = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    in.push_back(generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair)));
  }
  j["in"] = in;
  j["class"] = generator::VectorClassName(m.vector_class);
  j["expected"] = {{"out", generator::HexWord(m.expected.word, c.pair.dst)},
                   {"flags", generator::HexStatus(m.expected.status)}};
  if (m.got.supported) {
    j["got"] = {{"out", generator::HexWord(m.got.result.word, c.pair.dst)},
                {"flags", generator::HexStatus(m.got.result.status)}};
  } else {
    j["got"] = "unsupported";
  }
  j["kind"] = MismatchKindName(m.kind);
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

CheckAccumulator::CheckAccumulator(std::size_t max_report,
                                   std::function<void(const Mismatch&)> every)
    : max_report_(max_report), every_(std::move(every)) {}

void CheckAccumulator::EndFile() {
  if (report_.per_file.empty()) return;
  report_.per_file.back().seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - file_start_).count();
}

void CheckAccumulator::BeginFile(const std::string& file, const OpDef& op, TypePair pair,
                                 std::uint64_t count) {
  EndFile();
  file_start_ = std::chrono::steady_clock::now();
  FileTally t;
  t.file = file;
  t.op = &op;
  t.pair = pair;
  t.count = count;
  report_.per_file.push_back(std::move(t));
  ++report_.files;
}

void CheckAccumulator::Add(std::uint64_t index, const VectorRecord& expected,
                           const DeviceAnswer& got) {
  Add(index, expected.c, expected.expected, got);
}

void CheckAccumulator::Add(std::uint64_t index, const Case& c, const Encoded& expected,
                           const DeviceAnswer& got) {
  FileTally& file = report_.per_file.back();
  ControlTally& tally = file.controls[ControlIndex(c)];
  ++tally.total;
  ++report_.vectors;
  if (c.op != class_op_ || !(c.pair == class_pair_) || c.in != class_in_) {
    class_op_ = c.op;
    class_pair_ = c.pair;
    class_in_ = c.in;
    input_class_ = generator::InputClassOf(*c.op, c.pair, c.in);
  }
  const std::size_t vector_class =
      generator::VectorClass{input_class_, generator::OutcomeOf(expected.status)}.index();
  ++file.classes[vector_class][0];
  // Every Device and the results readers deliver words already within the destination's width
  // (device.hpp), so the word compares as it is.
  MismatchKind kind;
  if (!got.supported) {
    kind = MismatchKind::Unsupported;
    ++tally.unsupported;
    ++report_.unsupported;
  } else {
    const bool word = got.result.word != expected.word;
    const bool flags = got.result.status != expected.status;
    if (!word && !flags) {
      ++report_.matched;
      return;
    }
    ++report_.mismatched;
    if (word && flags) {
      kind = MismatchKind::Both, ++tally.both, ++report_.both;
    } else if (word) {
      kind = MismatchKind::Word, ++tally.word, ++report_.word;
    } else {
      kind = MismatchKind::Flags, ++tally.flags, ++report_.flags;
    }
  }
  ++file.classes[vector_class][1];
  const bool keep_first = report_.first.size() < max_report_;
  const bool keep_example = tally.examples.size() < kJunitExamples;
  if (!keep_first && !keep_example && !every_) return;
  Mismatch m{file.file, report_.per_file.size() - 1, index, c, expected, got, kind, vector_class};
  if (every_) every_(m);
  if (keep_example) tally.examples.push_back(m);
  if (keep_first) report_.first.push_back(std::move(m));
}

std::uint64_t CheckAccumulator::AddProduct(const OpDef& op, TypePair pair,
                                           std::span<const generator::Inputs> inputs,
                                           std::span<const std::uint64_t> positions,
                                           std::span<const generator::NumericExecutionControl> controls,
                                           const Encoded* expected, const DeviceAnswer* got) {
  const std::size_t nc = controls.size();
  FileTally& file = report_.per_file.back();
  std::size_t tally_of[2 * 7] = {};
  for (std::size_t c = 0; c < nc && c < 14; ++c) {
    Case k;
    k.op = &op;
    k.control = controls[c];
    tally_of[c] = ControlIndex(k);
  }
  // Matched cases are counted here and added to the tallies at the end.
  std::uint64_t matched_of[2 * 7] = {};
  std::uint64_t class_of[generator::kVectorClasses] = {};
  std::uint64_t matched = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::uint8_t input_class = generator::InputClassOf(op, pair, inputs[i]);
    for (std::size_t c = 0; c < nc; ++c) {
      const std::size_t j = i * nc + c;
      const DeviceAnswer& a = got[j];
      if (c < 14 && a.supported && a.result.word == expected[j].word &&
          a.result.status == expected[j].status) {
        ++matched_of[c];
        ++matched;
        ++class_of[generator::VectorClass{input_class, generator::OutcomeOf(expected[j].status)}
                       .index()];
        continue;
      }
      Case k;
      k.op = &op;
      k.pair = pair;
      k.in = inputs[i];
      k.control = controls[c];
      Add(positions[i] * nc + c, k, expected[j], a);
    }
  }
  for (std::size_t c = 0; c < nc && c < 14; ++c) file.controls[tally_of[c]].total += matched_of[c];
  for (std::size_t k = 0; k < generator::kVectorClasses; ++k) file.classes[k][0] += class_of[k];
  report_.vectors += matched;
  report_.matched += matched;
  return inputs.size() * nc - matched;
}

CheckReport CheckAccumulator::Finish() {
  EndFile();
  return std::move(report_);
}

void ControlTally::Add(ControlTally&& later) {
  total += later.total;
  word += later.word;
  flags += later.flags;
  both += later.both;
  unsupported += later.unsupported;
  for (Mismatch& m : later.examples) {
    if (examples.size() < kJunitExamples) examples.push_back(std::move(m));
  }
}

void AppendReport(CheckReport& total, CheckReport&& part, std::size_t max_report) {
  total.vectors += part.vectors;
  total.matched += part.matched;
  total.mismatched += part.mismatched;
  total.unsupported += part.unsupported;
  total.word += part.word;
  total.flags += part.flags;
  total.both += part.both;
  for (FileTally& f : part.per_file) {
    auto it = std::find_if(total.per_file.begin(), total.per_file.end(),
                           [&](const FileTally& t) { return t.file == f.file; });
    if (it == total.per_file.end()) {
      total.per_file.push_back(std::move(f));
      ++total.files;
      continue;
    }
    it->seconds += f.seconds;
    for (std::size_t k = 0; k < f.classes.size(); ++k) {
      it->classes[k][0] += f.classes[k][0];
      it->classes[k][1] += f.classes[k][1];
    }
    for (std::size_t c = 0; c < f.controls.size(); ++c) it->controls[c].Add(std::move(f.controls[c]));
  }
  for (Mismatch& m : part.first) {
    if (total.first.size() < max_report) total.first.push_back(std::move(m));
  }
}

CheckReport CheckResults(const generator::VectorSelection& vectors,
                         const std::filesystem::path& results, std::size_t max_report,
                         bool progress, const std::filesystem::path& mismatches,
                         const generator::ControlFilter& controls) {
  return Compare(
      vectors, results, max_report, progress, [](const CheckAccumulator&) { return false; },
      mismatches, controls);
}

std::vector<Mismatch> ResultsMismatches(const generator::VectorSelection& vectors,
                                        const std::filesystem::path& results, std::size_t limit) {
  CheckReport report = Compare(vectors, results, limit, false, [limit](const CheckAccumulator& a) {
    return a.kept() >= limit;
  });
  return std::move(report.first);
}

CheckReport RunDevice(Device& device, const generator::VectorSelection& vectors,
                      const RunOptions& options) {
  const std::vector<VectorSource> sources = generator::SelectVectorFiles(vectors);
  std::vector<ResultsSection> sections;
  for (const VectorSource& source : sources) {
    auto vr = generator::OpenVectorSource(source);
    const generator::VectorFileInfo& info = vr->info();
    const std::string sha = source.sha256 ? *source.sha256 : generator::FileSha256(source.path);
    ResultsSection section = SectionFor(source.name, sha, *info.op, info.pair, info.count);
    if (!options.controls.all() && info.op->uses_controls) {
      // The file's controls the filter keeps, in the file's order.
      for (const auto& c : info.controls) {
        if (options.controls.Accepts(c)) section.controls.push_back(c);
      }
      if (section.controls.empty()) {
        throw InputError("--rmode/--sat (" + options.controls.Describe() + ") keep none of the " +
                         "controls of vector file " + source.path.string());
      }
      section.count = info.count / info.controls.size() * section.controls.size();
      if (section.controls == info.controls) section.controls.clear();  // all of them
    }
    sections.push_back(std::move(section));
  }
  std::uint64_t total = 0;
  for (const ResultsSection& section : sections) total += section.count;
  if (total == 0) {
    throw InputError("--vectors " + vectors.Describe() + " holds zero vectors (nothing to run)");
  }
  ResultsWriter writer(options.results, options.format, sections, device.Name());
  MismatchFile export_file(options.mismatches);
  CheckAccumulator acc(options.max_report, export_file.Sink());
  std::vector<VectorRecord> records;
  std::vector<std::uint64_t> indices;
  std::vector<Case> cases;
  std::vector<DeviceAnswer> answers;
  const std::size_t part = options.batch == 0 ? 4096 : options.batch;
  // A thread-safe device gets `threads` parts of `part` cases at once, one per thread.
  const unsigned threads = !device.ThreadSafe() ? 1
                           : options.threads != 0
                               ? options.threads
                               : std::max(1U, std::thread::hardware_concurrency());
  std::optional<ParallelRounds> pool;
  if (threads > 1) pool.emplace(threads);
  const std::size_t batch = part * threads;
  std::size_t n = 0;
  const std::function<void(unsigned)> evaluate_part = [&](unsigned k) {
    const std::size_t begin = std::min(n, k * part);
    const std::size_t end = std::min(n, begin + part);
    device.Evaluate(std::span<const Case>(cases).subspan(begin, end - begin),
                    std::span<DeviceAnswer>(answers).subspan(begin, end - begin));
  };
  try {
    for (std::size_t s = 0; s < sources.size(); ++s) {
      auto vr = generator::OpenVectorSource(sources[s]);
      acc.BeginFile(sources[s].name, *vr->info().op, vr->info().pair, sections[s].count);
      const bool filtered = !sections[s].controls.empty();
      std::uint64_t index = 0;
      std::uint64_t run = 0;
      while (!vr->done()) {
        const std::size_t read = vr->Read(records, batch);
        if (read == 0) continue;
        KeepSectionRecords(records, index, sections[s].controls, UINT64_MAX, indices);
        index += read;
        n = records.size();
        if (n == 0) continue;
        cases.resize(n);
        for (std::size_t k = 0; k < n; ++k) cases[k] = records[k].c;
        answers.assign(n, DeviceAnswer{});
        if (pool && n > part) {
          pool->Run(evaluate_part);
        } else {
          device.Evaluate(cases, answers);
        }
        for (std::size_t k = 0; k < n; ++k) {
          if (answers[k].supported && (answers[k].result.status & 0xE0) != 0) {
            throw DeviceError("device " + device.Name() + " answered flags " +
                              generator::HexStatus(answers[k].result.status) + " for " +
                              sources[s].name + " record " + Str(indices[k]) +
                              " (only bits 4:0 NV DZ OF UF NX may be set)");
          }
          acc.Add(indices[k], records[k], answers[k]);
        }
        writer.Append(answers, filtered ? std::span<const std::uint64_t>(indices)
                                        : std::span<const std::uint64_t>());
        run += n;
      }
      generator::CheckSourceDigest(sources[s], *vr);
      if (sections[s].sha256 != vr->sha256()) {
        throw InputError("vector file " + sources[s].path.string() + " has SHA-256 " +
                         vr->sha256() + ", expected " + sections[s].sha256 +
                         " (it changed while being run)");
      }
      if (options.progress) {
        std::cerr << "ptovec: [" << s + 1 << "/" << sources.size() << "] " << sources[s].name
                  << ": " << run << " vectors run\n";
      }
    }
  } catch (const DeviceError& e) {
    // Keep what was answered, marked as a run that stopped early (it can never pass a check).
    writer.Stop(e.what());
    writer.Commit();
    export_file.Commit();
    throw;
  }
  writer.Commit();
  export_file.Commit();
  CheckReport report = acc.Finish();
  report.device = device.Name();
  return report;
}

void PrintReport(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  out << "ptovec: " << r.files << " file(s), " << r.vectors << " vectors: " << r.matched
      << " matched, " << r.mismatched << " mismatched, " << r.unsupported << " unsupported";
  if (!r.device.empty()) out << " (device " << r.device << ")";
  out << "\n";
  if (r.mismatched + r.unsupported > 0) {
    out << "by kind: wrong word " << r.word << ", wrong flags " << r.flags << ", both " << r.both
        << ", unsupported " << r.unsupported << "\n";
    out << "by op, types, mode and Sat:\n";
    out << "  " << std::left << std::setw(9) << "op" << std::setw(6) << "src" << std::setw(6)
        << "dst" << std::setw(6) << "mode" << std::setw(5) << "sat" << std::right << std::setw(12)
        << "vectors" << std::setw(12) << "word" << std::setw(12) << "flags" << std::setw(12)
        << "both" << std::setw(12) << "unsupported" << "\n";
    for (const FileTally& f : r.per_file) {
      for (std::size_t c = 0; c < f.controls.size(); ++c) {
        const ControlTally& t = f.controls[c];
        if (t.failed() == 0) continue;
        out << "  " << std::left << std::setw(9) << f.op->name << std::setw(6)
            << TypeName(f.pair.src) << std::setw(6) << TypeName(f.pair.dst) << std::setw(6)
            << (f.op->uses_controls ? ModeName(c) : "-") << std::setw(5)
            << (f.op->uses_controls ? (c % 2 ? "on" : "off") : "-") << std::right << std::setw(12)
            << t.total << std::setw(12) << t.word << std::setw(12) << t.flags << std::setw(12)
            << t.both << std::setw(12) << t.unsupported << "\n";
      }
    }
    out << "by input class and outcome (the first input's value class; the expected flags):\n";
    out << "  " << std::left << std::setw(27) << "file" << std::setw(24) << "class" << std::right
        << std::setw(12) << "vectors" << std::setw(12) << "failed" << "\n";
    for (const FileTally& f : r.per_file) {
      for (std::size_t k = 0; k < f.classes.size(); ++k) {
        if (f.classes[k][1] == 0) continue;
        out << "  " << std::left << std::setw(26) << f.file.substr(0, f.file.rfind('.')) << " "
            << std::setw(24) << generator::VectorClassName(k) << std::right << std::setw(12)
            << f.classes[k][0] << std::setw(12) << f.classes[k][1]
            << (f.classes[k][1] == f.classes[k][0] ? "  (every one)" : "") << "\n";
      }
    }
    const std::size_t shown = std::min(max_report, r.first.size());
    if (shown > 0) {
      out << "first " << shown << " of " << r.mismatched + r.unsupported
          << (r.allow_unsupported && r.unsupported > 0
                  ? " vectors not matched (mismatched, or unsupported and skipped by "
                    "--allow-unsupported):\n"
                  : " failed vectors (mismatched or unsupported):\n");
    }
    for (std::size_t i = 0; i < shown; ++i) {
      out << "  " << MismatchText(r.first[i], "    ");
    }
  }
  if (!r.incomplete.empty()) out << "INCOMPLETE: " << r.incomplete << "\n";
  if (!r.scope.empty()) out << "scope: " << r.scope << "\n";
  if (r.passed() && r.unsupported > 0) {
    out << "PASS with " << r.unsupported << " unsupported vectors skipped (--allow-unsupported): "
        << r.matched << " of " << r.vectors << " vectors checked and matched\n";
  } else if (r.passed()) {
    out << "PASS\n";
  } else {
    out << "FAIL: " << r.mismatched << " mismatched, " << r.unsupported << " unsupported of "
        << r.vectors << " vectors" << (r.incomplete.empty() ? "" : " checked (incomplete run)")
        << "\n";
  }
}

namespace {

// JUnit's time attribute: seconds with millisecond digits.
std::string Seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

}  // namespace

std::string JunitXml(const CheckReport& r) {
  std::ostringstream x;
  std::uint64_t tests = 0;
  std::uint64_t failures = 0;
  // A control without vectors (a run filtered by --rmode/--sat) has no test case.
  const auto listed = [](const FileTally& f, std::size_t c) {
    return f.controls[c].total > 0 || f.count == 0;
  };
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < (f.op->uses_controls ? 14U : 1U); ++c) {
      if (!listed(f, c)) continue;
      ++tests;
      if (f.controls[c].failed() > 0) ++failures;
    }
  }
  if (!r.incomplete.empty()) ++tests, ++failures;
  // With --allow-unsupported a test case whose only failures are unsupported vectors is skipped.
  const auto skipped = [&r](const ControlTally& t) {
    return r.allow_unsupported && t.unsupported > 0 && t.failed() == t.unsupported;
  };
  std::uint64_t skips = 0;
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < (f.op->uses_controls ? 14U : 1U); ++c) {
      if (listed(f, c) && skipped(f.controls[c])) ++skips, --failures;
    }
  }
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"ptovec\" tests=\"" << tests << "\" failures=\"" << failures
    << "\" errors=\"0\" skipped=\"" << skips << "\" time=\"" << Seconds([&r] {
         double total = 0;
         for (const FileTally& f : r.per_file) total += f.seconds;
         return total;
       }()) << "\">\n";
  for (const FileTally& f : r.per_file) {
    const std::size_t n = f.op->uses_controls ? 14U : 1U;
    std::uint64_t file_failures = 0;
    std::uint64_t file_tests = 0;
    std::uint64_t file_skips = 0;
    for (std::size_t c = 0; c < n; ++c) {
      if (!listed(f, c)) continue;
      ++file_tests;
      if (skipped(f.controls[c])) {
        ++file_skips;
      } else if (f.controls[c].failed() > 0) {
        ++file_failures;
      }
    }
    std::string stem = f.file.substr(0, f.file.rfind('.'));
    x << "  <testsuite name=\"" << XmlEscape(f.file) << "\" tests=\"" << file_tests
      << "\" failures=\"" << file_failures << "\" errors=\"0\" skipped=\"" << file_skips
      << "\" time=\"" << Seconds(f.seconds) << "\">\n";
    for (std::size_t c = 0; c < n; ++c) {
      if (!listed(f, c)) continue;
      const ControlTally& t = f.controls[c];
      const std::string name = f.op->uses_controls
                                   ? ModeName(c) + (c % 2 ? " sat=on" : " sat=off")
                                   : std::string("RNE sat=off (no controls)");
      x << "    <testcase classname=\"ptovec." << XmlEscape(stem) << "\" name=\""
        << XmlEscape(name) << "\" time=\""
        << Seconds(f.count == 0 ? 0.0
                                : f.seconds * static_cast<double>(t.total) /
                                      static_cast<double>(f.count))
        << "\"";
      if (t.failed() == 0) {
        x << "/>\n";
        continue;
      }
      if (skipped(t)) {
        x << ">\n      <skipped message=\""
          << XmlEscape(Str(t.unsupported) + " of " + Str(t.total) +
                       " vectors unsupported by the device (--allow-unsupported)")
          << "\"/>\n    </testcase>\n";
        continue;
      }
      const std::string message = Str(t.failed()) + " of " + Str(t.total) +
                                  " vectors failed (wrong word " + Str(t.word) + ", wrong flags " +
                                  Str(t.flags) + ", both " + Str(t.both) + ", unsupported " +
                                  Str(t.unsupported) + ")";
      std::string body;
      for (const Mismatch& m : t.examples) body += MismatchText(m, "  ");
      x << ">\n      <failure type=\"mismatch\" message=\"" << XmlEscape(message) << "\">"
        << XmlEscape(message + "\n" + body) << "</failure>\n    </testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  if (!r.incomplete.empty()) {
    x << "  <testsuite name=\"run\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" "
         "time=\"0\">\n    <testcase classname=\"ptovec.run\" name=\"complete\" time=\"0\">\n"
         "      <failure type=\"incomplete\" message=\""
      << XmlEscape(r.incomplete) << "\">" << XmlEscape(r.incomplete)
      << "</failure>\n    </testcase>\n  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

int ExitStatusFor(const CheckReport& report) { return report.passed() ? 0 : 1; }

std::vector<std::filesystem::path> VectorInputFiles(const generator::VectorSelection& vectors) {
  std::vector<std::filesystem::path> files;
  for (const VectorSource& source : generator::SelectVectorFiles(vectors)) {
    files.push_back(source.path);
  }
  for (const std::filesystem::path& path : vectors.paths) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) files.push_back(path / "manifest.json");
  }
  return files;
}

namespace {

// True when a and b name the same file: equivalent() when both exist, else the same absolute
// normalized path.
bool SamePath(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error) && !error) return true;
  const auto normal = [](const std::filesystem::path& p) {
    std::error_code e;
    std::filesystem::path n = std::filesystem::weakly_canonical(std::filesystem::absolute(p, e), e);
    return (e ? std::filesystem::absolute(p, e) : n).lexically_normal();
  };
  return normal(a) == normal(b);
}

}  // namespace

void RefuseOverwritingInputs(const std::vector<OutputFile>& outputs,
                             const std::vector<std::filesystem::path>& inputs) {
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    const auto& [option, path] = outputs[o];
    for (const std::filesystem::path& input : inputs) {
      if (SamePath(path, input)) {
        throw InputError(option + " " + path.string() + " is an input file (" + input.string() +
                         "); give an output path that is not a vector, manifest or results file "
                         "read by this command");
      }
    }
    for (std::size_t p = 0; p < o; ++p) {
      if (SamePath(path, outputs[p].second)) {
        throw InputError(option + " " + path.string() + " is also the " + outputs[p].first +
                         " file; give the two outputs different paths");
      }
    }
  }
}

void CheckOutputFolder(const OutputFile& output) {
  const auto& [option, path] = output;
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(option + " " + path.string() + " is a folder (expected a file path)");
  }
  std::filesystem::path folder = path.parent_path();
  if (folder.empty()) folder = ".";
  if (!std::filesystem::is_directory(folder, error)) {
    throw InputError(option + " " + path.string() + ": its folder " + folder.string() +
                     " does not exist (create it first)");
  }
  if (::access(folder.c_str(), W_OK) != 0) {
    throw InputError(option + " " + path.string() + ": its folder " + folder.string() +
                     " is not writable");
  }
}

void RemoveStaleOutput(const OutputFile& output) {
  const auto& [option, path] = output;
  std::error_code error;
  const auto status = std::filesystem::symlink_status(path, error);
  if (error || !(std::filesystem::is_regular_file(status) || std::filesystem::is_symlink(status))) {
    return;
  }
  if (!std::filesystem::remove(path, error) || error) {
    throw InputError("cannot remove the previous " + option + " file " + path.string() + ": " +
                     error.message());
  }
}

}  // namespace ptovec::tools
