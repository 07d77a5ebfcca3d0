// ptovec_mutant_scan: evaluates mutants directly (linked, no device loading, no files) over the
// default suite's input domains and prints, per mutant, the vectors checked, the mismatches and
// the first mismatching case as an eval JSON line with its `ptovec eval` command. A development
// and cross-check tool for tests/mutants (the proof in ctest goes through `ptovec run`).
//
//   ptovec_mutant_scan --list                       the catalog as JSON lines
//   ptovec_mutant_scan [--mutant NAME]... [--all-mismatches] [--op OP]
//   ptovec_mutant_scan --mutant NAME --minimal EVAL_JSON_LINE
//       whether the case differs from the oracle and how many cases simpler than it under the
//       simplest-case order (tools/lib SimplicityKey) differ too: for an enumerable pair every
//       case of the pair (so 0 means the case is the least differing one of the pair), else its
//       simpler moves (tools/lib SimplerMoves, where `ptovec shrink` stops); exit 0 when it
//       differs and no simpler case does, else 1.
//   ptovec_mutant_scan [--mutant NAME]... --shrink-seeds N [--op OP] [--tests T] [--threads K]
//       issue 13's "no mutant passes shrink on a sampled pair it affects with seeds 1 to N": for
//       each mutant and each sampled (not enumerable) default-suite pair of its ops on whose
//       default domain it differs from the oracle somewhere (a split pair's file groups count
//       as their whole pair; with --op, that op's pairs only), tools::ShrinkProperty (what `ptovec
//       shrink --op --src --dst` runs) with seeds 1..N over the mutant evaluated in process; one
//       JSON line per (mutant, pair) with the seeds that passed, then a summary line; exit 0 when
//       no seed passed, else 1.
//
// Without --all-mismatches a mutant stops being evaluated at its first mismatch (fast).
// Exit status: 0 every scanned mutant differed somewhere; 1 some mutant never differed;
// 2 usage errors (one line "ptovec: error: ...").
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "mutants.hpp"
#include "ptovec/generator/domains.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/shrink.hpp"

namespace {

using ptovec::generator::Case;
using ptovec::mutants::MutantInfo;

bool Affects(const MutantInfo& m, const std::string& op) {
  std::string_view ops = m.ops;
  while (!ops.empty()) {
    const auto comma = ops.find(',');
    if (ops.substr(0, comma) == op) return true;
    if (comma == std::string_view::npos) break;
    ops.remove_prefix(comma + 1);
  }
  return false;
}

// A mutant as a device, in process (the library the CMake build makes answers the same through
// tools/devices's ToCase; here without loading it, so that thousands of shrink runs stay cheap).
class MutantDevice : public ptovec::tools::Device {
 public:
  explicit MutantDevice(const MutantInfo& m) : mutant_(&m), name_(m.name) {}
  const std::string& Name() const override { return name_; }
  void Evaluate(std::span<const Case> cases,
                std::span<ptovec::tools::DeviceAnswer> answers) override {
    for (std::size_t i = 0; i < cases.size(); ++i) {
      answers[i] = {true, ptovec::mutants::EvaluateMutant(*mutant_, cases[i])};
    }
  }

 private:
  const MutantInfo* mutant_;
  std::string name_;
};

// Whether the mutant differs from the oracle on some vector of the pair's default domain (under
// the controls its files hold).
bool DiffersOnDefaultDomain(const MutantInfo& m, const ptovec::generator::Job& job) {
  const ptovec::generator::InputSet inputs =
      job.op->domain(job.pair, ptovec::generator::SamplingOptions{});
  const auto controls = ptovec::generator::ControlsFor(*job.op, job.pair);
  Case c;
  c.op = job.op;
  c.pair = job.pair;
  for (std::uint64_t i = 0; i < inputs.count; ++i) {
    c.in = inputs.at(i);
    for (const auto& control : controls) {
      c.control = control;
      if (!(ptovec::mutants::EvaluateMutant(m, c) == ptovec::mutants::EvaluateOracle(c))) {
        return true;
      }
    }
  }
  return false;
}

// --shrink-seeds: see the file comment.
int ShrinkSeeds(const std::vector<const MutantInfo*>& mutants, const std::string& only_op,
                std::uint64_t seeds, std::uint64_t tests, unsigned threads);

struct Tally {
  const MutantInfo* mutant = nullptr;
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;
  nlohmann::ordered_json first;
  nlohmann::ordered_json agree;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Scan mutant devices against the oracle over the default suite's domains"};
  std::vector<std::string> names;
  std::string only_op;
  bool list = false;
  bool all_mismatches = false;
  app.add_option("--mutant", names, "mutant name (repeatable; default every mutant)");
  app.add_option("--op", only_op, "scan only this op's default-suite pairs");
  app.add_flag("--list", list, "print the catalog as JSON lines and exit");
  app.add_flag("--all-mismatches", all_mismatches, "count every mismatch (slower)");
  std::string minimal;
  app.add_option("--minimal", minimal,
                 "an eval JSON line: check that it differs and that no simpler case does");
  std::uint64_t shrink_seeds = 0;
  std::uint64_t shrink_tests = 10000;
  unsigned threads = 1;
  app.add_option("--shrink-seeds", shrink_seeds,
                 "run shrink with seeds 1..N on every sampled pair each mutant affects")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000}));
  app.add_option("--tests", shrink_tests, "--shrink-seeds: sampled tests per run (shrink's 10000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  app.add_option("--threads", threads, "--shrink-seeds: (mutant, pair)s searched at once")
      ->check(CLI::Range(1U, 256U));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  if (list) {
    for (const MutantInfo& m : ptovec::mutants::AllMutants()) {
      nlohmann::ordered_json j;
      j["name"] = m.name;
      j["models"] = m.models;
      j["affects"] = m.affects;
      j["shrink"] = {{"op", m.shrink_op}, {"src", m.shrink_src}, {"dst", m.shrink_dst}};
      j["ops"] = m.ops;
      j["run_selection"] = m.run_selection;
      std::cout << j.dump() << "\n";
    }
    return 0;
  }

  if (!minimal.empty()) {
    if (names.size() != 1) {
      std::fprintf(stderr, "ptovec: error: --minimal needs exactly one --mutant\n");
      return 2;
    }
    const MutantInfo* m = ptovec::mutants::FindMutant(names[0]);
    if (m == nullptr) {
      std::fprintf(stderr, "ptovec: error: unknown mutant '%s' (see --list)\n", names[0].c_str());
      return 2;
    }
    Case c;
    try {
      const auto j = nlohmann::json::parse(minimal);
      c = ptovec::generator::MakeCase(j.at("op").get<std::string>(), j.at("src").get<std::string>(),
                                      j.at("dst").get<std::string>(),
                                      j.at("rmode").get<std::string>(), j.at("sat").get<bool>(),
                                      j.at("in").get<std::vector<std::string>>());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ptovec: error: --minimal: %s (give an eval JSON line)\n", e.what());
      return 2;
    }
    const auto differs = [&](const Case& k) {
      return !(ptovec::mutants::EvaluateMutant(*m, k) == ptovec::mutants::EvaluateOracle(k));
    };
    std::uint64_t shrinks = 0;
    std::uint64_t failing = 0;
    nlohmann::ordered_json failing_cases = nlohmann::json::array();
    const auto count = [&](const Case& k) {
      ++shrinks;
      if (differs(k)) {
        ++failing;
        if (failing_cases.size() < 3) failing_cases.push_back(ptovec::generator::EvalCommand(k));
      }
    };
    const std::uint64_t enumerable = ptovec::tools::EnumerableInputs(*c.op, c.pair);
    std::uint64_t differing_cases = 0;
    if (enumerable > 0) {
      // The whole pair, every input under every control: the least differing case under the
      // simplest-case order must be this one; every simpler case is counted as a shrink.
      const ptovec::generator::InputSet domain = ptovec::tools::EnumerableSpace(*c.op, c.pair);
      const ptovec::tools::SimplicityKey own = ptovec::tools::SimplicityOf(c);
      for (std::uint64_t i = 0; i < domain.count; ++i) {
        for (const auto control : ptovec::generator::ControlsFor(*c.op)) {
          Case k = c;
          k.in = domain.at(i);
          k.control = control;
          if (c.op->check_domain(c.pair, k.in)) continue;
          const bool simpler = ptovec::tools::SimplicityOf(k) < own;
          if (simpler) {
            count(k);
          } else if (differs(k)) {
            ++differing_cases;
          }
        }
      }
      differing_cases += failing;
    } else {
      // A sampled pair: no simpler move (tools/lib SimplerMoves, the moves `ptovec shrink`
      // ends with) differs.
      for (const Case& k : ptovec::tools::SimplerMoves(c)) count(k);
    }
    nlohmann::ordered_json j;
    j["mutant"] = m->name;
    j["differs"] = differs(c);
    j["shrinks"] = shrinks;
    j["failing_shrinks"] = failing;
    j["enumerated"] = enumerable > 0;
    if (enumerable > 0) j["differing_cases"] = differing_cases;
    j["examples"] = failing_cases;
    std::cout << j.dump() << "\n";
    return differs(c) && failing == 0 ? 0 : 1;
  }

  if (shrink_seeds != 0) {
    std::vector<const MutantInfo*> mutants;
    for (const std::string& name : names) {
      const MutantInfo* m = ptovec::mutants::FindMutant(name);
      if (m == nullptr) {
        std::fprintf(stderr, "ptovec: error: unknown mutant '%s' (see --list)\n", name.c_str());
        return 2;
      }
      mutants.push_back(m);
    }
    if (names.empty()) {
      for (const MutantInfo& m : ptovec::mutants::AllMutants()) mutants.push_back(&m);
    }
    return ShrinkSeeds(mutants, only_op, shrink_seeds, shrink_tests, threads);
  }

  std::vector<Tally> tallies;
  for (const std::string& name : names) {
    const MutantInfo* m = ptovec::mutants::FindMutant(name);
    if (m == nullptr) {
      std::fprintf(stderr, "ptovec: error: unknown mutant '%s' (see --list)\n", name.c_str());
      return 2;
    }
    tallies.push_back({m, 0, 0, nullptr, nullptr});
  }
  if (names.empty()) {
    for (const MutantInfo& m : ptovec::mutants::AllMutants())
      tallies.push_back({&m, 0, 0, nullptr, nullptr});
  }

  const ptovec::generator::SamplingOptions sampling;
  for (const ptovec::generator::Job& job : ptovec::generator::DefaultSuite()) {
    if (!only_op.empty() && job.op->name != only_op) continue;
    std::vector<Tally*> active;
    for (Tally& t : tallies) {
      if (Affects(*t.mutant, job.op->name) && (all_mismatches || t.mismatches == 0)) {
        active.push_back(&t);
      }
    }
    if (active.empty()) continue;
    const ptovec::generator::InputSet inputs = job.op->domain(job.pair, sampling);
    const auto controls = ptovec::generator::ControlsFor(*job.op, job.pair);
    for (std::uint64_t i = 0; i < inputs.count && !active.empty(); ++i) {
      Case c;
      c.op = job.op;
      c.pair = job.pair;
      c.in = inputs.at(i);
      for (const auto& control : controls) {
        c.control = control;
        const auto expected = ptovec::mutants::EvaluateOracle(c);
        for (Tally* t : active) {
          ++t->checked;
          const auto got = ptovec::mutants::EvaluateMutant(*t->mutant, c);
          if (got == expected) continue;
          if (t->mismatches++ == 0) {
            t->first = ptovec::generator::CaseJson(c, expected);
            t->first["mutant_out"] = ptovec::generator::HexWord(got.word, c.pair.dst);
            char flags[8];
            std::snprintf(flags, sizeof flags, "0x%02x", got.status);
            t->first["mutant_flags"] = flags;
            t->first["eval"] = ptovec::generator::EvalCommand(c);
            // The same inputs under the first control where the mutant agrees, if any.
            for (const auto& other : controls) {
              Case d = c;
              d.control = other;
              const auto agreed = ptovec::mutants::EvaluateOracle(d);
              if (ptovec::mutants::EvaluateMutant(*t->mutant, d) == agreed) {
                t->agree = ptovec::generator::CaseJson(d, agreed);
                break;
              }
            }
            // Else the next inputs of the same pair, under the same control, where it agrees.
            for (std::uint64_t k = i + 1; t->agree.is_null() && k < inputs.count; ++k) {
              Case d = c;
              d.in = inputs.at(k);
              const auto agreed = ptovec::mutants::EvaluateOracle(d);
              if (ptovec::mutants::EvaluateMutant(*t->mutant, d) == agreed) {
                t->agree = ptovec::generator::CaseJson(d, agreed);
              }
            }
          }
        }
      }
      if (!all_mismatches) {
        std::erase_if(active, [](const Tally* t) { return t->mismatches != 0; });
      }
    }
  }

  int status = 0;
  for (const Tally& t : tallies) {
    nlohmann::ordered_json j;
    j["mutant"] = t.mutant->name;
    j["checked"] = t.checked;
    j["mismatches"] = t.mismatches;
    j["first"] = t.first;
    j["agree"] = t.agree;
    std::cout << j.dump() << "\n";
    if (t.mismatches == 0) status = 1;
  }
  return status;
}

namespace {

int ShrinkSeeds(const std::vector<const MutantInfo*>& mutants, const std::string& only_op,
                std::uint64_t seeds, std::uint64_t tests, unsigned threads) {
  using ptovec::generator::Job;
  using ptovec::generator::TypePair;
  // Every (mutant, default-suite job) of its ops whose pair is sampled; the search runs on the
  // whole pair (a split pair's groups are one pair to shrink).
  struct Task {
    const MutantInfo* mutant;
    std::vector<Job> jobs;  // the pair's default-suite files
  };
  std::vector<Task> tasks;
  for (const MutantInfo* m : mutants) {
    for (const Job& job : ptovec::generator::DefaultSuite()) {
      if (!Affects(*m, job.op->name) || (!only_op.empty() && job.op->name != only_op) ||
          ptovec::tools::EnumerableInputs(*job.op, job.pair) != 0)
        continue;
      const auto same = [&](const Task& t) {
        return t.mutant == m && t.jobs.front().op == job.op &&
               t.jobs.front().pair.Whole() == job.pair.Whole();
      };
      const auto at = std::find_if(tasks.begin(), tasks.end(), same);
      if (at == tasks.end()) {
        tasks.push_back({m, {job}});
      } else {
        at->jobs.push_back(job);
      }
    }
  }
  std::vector<nlohmann::ordered_json> lines(tasks.size());
  std::vector<std::uint64_t> runs(tasks.size(), 0);
  std::vector<std::uint64_t> passed(tasks.size(), 0);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> error{false};
  const auto work = [&] {
    for (std::size_t t = next++; t < tasks.size(); t = next++) {
      const Task& task = tasks[t];
      const Job& job = task.jobs.front();
      nlohmann::ordered_json j;
      j["mutant"] = task.mutant->name;
      j["op"] = job.op->name;
      j["src"] = ptovec::oracle::Format(job.pair.src).name;
      j["dst"] = ptovec::oracle::Format(job.pair.dst).name;
      const bool affected = std::any_of(task.jobs.begin(), task.jobs.end(), [&](const Job& k) {
        return DiffersOnDefaultDomain(*task.mutant, k);
      });
      j["affected"] = affected;
      if (affected) {
        try {
          MutantDevice device(*task.mutant);
          nlohmann::ordered_json passing = nlohmann::ordered_json::array();
          nlohmann::ordered_json tests_to_fail = nlohmann::ordered_json::array();
          for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
            ptovec::tools::ShrinkOptions options;
            options.op = job.op;
            options.pair = job.pair.Whole();
            options.seed = seed;
            options.tests = tests;
            const ptovec::tools::ShrinkResult r = ptovec::tools::ShrinkProperty(device, options);
            ++runs[t];
            if (!r.failed) {
              ++passed[t];
              passing.push_back(seed);
            }
            tests_to_fail.push_back(r.tests);
          }
          j["seeds"] = seeds;
          j["passed_seeds"] = passing;
          j["tests"] = tests_to_fail;
        } catch (const std::exception& e) {
          j["error"] = e.what();
          error = true;
        }
      }
      lines[t] = std::move(j);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < threads && k < tasks.size(); ++k) pool.emplace_back(work);
  work();
  for (std::thread& th : pool) th.join();
  std::uint64_t all_runs = 0;
  std::uint64_t all_passed = 0;
  std::uint64_t pairs = 0;
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    std::cout << lines[t].dump() << "\n";
    all_runs += runs[t];
    all_passed += passed[t];
    if (lines[t]["affected"].get<bool>()) ++pairs;
  }
  nlohmann::ordered_json summary;
  summary["mutants"] = mutants.size();
  summary["affected_pairs"] = pairs;
  summary["seeds"] = seeds;
  summary["runs"] = all_runs;
  summary["passed"] = all_passed;
  std::cout << summary.dump() << "\n";
  if (error) return 2;
  return all_passed == 0 ? 0 : 1;
}

}  // namespace
