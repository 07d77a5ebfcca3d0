// The conformance gate's tally (CheckAccumulator): answers judged against expected vectors file
// by file (matched, mismatched, waived by a known difference, unsupported; per control and
// outcome class; triage groups), reports of parts added together (AppendReport), and the exit
// status of a report.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec_dut.h"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using text::Str;
using text::TypeName;

using generator::VectorRecord;

std::size_t ControlIndex(const Case& c) {
  if (!c.op->uses_controls) return 0;
  return static_cast<std::size_t>(c.control.rounding_mode) * 2 + (c.control.saturating ? 1 : 0);
}

// How a failed answer differs: unsupported, or its word, its compared flags or both.
MismatchKind KindOf(Verdict verdict, const Encoded& expected, const DeviceAnswer& got,
                    const ComparePolicy& policy) {
  if (verdict == Verdict::Unsupported) return MismatchKind::Unsupported;
  const bool word = got.result.word != expected.word;
  const bool flags = ((got.result.status ^ expected.status) & policy.flags) != 0;
  return word && flags ? MismatchKind::Both : word ? MismatchKind::Word : MismatchKind::Flags;
}

// Counts a mismatch by kind; a wrong status that is the right one bit-reversed (RISC-V order)
// counts toward the report's hint.
void CountMismatch(CheckReport& report, ControlTally& tally, MismatchKind kind,
                   const Encoded& expected, const DeviceAnswer& got) {
  ++report.mismatched;
  switch (kind) {
    case MismatchKind::Both:
      ++tally.both, ++report.both;
      break;
    case MismatchKind::Word:
      ++tally.word, ++report.word;
      break;
    default:
      ++tally.flags, ++report.flags;
      if (got.result.status ==
          ptovec_dut_flags_to_spec(expected.status, PTOVEC_DUT_FLAG_ORDER_RISCV)) {
        ++report.flags_reversed;
        // NX alone reversed is NV alone, which a real bug gives too; two bits are evidence.
        if (std::popcount(static_cast<unsigned>(expected.status)) >= 2) {
          ++report.flags_reversed_two_bits;
        }
      }
      break;
  }
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

CheckAccumulator::CheckAccumulator(std::size_t max_report, MismatchSink every, Judge judge)
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
  std::size_t rule = kNoRule;
  const Verdict verdict = report_.judge.Of(c, input_class_, expected, got, &rule);
  Encoded base = expected;
  if (!report_.judge.known.models.empty()) base = TallyModels(c, expected, verdict, got);
  if (verdict == Verdict::Match) {
    ++report_.matched;
    if (tally.matched_samples.size() < kDiagnosisMatchedSamples) {
      tally.matched_samples.emplace_back(c, expected);
    }
    return;
  }
  const Judged j{index,
                 c,
                 expected,
                 got,
                 KindOf(verdict, expected, got, report_.judge.policy),
                 vector_class,
                 verdict,
                 rule,
                 input_class_,
                 base};
  CountFailure(j, tally);
  if (defer_) {
    deferred_.push_back(j);
  } else {
    Record(j, tally);
  }
}

void CheckAccumulator::CountFailure(const Judged& j, ControlTally& tally) {
  if (j.verdict == Verdict::Unsupported) {
    ++tally.unsupported;
    ++report_.unsupported;
  }
  if (j.verdict == Verdict::Waived) {
    ++tally.waived;
    ++report_.waived;
    ++report_.rules[j.rule].waived;
    return;
  }
  if (j.verdict == Verdict::Mismatch) CountMismatch(report_, tally, j.kind, j.expected, j.got);
  ++report_.per_file.back().classes[j.vector_class][j.verdict == Verdict::Mismatch ? 1 : 2];
}

void CheckAccumulator::Record(const Judged& j, ControlTally& tally) {
  if (j.verdict == Verdict::Waived) {
    AddWaived(j);
  } else {
    AddFailure(j, tally);
  }
}

Mismatch CheckAccumulator::MismatchOf(const Judged& j, std::size_t rule, Signature signature,
                                      std::string rule_name) const {
  return Mismatch{report_.per_file.back().file,
                  report_.per_file.size() - 1,
                  j.index,
                  j.c,
                  j.expected,
                  j.got,
                  j.kind,
                  j.vector_class,
                  j.verdict,
                  rule,
                  std::move(signature),
                  std::move(rule_name)};
}

void CheckAccumulator::AddWaived(const Judged& j) {
  RuleTally& r = report_.rules[j.rule];
  if (r.first && !every_.call) return;
  Mismatch m = MismatchOf(j, j.rule, {}, report_.judge.known.rules[j.rule].FullName());
  if (every_.call) every_.call(m);
  if (!r.first) r.first = std::move(m);
}

Encoded CheckAccumulator::TallyModels(const Case& c, const Encoded& expected, Verdict verdict,
                                      const DeviceAnswer& got) {
  const Judge& judge = report_.judge;
  Encoded base = expected;
  for (const KnownModel& m : judge.known.models) {
    const oracle::ModelAnswer a =
        generator::EvaluateModel(*c.op, c.pair, c.in, c.control, m.behaviour);
    if (&m == &judge.known.models.front()) base = Judge::DiagnosisBaseOf(a, expected);
    for (std::size_t d = 0; d < m.rule.size(); ++d) {
      if (((a.applied >> d) & 1U) == 0 || m.rule[d] == kNoRule) continue;
      RuleTally& t = report_.rules[m.rule[d]];
      ++(verdict == Verdict::Unsupported ? t.differs_unsupported : t.differs);
    }
    if (verdict == Verdict::Mismatch && a.applied != 0 && a.word_open && !judge.policy.full() &&
        judge.policy.FlagsMatch(a.result.status, got.result.status)) {
      ++report_.rules[m.rule[static_cast<std::size_t>(std::countr_zero(a.applied))]].open_refused;
    }
  }
  return base;
}

void CheckAccumulator::AddFailure(const Judged& j, ControlTally& tally) {
  const Case& c = j.c;
  const bool failed = j.verdict == Verdict::Mismatch || !report_.judge.allow_unsupported;
  const Signature signature =
      SignatureOf(c, j.input_class, j.expected, j.got, report_.judge.policy);
  const auto key = std::make_tuple(c.op, c.pair.src, c.pair.dst, signature);
  auto group = group_of_.find(key);
  const std::uint16_t control_bit =
      static_cast<std::uint16_t>(1U << (static_cast<unsigned>(c.control.rounding_mode) * 2 +
                                        (c.control.saturating ? 1U : 0U)));
  const bool new_group = group == group_of_.end();
  const std::size_t group_index = new_group ? report_.groups.size() : group->second;
  const bool keep_first = failed && report_.first.size() < max_report_;
  const bool keep_example = failed && tally.examples.size() < kJunitExamples;
  // --mismatches: unsupported vectors only when asked (--mismatches-unsupported).
  const bool export_it = every_.call && (j.verdict != Verdict::Unsupported || every_.unsupported);
  if (!new_group) {
    TriageGroup& g = report_.groups[group_index];
    ++g.count;
    g.controls |= control_bit;
    if (j.verdict == Verdict::Mismatch && report_.judge.diagnose)
      Diagnose(j, group_index, signature);
    if (!keep_first && !keep_example && !export_it) return;
  }
  Mismatch m = MismatchOf(j, kNoRule, signature, {});
  if (new_group) {
    group_of_.emplace(key, group_index);
    report_.groups.push_back(TriageGroup{c.op, c.pair.Whole(), signature, 1, control_bit, m});
    if (j.verdict == Verdict::Mismatch && report_.judge.diagnose)
      Diagnose(j, group_index, signature);
  }
  if (export_it) every_.call(m);
  if (keep_example) tally.examples.push_back(m);
  if (keep_first) report_.first.push_back(std::move(m));
}

void CheckAccumulator::Diagnose(const Judged& j, std::size_t group, const Signature& signature) {
  const ExplanationSet explains =
      diagnoser_.Ask(group, j.c, j.expected, j.got, report_.judge.policy, j.base);
  if (cells_of_.size() <= group) cells_of_.resize(group + 1);
  for (const auto& [set, cell] : cells_of_[group]) {
    if (set == explains) {
      ++report_.cells[cell].count;
      return;
    }
  }
  cells_of_[group].emplace_back(explains, report_.cells.size());
  report_.cells.push_back(DiagnosisCell{explains, group, 1, MismatchOf(j, kNoRule, signature, {})});
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
        ControlTally& sampled = file.controls[tally_of[c]];
        if (sampled.matched_samples.size() < kDiagnosisMatchedSamples) {
          sampled.matched_samples.emplace_back(Case{&op, pair, controls[c], inputs[i]},
                                               expected[j]);
        }
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
  for (auto& sample : later.matched_samples) {
    if (matched_samples.size() < kDiagnosisMatchedSamples) matched_samples.push_back(sample);
  }
}

CheckAccumulator CheckAccumulator::Part() const {
  CheckAccumulator part(0, {}, report_.judge);
  part.defer_ = true;
  const FileTally& file = report_.per_file.back();
  part.BeginFile(file.file, *file.op, file.pair, 0);
  return part;
}

void CheckAccumulator::Join(CheckAccumulator& part) {
  CheckReport& p = part.report_;
  AddCounts(report_, p);
  FileTally& file = report_.per_file.back();
  AddFileCounts(file, std::move(p.per_file.back()));
  for (std::size_t k = 0; k < p.rules.size(); ++k) report_.rules[k].Add(std::move(p.rules[k]));
  for (const Judged& j : part.deferred_) Record(j, file.controls[ControlIndex(j.c)]);
  part.deferred_.clear();
  // The part, empty again: its judge and file kept.
  CheckReport empty;
  empty.judge = std::move(p.judge);
  empty.allow_unsupported = p.allow_unsupported;
  empty.rules.resize(p.rules.size());
  FileTally& was = p.per_file.back();
  FileTally t;
  t.file = std::move(was.file);
  t.op = was.op;
  t.pair = was.pair;
  empty.per_file.push_back(std::move(t));
  empty.files = 1;
  p = std::move(empty);
}

void AddCounts(CheckReport& total, const CheckReport& part) {
  total.vectors += part.vectors;
  total.matched += part.matched;
  total.mismatched += part.mismatched;
  total.unsupported += part.unsupported;
  total.waived += part.waived;
  total.word += part.word;
  total.flags += part.flags;
  total.flags_reversed += part.flags_reversed;
  total.flags_reversed_two_bits += part.flags_reversed_two_bits;
  total.both += part.both;
}

void AddFileCounts(FileTally& total, FileTally&& part) {
  for (std::size_t k = 0; k < part.classes.size(); ++k) {
    for (std::size_t n = 0; n < part.classes[k].size(); ++n)
      total.classes[k][n] += part.classes[k][n];
  }
  for (std::size_t c = 0; c < part.controls.size(); ++c) {
    total.controls[c].Add(std::move(part.controls[c]));
  }
}

void AppendReport(CheckReport& total, CheckReport&& part, std::size_t max_report) {
  AddCounts(total, part);
  for (FileTally& f : part.per_file) {
    auto it = std::find_if(total.per_file.begin(), total.per_file.end(),
                           [&](const FileTally& t) { return t.file == f.file; });
    if (it == total.per_file.end()) {
      total.per_file.push_back(std::move(f));
      ++total.files;
      continue;
    }
    it->seconds += f.seconds;
    AddFileCounts(*it, std::move(f));
  }
  for (Mismatch& m : part.first) {
    if (total.first.size() < max_report) total.first.push_back(std::move(m));
  }
  if (total.rules.size() < part.rules.size()) total.rules.resize(part.rules.size());
  for (std::size_t k = 0; k < part.rules.size(); ++k) total.rules[k].Add(std::move(part.rules[k]));
  std::vector<std::size_t> group_in_total;  // part's group k is total's group_in_total[k]
  for (TriageGroup& g : part.groups) {
    auto it = std::find_if(total.groups.begin(), total.groups.end(), [&](const TriageGroup& t) {
      return t.op == g.op && t.pair == g.pair && t.signature == g.signature;
    });
    group_in_total.push_back(static_cast<std::size_t>(it - total.groups.begin()));
    if (it == total.groups.end()) {
      total.groups.push_back(std::move(g));
    } else {
      it->count += g.count;
      it->controls |= g.controls;
    }
  }
  for (DiagnosisCell& cell : part.cells) {
    cell.group = group_in_total[cell.group];
    auto it = std::find_if(total.cells.begin(), total.cells.end(), [&](const DiagnosisCell& t) {
      return t.group == cell.group && t.explains == cell.explains;
    });
    if (it == total.cells.end()) {
      total.cells.push_back(std::move(cell));
    } else {
      it->count += cell.count;
    }
  }
}

int ExitStatusFor(const CheckReport& report) { return report.passed() ? 0 : 1; }

}  // namespace ptovec::tools
