// One line of `ptovec eval --batch`: the eval arguments parsed (CLI11) and the cases built and
// evaluated. Shared by cmd_eval.cpp and the libFuzzer target tests/fuzz/fuzz_eval_line.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "ptovec/generator/cases.hpp"

namespace ptovec::cli {

/// The arguments of one eval invocation (command line or batch line).
struct EvalArgs {
  std::string edition;  ///< --edition ("" : the default edition)
  std::string op;
  std::string src;
  std::string dst;
  std::string rmode = "RNE";
  bool sat = false;
  std::vector<std::string> inputs;
};

/// Adds eval's options (--edition --op --src --dst --rmode --sat and the input words) to `app`,
/// bound to `a`.
void AddEvalOptions(CLI::App& app, EvalArgs& a);

/// The cases of one eval invocation, and a note for each decimal input that is not exactly a
/// code's value (which code stands for it).
struct EvalCases {
  std::vector<generator::Case> cases;
  std::vector<std::string> notes;
};

/// The cases of `a`: the input words taken slots.size() at a time, under each mode (--rmode all)
/// and Sat (--sat both). Throws generator::InputError naming the bad argument.
EvalCases CasesFromArgs(EvalArgs a);

/// Runs line `number` (from 1) of a --batch file: blank and # lines are skipped (returns false);
/// a reproduce line of a report ("ptovec eval --op ...", with any path before ptovec) is taken
/// as its arguments. Each case's JSON line goes to `out` (a bad line: one {"line", "error"} JSON
/// line, and `failed` set), each note to `err` ("ptovec: note: line N: ..."). Returns true for a
/// case line. A line without --edition is of `edition` (eval --edition with --batch: "" is the
/// default edition). Throws nothing but std::bad_alloc.
bool EvalBatchLine(std::string line, std::uint64_t number, std::ostream& out, std::ostream& err,
                   bool& failed, const std::string& edition = "");

}  // namespace ptovec::cli
