// ptovec shrink: the RapidCheck property "device equals oracle" over an op's whole input space,
// shrunk to a counterexample none of whose shrink candidates fails (tools/lib shrink.hpp); or,
// with --from RESULTS, the same shrinking from the first mismatch of each (op, pair) of a results
// file. Exit 0 all tests passed, 1 a counterexample, 2 usage, file or device errors (also a device
// that fails at its end, is not deterministic, or no longer reproduces any mismatch of --from).
#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "edition_option.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/shrink.hpp"
#include "shrink_command.hpp"

namespace ptovec::cli::shrink_command {

using generator::InputError;

namespace {

// The case a counterexample file holds (its `ptovec eval` line), or "" when `path` is no
// readable one-vector file.
std::string FileCase(const std::filesystem::path& path) {
  try {
    generator::VectorReader reader(path);
    std::vector<generator::VectorRecord> records;
    if (reader.Read(records, 2) != 1) return {};
    return generator::EvalCommand(records.front().c);
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace

// The judge of --compare/--flags/--known-differences/--allow-unsupported, --signature (checked
// against the op: --signature needs --op) and --class.
tools::Judge ShrinkJudge(const ShrinkArgs& a) {
  tools::Judge judge = MakeJudge(a.judge);
  if (!a.signature.empty()) {
    if (a.op.empty()) {
      throw InputError("--signature needs --op (a signature names the op's slots and classes)");
    }
    judge.signature =
        tools::CheckSignatureText(generator::RequireOp(a.op, a.resolved_edition), a.signature);
  }
  if (!a.classes.empty()) judge.input_classes = tools::ParseInputClasses(a.classes);
  return judge;
}

// One line saying how failures are judged, when it is not the default ("" otherwise).
std::string JudgeLine(const tools::Judge& judge) {
  std::string out;
  if (!judge.policy.full()) out += "compare: " + judge.policy.Describe() + "\n";
  if (!judge.known.empty()) {
    std::string sets;
    for (const std::string& set : judge.known.sets) sets += (sets.empty() ? "" : ", ") + set;
    out += "known differences waived: " + sets + "\n";
  }
  if (judge.allow_unsupported) out += "unsupported answers are not counterexamples\n";
  if (judge.signature) out += "only failures with signature: " + *judge.signature + "\n";
  if (judge.input_classes != 0) {
    std::string names;
    for (std::size_t k = 0; k < generator::kInputClasses; ++k) {
      if ((judge.input_classes >> k) & 1U)
        names += (names.empty() ? "" : ", ") + tools::InputClassName(k);
    }
    out += "only failures of input class: " + names + "\n";
  }
  return out;
}

// Writes the counterexample file of a result; returns its path ("" when nothing was found). A
// file it replaces adds a line to `replaced`, naming the case it held when that was another.
std::string WriteResultFile(const tools::ShrinkResult& r, const std::string& out, bool json_file,
                            std::uint64_t seed, std::vector<std::string>& replaced) {
  if (!r.minimal) return {};
  const std::filesystem::path path =
      out.empty()
          ? std::filesystem::path(tools::DefaultCounterexampleFileName(r.minimal->c, json_file))
          : std::filesystem::path(out);
  std::error_code error;
  const bool existed = std::filesystem::exists(std::filesystem::symlink_status(path, error));
  const std::string before = existed ? FileCase(path) : std::string();
  tools::WriteCounterexampleFile(path, *r.minimal, json_file, seed);
  if (existed) {
    const std::string held = before.empty() ? std::string("it held no one-vector file; not kept")
                             : before == generator::EvalCommand(r.minimal->c)
                                 ? std::string("it held the same case")
                                 : "it held another case, not kept: " + before;
    replaced.push_back("ptovec: replaced " + path.string() + " (" + held + ")");
  }
  return path.string();
}

// Prints the lines of WriteResultFile's replacements on stderr, once the command completes.
void PrintReplaced(const std::vector<std::string>& replaced) {
  for (const std::string& line : replaced) std::cerr << line << "\n";
}

nlohmann::ordered_json ResultJson(const tools::ShrinkResult& r, const std::string& file) {
  nlohmann::ordered_json j;
  j["passed"] = !r.failed;
  j["tests_run"] = r.tests;
  if (r.op != nullptr) {
    nlohmann::ordered_json search = nlohmann::ordered_json::array();
    for (const tools::ShrinkResult::SearchPart& part : r.search) {
      nlohmann::ordered_json p;
      p["kind"] = part.enumerated ? "enumerated" : "sampled";
      if (part.enumerated || r.sampled_pairs == 1) {
        p["src"] = oracle::Format(part.pair.src).name;
        p["dst"] = oracle::Format(part.pair.dst).name;
        const std::string group = generator::FileGroupName(*r.op, part.pair);
        if (!group.empty()) p["group"] = group;  // only this file group's inputs were drawn
      } else {
        p["pairs"] = r.sampled_pairs;
      }
      p["cases"] = part.cases;
      p["failing"] = part.failing;
      p["line"] = tools::SearchLine(r, part);
      search.push_back(p);
    }
    j["search"] = search;
    if (!r.left_out.empty()) {
      nlohmann::ordered_json left_out = nlohmann::ordered_json::array();
      for (const generator::TypePair p : r.left_out) left_out.push_back(tools::PairName(*r.op, p));
      j["left_out"] = left_out;  // no control among --rmode/--sat
    }
  }
  if (r.minimal) {
    j["counterexample"] = tools::CounterexampleJson(*r.minimal);
    j["original"] = tools::CounterexampleJson(*r.original);
    j["order"] = tools::kSimplestOrderName;
    j["simplest"] = r.simplest;            // the least failing case of its whole (enumerated) pair
    j["minimum"] = tools::MinimumKind(r);  // exact, local or stopped (the --triage summary's)
    j["shrink_steps"] = r.shrink_steps;
    j["order_steps"] = r.order_steps;
    j["candidates_tried"] = r.candidates_tried;
    j["minimal"] = r.local_minimum;  // kept for scripts: the same as local_minimum
    j["local_minimum"] = r.local_minimum;
    j["minimal_candidates"] = r.minimal_candidates;
    j["file"] = file;
  }
  return j;
}

// The pair --src/--dst name for `op`: both or neither, and legal for the op. Throws InputError.
std::optional<generator::TypePair> SelectedPair(const ShrinkArgs& a, const generator::OpDef& op) {
  if (a.src.empty() && a.dst.empty()) return std::nullopt;
  if (a.src.empty() || a.dst.empty()) {
    throw InputError("give both --src and --dst, or neither (any legal pair of " + op.name + ")");
  }
  const generator::TypePair pair{generator::RequireType(a.src, "--src", a.resolved_edition),
                                 generator::RequireType(a.dst, "--dst", a.resolved_edition)};
  if (!generator::IsLegalPair(op, pair)) {
    throw InputError(op.name + " does not accept " + a.src + " -> " + a.dst +
                     " (`ptovec list` shows every pair)");
  }
  return pair;
}

}  // namespace ptovec::cli::shrink_command

namespace ptovec::cli {

namespace {

using generator::InputError;
using shrink_command::JudgeLine;
using shrink_command::PrintReplaced;
using shrink_command::ResultJson;
using shrink_command::RunFrom;
using shrink_command::SelectedPair;
using shrink_command::ShrinkArgs;
using shrink_command::ShrinkJudge;
using shrink_command::WriteResultFile;

int RunProperty(const ShrinkArgs& a, bool json_file) {
  const generator::OpDef& op = generator::RequireOp(a.op, a.resolved_edition);
  const std::optional<generator::TypePair> pair = SelectedPair(a, op);
  if (a.tests == 0) throw InputError("--tests must be at least 1 (got 0)");
  tools::Judge judge = ShrinkJudge(a);  // a bad option never starts the device
  // A --signature's Sat is kept (a shrink of one triage group stays under the group's Sat).
  const generator::ControlFilter controls =
      tools::SignatureControls(generator::ParseControlFilter(a.rmode, a.sat), judge);
  // A pair (or a file group of one) with no control among --rmode/--sat is not searched, with a
  // note; a selection with none left is refused before the device starts (as `generate` does).
  const tools::ShrinkSelection selection = tools::SelectShrinkPairs(op, pair, controls);
  if (!selection.left_out.empty()) {
    std::string left_out;
    for (const generator::TypePair p : selection.left_out) {
      left_out += (left_out.empty() ? "" : ", ") + tools::PairName(op, p);
    }
    std::cerr << "ptovec: note: left out (no control among --rmode/--sat): " << left_out << "\n";
  }
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  tools::ShrinkOptions options;
  options.op = &op;
  options.pair = pair;
  options.seed = a.seed;
  options.tests = a.tests;
  options.controls = controls;
  options.judge = std::move(judge);
  const tools::ShrinkResult r = tools::ShrinkProperty(*device, options);
  device->Close();  // a device that fails at its end is an error, whatever it answered
  std::vector<std::string> replaced;
  const std::string file = WriteResultFile(r, a.out, json_file, a.seed, replaced);
  const std::string pair_text = pair ? std::string(oracle::Format(pair->src).name) + " -> " +
                                           std::string(oracle::Format(pair->dst).name)
                                     : std::string("any legal pair");
  if (a.json) {
    nlohmann::ordered_json j;
    j["device"] = device->Name();
    j["op"] = op.name;
    j["src"] = pair ? nlohmann::ordered_json(oracle::Format(pair->src).name) : nullptr;
    j["dst"] = pair ? nlohmann::ordered_json(oracle::Format(pair->dst).name) : nullptr;
    j["seed"] = a.seed;
    j["tests"] = a.tests;
    j.update(ResultJson(r, file));
    std::cout << j.dump() << "\n";
  } else {
    std::cout << "ptovec shrink: " << op.name << " (" << pair_text << "), device " << device->Name()
              << ", seed " << a.seed << ", up to " << a.tests
              << " sampled tests (enumerable pairs are enumerated)\n";
    std::cout << JudgeLine(options.judge);
    tools::PrintShrinkResult(std::cout, r);
    if (!file.empty()) std::cout << "wrote " << file << "\n";
  }
  std::cout.flush();
  PrintReplaced(replaced);
  return r.failed ? kExitMismatch : kExitOk;
}

// A --signature given as a report's triage line prints it: "[count  ]op src -> dst: signature"
// sets --op, --src and --dst (each, when also given, must agree) and keeps the signature.
ShrinkArgs WithTriageLinePrefix(ShrinkArgs a) {
  static const std::regex line(R"(^\s*(?:\d+\s+)?(\S+) (\S+) -> (\S+): (.*)$)");
  std::smatch m;
  if (a.signature.empty() || !std::regex_match(a.signature, m, line)) return a;
  const auto take = [&](std::string& option, const std::string& value, const char* name) {
    if (!option.empty() && option != value) {
      throw InputError("--signature names " + value + " as its " + name + " but --" + name +
                       " is " + option + " (give the triage line's op and types, or neither)");
    }
    option = value;
  };
  take(a.op, m[1].str(), "op");
  generator::RequireOp(a.op, a.resolved_edition);
  take(a.src, m[2].str(), "src");
  take(a.dst, m[3].str(), "dst");
  a.signature = m[4].str();
  return a;
}

// The edition names are looked up in: --edition; with --from the results file's (and --edition,
// when given, must agree with it, as `check --edition` does).
oracle::Edition ShrinkEdition(const ShrinkArgs& a) {
  if (a.from.empty()) {
    return a.edition.empty() ? oracle::kDefaultEdition : generator::RequireEdition(a.edition);
  }
  const oracle::Edition asked =
      a.edition.empty() ? oracle::kDefaultEdition : generator::RequireEdition(a.edition);
  oracle::Edition file = asked;
  try {
    file = tools::ResultsReader(a.from).edition();
  } catch (const std::exception&) {
    return asked;  // not a readable results file: --from's own checks say so, in their words
  }
  if (!a.edition.empty() && asked != file) {
    throw InputError("results file " + a.from + " is of edition " +
                     std::string(oracle::EditionName(file)) + ", --edition says " + a.edition);
  }
  return file;
}

int Shrink(const ShrinkArgs& given) {
  ShrinkArgs resolved = given;
  resolved.resolved_edition = ShrinkEdition(given);
  const ShrinkArgs a = WithTriageLinePrefix(resolved);
  CheckDeviceArgs(a.device);
  bool json_file = false;
  if (a.format == "json") {
    json_file = true;
  } else if (a.format != "bin") {
    throw InputError("unknown --format '" + a.format + "' (accepted: bin, json)");
  }
  if (!a.from.empty()) return RunFrom(a, json_file);
  for (const auto& [option, path] : {std::pair{"--report-json", a.report.report_json},
                                     std::pair{"--report-html", a.report.report_html}}) {
    if (!path.empty()) {
      throw InputError(std::string(option) +
                       " goes with --from RESULTS (the report of a results "
                       "file with its shrunk cases)");
    }
  }
  if (a.triage)
    throw InputError("--triage goes with --from RESULTS (it shrinks one failure of each cause)");
  if (!a.vectors.empty()) throw InputError("--vectors goes with --from RESULTS only");
  if (a.op.empty()) {
    throw InputError("--op is required without --from (accepted: " +
                     generator::OpNamesList(a.resolved_edition) + ")");
  }
  return RunProperty(a, json_file);
}

}  // namespace

Command AddShrinkCommand(CLI::App& app) {
  auto args = std::make_shared<ShrinkArgs>();
  Command c;
  c.app = app.add_subcommand(
      "shrink",
      "RapidCheck property \"device equals oracle\" over an op's input space; print and write the "
      "shrunk counterexample (exit 0 all passed, 1 counterexample, 2 error)");
  CLI::App& s = *c.app;
  AddDeviceOptions(s, args->device);
  s.add_option("--op", args->op, "the op (" + generator::OpNamesList() + "); with --from: only it");
  AddEditionOption(s, args->edition)
      ->description(
          "the specification edition of --op's input space and answers: " +
          oracle::EditionNamesList() +
          " (default 0.58.3, the seeds; with --from the results file's, which it must equal)");
  s.add_option("--src", args->src, "source type (with --dst; default: any legal pair)");
  s.add_option("--dst", args->dst, "destination type (with --src)");
  s.add_option("--seed", args->seed, "RapidCheck seed (default 1)")->check(kWholeNumber);
  s.add_option("--rmode", args->rmode,
               "only these rounding modes, comma-separated (default all); with --from: start "
               "only from records of these modes and move only to them");
  s.add_option("--sat", args->sat,
               "only Sat off, on or both (default both); with --from as --rmode");
  AddJudgeOptions(s, args->judge);
  s.add_option("--signature", args->signature,
               "minimise only failures with this triage signature, as a report's triage line "
               "prints it: with its op and types (then --op/--src/--dst are taken from it), e.g. "
               "'encode fp32 -> fp16: sat off; input +normal; expected +inf OF|NX; got +largest "
               "OF|NX; word 1 code nearer zero; flags same', or without them (needs --op); the "
               "shrink keeps its Sat");
  s.add_option("--class", args->classes,
               "minimise only failures whose first input is of these classes (+normal, "
               "-subnormal, qnan, +int, ... comma-separated), e.g. +normal,+subnormal for "
               "positive finite inputs");
  s.add_flag("--triage", args->triage,
             "with --from: shrink one failure of each cause of the results file (the report's "
             "diagnosis: an explained cause keeps to the failures its explanation reproduces, an "
             "unexplained one to its first vector's triage signature; then each unsupported "
             "group) to its own simplest case, not only each pair's first failure");
  s.add_option("--tests", args->tests,
               "sampled tests before the property passes (default 10000; pairs small enough to "
               "enumerate are enumerated whatever it says)")
      ->check(kWholeNumber);
  s.add_option("--out", args->out,
               "counterexample file (default shrunk-<op>-<src>-<dst>.bin, or .json; one that "
               "exists is replaced, and a line on stderr names the case it held)");
  s.add_option("--format", args->format, "counterexample file format: bin or json (default bin)");
  s.add_flag("--json", args->json, "print the whole result as one JSON object on stdout");
  s.add_option("--from", args->from,
               "start from the first mismatch of each (op, pair) of this results file");
  s.add_option("--vectors", args->vectors,
               "with --from: the vector file or folder the results answer, each section's file "
               "taken from it by name (default: the paths the results file records, else its "
               "folder)");
  s.add_option("--report-json", args->report.report_json,
               "with --from: write the results file's report with each shrunk case (cause, "
               "minimum, counterexample) as JSON to FILE (`ptovec schema report`)");
  s.add_option("--report-html", args->report.report_html,
               "with --from: write that report as one self-contained HTML page to FILE");
  c.run = [args] {
    try {
      return Shrink(*args);
    } catch (const std::exception& e) {
      return Fail(e.what());
    }
  };
  return c;
}

}  // namespace ptovec::cli
