// ptovec coverage: how many vectors of a suite hit each outcome class of each (op, types, mode,
// Sat); a table on stdout, JSON (--json, schemas/coverage.schema.json), a heat map (--plot, by
// tools/cli/coverage_heatmap.py with matplotlib), and --require-all.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/writers.hpp"

namespace {

using namespace ptovec::generator;
namespace oracle = ptovec::oracle;
using ptovec::cli::Fail;
using ptovec::cli::kSampleCount;
using ptovec::cli::kWholeNumber;

struct CoverageArgs {
  std::vector<std::string> vectors;
  std::string json;
  std::string plot;
  bool require_all = false;
  bool quiet = false;
  std::string find_witnesses;
  std::string scope = "default";
  std::uint64_t seed = 2;
  std::uint64_t samples = 300000;  // what scripts/regenerate-smoke uses
  unsigned threads = 0;
};

std::string ControlLabel(std::size_t slot) {
  return std::string(oracle::RoundingModeName(oracle::kAllRoundingModes[slot / 2])) +
         (slot % 2 ? "/S" : "/-");
}

// The heat map script: DATADIR/ptovec/coverage_heatmap.py of the prefix this ptovec is installed
// in (the executable's folder is PREFIX/BINDIR; cmake/install.cmake puts it there), else
// tools/cli/coverage_heatmap.py of the source tree this ptovec was built from (a build tree's).
std::filesystem::path HeatmapScript() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path bindir(PTOVEC_INSTALL_BINDIR);
  const fs::path datadir(PTOVEC_INSTALL_DATADIR);
  if (!ec && bindir.is_relative()) {
    fs::path prefix = self.parent_path();
    for (const fs::path& part : bindir) {
      if (!part.empty() && part != ".") prefix = prefix.parent_path();
    }
    const fs::path installed =
        (datadir.is_absolute() ? datadir : prefix / datadir) / "ptovec" / "coverage_heatmap.py";
    if (fs::is_regular_file(installed, ec)) return installed;
  }
  return fs::path(PTOVEC_SOURCE_DIR) / "tools" / "cli" / "coverage_heatmap.py";
}

int RunCoverage(const CoverageArgs& a) {
  if (!a.find_witnesses.empty()) {
    AtomicFile out(a.find_witnesses);
    out.Write(FindWitnesses({a.seed, a.samples}, a.threads));
    out.Commit();
    std::cerr << "ptovec: wrote the witness table to " << a.find_witnesses << "\n";
    return 0;
  }
  if (a.vectors.empty()) return Fail("coverage needs --vectors DIR (a suite folder or files)");
  if (a.scope != "default" && a.scope != "present") {
    return Fail("--scope " + a.scope +
                " is not a scope; accepted: default (every pair and control of the default "
                "suite), present (only those the vectors hold)");
  }
  VectorSelection selection;
  for (const std::string& v : a.vectors) selection.paths.emplace_back(v);
  const std::vector<PairCoverage> counted = CountCoverage(selection);

  // The scope: each pair with the control slots it is required under. --scope default: the
  // default suite's pairs and controls, in its order (absent ones with no vectors), then any
  // other pair the vectors hold; --scope present: what the vectors hold.
  struct Scoped {
    PairCoverage cov;
    std::uint16_t slots = 0;  // control slots in scope
    bool in_default = false;  // a pair of the default suite
  };
  std::vector<Scoped> pairs;
  std::vector<bool> used(counted.size(), false);
  const auto present_slots = [](const PairCoverage& p) {
    std::uint16_t m = 0;
    for (std::size_t s = 0; s < kControlSlots; ++s) {
      if (p.vectors[s] != 0) m = static_cast<std::uint16_t>(m | 1U << s);
    }
    return m;
  };
  std::size_t scope_controls = 0;
  std::size_t held_controls = 0;
  for (const ScopePair& d : DefaultSuiteScope()) {
    const std::string key = PairKey(*d.op, d.pair);
    Scoped sp{{d.op, d.pair, {}, {}}, d.slots, true};
    for (std::size_t k = 0; k < counted.size(); ++k) {
      if (!used[k] && PairKey(*counted[k].op, counted[k].pair) == key) {
        sp.cov = counted[k];
        used[k] = true;
      }
    }
    const std::uint16_t held = present_slots(sp.cov);
    scope_controls += static_cast<std::size_t>(std::popcount(d.slots));
    held_controls += static_cast<std::size_t>(std::popcount<std::uint16_t>(held & d.slots));
    if (a.scope == "default") {
      sp.slots = static_cast<std::uint16_t>(sp.slots | held);
      pairs.push_back(sp);
    } else if (held != 0) {
      sp.slots = held;
      pairs.push_back(sp);
    }
  }
  std::size_t outside = 0;
  for (std::size_t k = 0; k < counted.size(); ++k) {
    if (used[k]) continue;
    pairs.push_back({counted[k], present_slots(counted[k]), false});
    ++outside;
  }

  nlohmann::ordered_json j;
  j["format"] = "ptovec-coverage";
  j["version"] = 2;
  j["vectors"] = a.vectors;
  j["scope"] = a.scope;
  nlohmann::ordered_json jpairs = nlohmann::ordered_json::array();
  std::vector<std::string> missing;
  std::uint64_t reachable_cells = 0;
  std::uint64_t hit_cells = 0;
  for (const Scoped& sp : pairs) {
    const PairCoverage& p = sp.cov;
    const std::vector<CoverageClass> classes = CoverageClasses(*p.op, p.pair);
    const auto reach = ReachableClasses(*p.op, p.pair);
    const bool has_witnesses =
        std::any_of(reach.begin(), reach.end(), [](ClassMask m) { return m != 0; });
    std::vector<std::size_t> slots;
    for (std::size_t s = 0; s < kControlSlots; ++s) {
      if ((sp.slots >> s) & 1U) slots.push_back(s);
    }
    const std::string src(oracle::Format(p.pair.src).name);
    const std::string dst(oracle::Format(p.pair.dst).name);
    const std::string name = p.op->name + " " + src + " -> " + dst;
    const bool absent = present_slots(p) == 0;
    nlohmann::ordered_json jp;
    jp["op"] = p.op->name;
    jp["src"] = src;
    jp["dst"] = dst;
    jp["default_suite"] = sp.in_default;
    jp["witnesses"] = has_witnesses;
    nlohmann::ordered_json names = nlohmann::ordered_json::array();
    for (const CoverageClass& c : classes) names.push_back(c.name);
    jp["classes"] = names;
    nlohmann::ordered_json jcontrols = nlohmann::ordered_json::array();
    std::size_t absent_reachable = 0;
    for (std::size_t s : slots) {
      nlohmann::ordered_json jc;
      const std::string rmode(oracle::RoundingModeName(oracle::kAllRoundingModes[s / 2]));
      jc["rmode"] = rmode;
      jc["sat"] = s % 2 == 1;
      jc["vectors"] = p.vectors[s];
      nlohmann::ordered_json counts = nlohmann::ordered_json::array();
      nlohmann::ordered_json reachable = nlohmann::ordered_json::array();
      std::size_t control_missing = 0;
      for (const CoverageClass& c : classes) {
        const std::uint64_t n = p.counts[s][c.bit];
        const bool r = reach[s].test(c.bit);
        counts.push_back(n);
        reachable.push_back(r);
        if (!r) continue;
        ++reachable_cells;
        if (n > 0) {
          ++hit_cells;
        } else if (p.vectors[s] != 0) {
          missing.push_back(name + " " + rmode + " Sat " + (s % 2 ? "on" : "off") + ": " + c.name);
        } else {
          ++control_missing;
        }
      }
      absent_reachable += control_missing;
      if (p.vectors[s] == 0 && !absent) {
        missing.push_back(name + " " + rmode + " Sat " + (s % 2 ? "on" : "off") + ": no vectors (" +
                          std::to_string(control_missing) +
                          " reachable classes; the default suite holds this control)");
      }
      jc["counts"] = counts;
      jc["reachable"] = reachable;
      jcontrols.push_back(jc);
    }
    if (absent) {
      missing.push_back(name + ": no vectors (" + std::to_string(slots.size()) +
                        (slots.size() == 1 ? " control, " : " controls, ") +
                        std::to_string(absent_reachable) +
                        " reachable classes; the default suite holds this pair)");
    }
    jp["controls"] = jcontrols;
    jpairs.push_back(jp);

    if (!a.quiet) {
      if (absent) {
        std::cout << name << ": no vectors (a pair of the default suite)\n";
        continue;
      }
      std::cout << name << (has_witnesses ? "" : " (no witness table for this pair)") << "\n";
      std::cout << "  " << std::left << std::setw(40) << "class" << std::right;
      for (std::size_t s : slots) std::cout << std::setw(9) << ControlLabel(s);
      std::cout << "\n";
      for (const CoverageClass& c : classes) {
        std::cout << "  " << std::left << std::setw(40) << c.name.substr(0, 39) << std::right;
        for (std::size_t s : slots) {
          const std::uint64_t n = p.counts[s][c.bit];
          const bool r = reach[s].test(c.bit);
          std::cout << std::setw(9)
                    << (n > 0 ? std::to_string(n)
                        : r   ? std::string("MISSING")
                              : std::string("."));
        }
        std::cout << "\n";
      }
    }
  }
  j["missing"] = missing;
  std::cout << "scope: "
            << (a.scope == "default"
                    ? "the default suite's pairs and controls (--scope present: only those the "
                      "vectors hold); "
                    : "only the pairs and controls the vectors hold (--scope present); ")
            << "the vectors hold " << held_controls << " of the default suite's " << scope_controls
            << " (op, types, mode, Sat)"
            << (outside ? " and " + std::to_string(outside) + " pair(s) outside it" : "") << "\n";
  j["pairs"] = jpairs;
  j["reachable_cells"] = reachable_cells;
  j["hit_cells"] = hit_cells;
  for (const std::string& m : missing) std::cout << "missing: " << m << "\n";
  std::cout << "coverage: " << hit_cells << " of " << reachable_cells
            << " reachable (op, types, mode, Sat, class) cells hit by a vector; "
            << reachable_cells - hit_cells << " not hit, in " << missing.size()
            << " `missing:` line(s)" << (missing.empty() ? "" : " above")
            << " ('.': no witness shows the class reachable under that "
               "control)\n";
  if (!a.json.empty()) {
    AtomicFile out(a.json);
    out.Write(j.dump(1) + "\n");
    out.Commit();
  }
  if (!a.plot.empty()) {
    // The heat map script reads the JSON; give it a temporary copy when --json was not asked for.
    std::filesystem::path json_path = a.json;
    const bool temporary = json_path.empty();
    if (temporary) {
      json_path = std::filesystem::path(a.plot).string() + ".tmp-json";
      AtomicFile out(json_path);
      out.Write(j.dump() + "\n");
      out.Commit();
    }
    const std::string command = "/usr/bin/python3 '" + HeatmapScript().string() + "' '" +
                                json_path.string() + "' '" + a.plot + "'";
    const int status = std::system(command.c_str());
    if (temporary) std::filesystem::remove(json_path);
    if (status != 0) {
      return Fail("the heat map script failed (" + command +
                  "); it needs python3-matplotlib (scripts/install-deps installs it)");
    }
  }
  if (a.require_all && !missing.empty()) return ptovec::cli::kExitMismatch;
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddCoverageCommand(CLI::App& app) {
  auto args = std::make_shared<CoverageArgs>();
  CLI::App* cov = app.add_subcommand(
      "coverage",
      "count the vectors of a suite hitting each outcome class of each (op, types, mode, Sat)");
  cov->add_option("--vectors", args->vectors, "suite folders or vector files");
  cov->add_option("--json", args->json, "also write the counts as JSON (ptovec schema coverage)");
  cov->add_option("--plot", args->plot,
                  "also draw a heat map PNG (a panel per op: its classes x the modes; 1600 pixels "
                  "wide; needs python3-matplotlib)");
  cov->add_flag("--require-all", args->require_all,
                "exit 1, one line per class, when a reachable class has no vector");
  cov->add_option("--scope", args->scope,
                  "what --require-all requires: default (every pair and control of the default "
                  "suite; absent ones are missing) or present (only those the vectors hold)");
  cov->add_flag("--quiet", args->quiet, "only the summary line (and missing classes)");
  cov->add_option("--find-witnesses", args->find_witnesses,
                  "instead: search the default domains for witnesses and write the witness "
                  "table (generator/src/suite/coverage_witnesses.inc) to this file");
  cov->add_option("--seed", args->seed, "--find-witnesses: sampling seed (default 2)")
      ->check(kWholeNumber);
  cov->add_option(
         "--samples", args->samples,
         "--find-witnesses: samples per sampled pair (default 300000, as scripts/regenerate-smoke)")
      ->check(kSampleCount);
  cov->add_option("--threads", args->threads, "--find-witnesses: worker threads")
      ->check(kWholeNumber);
  Command c;
  c.app = cov;
  c.run = Guarded([args] { return RunCoverage(*args); });
  return c;
}

}  // namespace ptovec::cli
