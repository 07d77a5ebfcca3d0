// The text report's tables by pair (check_report_text.hpp): every (op, pair) with its counts, and
// the unsupported vectors in one line per pair with their controls collapsed; and the vectors'
// environment (VectorsEnvironment, check.hpp).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "gate/check_report_text.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/tools/check.hpp"
#include "report/report_text.hpp"

namespace ptovec::tools {

namespace check_report_text {

namespace {

using text::TypeName;

constexpr std::size_t kModes = kControls / 2;

// "RNE RTZ", or "every mode" when `modes` (bit m: mode m) holds all seven.
std::string ModesText(unsigned modes) {
  if (modes == (1U << kModes) - 1) return "every mode";
  std::string out;
  for (std::size_t m = 0; m < kModes; ++m) {
    if (((modes >> m) & 1U) != 0) out += (out.empty() ? "" : " ") + ModeName(m * 2);
  }
  return out;
}

// The left columns of a pair row: op, src, dst.
void PairColumns(std::ostream& out, const PairTally& p) {
  out << "  " << std::left << std::setw(9) << p.op->name << std::setw(6) << TypeName(p.pair.src)
      << std::setw(6) << TypeName(p.pair.dst) << std::right;
}

// The count columns of the by-pair table.
void CountColumns(std::ostream& out, const PairTally& p) {
  out << std::setw(12) << p.vectors << std::setw(12) << p.matched << std::setw(12) << p.waived
      << std::setw(12) << p.failed << std::setw(12) << p.unsupported << "\n";
}

}  // namespace

std::string ControlSetText(std::uint16_t controls) {
  if (controls == (1U << kControls) - 1) return "all controls";
  unsigned off = 0;
  unsigned on = 0;
  for (std::size_t c = 0; c < kControls; ++c) {
    if (((controls >> c) & 1U) != 0) (c % 2 ? on : off) |= 1U << (c / 2);
  }
  if (off == on) return off == 0 ? std::string("no control") : ModesText(off) + ", both Sat";
  std::string out;
  if (off != 0) out = ModesText(off) + ", Sat off";
  if (on != 0) out += (out.empty() ? "" : "; ") + ModesText(on) + ", Sat on";
  return out;
}

std::vector<PairTally> PairTallies(const CheckReport& r) {
  std::vector<PairTally> pairs;
  for (const FileTally& f : r.per_file) {
    const TypePair whole = f.pair.Whole();
    auto it = std::find_if(pairs.begin(), pairs.end(),
                           [&](const PairTally& p) { return p.op == f.op && p.pair == whole; });
    if (it == pairs.end()) it = pairs.insert(pairs.end(), PairTally{f.op, whole});
    for (std::size_t c = 0; c < f.controls.size(); ++c) {
      const ControlTally& t = f.controls[c];
      const std::uint64_t failed = t.word + t.flags + t.both;
      it->vectors += t.total;
      it->waived += t.waived;
      it->failed += failed;
      it->unsupported += t.unsupported;
      it->matched += t.total - failed - t.unsupported - t.waived;
      it->control_unsupported[c] += t.unsupported;
    }
  }
  for (const TriageGroup& g : r.groups) {
    if (g.first.verdict != Verdict::Unsupported) continue;
    for (PairTally& p : pairs) {
      if (p.op == g.op && p.pair == g.pair.Whole()) ++p.unsupported_groups;
    }
  }
  return pairs;
}

std::uint16_t UnsupportedControls(const PairTally& p) {
  std::uint16_t controls = 0;
  for (std::size_t c = 0; c < kControls; ++c) {
    if (p.control_unsupported[c] > 0) controls = static_cast<std::uint16_t>(controls | 1U << c);
  }
  return controls;
}

void PrintUnsupportedByPair(std::ostream& out, const CheckReport& r) {
  if (r.unsupported == 0) return;
  const std::vector<PairTally> pairs = PairTallies(r);
  const auto with = std::count_if(pairs.begin(), pairs.end(),
                                  [](const PairTally& p) { return p.unsupported > 0; });
  out << "unsupported: " << generator::Counted(r.unsupported, "vector") << " in "
      << generator::Counted(static_cast<std::uint64_t>(with), "pair")
      << (r.allow_unsupported ? ", skipped (--allow-unsupported)" : "")
      << " (their symptom groups are in --report-json):\n";
  for (const PairTally& p : pairs) {
    if (p.unsupported == 0) continue;
    out << "  " << p.op->name << " " << TypeName(p.pair.src) << " -> " << TypeName(p.pair.dst)
        << ": " << p.unsupported << " of " << generator::Counted(p.vectors, "vector");
    if (p.op->uses_controls) out << " under " << ControlSetText(UnsupportedControls(p));
    out << " (" << generator::Counted(p.unsupported_groups, "symptom group") << ")\n";
  }
}

void PrintByPair(std::ostream& out, const CheckReport& r) {
  const std::vector<PairTally> pairs = PairTallies(r);
  if (pairs.empty()) return;
  out << "by pair (failed: mismatched, no rule waives them):\n";
  out << "  " << std::left << std::setw(9) << "op" << std::setw(6) << "src" << std::setw(6) << "dst"
      << std::right << std::setw(12) << "vectors" << std::setw(12) << "matched" << std::setw(12)
      << "waived" << std::setw(12) << "failed" << std::setw(12) << "unsupported"
      << "\n";
  PairTally total;
  for (const PairTally& p : pairs) {
    PairColumns(out, p);
    CountColumns(out, p);
    total.vectors += p.vectors;
    total.matched += p.matched;
    total.waived += p.waived;
    total.failed += p.failed;
    total.unsupported += p.unsupported;
  }
  out << "  " << std::left << std::setw(21) << "total" << std::right;
  CountColumns(out, total);
}

}  // namespace check_report_text

ReportEnvironment VectorsEnvironment(const std::vector<std::filesystem::path>& paths) {
  ReportEnvironment e;
  std::vector<std::filesystem::path> folders;
  for (const std::filesystem::path& p : paths) {
    e.vectors += (e.vectors.empty() ? "" : ", ") + p.string();
    std::error_code error;
    const std::filesystem::path folder =
        std::filesystem::is_directory(p, error) ? p : p.parent_path();
    std::filesystem::path normal = std::filesystem::absolute(folder, error).lexically_normal();
    if (!normal.has_filename()) normal = normal.parent_path();  // "smoke/" is "smoke"
    folders.push_back(normal);
  }
  if (folders.empty() || std::any_of(folders.begin(), folders.end(),
                                     [&](const auto& f) { return f != folders.front(); })) {
    return e;
  }
  const std::filesystem::path manifest = folders.front() / "manifest.json";
  std::error_code error;
  if (std::filesystem::is_regular_file(manifest, error)) {
    e.manifest_sha256 = generator::FileSha256(manifest);
  }
  return e;
}

}  // namespace ptovec::tools
