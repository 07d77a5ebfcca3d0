// The JSON header both results formats carry: building it (ResultsHeader, with SectionFor and
// ResultsRecordSize) and reading and checking it (ResultsReader::Impl::ParseHeader).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/formats.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/results.hpp"
#include "report/report_text.hpp"
#include "results/results_internal.hpp"

namespace ptovec::tools {

namespace {

using text::Str;

using generator::InputError;
using results_internal::DstBytes;
using results_internal::Dump;
using J = nlohmann::ordered_json;

}  // namespace

unsigned ResultsRecordSize(TypePair pair, int version) {
  return (version == 1 ? 4 : 8) + DstBytes(pair) + 1;
}

ResultsSection SectionFor(const std::string& file, const std::string& sha256, const OpDef& op,
                          TypePair pair, std::uint64_t count) {
  return {file, sha256, &op, pair, count, {}};
}

J ResultsHeader(const std::vector<ResultsSection>& sections, ResultsFormat format,
                const std::string& device_name, const J& judged) {
  J h;
  h["format"] = std::string(format == ResultsFormat::Binary ? kResultsBinaryFormatName
                                                            : kResultsJsonFormatName);
  h["version"] = kResultsFormatVersion;
  h["tool_version"] = PTOVEC_VERSION;
  // The edition of the vectors answered (every section's op is of one edition): only for a later
  // edition than 0.58.3, so 0.58.3 results files keep their bytes (no key: 0.58.3).
  const oracle::Edition edition =
      sections.empty() ? oracle::kDefaultEdition : sections.front().op->edition;
  for (const ResultsSection& s : sections) {
    if (s.op->edition != edition) {
      throw InputError("results sections " + sections.front().file + " and " + s.file +
                       " are of editions " + std::string(oracle::EditionName(edition)) + " and " +
                       std::string(oracle::EditionName(s.op->edition)) +
                       "; a results file holds one edition (run each edition's vectors apart)");
    }
  }
  if (edition != oracle::kDefaultEdition) h["edition"] = oracle::EditionName(edition);
  h["device"] = device_name;
  if (judged.is_object()) {
    for (const auto& [key, value] : judged.items()) h[key] = value;
  }
  J list = J::array();
  for (const ResultsSection& s : sections) {
    J entry;
    entry["file"] = s.file;
    entry["sha256"] = s.sha256;
    entry["op"] = s.op->name;
    entry["src"] = oracle::Format(s.pair.src).name;
    entry["dst"] = oracle::Format(s.pair.dst).name;
    entry["count"] = s.count;
    if (!s.controls.empty()) entry["controls"] = generator::ControlsJson(s.controls);
    if (format == ResultsFormat::Binary) entry["record_size"] = ResultsRecordSize(s.pair);
    list.push_back(entry);
  }
  h["sections"] = list;
  return h;
}

nlohmann::ordered_json ResultsVectorsHeader(const std::vector<std::filesystem::path>& vectors,
                                            const std::filesystem::path& results) {
  const std::filesystem::path base =
      std::filesystem::absolute(results).parent_path().lexically_normal();
  J list = J::array();
  for (const std::filesystem::path& p : vectors) {
    const std::filesystem::path relative =
        std::filesystem::absolute(p).lexically_normal().lexically_relative(base);
    list.push_back((relative.empty() ? std::filesystem::path(".") : relative).generic_string());
  }
  return list;
}

// o[key] when `is` says it has the type wanted, else Fail()s naming `where`, the key and what
// it must be.
const J& ResultsReader::Impl::HeaderField(const J& o, const char* key, const std::string& where,
                                          bool (J::*is)() const noexcept,
                                          const char* wanted) const {
  if (!o.contains(key) || !(o[key].*is)()) {
    Fail("has a malformed " + where + ": \"" + key + "\" must be " + wanted + " (got " +
         (o.contains(key) ? Dump(o[key]) : std::string("nothing")) + ")");
  }
  return o[key];
}

std::string ResultsReader::Impl::HeaderText(const J& o, const char* key,
                                            const std::string& where) const {
  return HeaderField(o, key, where, &J::is_string, "text").get<std::string>();
}

std::uint64_t ResultsReader::Impl::HeaderWhole(const J& o, const char* key,
                                               const std::string& where) const {
  return HeaderField(o, key, where, &J::is_number_unsigned, "a whole number").get<std::uint64_t>();
}

void ResultsReader::Impl::ParseFormatAndVersion(const J& h, const std::string& expected_format) {
  if (HeaderText(h, "format", "header") != expected_format) {
    Fail("has header format " + Dump(h["format"]) + " (expected \"" + expected_format + "\")");
  }
  if (!h.contains("version") || !h["version"].is_number_unsigned() ||
      h["version"].get<std::uint64_t>() < kOldestResultsFormatVersion ||
      h["version"].get<std::uint64_t>() > kResultsFormatVersion) {
    Fail("has format version " + (h.contains("version") ? Dump(h["version"]) : "(none)") +
         " (this ptovec reads versions " + Str(kOldestResultsFormatVersion) + " to " +
         Str(kResultsFormatVersion) + ")");
  }
  if (version != 0 && h["version"].get<std::uint64_t>() != static_cast<std::uint64_t>(version)) {
    Fail("has a corrupt header: the fixed header says version " + Str(version) +
         ", the JSON header " + Dump(h["version"]));
  }
  version = static_cast<int>(h["version"].get<std::uint64_t>());
}

void ResultsReader::Impl::CheckHeaderKeys(const J& h) const {
  for (const auto& item : h.items()) {
    const std::string& key = item.key();
    const bool judged_key =
        key == "compare" || key == "known_differences" || key == "allow_unsupported";
    if (key != "format" && key != "version" && key != "tool_version" && key != "device" &&
        key != "sections" &&
        !(version >= 2 &&
          (key == "stopped" || key == "vectors" || key == "edition" || judged_key))) {
      Fail("has a malformed header: unknown key \"" + key + "\" (accepted: format, version, " +
           "tool_version, device, sections" +
           (version >= 2
                ? ", stopped, compare, known_differences, allow_unsupported, vectors, edition)"
                : ")"));
    }
  }
}

void ResultsReader::Impl::ParseEdition(const J& h) {
  if (!h.contains("edition")) return;  // no key: 0.58.3
  const std::optional<oracle::Edition> parsed =
      oracle::ParseEdition(HeaderText(h, "edition", "header"));
  if (!parsed) {
    Fail("has \"edition\" " + Dump(h["edition"]) + " (accepted: " + oracle::EditionNamesList() +
         "; no key: 0.58.3)");
  }
  edition = *parsed;
}

void ResultsReader::Impl::ParseStopped(const J& h) {
  if (!h.contains("stopped")) return;
  const std::string where = "header \"stopped\"";
  const J& st = h["stopped"];
  if (!st.is_object() || st.size() != 2) {
    Fail("has a malformed header: \"stopped\" must be {\"reason\": text, \"records\": n}");
  }
  stopped = ResultsStop{HeaderText(st, "reason", where), HeaderWhole(st, "records", where)};
}

void ResultsReader::Impl::ParseJudged(const J& h) {
  for (const char* key : {"compare", "known_differences", "allow_unsupported"}) {
    if (h.contains(key)) judged[key] = h[key];
  }
  if (h.contains("allow_unsupported") && !h["allow_unsupported"].is_boolean()) {
    Fail("has a malformed header: \"allow_unsupported\" must be true or false");
  }
  if (h.contains("compare")) {
    compare = HeaderText(h, "compare", "header \"compare\"");
    try {
      ComparePolicyFromName(compare);
    } catch (const generator::InputError& e) {
      Fail("has a malformed header: " + std::string(e.what()));
    }
  }
}

void ResultsReader::Impl::ParseVectorPaths(const J& h) {
  if (!h.contains("vectors")) return;
  const J& v = h["vectors"];
  const char* what = "has a malformed header: \"vectors\" must be an array of paths";
  if (!v.is_array()) Fail(what);
  for (const J& p : v) {
    if (!p.is_string() || p.get<std::string>().empty()) Fail(what);
    vectors.emplace_back(p.get<std::string>());
  }
}

void ResultsReader::Impl::ParseKnownDifferences(const J& h) {
  if (!h.contains("known_differences")) return;
  const J& kd = h["known_differences"];
  if (!kd.is_array())
    Fail("has a malformed header: \"known_differences\" must be an array of set names");
  for (const J& n : kd) {
    if (!n.is_string())
      Fail("has a malformed header: \"known_differences\" must be an array of set names");
    known_differences.push_back(n.get<std::string>());
  }
}

void ResultsReader::Impl::CheckSectionKeys(const J& s, const std::string& where,
                                           bool binary) const {
  if (!s.is_object()) Fail("has a malformed " + where + ": not a JSON object");
  for (const auto& item : s.items()) {
    const std::string& key = item.key();
    if (key != "file" && key != "sha256" && key != "op" && key != "src" && key != "dst" &&
        key != "count" && !(binary && key == "record_size") &&
        !(version >= 2 && key == "controls")) {
      Fail("has a malformed " + where + ": unknown key \"" + key + "\" (accepted: file, " +
           "sha256, op, src, dst, count" + (version >= 2 ? ", controls" : "") +
           (binary ? ", record_size)" : ")"));
    }
  }
}

ResultsSection ResultsReader::Impl::ParseSection(const J& s, std::size_t number,
                                                 bool binary) const {
  const std::string where = "header section " + Str(number);
  CheckSectionKeys(s, where, binary);
  ResultsSection r;
  r.file = HeaderText(s, "file", where);
  r.sha256 = HeaderText(s, "sha256", where);
  const std::string op = HeaderText(s, "op", where);
  r.op = generator::FindOp(op, edition);
  if (r.op == nullptr) {
    Fail("section " + Str(number) + " names unknown op '" + op + "' (accepted in edition " +
         std::string(oracle::EditionName(edition)) + ": " + generator::OpNamesList(edition) + ")");
  }
  const std::string src = HeaderText(s, "src", where);
  const std::string dst = HeaderText(s, "dst", where);
  try {
    r.pair = {generator::RequireType(src, "src", edition),
              generator::RequireType(dst, "dst", edition)};
  } catch (const InputError& e) {
    Fail("section " + Str(number) + ": " + e.what());
  }
  if (!generator::IsLegalPair(*r.op, r.pair)) {
    Fail("section " + Str(number) + " has a pair " + op + " does not accept");
  }
  r.count = HeaderWhole(s, "count", where);
  if (s.contains("controls")) {
    try {
      r.controls = generator::ParseControlsJson(s["controls"], *r.op);
    } catch (const std::invalid_argument& e) {
      Fail("has a malformed " + where + ": " + e.what());
    }
  }
  if (binary && HeaderWhole(s, "record_size", where) != ResultsRecordSize(r.pair, version)) {
    Fail("section " + Str(number) + " has record_size " + Dump(s["record_size"]) + " (expected " +
         Str(ResultsRecordSize(r.pair, version)) + ")");
  }
  return r;
}

// The records present: every section's count, or, after a stop, the first stopped->records.
void ResultsReader::Impl::CountAvailable() {
  std::uint64_t sum = 0;
  for (const ResultsSection& sec : sections) {
    sum = sum + sec.count < sum ? UINT64_MAX : sum + sec.count;
  }
  if (stopped && stopped->records > sum) {
    Fail("has a malformed header: \"stopped\" records " + Str(stopped->records) +
         " exceeds the sections' " + Str(sum));
  }
  std::uint64_t left = stopped ? stopped->records : sum;
  for (const ResultsSection& sec : sections) {
    available.push_back(std::min(left, sec.count));
    left -= available.back();
  }
}

void ResultsReader::Impl::ParseHeader(const J& h, const std::string& expected_format) {
  if (!h.is_object()) Fail("has a header that is not a JSON object");
  ParseFormatAndVersion(h, expected_format);
  CheckHeaderKeys(h);
  ParseStopped(h);
  ParseEdition(h);
  if (h.contains("device")) device = HeaderText(h, "device", "header");
  ParseJudged(h);
  ParseVectorPaths(h);
  ParseKnownDifferences(h);
  if (!h.contains("sections") || !h["sections"].is_array()) {
    Fail("has a malformed header: \"sections\" must be an array");
  }
  const bool binary = expected_format == kResultsBinaryFormatName;
  std::size_t number = 0;
  for (const auto& s : h["sections"]) sections.push_back(ParseSection(s, number++, binary));
  CountAvailable();
}

}  // namespace ptovec::tools
