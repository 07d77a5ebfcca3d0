// The gate's JUnit XML report (JunitXml, check_report.hpp): a <testsuite> per vector file with a
// <testcase> per control and its vectors by verdict as properties, and one for an incomplete run
// and for each device failure.
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "gate/check_report_text.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace {

using check_report_text::MismatchText;
using check_report_text::ModeName;
using check_report_text::SetsText;
using text::Seconds;
using text::Str;

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

// A control without vectors (a run filtered by --rmode/--sat) has no test case.
bool Listed(const FileTally& f, std::size_t c) { return f.controls[c].total > 0 || f.count == 0; }

// With --allow-unsupported a test case whose only failures are unsupported vectors is skipped.
bool Skipped(const CheckReport& r, const ControlTally& t) {
  return r.allow_unsupported && t.unsupported > 0 && t.failed() == t.unsupported;
}

struct JunitCounts {
  std::uint64_t tests = 0;
  std::uint64_t failures = 0;
  std::uint64_t skips = 0;
};

// The counts of <testsuites>: a test case per listed control, one for an incomplete run, one
// per device failure.
JunitCounts JunitTotals(const CheckReport& r) {
  JunitCounts n;
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < (f.op->uses_controls ? check_report_text::kControls : 1U); ++c) {
      if (!Listed(f, c)) continue;
      ++n.tests;
      if (f.controls[c].failed() > 0) ++n.failures;
    }
  }
  if (!r.incomplete.empty()) ++n.tests, ++n.failures;
  n.tests += r.device_failures.size();
  for (const FileTally& f : r.per_file) {
    for (std::size_t c = 0; c < (f.op->uses_controls ? check_report_text::kControls : 1U); ++c) {
      if (Listed(f, c) && Skipped(r, f.controls[c])) ++n.skips, --n.failures;
    }
  }
  return n;
}

// How the answers were judged, the same in every file's <properties>: a words-only pass is
// never mistaken for a full one.
std::string JunitRunProperties(const CheckReport& r) {
  std::string properties = "      <property name=\"ptovec.compare\" value=\"" +
                           XmlEscape(r.judge.policy.Name()) + "\"/>\n";
  properties += "      <property name=\"ptovec.compare.description\" value=\"" +
                XmlEscape(r.judge.policy.Describe()) + "\"/>\n";
  properties += "      <property name=\"ptovec.known_differences\" value=\"" +
                XmlEscape(SetsText(r)) + "\"/>\n";
  properties += "      <property name=\"ptovec.allow_unsupported\" value=\"" +
                std::string(r.allow_unsupported ? "true" : "false") + "\"/>\n";
  return properties;
}

// The vectors of file f by verdict, each a <property> of its <testsuite>: over the suites they
// add up to the run's totals. `failed` counts the vectors that fail the gate (mismatched, and
// unsupported unless --allow-unsupported).
std::string JunitFileProperties(const CheckReport& r, const FileTally& f) {
  std::uint64_t vectors = 0, mismatched = 0, waived = 0, unsupported = 0;
  for (const ControlTally& t : f.controls) {
    vectors += t.total;
    mismatched += t.word + t.flags + t.both;
    waived += t.waived;
    unsupported += t.unsupported;
  }
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"vectors", vectors},
      {"matched", vectors - mismatched - waived - unsupported},
      {"mismatched", mismatched},
      {"waived", waived},
      {"unsupported", unsupported},
      {"failed", mismatched + (r.allow_unsupported ? 0 : unsupported)}};
  std::string properties;
  for (const auto& [name, count] : counts) {
    properties += "      <property name=\"ptovec." + std::string(name) + "\" value=\"" +
                  Str(count) + "\"/>\n";
  }
  return properties;
}

// The <testcase> of control c of file f: empty when it passed, <skipped> or <failure>.
void WriteTestCase(std::ostream& x, const CheckReport& r, const FileTally& f, std::size_t c) {
  const ControlTally& t = f.controls[c];
  const std::string stem = f.file.substr(0, f.file.rfind('.'));
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
    return;
  }
  if (Skipped(r, t)) {
    x << ">\n      <skipped message=\""
      << XmlEscape(Str(t.unsupported) + " of " + Str(t.total) +
                   " vectors unsupported by the device (--allow-unsupported)")
      << "\"/>\n    </testcase>\n";
    return;
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

// The <testsuite> of file f: its properties (how the run judged, `run_properties`, and its
// vectors by verdict), a test case per listed control.
void WriteFileSuite(std::ostream& x, const CheckReport& r, const FileTally& f,
                    const std::string& run_properties) {
  const std::size_t n = f.op->uses_controls ? check_report_text::kControls : 1U;
  std::uint64_t file_failures = 0;
  std::uint64_t file_tests = 0;
  std::uint64_t file_skips = 0;
  for (std::size_t c = 0; c < n; ++c) {
    if (!Listed(f, c)) continue;
    ++file_tests;
    if (Skipped(r, f.controls[c])) {
      ++file_skips;
    } else if (f.controls[c].failed() > 0) {
      ++file_failures;
    }
  }
  x << "  <testsuite name=\"" << XmlEscape(f.file) << "\" tests=\"" << file_tests
    << "\" failures=\"" << file_failures << "\" errors=\"0\" skipped=\"" << file_skips
    << "\" time=\"" << Seconds(f.seconds) << "\">\n";
  // The edition of the file's answers (its op's): a pass of one edition is never read as another's.
  x << "    <properties>\n"
    << "      <property name=\"ptovec.edition\" value=\"" << oracle::EditionName(f.op->edition)
    << "\"/>\n"
    << run_properties << JunitFileProperties(r, f) << "    </properties>\n";
  for (std::size_t c = 0; c < n; ++c) {
    if (Listed(f, c)) WriteTestCase(x, r, f, c);
  }
  x << "  </testsuite>\n";
}

// The <testsuite>s of an incomplete run and of the device failures.
void WriteRunSuites(std::ostream& x, const CheckReport& r) {
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
}

}  // namespace

std::string JunitXml(const CheckReport& r) {
  std::ostringstream x;
  const JunitCounts n = JunitTotals(r);
  const std::string properties = JunitRunProperties(r);
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"ptovec\" tests=\"" << n.tests << "\" failures=\"" << n.failures
    << "\" errors=\"" << r.device_failures.size() << "\" skipped=\"" << n.skips << "\" time=\""
    << Seconds([&r] {
         double total = 0;
         for (const FileTally& f : r.per_file) total += f.seconds;
         return total;
       }())
    << "\">\n";
  for (const FileTally& f : r.per_file) WriteFileSuite(x, r, f, properties);
  WriteRunSuites(x, r);
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace ptovec::tools
