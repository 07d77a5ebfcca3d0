// The whole report as one JSON document (ReportJson, `--report-json`; schemas/report-format.md):
// the same causes, symptom groups, tallies and rules the text report prints (check_report.cpp,
// check_report_causes.cpp), in full whatever --max-report says.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gate/check_report_text.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/numeric.hpp"
#include "ptovec/tools/causes.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/diagnosis.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using J = nlohmann::ordered_json;
using check_report_text::ControlSetText;
using check_report_text::kControls;
using check_report_text::ModeName;
using check_report_text::PairTallies;
using check_report_text::PairTally;
using check_report_text::RuleScope;
using check_report_text::UnsupportedControls;
using text::TypeName;

// A string, or null when it is empty.
J StringOrNull(const std::string& s) { return s.empty() ? J(nullptr) : J(s); }

// A failed (or waived) vector: its file and record, its eval line (the case and the expected
// result), the device's answer, the kind of difference, the verdict and the input class.
J MismatchJson(const Mismatch& m) {
  return {{"file", m.file},
          {"index", m.index},
          {"eval_line", generator::EvalLineJson(m.c, m.expected)},
          {"got", AnswerJson(m.got, m.c.pair.dst)},
          {"kind", MismatchKindName(m.kind)},
          {"verdict", VerdictName(m.verdict)},
          {"class", generator::VectorClassName(m.vector_class)}};
}

J TotalsJson(const CheckReport& r) {
  return {{"files", r.files},
          {"vectors", r.vectors},
          {"matched", r.matched},
          {"mismatched", r.mismatched},
          {"waived", r.waived},
          {"unsupported", r.unsupported},
          {"word", r.word},
          {"flags", r.flags},
          {"both", r.both},
          {"flags_reversed", r.flags_reversed},
          {"flags_reversed_two_bits", r.flags_reversed_two_bits}};
}

J CausesJson(const CheckReport& r) {
  J causes = J::array();
  for (const Cause& c : Causes(r)) {
    J groups = J::array();
    for (const auto& [group, vectors] : c.groups) {
      groups.push_back({{"group", group + 1}, {"vectors", vectors}});
    }
    J equally = J::array();
    for (const std::size_t k : c.equally) equally.push_back(AllExplanations()[k].name);
    const Explanation* e = c.explanation ? &AllExplanations()[*c.explanation] : nullptr;
    causes.push_back({{"explanation", e ? J(e->name) : J(nullptr)},
                      {"text", c.text},
                      {"vectors", c.count},
                      {"symptom_groups", groups},
                      {"explained_as_well_by", equally},
                      {"models", e && e->fault ? J(e->fault->models) : J(nullptr)},
                      {"first", MismatchJson(c.first)},
                      {"eval", generator::EvalCommand(c.first.c)},
                      {"simplest", MismatchJson(c.simplest)},
                      {"simplest_eval", generator::EvalCommand(c.simplest.c)}});
  }
  return causes;
}

// The controls a triage group was seen under: {"rmode", "sat"} each, in control order ([] for an
// op without controls).
J GroupControlsJson(const TriageGroup& g) {
  J controls = J::array();
  if (!g.op->uses_controls) return controls;
  for (std::size_t c = 0; c < kControls; ++c) {
    if (((g.controls >> c) & 1U) == 0) continue;
    controls.push_back({{"rmode", ModeName(c)}, {"sat", c % 2 == 1}});
  }
  return controls;
}

J GroupsJson(const CheckReport& r) {
  J groups = J::array();
  for (std::size_t i = 0; i < r.groups.size(); ++i) {
    const TriageGroup& g = r.groups[i];
    groups.push_back({{"group", i + 1},
                      {"op", g.op->name},
                      {"src", TypeName(g.pair.src)},
                      {"dst", TypeName(g.pair.dst)},
                      {"signature", SignatureText(*g.op, g.signature)},
                      {"vectors", g.count},
                      {"skipped", g.first.verdict == Verdict::Unsupported && r.allow_unsupported},
                      {"controls", GroupControlsJson(g)},
                      {"first", MismatchJson(g.first)},
                      {"eval", generator::EvalCommand(g.first.c)}});
  }
  return groups;
}

// Every (file, mode, Sat) with vectors, in run order.
J PerControlJson(const CheckReport& r) {
  J rows = J::array();
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < f.controls.size(); ++c) {
      const ControlTally& t = f.controls[c];
      if (t.total == 0) continue;
      const bool controls = f.op->uses_controls;
      rows.push_back({{"file", f.file},
                      {"op", f.op->name},
                      {"src", TypeName(f.pair.src)},
                      {"dst", TypeName(f.pair.dst)},
                      {"rmode", controls ? J(ModeName(c)) : J(nullptr)},
                      {"sat", controls ? J(c % 2 == 1) : J(nullptr)},
                      {"vectors", t.total},
                      {"word", t.word},
                      {"flags", t.flags},
                      {"both", t.both},
                      {"unsupported", t.unsupported},
                      {"waived", t.waived}});
    }
  }
  return rows;
}

// What the text report says of a rule: "waived" (it waived vectors), "stale" (a model's deviation
// that never made the model differ on an answered vector, or a shape rule covering vectors of the
// run that waived none), "not followed" (the model differed, the device answered otherwise) or
// "not applicable" (a shape rule covering no vector of the run).
std::string RuleStatus(const CheckReport& r, const KnownDifferenceRule& rule, const RuleTally& t) {
  if (t.waived > 0) return "waived";
  if (rule.model != kNoModel) return t.differs == 0 ? "stale" : "not followed";
  return RuleScope(r, rule) > 0 ? "stale" : "not applicable";
}

J RulesJson(const CheckReport& r) {
  J rules = J::array();
  const auto& all = r.judge.known.rules;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const RuleTally none;
    const RuleTally& t = k < r.rules.size() ? r.rules[k] : none;
    const KnownDifferenceRule& rule = all[k];
    const bool model = rule.model != kNoModel;
    rules.push_back({{"name", rule.FullName()},
                     {"set", rule.set},
                     {"reason", rule.reason},
                     {"model", model},
                     {"status", RuleStatus(r, rule, t)},
                     {"waived", t.waived},
                     {"differs", model ? J(t.differs) : J(nullptr)},
                     {"differs_unsupported", model ? J(t.differs_unsupported) : J(nullptr)},
                     {"open_refused", model ? J(t.open_refused) : J(nullptr)},
                     {"scope", model ? J(nullptr) : J(RuleScope(r, rule))},
                     {"first", t.first ? MismatchJson(*t.first) : J(nullptr)}});
  }
  return rules;
}

// Every (op, pair) in run order with its counts (the text report's by-pair table).
J PairsJson(const std::vector<PairTally>& pairs) {
  J rows = J::array();
  for (const PairTally& p : pairs) {
    rows.push_back({{"op", p.op->name},
                    {"src", TypeName(p.pair.src)},
                    {"dst", TypeName(p.pair.dst)},
                    {"vectors", p.vectors},
                    {"matched", p.matched},
                    {"waived", p.waived},
                    {"failed", p.failed},
                    {"unsupported", p.unsupported}});
  }
  return rows;
}

// Each pair with unsupported vectors: how many, under which controls (the text report's line).
J UnsupportedJson(const std::vector<PairTally>& pairs) {
  J rows = J::array();
  for (const PairTally& p : pairs) {
    if (p.unsupported == 0) continue;
    J controls = J::array();
    for (std::size_t c = 0; c < kControls && p.op->uses_controls; ++c) {
      if (p.control_unsupported[c] == 0) continue;
      controls.push_back(
          {{"rmode", ModeName(c)}, {"sat", c % 2 == 1}, {"vectors", p.control_unsupported[c]}});
    }
    rows.push_back({{"op", p.op->name},
                    {"src", TypeName(p.pair.src)},
                    {"dst", TypeName(p.pair.dst)},
                    {"vectors", p.unsupported},
                    {"pair_vectors", p.vectors},
                    {"controls", controls},
                    {"controls_text",
                     p.op->uses_controls ? J(ControlSetText(UnsupportedControls(p))) : J(nullptr)},
                    {"symptom_groups", p.unsupported_groups}});
  }
  return rows;
}

// Every (file, input class and outcome) with a mismatched or unsupported vector, in run order and
// class order (the text report's by-class table: its mismatched rows).
J PerClassJson(const CheckReport& r) {
  J rows = J::array();
  for (const FileTally& f : r.per_file) {
    for (std::size_t k = 0; k < f.classes.size(); ++k) {
      if (f.classes[k][1] + f.classes[k][2] == 0) continue;
      rows.push_back({{"file", f.file},
                      {"op", f.op->name},
                      {"src", TypeName(f.pair.src)},
                      {"dst", TypeName(f.pair.dst)},
                      {"class", generator::VectorClassName(k)},
                      {"vectors", f.classes[k][0]},
                      {"mismatched", f.classes[k][1]},
                      {"unsupported", f.classes[k][2]}});
    }
  }
  return rows;
}

// The shrunk cases (shrink --from): each with the case it started from and its counterexample.
J ShrunkJson(const CheckReport& r) {
  J rows = J::array();
  for (std::size_t k = 0; k < r.shrunk.size(); ++k) {
    const ShrunkCase& s = r.shrunk[k];
    J found = nullptr;
    if (s.counterexample) {
      const Counterexample& cx = *s.counterexample;
      found = {{"eval_line", generator::EvalLineJson(cx.c, cx.expected)},
               {"got", AnswerJson(cx.got, cx.c.pair.dst)},
               {"eval", generator::EvalCommand(cx.c)},
               {"failure", StringOrNull(cx.failure)}};
    }
    rows.push_back({{"number", k + 1},
                    {"cause", s.cause ? J(*s.cause + 1) : J(nullptr)},
                    {"label", s.label},
                    {"minimum", s.minimum},
                    {"start", MismatchJson(s.start)},
                    {"counterexample", found},
                    {"file", StringOrNull(s.file)}});
  }
  return rows;
}

// ptovec's version, the specification's edition, the vectors and their manifest, the device and
// how its answers were judged.
J EnvironmentJson(const CheckReport& r) {
  const ReportEnvironment& e = r.environment;
  return {{"ptovec_version", PTOVEC_VERSION},
          {"spec_edition", oracle::EditionName(ReportEdition(r))},
          {"vectors", StringOrNull(e.vectors)},
          {"manifest_sha256", e.manifest_sha256 ? J(*e.manifest_sha256) : J(nullptr)},
          {"device", StringOrNull(r.device)},
          {"compare", r.judge.policy.Name()},
          {"known_differences", r.judge.known.sets}};
}

}  // namespace

nlohmann::ordered_json ReportJson(const CheckReport& r) {
  J j;
  j["format"] = "ptovec-report";
  j["version"] = kReportJsonVersion;
  j["device"] = StringOrNull(r.device);
  j["passed"] = r.passed();
  j["compare"] = r.judge.policy.Name();
  j["compare_description"] = r.judge.policy.Describe();
  j["known_differences"] = r.judge.known.sets;
  j["allow_unsupported"] = r.allow_unsupported;
  j["environment"] = EnvironmentJson(r);
  j["totals"] = TotalsJson(r);
  const std::vector<PairTally> pairs = PairTallies(r);
  j["pairs"] = PairsJson(pairs);
  j["unsupported"] = UnsupportedJson(pairs);
  j["causes"] = CausesJson(r);
  j["symptom_groups"] = GroupsJson(r);
  j["per_control"] = PerControlJson(r);
  j["per_class"] = PerClassJson(r);
  j["known_difference_rules"] = RulesJson(r);
  j["incomplete"] = StringOrNull(r.incomplete);
  j["scope"] = StringOrNull(r.scope);
  j["run_judged"] = StringOrNull(r.run_judged);
  j["device_failures"] = r.device_failures;
  j["notes"] = r.notes;
  j["shrunk"] = ShrunkJson(r);
  return j;
}

}  // namespace ptovec::tools
