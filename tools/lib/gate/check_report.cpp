// The gate's reports: the text report (PrintReport) and JUnit XML (JunitXml).
#include "ptovec/tools/check_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "ptovec/facts.h"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

// The controls of a file of an op that takes them (ptovec/facts.h); one otherwise.
constexpr std::size_t kControls = PTOVEC_FACTS_CONTROLS;

using text::ResultText;
using text::Seconds;
using text::Str;
using text::TypeName;

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
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&apos;";
        ++i;
        continue;
      default:
        break;
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

// "RNE off, RTZ off, RTZ on" for a TriageGroup's control bits ("-" for an op without controls).
std::string ControlsText(const OpDef& op, std::uint16_t controls) {
  if (!op.uses_controls) return "-";
  if (controls == 0x3FFF) return "every mode, Sat off and on";
  std::string out;
  for (std::size_t c = 0; c < 14; ++c) {
    if (((controls >> c) & 1U) == 0) continue;
    out += (out.empty() ? "" : ", ") + ModeName(c) + (c % 2 ? " on" : " off");
  }
  return out;
}

// The vectors of the report that rule `r`'s op, types, mode and Sat conditions cover.
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

// " [words only: the status flags are not compared]" unless every bit is compared.
std::string PolicyNote(const CheckReport& r) {
  return r.judge.policy.full() ? std::string() : " [" + r.judge.policy.Describe() + "]";
}

std::string SetsText(const CheckReport& r) {
  std::string out;
  for (const std::string& s : r.judge.known.sets) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// The failed vectors: mismatched, and unsupported unless --allow-unsupported.
std::uint64_t FailedCount(const CheckReport& r) {
  return r.mismatched + (r.allow_unsupported ? 0 : r.unsupported);
}

// Triage groups printed in full before the rest are summarised (every group's count is
// still printed: a small group is never folded into a large one).
constexpr std::size_t kGroupsInFull = 50;

void PrintKnownDifferences(std::ostream& out, const CheckReport& r) {
  const auto& rules = r.judge.known.rules;
  if (rules.empty()) return;
  out << "known differences (" << SetsText(r) << "): " << r.waived
      << " mismatched vectors waived\n";
  std::vector<std::string> stale;
  std::vector<std::string> unused;
  for (std::size_t k = 0; k < rules.size(); ++k) {
    const std::uint64_t waived = k < r.rules.size() ? r.rules[k].waived : 0;
    if (waived == 0) {
      const std::uint64_t scope = RuleScope(r, rules[k]);
      if (scope > 0) {
        stale.push_back(rules[k].FullName() + " (covers " + Str(scope) +
                        " vectors of this run, explains none)");
      } else {
        unused.push_back(rules[k].FullName());
      }
      continue;
    }
    out << "  " << std::setw(12) << waived << "  " << rules[k].FullName() << ": " << rules[k].reason
        << "\n";
    if (r.rules[k].first) {
      const Mismatch& m = *r.rules[k].first;
      out << "                e.g. expected " << ResultText(m.expected, m.c.pair.dst) << ", got "
          << ResultText(m.got.result, m.c.pair.dst) << ": " << generator::EvalCommand(m.c) << "\n";
    }
  }
  for (const std::string& s : stale) out << "  stale rule: " << s << "\n";
  if (!unused.empty()) {
    out << "  not applicable to the vectors of this run (op, types, mode or Sat):";
    for (const std::string& s : unused) out << " " << s;
    out << "\n";
  }
}

void PrintTriage(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  if (r.groups.empty()) return;
  out << "by failure signature (triage: one line per cause, " << r.groups.size()
      << (r.groups.size() == 1 ? " group" : " groups")
      << "; `ptovec shrink --signature TEXT` shrinks one):\n";
  // Failing groups in order of first sight, then the skipped ones (--allow-unsupported); past
  // kGroupsInFull, or with --max-report 0, only counts and signatures.
  std::vector<const TriageGroup*> order;
  for (const bool skipped_part : {false, true}) {
    for (const TriageGroup& g : r.groups) {
      const bool skipped = g.first.verdict == Verdict::Unsupported && r.allow_unsupported;
      if (skipped == skipped_part) order.push_back(&g);
    }
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const TriageGroup& g = *order[i];
    const bool skipped = g.first.verdict == Verdict::Unsupported && r.allow_unsupported;
    out << "  " << std::setw(12) << g.count << "  " << g.op->name << " " << TypeName(g.pair.src)
        << " -> " << TypeName(g.pair.dst) << ": " << SignatureText(*g.op, g.signature)
        << (skipped ? " (skipped: --allow-unsupported)" : "") << "\n";
    if (i >= kGroupsInFull || max_report == 0) continue;
    out << "                under " << ControlsText(*g.op, g.controls) << "; first " << g.first.file
        << " vector " << g.first.index << "\n";
    out << "                " << generator::EvalCommand(g.first.c) << "\n";
  }
}

}  // namespace

void PrintReport(std::ostream& out, const CheckReport& r, std::size_t max_report) {
  out << "ptovec: " << generator::Counted(r.files, "file") << ", "
      << generator::Counted(r.vectors, "vector") << ": " << r.matched << " matched, ";
  if (!r.judge.known.empty()) out << r.waived << " waived, ";
  out << r.mismatched << " mismatched, " << r.unsupported << " unsupported";
  if (!r.device.empty()) out << " (device " << r.device << ")";
  out << PolicyNote(r) << "\n";
  PrintKnownDifferences(out, r);
  if (r.mismatched + r.unsupported > 0) {
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
    out << "by op, types, mode and Sat:\n";
    out << "  " << std::left << std::setw(9) << "op" << std::setw(6) << "src" << std::setw(6)
        << "dst" << std::setw(6) << "mode" << std::setw(5) << "sat" << std::right << std::setw(12)
        << "vectors" << std::setw(12) << "word" << std::setw(12) << "flags" << std::setw(12)
        << "both" << std::setw(12) << "unsupported"
        << "\n";
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
    const bool any_class_failed =
        std::any_of(r.per_file.begin(), r.per_file.end(), [](const FileTally& f) {
          return std::any_of(f.classes.begin(), f.classes.end(),
                             [](const auto& k) { return k[1] > 0; });
        });
    if (any_class_failed) {
      out << "by input class and outcome (the first input's value class; the expected flags):\n";
      out << "  " << std::left << std::setw(27) << "file" << std::setw(24) << "class" << std::right
          << std::setw(12) << "vectors" << std::setw(12) << "failed"
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
    PrintTriage(out, r, max_report);
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
  for (const std::string& f : r.device_failures) out << "DEVICE FAILED: " << f << "\n";
  if (!r.incomplete.empty()) out << "INCOMPLETE: " << r.incomplete << "\n";
  if (!r.scope.empty()) out << "scope: " << r.scope << "\n";
  if (!r.run_judged.empty()) out << "note: " << r.run_judged << "\n";
  for (const std::string& note : r.notes) out << "note: " << note << "\n";
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
  } else {
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
}

std::string JunitXml(const CheckReport& r) {
  std::ostringstream x;
  std::uint64_t tests = 0;
  std::uint64_t failures = 0;
  // A control without vectors (a run filtered by --rmode/--sat) has no test case.
  const auto listed = [](const FileTally& f, std::size_t c) {
    return f.controls[c].total > 0 || f.count == 0;
  };
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < (f.op->uses_controls ? kControls : 1U); ++c) {
      if (!listed(f, c)) continue;
      ++tests;
      if (f.controls[c].failed() > 0) ++failures;
    }
  }
  if (!r.incomplete.empty()) ++tests, ++failures;
  tests += r.device_failures.size();
  // With --allow-unsupported a test case whose only failures are unsupported vectors is skipped.
  const auto skipped = [&r](const ControlTally& t) {
    return r.allow_unsupported && t.unsupported > 0 && t.failed() == t.unsupported;
  };
  std::uint64_t skips = 0;
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < (f.op->uses_controls ? kControls : 1U); ++c) {
      if (listed(f, c) && skipped(f.controls[c])) ++skips, --failures;
    }
  }
  // How the answers were judged, in every file's <properties>: a words-only pass is never
  // mistaken for a full one.
  std::string properties = "    <properties>\n      <property name=\"ptovec.compare\" value=\"" +
                           XmlEscape(r.judge.policy.Name()) + "\"/>\n";
  properties += "      <property name=\"ptovec.compare.description\" value=\"" +
                XmlEscape(r.judge.policy.Describe()) + "\"/>\n";
  properties += "      <property name=\"ptovec.known_differences\" value=\"" +
                XmlEscape(SetsText(r)) + "\"/>\n";
  properties += "      <property name=\"ptovec.waived\" value=\"" + Str(r.waived) + "\"/>\n";
  properties += "      <property name=\"ptovec.allow_unsupported\" value=\"" +
                std::string(r.allow_unsupported ? "true" : "false") + "\"/>\n    </properties>\n";
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"ptovec\" tests=\"" << tests << "\" failures=\"" << failures
    << "\" errors=\"" << r.device_failures.size() << "\" skipped=\"" << skips << "\" time=\""
    << Seconds([&r] {
         double total = 0;
         for (const FileTally& f : r.per_file) total += f.seconds;
         return total;
       }())
    << "\">\n";
  for (const FileTally& f : r.per_file) {
    const std::size_t n = f.op->uses_controls ? kControls : 1U;
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
    x << properties;
    for (std::size_t c = 0; c < n; ++c) {
      if (!listed(f, c)) continue;
      const ControlTally& t = f.controls[c];
      const std::string name = f.op->uses_controls ? ModeName(c) + (c % 2 ? " sat=on" : " sat=off")
                                                   : std::string("RNE sat=off (no controls)");
      x << "    <testcase classname=\"ptovec." << XmlEscape(stem) << "\" name=\"" << XmlEscape(name)
        << "\" time=\""
        << Seconds(f.count == 0
                       ? 0.0
                       : f.seconds * static_cast<double>(t.total) / static_cast<double>(f.count))
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
  if (!r.device_failures.empty()) {
    x << "  <testsuite name=\"device\" tests=\"" << r.device_failures.size()
      << "\" failures=\"0\" errors=\"" << r.device_failures.size()
      << "\" skipped=\"0\" time=\"0\">\n";
    for (std::size_t i = 0; i < r.device_failures.size(); ++i) {
      const std::string& f = r.device_failures[i];
      x << "    <testcase classname=\"ptovec.device\" name=\"failure " << i + 1
        << "\" time=\"0\">\n      <error type=\"device-failure\" message=\"" << XmlEscape(f)
        << "\">" << XmlEscape(f) << "</error>\n    </testcase>\n";
    }
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace ptovec::tools
