// `ptovec check`'s comparison of a results file with its vector files (CheckResults,
// ResultsMismatches): each results section checked against its vector file, then the answers
// tallied (CheckAccumulator) file by file; TestFloat-style results files too. Reports:
// check_report.cpp, check_junit.cpp; output files: check_outputs.cpp.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gate/check_internal.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/testfloat_results.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using text::Str;
using text::TypeName;

using generator::InputError;
using generator::VectorRecord;
using generator::VectorSource;

using check_internal::KeepSectionRecords;

// Refuses a results file of one edition checked against vectors of another: their answers
// differ by rule, not by device (ptovec run --edition; docs/semantics.md).
void RefuseOtherEdition(const ResultsReader& reader, const std::filesystem::path& results,
                        const VectorSource& source, const generator::VectorFileInfo& info) {
  if (reader.edition() == info.edition) return;
  throw InputError("results file " + results.string() + " is of edition " +
                   std::string(oracle::EditionName(reader.edition())) + ", vector file " +
                   source.path.string() + " of edition " +
                   std::string(oracle::EditionName(info.edition)) +
                   " (check results against the vectors of the edition they were run on)");
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
                             bool progress, Stop stop, const MismatchesOutput& mismatches,
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
  report.notes = generator::UnverifiedCountNotes(sources);
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

// The results section that answers each selected vector file: the i-th section for the i-th
// file when the counts agree; for a selection (--op/--src/--dst) of a suite whose results file
// holds more sections (a whole-suite run), the sections named as the selected files, in order.
// Throws InputError otherwise, with a hint when the sections are those of part of the selection.
std::vector<std::size_t> SectionsOf(const std::vector<ResultsSection>& sections,
                                    const std::vector<VectorSource>& sources,
                                    const generator::VectorSelection& vectors,
                                    const std::filesystem::path& results) {
  std::vector<std::size_t> of;
  if (sections.size() == sources.size()) {
    for (std::size_t s = 0; s < sources.size(); ++s) of.push_back(s);
    return of;
  }
  if (vectors.filtered() && sections.size() > sources.size()) {
    std::size_t t = 0;
    for (const VectorSource& source : sources) {
      while (t < sections.size() && sections[t].file != source.name) ++t;
      if (t == sections.size()) break;
      of.push_back(t++);
    }
    if (of.size() == sources.size()) return of;
  }
  std::size_t named = 0;
  for (const ResultsSection& section : sections) {
    for (const VectorSource& source : sources) named += section.file == source.name ? 1 : 0;
  }
  const std::string hint =
      sections.size() < sources.size() && named == sections.size()
          ? "results of a run of part of it? Give check the same --op/--src/--dst as the run"
          : "results of another suite?";
  throw InputError("results file " + results.string() + " has " +
                   generator::Counted(sections.size(), "section") + " but " + vectors.Describe() +
                   " holds " + generator::Counted(sources.size(), "vector file") + " (" + hint +
                   ")");
}

// Reads past section t of the results file (a section no selected vector file has), checking
// its records' order as any section's.
void SkipSection(ResultsReader& reader, std::size_t t) {
  std::vector<DeviceAnswer> answers(4096);
  std::vector<std::uint64_t> indices(4096);
  for (std::uint64_t left = reader.RecordsIn(t); left > 0;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, 4096));
    reader.Read(t, std::span(answers.data(), n), std::span(indices.data(), n));
    left -= n;
  }
}

// Throws InputError when section s's SHA-256 is not its vector file's.
void CheckSectionDigest(const ResultsSection& section, std::size_t s, const VectorSource& source,
                        const std::string& sha256) {
  if (section.sha256 != sha256) {
    throw InputError("results section " + Str(s) + " (" + section.file +
                     ") does not match the vectors: SHA-256 " + section.sha256 +
                     " in the results, " + sha256 + " for " + source.path.string() +
                     " (results of another version of the file?)");
  }
}

// The answers of one batch of section s, each checked to answer its record, tallied unless the
// filter drops its control (counted in left_out).
void AddBatch(CheckAccumulator& acc, std::size_t s, const ResultsSection& section,
              const std::filesystem::path& results, const generator::ControlFilter& filter,
              const std::vector<VectorRecord>& records, const std::vector<std::uint64_t>& positions,
              const std::vector<std::uint64_t>& indices, const std::vector<DeviceAnswer>& answers,
              std::uint64_t& left_out) {
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (indices[k] != positions[k]) {
      throw InputError("results file " + results.string() + " section " + Str(s) + " (" +
                       section.file + ") answers record " + Str(indices[k]) +
                       " where the vector file's next record of its controls is " +
                       Str(positions[k]));
    }
    if (!filter.all() && records[k].c.op->uses_controls && !filter.Accepts(records[k].c.control)) {
      ++left_out;
      continue;
    }
    acc.Add(positions[k], records[k], answers[k]);
  }
}

// The note when the run that wrote the results judged by another policy or other known
// differences than this check ("" when the same, or when the header does not say).
std::string RunJudgedNote(const ResultsReader& reader, const std::filesystem::path& results,
                          const Judge& judge) {
  const ComparePolicy run_policy =
      reader.compare().empty() ? ComparePolicy{} : ComparePolicyFromName(reader.compare());
  if (reader.compare().empty() ||
      (run_policy == judge.policy && reader.known_differences() == judge.known.sets)) {
    return {};
  }
  std::string sets;
  for (const std::string& set : reader.known_differences()) {
    sets += (sets.empty() ? "" : ", ") + set;
  }
  return "the run that wrote " + results.filename().string() + " compared " +
         run_policy.Describe() +
         (sets.empty() ? std::string() : " with known differences " + sets) +
         "; this check judges by its own options";
}

// The finished report of a results file read to its end: incomplete after a stopped run; else
// its scope, device and how the run judged. Throws InputError when nothing was compared.
CheckReport Concluded(CheckReport report, const ResultsReader& reader,
                      const generator::VectorSelection& vectors,
                      const std::filesystem::path& results, const generator::ControlFilter& filter,
                      std::uint64_t left_out, const Judge& judge) {
  if (reader.stopped()) {
    std::uint64_t total = 0;
    for (const ResultsSection& x : reader.sections()) total += x.count;
    report.incomplete = "the run stopped after " + Str(reader.stopped()->records) + " of " +
                        Str(total) + " records: " + reader.stopped()->reason;
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
  report.run_judged = RunJudgedNote(reader, results, judge);
  return report;
}

// The shared loop of check and ResultsMismatches: compares every results section with its vector
// file. Stops early (without the end-of-file checks) when stop(accumulator) says so.
template <typename Stop>
CheckReport Compare(const generator::VectorSelection& vectors, const std::filesystem::path& results,
                    std::size_t max_report, bool progress, Stop stop,
                    const MismatchesOutput& mismatches = {},
                    const generator::ControlFilter& filter = {}, const Judge& judge = {}) {
  if (IsTestFloatResultsFile(results)) {
    return CompareTestFloat(vectors, results, max_report, progress, stop, mismatches, filter,
                            judge);
  }
  std::uint64_t left_out = 0;  // answers of controls the filter drops
  const std::vector<VectorSource> sources = generator::SelectVectorFiles(vectors);
  ResultsReader reader(results);
  const auto& sections = reader.sections();
  const std::vector<std::size_t> section_of = SectionsOf(sections, sources, vectors, results);
  MismatchesFile export_file(mismatches);
  CheckAccumulator acc(max_report, export_file.Sink(), judge);
  std::vector<VectorRecord> records;
  std::vector<std::uint64_t> positions;
  std::vector<std::uint64_t> indices;
  std::vector<DeviceAnswer> answers;
  std::size_t next = 0;  // the results section to read next
  for (std::size_t s = 0; s < sources.size(); ++s) {
    const std::size_t t = section_of[s];
    for (; next < t; ++next) SkipSection(reader, next);
    ++next;
    auto vr = generator::OpenVectorSource(sources[s]);
    RefuseOtherEdition(reader, results, sources[s], vr->info());
    CheckSection(sections[t], t, sources[s], vr->info());
    acc.BeginFile(sources[s].name, *vr->info().op, vr->info().pair, sections[t].count);
    std::uint64_t left = reader.RecordsIn(t);  // answers in the file (fewer after a stop)
    std::uint64_t index = 0;
    while (!vr->done()) {
      const std::size_t n = vr->Read(records, 4096);
      KeepSectionRecords(records, index, sections[t].controls, left, positions);
      answers.resize(records.size());
      indices.resize(records.size());
      reader.Read(t, answers, indices);
      AddBatch(acc, t, sections[t], results, filter, records, positions, indices, answers,
               left_out);
      left -= records.size();
      index += n;
      if (stop(acc)) return acc.Finish();
    }
    generator::CheckSourceDigest(sources[s], *vr);
    CheckSectionDigest(sections[t], t, sources[s], vr->sha256());
    if (progress) PrintChecked(s, sources, index);
  }
  for (; next < sections.size(); ++next) SkipSection(reader, next);
  reader.Finish();
  export_file.Commit();
  CheckReport report = acc.Finish();
  report.notes = generator::UnverifiedCountNotes(sources);
  if (sources.size() < sections.size()) {
    report.notes.push_back("checked " + generator::Counted(sources.size(), "section") + " of " +
                           Str(sections.size()) + " in " + results.filename().string() +
                           ", those of " + vectors.Describe());
  }
  return Concluded(std::move(report), reader, vectors, results, filter, left_out, judge);
}

}  // namespace

namespace check_internal {

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

}  // namespace check_internal

CheckReport CheckResults(const generator::VectorSelection& vectors,
                         const std::filesystem::path& results, std::size_t max_report,
                         bool progress, const MismatchesOutput& mismatches,
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

}  // namespace ptovec::tools
