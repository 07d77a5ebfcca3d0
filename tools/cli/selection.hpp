// The selection options `generate` and `diff` share: --op --src --dst (which jobs), --seed
// --samples --suite (which inputs), --rmode --sat (which controls), --threads and --quiet; and
// the jobs they name in one edition's registry.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ptovec/generator/coverage.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/oracle/edition.hpp"

namespace ptovec::cli {

/// What --op/--src/--dst, --seed/--samples/--suite, --rmode/--sat, --threads and --quiet give.
struct SelectionArgs {
  std::string op;
  std::string src;
  std::string dst;
  std::uint64_t seed = 1;
  std::uint64_t samples = 100000;
  std::string rmode = "all";
  std::string sat = "both";
  unsigned threads = 0;
  bool quiet = false;
  std::string suite;  ///< "" (the default domains), "default" or "smoke"
  /// True when --op, --src or --dst narrows the selection.
  bool Narrowed() const { return !op.empty() || !src.empty() || !dst.empty(); }
};

/// Adds --op --src --dst to `app`, bound to `a`.
void AddJobOptions(CLI::App& app, SelectionArgs& a);
/// Adds --seed --samples --rmode --sat --threads --quiet --suite to `app`, bound to `a`.
/// `smoke_out` ends the --suite help (where generate writes the smoke suite; "" for nothing).
void AddInputOptions(CLI::App& app, SelectionArgs& a, const std::string& smoke_out);

/// "`ptovec list`", with --edition E when not the default edition.
std::string ListCommand(oracle::Edition edition);

/// The jobs --op/--src/--dst name in `edition`'s registry: with --op and both types, the pair's
/// file groups (any legal pair); otherwise the default suite's pairs that match. Throws
/// generator::InputError for an unknown op or type, an illegal pair or a selection of no pair.
std::vector<generator::Job> SelectJobs(const SelectionArgs& a, oracle::Edition edition);

/// The jobs without those none of whose controls `controls` (--rmode/--sat) keeps, with a note
/// on stderr unless --quiet; a selection left with no job at all is returned whole (GenerateSuite
/// refuses it naming the file). Prints the pair notes of a selection narrowed by --op/--src/--dst.
std::vector<generator::Job> KeepControlledJobs(std::vector<generator::Job> jobs,
                                               const generator::ControlFilter& controls,
                                               const SelectionArgs& a);

/// --suite smoke: the inputs coverage.hpp SelectSmokeInputs picks from each job's default domain
/// (this seed and --samples), set as options.selected with options.selection its notes. Returns
/// the cell counts of all the jobs.
generator::SmokeSelection SelectSmoke(const std::vector<generator::Job>& jobs,
                                      const SelectionArgs& a, generator::GenerateOptions& options);

/// Throws generator::InputError for a --suite other than "", default and smoke, and for
/// --samples 0.
void CheckInputOptions(const SelectionArgs& a);

}  // namespace ptovec::cli
