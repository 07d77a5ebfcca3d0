// The gate's reports: the text report (PrintReport) and JUnit XML (JunitXml).
#include "ptovec/tools/check_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "ptovec/generator/writers.hpp"
#include "report_text.hpp"

namespace ptovec::tools {

namespace {

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

}  // namespace

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
  for (const std::string& f : r.device_failures) out << "DEVICE FAILED: " << f << "\n";
  if (!r.incomplete.empty()) out << "INCOMPLETE: " << r.incomplete << "\n";
  if (!r.scope.empty()) out << "scope: " << r.scope << "\n";
  if (r.passed() && r.unsupported > 0) {
    out << "PASS with " << r.unsupported
        << " unsupported vectors skipped (--allow-unsupported): " << r.matched << " of "
        << r.vectors << " vectors checked and matched\n";
  } else if (r.passed()) {
    out << "PASS\n";
  } else {
    out << "FAIL: " << r.mismatched << " mismatched, " << r.unsupported << " unsupported of "
        << r.vectors << " vectors" << (r.incomplete.empty() ? "" : " checked (incomplete run)");
    if (!r.device_failures.empty()) {
      out << ", the device failed on " << r.device_failures.size()
          << (r.device_failures.size() == 1 ? " case" : " cases");
    }
    out << "\n";
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
    for (std::size_t c = 0; c < (f.op->uses_controls ? 14U : 1U); ++c) {
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
    for (std::size_t c = 0; c < (f.op->uses_controls ? 14U : 1U); ++c) {
      if (listed(f, c) && skipped(f.controls[c])) ++skips, --failures;
    }
  }
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
