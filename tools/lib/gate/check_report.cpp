// The gate's text report (PrintReport); JUnit XML is in check_junit.cpp.
#include "ptovec/tools/check_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>

#include "gate/check_report_text.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

oracle::Edition ReportEdition(const CheckReport& r) {
  return r.per_file.empty() ? oracle::kDefaultEdition : r.per_file.front().op->edition;
}

namespace {

using check_report_text::MismatchText;
using check_report_text::ModeName;
using check_report_text::RuleScope;
using check_report_text::SetsText;
using text::ResultText;
using text::Str;
using text::TypeName;

// "in value=0x3e00 scale=0x3f800000"
std::string InputsText(const Case& c) {
  std::string out;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    out += (i == 0 ? "" : " ") + c.op->slots[i].name + "=" +
           generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return out;
}

// "RNE off, RTZ off" for a TriageGroup's control bits ("-" for an op without controls); a group
// has one Sat (its signature's).
std::string ControlsText(const OpDef& op, std::uint16_t controls) {
  if (!op.uses_controls) return "-";
  if (controls == 0x3FFF) return "every mode, Sat off and on";
  if (controls == 0x1555) return "every mode, Sat off";
  if (controls == 0x2AAA) return "every mode, Sat on";
  std::string out;
  for (std::size_t c = 0; c < 14; ++c) {
    if (((controls >> c) & 1U) == 0) continue;
    out += (out.empty() ? "" : ", ") + ModeName(c) + (c % 2 ? " on" : " off");
  }
  return out;
}

// " [words only: the status flags are not compared]" unless every bit is compared.
std::string PolicyNote(const CheckReport& r) {
  return r.judge.policy.full() ? std::string() : " [" + r.judge.policy.Describe() + "]";
}

// The failed vectors: mismatched, and unsupported unless --allow-unsupported.
std::uint64_t FailedCount(const CheckReport& r) {
  return r.mismatched + (r.allow_unsupported ? 0 : r.unsupported);
}

// The lines of a model deviation that waived nothing or met an open word.
void ModelRuleNotes(const KnownDifferenceRule& rule, const RuleTally& t,
                    std::vector<std::string>& notes) {
  const std::string name = rule.FullName();
  if (t.open_refused > 0) {
    notes.push_back("word left open: " + name + ": " + Str(t.open_refused) +
                    " mismatches have the model's status, but the model leaves their word open "
                    "and the policy does not compare every flag: not waived");
  }
  if (t.waived > 0) return;
  if (t.differs == 0) {
    notes.push_back("stale: " + name + " never differs from the profile on an answered vector" +
                    (t.differs_unsupported > 0
                         ? " (it would on " + Str(t.differs_unsupported) + " unsupported vectors)"
                         : std::string()));
  } else {
    notes.push_back("not followed: " + name + " differs from the profile on " + Str(t.differs) +
                    " answered vectors; the device gave another answer on every one");
  }
}

void PrintKnownDifferences(std::ostream& out, const CheckReport& r) {
  const auto& rules = r.judge.known.rules;
  if (rules.empty()) return;
  out << "known differences (" << SetsText(r) << "): " << r.waived
      << " mismatched vectors waived\n";
  std::vector<std::string> notes;
  std::vector<std::string> unused;
  for (std::size_t k = 0; k < rules.size(); ++k) {
    const RuleTally none;
    const RuleTally& t = k < r.rules.size() ? r.rules[k] : none;
    if (rules[k].model != kNoModel) ModelRuleNotes(rules[k], t, notes);
    if (t.waived == 0) {
      if (rules[k].model != kNoModel) continue;
      const std::uint64_t scope = RuleScope(r, rules[k]);
      if (scope > 0) {
        notes.push_back("stale rule: " + rules[k].FullName() + " (covers " + Str(scope) +
                        " vectors of this run, explains none)");
      } else {
        unused.push_back(rules[k].FullName());
      }
      continue;
    }
    out << "  " << std::setw(12) << t.waived << "  " << rules[k].FullName() << ": "
        << rules[k].reason;
    if (rules[k].model != kNoModel) {
      out << " (differs from the profile on " << Str(t.differs) << " answered vectors)";
    }
    out << "\n";
    if (t.first) {
      const Mismatch& m = *t.first;
      out << "                e.g. expected " << ResultText(m.expected, m.c.pair.dst) << ", got "
          << ResultText(m.got.result, m.c.pair.dst) << ": " << generator::EvalCommand(m.c) << "\n";
    }
  }
  for (const std::string& s : notes) out << "  " << s << "\n";
  if (!unused.empty()) {
    out << "  not applicable to the vectors of this run (op, types, mode or Sat):";
    for (const std::string& s : unused) out << " " << s;
    out << "\n";
  }
}

// The symptom groups of mismatched vectors in order of first sight, each in full however many
// there are (its controls, first vector and `ptovec eval` line), or with --max-report 0 only
// counts and signatures. Those of unsupported vectors are counted by pair (PrintUnsupportedByPair;
// each in the JSON report).
void PrintTriage(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  std::vector<const TriageGroup*> order;
  for (const TriageGroup& g : r.groups) {
    if (g.first.verdict != Verdict::Unsupported) order.push_back(&g);
  }
  if (order.empty()) return;
  out << "by failure signature (triage: " << generator::Counted(order.size(), "symptom group");
  if (order.size() < r.groups.size()) {
    out << "; " << r.groups.size() - order.size()
        << " more of unsupported vectors, counted by pair";
  }
  out << "; `ptovec shrink --signature TEXT` shrinks one):\n";
  for (std::size_t i = 0; i < order.size(); ++i) {
    const TriageGroup& g = *order[i];
    out << "  " << std::setw(12) << g.count << "  " << g.op->name << " " << TypeName(g.pair.src)
        << " -> " << TypeName(g.pair.dst) << ": " << SignatureText(*g.op, g.signature) << "\n";
    if (max_report == 0) continue;
    out << "                group #" << (&g - r.groups.data()) + 1 << " under "
        << ControlsText(*g.op, g.controls) << "; first " << g.first.file << " vector "
        << g.first.index << "\n";
    out << "                " << generator::EvalCommand(g.first.c) << "\n";
  }
}

// The second line: ptovec's version, the specification's edition, the vectors and their manifest.
void PrintEnvironment(std::ostream& out, const CheckReport& r) {
  out << "environment: ptovec " << PTOVEC_VERSION << ", spec edition "
      << oracle::EditionName(ReportEdition(r));
  const ReportEnvironment& e = r.environment;
  if (e.vectors.empty()) {  // run --exhaustive (or a library caller that did not say)
    out << "\n";
    return;
  }
  out << ", vectors " << e.vectors << " ("
      << (e.manifest_sha256 ? "manifest sha256 " + *e.manifest_sha256 : std::string("no manifest"))
      << ")\n";
}

// The first line: the totals, the device and how answers were compared.
void PrintTotals(std::ostream& out, const CheckReport& r) {
  out << "ptovec: " << generator::Counted(r.files, "file") << ", "
      << generator::Counted(r.vectors, "vector") << ": " << r.matched << " matched, ";
  if (!r.judge.known.empty()) out << r.waived << " waived, ";
  out << r.mismatched << " mismatched, " << r.unsupported << " unsupported";
  if (!r.device.empty()) out << " (device " << r.device << ")";
  out << PolicyNote(r) << "\n";
}

// The failures by kind, and the hint when the wrong statuses look bit-reversed.
void PrintKinds(std::ostream& out, const CheckReport& r) {
  out << "by kind: wrong word " << r.word << ", wrong flags " << r.flags << ", both " << r.both
      << ", unsupported " << r.unsupported << "\n";
  // Nearly every wrong status being the right one bit-reversed is a port in RISC-V order.
  // When none of them had two flags, the reversal is only NX for NV or NV for NX, which a real
  // fault gives too (a range test made before rounding says NV for -128.5 -> -128): say both.
  if (r.flags_reversed > 0 && r.flags_reversed * 10 >= r.flags * 9) {
    out << "hint: " << r.flags_reversed << " of the " << r.flags
        << " wrong-flags vectors hold the expected flags in reverse order (bit 0 NX .. bit 4 NV,"
           " as RISC-V fflags)";
    if (r.flags_reversed_two_bits > 0) {
      out << ": convert the device's status to ptovec's order (bit 0 NV .. bit 4 NX;"
             " docs/devices.md, Flag order)\n";
    } else {
      out << ", but each has one flag only (NV for NX, or NX for NV), which a real fault gives"
             " as well: if the device's status is in RISC-V order convert it (docs/devices.md,"
             " Flag order), else its NV and NX are wrong\n";
    }
  }
}

// The mismatches by op, types, mode and Sat: a row per control with a mismatch (the unsupported
// vectors are counted by pair: PrintUnsupportedByPair).
void PrintByControl(std::ostream& out, const CheckReport& r) {
  if (r.mismatched == 0) return;
  out << "by op, types, mode and Sat (the controls with a mismatch):\n";
  out << "  " << std::left << std::setw(9) << "op" << std::setw(6) << "src" << std::setw(6) << "dst"
      << std::setw(6) << "mode" << std::setw(5) << "sat" << std::right << std::setw(12) << "vectors"
      << std::setw(12) << "word" << std::setw(12) << "flags" << std::setw(12) << "both"
      << std::setw(12) << "unsupported"
      << "\n";
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < f.controls.size(); ++c) {
      const ControlTally& t = f.controls[c];
      if (t.word + t.flags + t.both == 0) continue;
      out << "  " << std::left << std::setw(9) << f.op->name << std::setw(6) << TypeName(f.pair.src)
          << std::setw(6) << TypeName(f.pair.dst) << std::setw(6)
          << (f.op->uses_controls ? ModeName(c) : "-") << std::setw(5)
          << (f.op->uses_controls ? (c % 2 ? "on" : "off") : "-") << std::right << std::setw(12)
          << t.total << std::setw(12) << t.word << std::setw(12) << t.flags << std::setw(12)
          << t.both << std::setw(12) << t.unsupported << "\n";
    }
  }
}

// The mismatches by input class and outcome, when a class has one: a row per such class.
void PrintByClass(std::ostream& out, const CheckReport& r) {
  const bool any_class_failed =
      std::any_of(r.per_file.begin(), r.per_file.end(), [](const FileTally& f) {
        return std::any_of(f.classes.begin(), f.classes.end(),
                           [](const auto& k) { return k[1] > 0; });
      });
  if (!any_class_failed) return;
  out << "by input class and outcome (the first input's value class; the expected flags):\n";
  out << "  " << std::left << std::setw(27) << "file" << std::setw(24) << "class" << std::right
      << std::setw(12) << "vectors" << std::setw(12) << "mismatched"
      << "\n";
  for (const FileTally& f : r.per_file) {
    for (std::size_t k = 0; k < f.classes.size(); ++k) {
      if (f.classes[k][1] == 0) continue;
      out << "  " << std::left << std::setw(26) << f.file.substr(0, f.file.rfind('.')) << " "
          << std::setw(24) << generator::VectorClassName(k) << std::right << std::setw(12)
          << f.classes[k][0] << std::setw(12) << f.classes[k][1]
          << (f.classes[k][1] == f.classes[k][0] ? "  (every one)" : "") << "\n";
    }
  }
}

// The first max_report failed vectors in full.
void PrintFirstFailures(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  const std::size_t shown = std::min(max_report, r.first.size());
  if (shown > 0) {
    out << "first " << shown << " of " << FailedCount(r)
        << (r.allow_unsupported ? " failed vectors (mismatched; unsupported ones are skipped):\n"
                                : " failed vectors (mismatched or unsupported):\n");
  }
  for (std::size_t i = 0; i < shown; ++i) {
    out << "  " << MismatchText(r.first[i], "    ");
  }
}

// The device failures, the incomplete run, the scope and the notes.
void PrintNotes(std::ostream& out, const CheckReport& r) {
  for (const std::string& f : r.device_failures) out << "DEVICE FAILED: " << f << "\n";
  if (!r.incomplete.empty()) out << "INCOMPLETE: " << r.incomplete << "\n";
  if (!r.scope.empty()) out << "scope: " << r.scope << "\n";
  if (!r.run_judged.empty()) out << "note: " << r.run_judged << "\n";
  for (const std::string& note : r.notes) out << "note: " << note << "\n";
}

// The last line: PASS (with what was waived or skipped) or FAIL and its counts.
void PrintVerdict(std::ostream& out, const CheckReport& r) {
  if (r.passed()) {
    std::string with;
    if (r.waived > 0) {
      with += Str(r.waived) + " mismatches waived by known differences (" + SetsText(r) + ")";
    }
    if (r.unsupported > 0) {
      with += (with.empty() ? "" : ", ") + Str(r.unsupported) +
              " unsupported vectors skipped (--allow-unsupported)";
    }
    out << "PASS";
    if (!r.judge.policy.full()) out << " (" << r.judge.policy.Describe() << ")";
    if (!with.empty()) {
      out << " with " << with << ": " << r.matched << " of " << r.vectors
          << " vectors checked and matched";
    }
    out << "\n";
    return;
  }
  out << "FAIL: " << r.mismatched << " mismatched, " << r.unsupported << " unsupported of "
      << generator::Counted(r.vectors, "vector")
      << (r.incomplete.empty() ? "" : " checked (incomplete run)");
  if (!r.device_failures.empty()) {
    out << ", the device failed on " << r.device_failures.size()
        << (r.device_failures.size() == 1 ? " case" : " cases");
  }
  if (r.waived > 0) out << " (" << r.waived << " more waived by known differences)";
  out << PolicyNote(r) << "\n";
}

}  // namespace

namespace check_report_text {

std::string ModeName(std::size_t control) {
  return std::string(
      oracle::RoundingModeName(static_cast<oracle::NumericRoundingMode>(control / 2)));
}

std::string MismatchText(const Mismatch& m, const std::string& indent) {
  const Case& c = m.c;
  std::string out = m.file + " vector " + Str(m.index) + ": " + c.op->name + " " +
                    TypeName(c.pair.src) + " -> " + TypeName(c.pair.dst) + " " +
                    std::string(oracle::RoundingModeName(c.control.rounding_mode)) +
                    " sat=" + (c.control.saturating ? "on" : "off") + " " + InputsText(c) + "\n";
  out += indent + "expected " + ResultText(m.expected, c.pair.dst) + ", got " +
         (m.got.supported ? ResultText(m.got.result, c.pair.dst) : std::string("unsupported")) +
         " [" + std::string(MismatchKindName(m.kind)) + "]\n";
  out += indent + generator::EvalCommand(c) + "\n";
  return out;
}

std::uint64_t RuleScope(const CheckReport& report, const KnownDifferenceRule& r) {
  std::uint64_t n = 0;
  for (const FileTally& f : report.per_file) {
    if (!r.AppliesTo(*f.op, f.pair)) continue;
    for (std::size_t c = 0; c < f.controls.size(); ++c) {
      if (!f.op->uses_controls) {
        n += f.controls[c].total;
        continue;
      }
      generator::NumericExecutionControl control;
      control.rounding_mode = static_cast<oracle::NumericRoundingMode>(c / 2);
      control.saturating = c % 2 == 1;
      if (r.AppliesTo(control)) n += f.controls[c].total;
    }
  }
  return n;
}

std::string SetsText(const CheckReport& r) {
  std::string out;
  for (const std::string& s : r.judge.known.sets) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace check_report_text

void PrintReport(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  PrintTotals(out, r);
  PrintEnvironment(out, r);
  PrintKnownDifferences(out, r);
  if (r.mismatched + r.unsupported > 0) {
    check_report_text::PrintCauses(out, r, max_report);
    PrintKinds(out, r);
    PrintByControl(out, r);
    check_report_text::PrintUnsupportedByPair(out, r);
    PrintByClass(out, r);
    PrintTriage(out, r, max_report);
    PrintFirstFailures(out, r, max_report);
  }
  check_report_text::PrintByPair(out, r);
  PrintShrunkSummary(out, r.shrunk);
  PrintNotes(out, r);
  PrintVerdict(out, r);
}

}  // namespace ptovec::tools
