// ptovec eval: evaluate cases given on the command line or in a batch file, one JSON line each.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "eval_line.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/writers.hpp"
#include "ptovec/tools/known_differences.hpp"

namespace {

using namespace ptovec::generator;
namespace oracle = ptovec::oracle;

using ptovec::cli::AddEvalOptions;
using ptovec::cli::CasesFromArgs;
using ptovec::cli::EvalArgs;
using ptovec::cli::EvalBatchLine;
using ptovec::cli::EvalCases;
using ptovec::cli::Fail;
using ptovec::cli::kExitMismatch;

int RunEvalBatch(const std::string& path, const std::string& edition) {
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
    if (EvalBatchLine(std::move(line), ++number, std::cout, std::cerr, any_failed, edition)) {
      ++cases;
    }
    if (!std::cout) return any_failed ? kExitMismatch : 0;  // its reader went away (EPIPE)
  }
  if (cases == 0) {
    return Fail("no cases in --batch " + (path == "-" ? std::string("stdin") : path) +
                " (expected one line of eval arguments per case; blank and # lines are skipped)");
  }
  return any_failed ? kExitMismatch : 0;
}

// --model: a built-in model or a known-differences file with a "model".
std::optional<ptovec::tools::KnownModel> LoadModel(const std::string& model) {
  if (model.empty()) return std::nullopt;
  const bool file = model.find('/') != std::string::npos ||
                    (model.size() > 5 && model.substr(model.size() - 5) == ".json");
  if (!file && ptovec::oracle::FindBuiltinModel(model) == nullptr) {
    throw InputError("--model '" + model + "' is not a built-in model (built in: " +
                     ptovec::tools::BuiltinKnownDifferenceSetsList() +
                     "; a known-differences file is named by a path with '/' or ending in .json)");
  }
  if (file && !std::ifstream(model)) {
    throw InputError("--model " + model +
                     ": cannot read the file (give a readable known-differences JSON file with a "
                     "\"model\", or a built-in model)");
  }
  ptovec::tools::KnownDifferences known = ptovec::tools::LoadKnownDifferences({model});
  if (known.models.empty()) {
    throw InputError("--model " + model +
                     ": the file has shape rules but no \"model\" (give a built-in model: " +
                     ptovec::tools::BuiltinKnownDifferenceSetsList() +
                     ", or a file with a \"model\")");
  }
  return known.models.front();
}

// One eval invocation: --batch FILE, or the cases of the command line.
int RunEval(const EvalArgs& eval_args, const std::string& batch, const std::string& model_arg) {
  const std::optional<ptovec::tools::KnownModel> model = LoadModel(model_arg);
  if (!batch.empty()) {
    if (!eval_args.op.empty() || !eval_args.inputs.empty()) {
      return Fail("--batch takes its cases from the file; give no other eval arguments");
    }
    if (model)
      return Fail("--model is not taken with --batch (give the cases on the command line)");
    RequireEdition(eval_args.edition);  // a bad --edition: one line, not per line
    return RunEvalBatch(batch, eval_args.edition);
  }
  // Every case is checked before anything is printed: a bad word prints nothing.
  const EvalCases parsed = CasesFromArgs(eval_args);
  std::vector<std::pair<Case, ptovec::oracle::Encoded>> results;
  for (const Case& c : parsed.cases) results.emplace_back(c, EvaluateCase(c));
  for (const auto& [c, r] : results) {
    nlohmann::ordered_json line = EvalLineJson(c, r);
    if (model) {
      line["model"] = ModelLineJson(
          c, model->name, EvaluateModel(*c.op, c.pair, c.in, c.control, model->behaviour));
    }
    std::cout << line.dump() << "\n";
  }
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
  auto model = std::make_shared<std::string>();
  CLI::App* eval = app.add_subcommand(
      "eval",
      "evaluate cases and print one JSON line each (--batch FILE or - for stdin). Note: "
      "in edition 0.58.3 (the default) tcvt to any type but e8m0 copies the word's bits "
      "(TileProfileConvert's rule); use --op encode to convert a value into fp32, fp16, bf16, "
      "e4m3, hif8 or an integer type, or --edition 2026-09, whose tcvt converts by value");
  AddEvalOptions(*eval, *eval_args);
  eval->add_option("--batch", *batch, "read one case per line (the arguments of eval) from FILE");
  eval->add_option("--model", *model,
                   "also give a behaviour model's answer (ieee754, riscv, x86, arm, or a "
                   "known-differences file with a \"model\"): its word, flags and the deviations "
                   "that made it differ from the profile (docs/semantics.md)");
  Command c;
  c.app = eval;
  c.run = Guarded([eval_args, batch, model] { return RunEval(*eval_args, *batch, *model); });
  return c;
}

}  // namespace ptovec::cli
