// `ptovec shrink --from RESULTS`: the vector files a results file answers, the failures to start
// from (the first of each (op, pair), or of each cause) and the descent from each.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/causes.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::tools {

namespace {

using generator::InputError;

// Throws InputError unless `results` is a regular file.
void RequireResultsFile(const std::filesystem::path& results) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(results, error)) {
    throw InputError(
        "--from " + results.string() + " " +
        (std::filesystem::exists(results, error) ? "is not a regular file" : "does not exist") +
        " (expected the results file of a `ptovec run`)");
  }
}

// Where the vector files are looked for, and the words naming it in an error.
struct VectorPlaces {
  std::vector<std::filesystem::path> places;
  std::string where;
};

VectorPlaces PlacesFor(const std::filesystem::path& results, const ResultsReader& reader,
                       const std::string& vectors) {
  VectorPlaces v;
  if (!vectors.empty()) {
    v.places = {vectors};
    v.where = "--vectors " + vectors;
  } else if (!reader.vectors().empty()) {
    v.places = reader.vectors();
    for (const auto& p : v.places) v.where += (v.where.empty() ? "" : ", ") + p.string();
    v.where = "the vectors its header names (" + v.where + ")";
  } else {
    v.places = {results.parent_path().empty() ? std::filesystem::path(".") : results.parent_path()};
    v.where = "its folder " + v.places.front().string() + " (its header names no vectors)";
  }
  return v;
}

// The file named `file` among the places: in a folder, or a place that is the file itself.
std::optional<std::filesystem::path> FindVectorFile(const VectorPlaces& v,
                                                    const std::string& file) {
  std::error_code error;
  for (const std::filesystem::path& place : v.places) {
    if (std::filesystem::is_directory(place, error)) {
      if (std::filesystem::is_regular_file(place / file, error)) return place / file;
    } else if (place.filename() == file) {
      return place;
    }
  }
  return std::nullopt;
}

// True when the filter selects failure `m` (its op and types).
bool Selects(const ShrinkFromFilter& filter, const OpDef* op, TypePair pair) {
  return (filter.op == nullptr || op == filter.op) && (!filter.src || pair.src == *filter.src) &&
         (!filter.dst || pair.dst == *filter.dst);
}

// Adds a start of --triage.
void AddTriageStart(ShrinkStarts& s, const Mismatch& m, std::optional<std::size_t> cause,
                    std::optional<std::string> signature, std::optional<std::size_t> explanation,
                    std::string label) {
  s.starts.push_back(m);
  s.causes.push_back(cause);
  s.signatures.push_back(std::move(signature));
  s.explanations.push_back(explanation);
  s.labels.push_back(std::move(label));
}

// The --triage starts: the first vector of each cause, then of each unsupported group.
void AddTriageStarts(ShrinkStarts& s, const ShrinkFromFilter& filter, const Judge& judge) {
  const std::vector<Cause> causes = Causes(s.report);
  for (std::size_t k = 0; k < causes.size(); ++k) {
    const Cause& cause = causes[k];
    const Mismatch& m = cause.first;
    if (!Selects(filter, m.c.op, m.c.pair)) continue;
    if (!judge.Counts(m.c, m.expected, m.got)) continue;  // --signature, --class
    std::string label = "cause " + std::to_string(k + 1) + " of " + std::to_string(causes.size()) +
                        ": " + (cause.explanation ? "" : "unexplained: ") + cause.text + " (" +
                        generator::Counted(cause.count, "vector") + ")";
    std::optional<std::string> signature;
    if (!cause.explanation) signature = SignatureText(*m.c.op, m.signature);
    AddTriageStart(s, m, k, signature, cause.explanation, std::move(label));
  }
  for (const TriageGroup& g : s.report.groups) {
    const Mismatch& m = g.first;
    if (m.verdict != Verdict::Unsupported || judge.allow_unsupported) continue;
    if (!Selects(filter, m.c.op, m.c.pair) || !judge.Counts(m.c, m.expected, m.got)) continue;
    const std::string text = SignatureText(*m.c.op, m.signature);
    AddTriageStart(s, m, std::nullopt, text, std::nullopt, "unsupported group: " + text);
  }
}

// Adds group `m` to the starts: the first of its (op, pair), a wrong answer of the pair taking the
// place of an unsupported one.
void AddStart(ShrinkStarts& s, const Mismatch& m) {
  const auto earlier = std::find_if(s.starts.begin(), s.starts.end(), [&](const Mismatch& f) {
    return f.c.op == m.c.op && f.c.pair.Whole() == m.c.pair.Whole();
  });
  if (earlier == s.starts.end()) {
    s.starts.push_back(m);
    s.causes.emplace_back();
    s.signatures.emplace_back();
    s.explanations.emplace_back();
    s.labels.emplace_back();
  } else if (earlier->verdict == Verdict::Unsupported && m.verdict != Verdict::Unsupported) {
    *earlier = m;  // a wrong answer of the pair before an unsupported one
  }
}

// Throws InputError when the filter names no section of the results file.
void RequireSelectedSection(const CheckReport& report, const ShrinkFromFilter& filter,
                            const std::filesystem::path& results) {
  std::string listed;
  bool any = false;
  for (const FileTally& f : report.per_file) {
    const std::string name = f.op->name + " " + std::string(oracle::Format(f.pair.src).name) +
                             " -> " + std::string(oracle::Format(f.pair.dst).name);
    if (listed.find(name) == std::string::npos) listed += (listed.empty() ? "" : ", ") + name;
    if (Selects(filter, f.op, f.pair)) any = true;
  }
  if (any) return;
  std::string wanted = filter.op ? filter.op->name : std::string("any op");
  if (filter.src || filter.dst) {
    wanted += " " + (filter.src ? std::string(oracle::Format(*filter.src).name) : "any") + " -> " +
              (filter.dst ? std::string(oracle::Format(*filter.dst).name) : "any");
  }
  throw InputError("no section for " + wanted + " in " + results.string() +
                   " (sections: " + (listed.empty() ? std::string("none") : listed) + ")");
}

}  // namespace

generator::VectorSelection ShrinkFromVectors(const std::filesystem::path& results,
                                             const std::string& vectors) {
  RequireResultsFile(results);
  const ResultsReader reader(results);
  const VectorPlaces v = PlacesFor(results, reader, vectors);
  generator::VectorSelection selection;
  for (const ResultsSection& section : reader.sections()) {
    const std::optional<std::filesystem::path> found = FindVectorFile(v, section.file);
    if (!found) {
      throw InputError("--from " + results.string() + " answers vector file " + section.file +
                       ", which is not in " + v.where +
                       ": give shrink --vectors the folder or file the run read");
    }
    selection.paths.push_back(*found);
  }
  if (selection.paths.empty()) {
    throw InputError("--from " + results.string() + " answers no vector file (nothing to shrink)");
  }
  return selection;
}

ShrinkStarts FindShrinkStarts(const generator::VectorSelection& vectors,
                              const std::filesystem::path& results, const ShrinkFromFilter& filter,
                              const Judge& judge, const generator::ControlFilter& controls) {
  // Every failure of the results file as the judge sees it, grouped by triage signature.
  ShrinkStarts s;
  Judge checking = judge;
  checking.diagnose = filter.triage;  // the causes are the --triage starts
  s.report = CheckResults(vectors, results, 0, false, {}, controls, checking);
  if (filter.triage) {
    AddTriageStarts(s, filter, judge);
  } else {
    for (const TriageGroup& g : s.report.groups) {
      const Mismatch& m = g.first;
      if (m.verdict == Verdict::Unsupported && judge.allow_unsupported) continue;
      if (!Selects(filter, m.c.op, m.c.pair)) continue;
      if (!judge.Counts(m.c, m.expected, m.got)) continue;  // --signature, --class
      AddStart(s, m);
    }
  }
  s.failures = s.report.mismatched + (judge.allow_unsupported ? 0 : s.report.unsupported);
  if (s.starts.empty() && filter.filtered()) RequireSelectedSection(s.report, filter, results);
  return s;
}

std::vector<ShrinkResult> ShrinkEachStart(Device& device, const ShrinkStarts& starts,
                                          const std::filesystem::path& results, const Judge& judge,
                                          const generator::ControlFilter& controls) {
  std::vector<ShrinkResult> shrunk;
  for (std::size_t k = 0; k < starts.starts.size(); ++k) {
    // Over the whole pair: a split pair's file group (OpDef::file_groups) is a file's, not a
    // bound on the search.
    generator::Case c = starts.starts[k].c;
    c.pair = c.pair.Whole();
    Judge group_judge = judge;
    if (starts.signatures[k]) group_judge.signature = starts.signatures[k];
    if (starts.explanations[k]) group_judge.explanation = starts.explanations[k];
    shrunk.push_back(ShrinkFrom(device, c, 100000, group_judge, controls));
  }
  device.Close();  // a device that fails at its end is an error, whatever it answered
  if (std::none_of(shrunk.begin(), shrunk.end(), [](const auto& r) { return r.failed; })) {
    // Nothing was reproduced: there is nothing to report but that.
    const Mismatch& m = starts.starts.front();
    const std::size_t n = starts.starts.size();
    // Results of another device say nothing of this one: name both (the usual cause).
    const std::string& by = starts.report.device;
    const std::string other =
        by.empty() || by == device.Name()
            ? std::string()
            : "; the results are of device " + by + ", not " + device.Name() +
                  " (--dut): `ptovec run --dut` this device first to shrink its failures";
    throw InputError(
        "the device now agrees with the oracle on " +
        (n == 1 ? std::string("the mismatch") : "all " + std::to_string(n) + " first mismatches") +
        " of " + results.string() + " (not reproducible; first: " + m.file + " vector " +
        std::to_string(m.index) + ", " + generator::EvalCommand(m.c) + ")" + other);
  }
  return shrunk;
}

}  // namespace ptovec::tools
