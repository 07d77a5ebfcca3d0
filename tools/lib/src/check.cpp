// The conformance gate's comparison: CheckAccumulator tallies answers against expected vectors;
// CheckResults and ResultsMismatches compare a results file with its vector files, RunDevice
// streams vector files through a device. Reports: check_report.cpp; output files:
// check_outputs.cpp.
#include "ptovec/tools/check.hpp"

#include <algorithm>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/parallel_rounds.hpp"
#include "ptovec/tools/testfloat_results.hpp"
#include "report_text.hpp"

namespace ptovec::tools {

namespace {

using text::Str;
using text::TypeName;

using generator::InputError;
using generator::VectorRecord;
using generator::VectorSource;

// The results header's record of how a run judged its answers (results-format.md).
nlohmann::ordered_json JudgeHeader(const Judge& judge) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["compare"] = judge.policy.Name();
  j["known_differences"] = judge.known.sets;
  j["allow_unsupported"] = judge.allow_unsupported;
  return j;
}

std::size_t ControlIndex(const Case& c) {
  if (!c.op->uses_controls) return 0;
  return static_cast<std::size_t>(c.control.rounding_mode) * 2 + (c.control.saturating ? 1 : 0);
}

// Checks results section `s` against its vector file `source` (file name, op, types, controls,
// count, and the SHA-256 when the manifest gives one); throws InputError naming what differs.
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
    refuse("file",
           section.file + (section.file.find('/') != std::string::npos
                               ? " (a section names its vector file by its bare name, as "
                                 "manifest.json's path does)"
                               : ""),
           source.name);
  }
  if (section.op != info.op) {
    refuse(
        "op",
        section.op->name + " " + TypeName(section.pair.src) + " -> " + TypeName(section.pair.dst),
        info.op->name + " " + TypeName(info.pair.src) + " -> " + TypeName(info.pair.dst));
  }
  // Types only: a results section names no file group (the file name above tells a split pair's
  // files apart).
  if (section.pair.Whole() != info.pair.Whole()) {
    refuse("types", TypeName(section.pair.src) + " -> " + TypeName(section.pair.dst),
           TypeName(info.pair.src) + " -> " + TypeName(info.pair.dst));
  }
  std::uint64_t expected = info.count;
  if (!section.controls.empty()) {
    std::uint64_t kept = 0;
    for (const auto& c : section.controls) {
      if (std::find(info.controls.begin(), info.controls.end(), c) == info.controls.end()) {
        refuse("control",
               std::string(oracle::RoundingModeName(c.rounding_mode)) + " Sat " +
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

// The progress line of source `s` of `sources` once `vectors` of it were checked.
void PrintChecked(std::size_t s, const std::vector<VectorSource>& sources, std::uint64_t vectors) {
  std::cerr << "ptovec: [" << s + 1 << "/" << sources.size() << "] " << sources[s].name << ": "
            << vectors << " vectors checked\n";
}

// The input words of a case, "0x3c00 0x01" (the op's slots only).
std::string InputWords(const Case& c) {
  std::string out;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    out += (i > 0 ? " " : "") + generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return out;
}

// Compare() for a TestFloat-style results file (testfloat_results.hpp), which has no header: its
// lines answer the selected vectors in order, each vector file's controls that the filter keeps
// in turn (the file read once per control), each control's records in file order; so the lines
// of a TestFloat-style suite's files, concatenated in manifest order, answer that suite. Each
// line's inputs must be the vector's (anything else is results of another file, control or
// order, refused with exit 2).
template <typename Stop>
CheckReport CompareTestFloat(const generator::VectorSelection& vectors,
                             const std::filesystem::path& results, std::size_t max_report,
                             bool progress, Stop stop, const std::filesystem::path& mismatches,
                             const generator::ControlFilter& filter, const Judge& judge) {
  const std::vector<VectorSource> sources = generator::SelectVectorFiles(vectors);
  TestFloatResultsReader reader(results);
  MismatchesFile export_file(mismatches);
  CheckAccumulator acc(max_report, export_file.Sink(), judge);
  std::vector<VectorRecord> records;
  generator::TestFloatLine line;
  for (std::size_t s = 0; s < sources.size(); ++s) {
    std::vector<generator::NumericExecutionControl> controls;
    {
      const auto vr = generator::OpenVectorSource(sources[s]);
      const generator::VectorFileInfo& info = vr->info();
      for (const auto& c : info.controls) {
        if (!info.op->uses_controls || filter.Accepts(c)) controls.push_back(c);
      }
      if (controls.empty()) continue;
      acc.BeginFile(sources[s].name, *info.op, info.pair,
                    info.count / info.controls.size() * controls.size());
    }
    std::uint64_t checked = 0;
    for (const generator::NumericExecutionControl& control : controls) {
      const auto vr = generator::OpenVectorSource(sources[s]);
      const generator::VectorFileInfo& info = vr->info();
      std::uint64_t index = 0;
      while (!vr->done()) {
        const std::size_t n = vr->Read(records, 4096);
        for (std::size_t k = 0; k < n; ++k) {
          const VectorRecord& r = records[k];
          if (!(r.c.control == control)) continue;
          // Only error lines name the record: built when one is thrown, not per vector.
          const auto where = [&] {
            return "vector file " + sources[s].name + " record " + Str(index + k) + " (" +
                   std::string(oracle::RoundingModeName(control.rounding_mode)) + ", Sat " +
                   (control.saturating ? "on" : "off") + ")";
          };
          if (!reader.Next(*info.op, info.pair, line)) {
            throw InputError("results file " + results.string() + " (TestFloat-style text) ends " +
                             "after line " + Str(reader.line_number()) + ", but " + where() +
                             " has no answer (its lines answer the selected vector files in "
                             "order, each file's controls in turn: select with --op/--src/--dst/"
                             "--rmode/--sat)");
          }
          for (std::size_t i = 0; i < info.op->slots.size(); ++i) {
            if (line.in[i] != r.c.in[i]) {
              Case got = r.c;
              got.in = line.in;
              throw InputError("results file " + results.string() + " (TestFloat-style text) " +
                               "line " + Str(reader.line_number()) + " answers inputs " +
                               InputWords(got) + " where " + where() + " has " + InputWords(r.c) +
                               " (results of another file, control or order?)");
            }
          }
          acc.Add(index + k, r, DeviceAnswer{true, line.result});
          ++checked;
        }
        index += n;
        if (stop(acc)) return acc.Finish();
      }
      generator::CheckSourceDigest(sources[s], *vr);
    }
    if (progress) PrintChecked(s, sources, checked);
  }
  reader.Finish();
  export_file.Commit();
  CheckReport report = acc.Finish();
  if (report.vectors == 0) {
    throw InputError("--rmode/--sat (" + filter.Describe() + ") keep none of the vectors of " +
                     vectors.Describe() + " (nothing to check)");
  }
  if (!filter.all()) {
    report.scope = "checked only the vectors of " + filter.Describe() +
                   " (the TestFloat-style results file answers those only)";
  }
  return report;
}

// The shared loop of check and ResultsMismatches: compares every results section with its vector
// file. Stops early (without the end-of-file checks) when stop(accumulator) says so.
template <typename Stop>
CheckReport Compare(const generator::VectorSelection& vectors, const std::filesystem::path& results,
                    std::size_t max_report, bool progress, Stop stop,
                    const std::filesystem::path& mismatches = {},
                    const generator::ControlFilter& filter = {}, const Judge& judge = {}) {
  if (IsTestFloatResultsFile(results)) {
    return CompareTestFloat(vectors, results, max_report, progress, stop, mismatches, filter,
                            judge);
  }
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
                     " section(s) but " + vectors.Describe() + " holds " + Str(sources.size()) +
                     " vector file(s) (" + hint + ")");
  }
  MismatchesFile export_file(mismatches);
  CheckAccumulator acc(max_report, export_file.Sink(), judge);
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
    if (progress) PrintChecked(s, sources, index);
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
    throw InputError("--rmode/--sat (" + filter.Describe() + ") keep none of the " + Str(left_out) +
                     " answers of results file " + results.string());
  }
  if (report.vectors == 0) {
    throw InputError("--vectors " + vectors.Describe() + " holds zero vectors (nothing to check)");
  }
  if (!filter.all()) {
    report.scope = "checked only the vectors of " + filter.Describe() + " (" + Str(left_out) +
                   " answers of other controls in the results file were not compared)";
  }
  report.device = reader.device();
  const ComparePolicy run_policy =
      reader.compare().empty() ? ComparePolicy{} : ComparePolicyFromName(reader.compare());
  if (!reader.compare().empty() &&
      (!(run_policy == judge.policy) || reader.known_differences() != judge.known.sets)) {
    std::string sets;
    for (const std::string& set : reader.known_differences()) {
      sets += (sets.empty() ? "" : ", ") + set;
    }
    report.run_judged = "the run that wrote " + results.filename().string() + " compared " +
                        run_policy.Describe() +
                        (sets.empty() ? std::string() : " with known differences " + sets) +
                        "; this check judges by its own options";
  }
  return report;
}

}  // namespace

std::string_view MismatchKindName(MismatchKind kind) {
  switch (kind) {
    case MismatchKind::Word:
      return "wrong word";
    case MismatchKind::Flags:
      return "wrong flags";
    case MismatchKind::Both:
      return "both";
    case MismatchKind::Unsupported:
      return "unsupported";
  }
  return "?";
}

CheckAccumulator::CheckAccumulator(std::size_t max_report,
                                   std::function<void(const Mismatch&)> every, Judge judge)
    : max_report_(max_report), every_(std::move(every)) {
  report_.judge = std::move(judge);
  report_.allow_unsupported = report_.judge.allow_unsupported;
  report_.rules.resize(report_.judge.known.rules.size());
}

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
  const Judge& judge = report_.judge;
  std::size_t rule = kNoRule;
  const Verdict verdict = judge.Of(c, input_class_, expected, got, &rule);
  if (verdict == Verdict::Match) {
    ++report_.matched;
    return;
  }
  MismatchKind kind = MismatchKind::Unsupported;
  if (verdict == Verdict::Unsupported) {
    ++tally.unsupported;
    ++report_.unsupported;
  } else {
    const bool word = got.result.word != expected.word;
    const bool flags = ((got.result.status ^ expected.status) & judge.policy.flags) != 0;
    kind = word && flags ? MismatchKind::Both : word ? MismatchKind::Word : MismatchKind::Flags;
  }
  if (verdict == Verdict::Waived) {
    ++tally.waived;
    ++report_.waived;
    RuleTally& r = report_.rules[rule];
    ++r.waived;
    if (!r.first || every_) {
      Mismatch m{file.file, report_.per_file.size() - 1,
                 index,     c,
                 expected,  got,
                 kind,      vector_class,
                 verdict,   rule,
                 {},        judge.known.rules[rule].FullName()};
      if (every_) every_(m);
      if (!r.first) r.first = std::move(m);
    }
    return;
  }
  if (verdict == Verdict::Mismatch) {
    ++report_.mismatched;
    switch (kind) {
      case MismatchKind::Both:
        ++tally.both, ++report_.both;
        break;
      case MismatchKind::Word:
        ++tally.word, ++report_.word;
        break;
      default:
        ++tally.flags, ++report_.flags;
        break;
    }
  }
  const bool failed = verdict == Verdict::Mismatch || !judge.allow_unsupported;
  if (failed) ++file.classes[vector_class][1];
  const Signature signature = SignatureOf(c, input_class_, expected, got, judge.policy);
  const auto key = std::make_tuple(c.op, c.pair.src, c.pair.dst, signature);
  auto group = group_of_.find(key);
  const std::uint16_t control_bit =
      static_cast<std::uint16_t>(1U << (static_cast<unsigned>(c.control.rounding_mode) * 2 +
                                        (c.control.saturating ? 1U : 0U)));
  const bool new_group = group == group_of_.end();
  const bool keep_first = failed && report_.first.size() < max_report_;
  const bool keep_example = failed && tally.examples.size() < kJunitExamples;
  if (!new_group) {
    TriageGroup& g = report_.groups[group->second];
    ++g.count;
    g.controls |= control_bit;
    if (!keep_first && !keep_example && !every_) return;
  }
  Mismatch m{file.file, report_.per_file.size() - 1,
             index,     c,
             expected,  got,
             kind,      vector_class,
             verdict,   kNoRule,
             signature, {}};
  if (new_group) {
    group_of_.emplace(key, report_.groups.size());
    report_.groups.push_back(TriageGroup{c.op, c.pair.Whole(), signature, 1, control_bit, m});
  }
  if (every_) every_(m);
  if (keep_example) tally.examples.push_back(m);
  if (keep_first) report_.first.push_back(std::move(m));
}

std::uint64_t CheckAccumulator::AddProduct(
    const OpDef& op, TypePair pair, std::span<const generator::Inputs> inputs,
    std::span<const std::uint64_t> positions,
    std::span<const generator::NumericExecutionControl> controls, const Encoded* expected,
    const DeviceAnswer* got) {
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
      if (c < 14 && report_.judge.Matches(expected[j], a)) {
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
  waived += later.waived;
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
  total.waived += part.waived;
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
    for (std::size_t c = 0; c < f.controls.size(); ++c) {
      it->controls[c].Add(std::move(f.controls[c]));
    }
  }
  for (Mismatch& m : part.first) {
    if (total.first.size() < max_report) total.first.push_back(std::move(m));
  }
  if (total.rules.size() < part.rules.size()) total.rules.resize(part.rules.size());
  for (std::size_t k = 0; k < part.rules.size(); ++k) {
    total.rules[k].waived += part.rules[k].waived;
    if (!total.rules[k].first) total.rules[k].first = std::move(part.rules[k].first);
  }
  for (TriageGroup& g : part.groups) {
    auto it = std::find_if(total.groups.begin(), total.groups.end(), [&](const TriageGroup& t) {
      return t.op == g.op && t.pair == g.pair && t.signature == g.signature;
    });
    if (it == total.groups.end()) {
      total.groups.push_back(std::move(g));
    } else {
      it->count += g.count;
      it->controls |= g.controls;
    }
  }
}

CheckReport CheckResults(const generator::VectorSelection& vectors,
                         const std::filesystem::path& results, std::size_t max_report,
                         bool progress, const std::filesystem::path& mismatches,
                         const generator::ControlFilter& controls, const Judge& judge) {
  return Compare(
      vectors, results, max_report, progress, [](const CheckAccumulator&) { return false; },
      mismatches, controls, judge);
}

std::vector<Mismatch> ResultsMismatches(const generator::VectorSelection& vectors,
                                        const std::filesystem::path& results, std::size_t limit,
                                        const Judge& judge,
                                        const generator::ControlFilter& controls) {
  CheckReport report = Compare(
      vectors, results, limit, false,
      [limit](const CheckAccumulator& a) { return a.kept() >= limit; }, {}, controls, judge);
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
  ResultsWriter writer(options.results, options.format, sections, device.Name(),
                       JudgeHeader(options.judge));
  MismatchesFile export_file(options.mismatches);
  CheckAccumulator acc(options.max_report, export_file.Sink(), options.judge);
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
  std::vector<std::string> failures;  // --keep-going: the device's failures so far
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
        try {
          if (pool && n > part) {
            pool->Run(evaluate_part);
          } else {
            device.Evaluate(cases, answers);
          }
        } catch (const DeviceFailure&) {
          if (!options.keep_going) throw;
          // Once more one case at a time: each case that fails alone is counted and recorded
          // as unsupported.
          for (std::size_t k = 0; k < n; ++k) {
            try {
              device.Evaluate(std::span<const Case>(cases).subspan(k, 1),
                              std::span<DeviceAnswer>(answers).subspan(k, 1));
            } catch (const DeviceFailure& f) {
              answers[k] = DeviceAnswer{false, {}};
              failures.push_back(f.what());
              if (options.progress) std::cerr << "ptovec: " << f.what() << " (--keep-going)\n";
            }
          }
        }
        for (std::size_t k = 0; k < n; ++k) {
          if (answers[k].supported && (answers[k].result.status & ~kStatusBits) != 0) {
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
  } catch (const DeviceFailure& e) {
    // The device crashed, exited or hung: a failure of the gate, reported with what was
    // answered; the results file is marked as stopped early.
    writer.Stop(e.what());
    writer.Commit();
    export_file.Commit();
    CheckReport report = acc.Finish();
    report.device = device.Name();
    report.incomplete = "the device failed, the run stopped early";
    report.device_failures = std::move(failures);
    report.device_failures.push_back(e.what());
    return report;
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
  report.device_failures = std::move(failures);
  return report;
}

int ExitStatusFor(const CheckReport& report) { return report.passed() ? 0 : 1; }

}  // namespace ptovec::tools
