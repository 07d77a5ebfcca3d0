// ptovec eval: evaluate cases given on the command line or in a batch file, one JSON line each.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/writers.hpp"

namespace {

using namespace ptovec::generator;
namespace oracle = ptovec::oracle;

using ptovec::cli::Fail;
using ptovec::cli::kExitMismatch;

struct EvalArgs {
  std::string op;
  std::string src;
  std::string dst;
  std::string rmode = "RNE";
  bool sat = false;
  std::vector<std::string> inputs;
};

void AddEvalOptions(CLI::App& app, EvalArgs& a) {
  app.add_option("--op", a.op, "op name (" + OpNamesList() + ")");
  app.add_option("--src", a.src, "source type (e.g. fp16)");
  app.add_option("--dst", a.dst, "destination type (e.g. e8m0)");
  app.add_option("--rmode", a.rmode,
                 "rounding mode: RNE RTM RTP RTZ RNA RTO RHB, or all (one line per mode; "
                 "default RNE)");
  app.add_flag("--sat", a.sat,
               "saturate (Sat = 1); --sat both: one line for Sat off, then Sat on (with --rmode "
               "all: every mode, each with both)");
  app.add_option("inputs", a.inputs,
                 "input words in slot order: hex with 0x (0x3c00), or a decimal value (449, "
                 "-0.75, 1e-3, -0, inf) rounded to the nearest code of the slot's type (RNE; "
                 "a note on stderr says when that is not the value exactly)");
}

// The cases of one eval invocation: the positional words, taken slots.size() at a time.
// The cases of one eval invocation, and a note for each decimal input that is not exactly a code's
// value (which code stands for it).
struct EvalCases {
  std::vector<Case> cases;
  std::vector<std::string> notes;
};

EvalCases CasesFromArgs(EvalArgs a) {
  if (a.op.empty()) throw InputError("--op is required (accepted: " + OpNamesList() + ")");
  if (a.src.empty()) throw InputError("--src is required (`ptovec list` shows the pairs)");
  if (a.dst.empty()) throw InputError("--dst is required (`ptovec list` shows the pairs)");
  // --sat takes no value of its own, so `--sat both` (or on, off) leaves the word among the
  // inputs, where no input can be such a word.
  std::vector<bool> sats = {a.sat};
  for (auto it = a.inputs.begin(); it != a.inputs.end(); ++it) {
    if (*it != "both" && *it != "on" && *it != "off") continue;
    if (!a.sat) {
      throw InputError("'" + *it + "' is a Sat value, not an input word: write --sat " + *it);
    }
    sats = *it == "both" ? std::vector<bool>{false, true} : std::vector<bool>{*it == "on"};
    a.inputs.erase(it);
    break;
  }
  if (a.inputs.empty()) {
    throw InputError("no input words given (hex words such as 0x3c00, or decimal values)");
  }
  const std::size_t slots = RequireOp(a.op).slots.size();
  if (a.inputs.size() % slots != 0) {
    // MakeCase names the slots and the count in its message.
    MakeCase(a.op, a.src, a.dst, a.rmode, a.sat, a.inputs);
  }
  // --rmode all: each input under every mode, in mode order (the op must have controls).
  std::vector<std::string> modes = {a.rmode};
  if (a.rmode == "all") {
    if (!RequireOp(a.op).uses_controls) {
      throw InputError(a.op +
                       " has no rounding mode (its vectors are RNE, Sat off): --rmode all "
                       "does not apply");
    }
    modes.clear();
    for (const auto m : oracle::kAllRoundingModes) modes.emplace_back(oracle::RoundingModeName(m));
  }
  EvalCases out;
  for (std::size_t i = 0; i < a.inputs.size(); i += slots) {
    const std::vector<std::string> group(a.inputs.begin() + static_cast<std::ptrdiff_t>(i),
                                         a.inputs.begin() + static_cast<std::ptrdiff_t>(i + slots));
    for (const std::string& mode : modes) {
      for (const bool sat : sats) {
        out.cases.push_back(MakeCase(a.op, a.src, a.dst, mode, sat, group));
      }
    }
    const Case& c = out.cases.back();
    for (std::size_t k = 0; k < slots; ++k) {
      const TileDataType type = c.op->slots[k].TypeFor(c.pair);
      const auto d = ParseDecimalInput(group[k], type, c.op->slots[k].name);
      if (d && !d->exact) {
        out.notes.push_back(group[k] + " is not exactly a value of " +
                            std::string(oracle::Format(type).name) +
                            "; it is taken as the nearest (RNE) " + HexWord(d->code, type) + " = " +
                            ValueText(type, d->code));
      }
    }
  }
  return out;
}

int RunEvalBatch(const std::string& path) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      return Fail("--batch " + path +
                  " is a directory (expected a file of eval lines, or - for "
                  "stdin)");
    }
    file.open(path);
    if (!file) return Fail("cannot read --batch file '" + path + "'");
    in = &file;
  }
  bool any_failed = false;
  std::string line;
  std::uint64_t number = 0;
  std::uint64_t cases = 0;
  while (std::getline(*in, line)) {
    ++number;
    // Blank lines and # comments are skipped; a reproduce line of a report ("ptovec eval --op
    // ...", with any path before ptovec) is taken as its arguments.
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (const std::size_t at = line.find("ptovec eval ");
        at != std::string::npos && line.find_first_of(" \t", first) >= at) {
      line.erase(0, at + std::string("ptovec eval ").size());
    }
    ++cases;
    try {
      EvalArgs args;
      CLI::App parser{"eval line"};
      AddEvalOptions(parser, args);
      try {
        parser.parse(line, false);
      } catch (const CLI::CallForHelp&) {
        throw InputError("--help is not a case (expected the arguments of `ptovec eval`)");
      } catch (const CLI::CallForAllHelp&) {
        throw InputError("--help-all is not a case (expected the arguments of `ptovec eval`)");
      } catch (const CLI::ParseError& e) {
        throw InputError(e.what());
      }
      const EvalCases parsed = CasesFromArgs(args);
      for (const Case& c : parsed.cases) {
        std::cout << EvalLineJson(c, EvaluateCase(c)).dump() << "\n";
      }
      for (const std::string& note : parsed.notes) {
        std::cerr << "ptovec: note: line " << number << ": " << note << "\n";
      }
    } catch (const std::exception& e) {
      any_failed = true;
      nlohmann::ordered_json error;
      error["line"] = number;
      error["error"] = e.what();
      std::cout << error.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                << "\n";
    }
  }
  if (cases == 0) {
    return Fail("no cases in --batch " + (path == "-" ? std::string("stdin") : path) +
                " (expected one line of eval arguments per case; blank and # lines are skipped)");
  }
  return any_failed ? kExitMismatch : 0;
}

// One eval invocation: --batch FILE, or the cases of the command line.
int RunEval(const EvalArgs& eval_args, const std::string& batch) {
  if (!batch.empty()) {
    if (!eval_args.op.empty() || !eval_args.inputs.empty()) {
      return Fail("--batch takes its cases from the file; give no other eval arguments");
    }
    return RunEvalBatch(batch);
  }
  // Every case is checked before anything is printed: a bad word prints nothing.
  const EvalCases parsed = CasesFromArgs(eval_args);
  std::vector<std::pair<Case, ptovec::oracle::Encoded>> results;
  for (const Case& c : parsed.cases) results.emplace_back(c, EvaluateCase(c));
  for (const auto& [c, r] : results) std::cout << EvalLineJson(c, r).dump() << "\n";
  for (const std::string& note : parsed.notes) std::cerr << "ptovec: note: " << note << "\n";
  if (!results.empty() && results.front().first.op->pair_note) {
    const Case& c = results.front().first;
    if (const std::string note = c.op->pair_note(c.pair); !note.empty()) {
      std::cerr << "ptovec: note: " << note << "\n";
    }
  }
  return 0;
}

}  // namespace

namespace ptovec::cli {

Command AddEvalCommand(CLI::App& app) {
  auto eval_args = std::make_shared<EvalArgs>();
  auto batch = std::make_shared<std::string>();
  CLI::App* eval = app.add_subcommand(
      "eval",
      "evaluate cases and print one JSON line each (--batch FILE or - for stdin). Note: "
      "tcvt to any type but e8m0 copies the word's bits (TileProfileConvert's rule); "
      "use --op encode to convert a value into fp32, fp16, bf16, e4m3, hif8 or an "
      "integer type");
  AddEvalOptions(*eval, *eval_args);
  eval->add_option("--batch", *batch, "read one case per line (the arguments of eval) from FILE");
  Command c;
  c.app = eval;
  c.run = Guarded([eval_args, batch] { return RunEval(*eval_args, *batch); });
  return c;
}

}  // namespace ptovec::cli
