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
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/shrink.hpp"

namespace ptovec::cli {

namespace {

using generator::InputError;

struct ShrinkArgs {
  DeviceArgs device;
  std::string op;
  std::string src;
  std::string dst;
  std::uint64_t seed = 1;
  std::uint64_t tests = 10000;
  std::string out;
  std::string format = "bin";
  bool json = false;
  std::string from;
  std::string vectors;
  std::string rmode;
  std::string sat;
  JudgeArgs judge;
  std::string signature;  // --signature: only failures with this triage signature
  std::string classes;    // --class: only failures of these input classes
  bool triage = false;    // --from --triage: shrink every triage group
};

// The judge of --compare/--flags/--known-differences/--allow-unsupported, --signature (checked
// against the op: --signature needs --op) and --class.
tools::Judge ShrinkJudge(const ShrinkArgs& a) {
  tools::Judge judge = MakeJudge(a.judge);
  if (!a.signature.empty()) {
    if (a.op.empty()) {
      throw InputError("--signature needs --op (a signature names the op's slots and classes)");
    }
    judge.signature = tools::CheckSignatureText(generator::RequireOp(a.op), a.signature);
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
    j["simplest"] = r.simplest;  // the least failing case of its whole (enumerated) pair
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
  const generator::TypePair pair{generator::RequireType(a.src, "--src"),
                                 generator::RequireType(a.dst, "--dst")};
  if (!generator::IsLegalPair(op, pair)) {
    throw InputError(op.name + " does not accept " + a.src + " -> " + a.dst +
                     " (`ptovec list` shows every pair)");
  }
  return pair;
}

int RunProperty(const ShrinkArgs& a, bool json_file) {
  const generator::OpDef& op = generator::RequireOp(a.op);
  const std::optional<generator::TypePair> pair = SelectedPair(a, op);
  if (a.tests == 0) throw InputError("--tests must be at least 1 (got 0)");
  const generator::ControlFilter controls = generator::ParseControlFilter(a.rmode, a.sat);
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
  tools::Judge judge = ShrinkJudge(a);  // a bad option never starts the device
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

// The vector files a results file answers, one per section in its order: each section's file
// taken by name from --vectors (a folder, or the file itself), else from the paths the results
// header records (`ptovec run` writes them), else from the results file's folder.
generator::VectorSelection FromVectors(const ShrinkArgs& a, const std::filesystem::path& results) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(results, error)) {
    throw InputError(
        "--from " + results.string() + " " +
        (std::filesystem::exists(results, error) ? "is not a regular file" : "does not exist") +
        " (expected the results file of a `ptovec run`)");
  }
  const tools::ResultsReader reader(results);
  std::vector<std::filesystem::path> places;
  std::string where;
  if (!a.vectors.empty()) {
    places = {a.vectors};
    where = "--vectors " + a.vectors;
  } else if (!reader.vectors().empty()) {
    places = reader.vectors();
    for (const auto& p : places) where += (where.empty() ? "" : ", ") + p.string();
    where = "the vectors its header names (" + where + ")";
  } else {
    places = {results.parent_path().empty() ? std::filesystem::path(".") : results.parent_path()};
    where = "its folder " + places.front().string() + " (its header names no vectors)";
  }
  generator::VectorSelection selection;
  for (const tools::ResultsSection& section : reader.sections()) {
    std::optional<std::filesystem::path> found;
    for (const std::filesystem::path& place : places) {
      if (std::filesystem::is_directory(place, error)) {
        if (std::filesystem::is_regular_file(place / section.file, error)) {
          found = place / section.file;
        }
      } else if (place.filename() == section.file) {
        found = place;
      }
      if (found) break;
    }
    if (!found) {
      throw InputError("--from " + results.string() + " answers vector file " + section.file +
                       ", which is not in " + where +
                       ": give shrink --vectors the folder or file the run read");
    }
    selection.paths.push_back(*found);
  }
  if (selection.paths.empty()) {
    throw InputError("--from " + results.string() + " answers no vector file (nothing to shrink)");
  }
  return selection;
}

int RunFrom(const ShrinkArgs& a, bool json_file) {
  const std::filesystem::path results = a.from;
  const generator::VectorSelection vectors = FromVectors(a, results);
  const generator::OpDef* only_op = a.op.empty() ? nullptr : &generator::RequireOp(a.op);
  std::optional<generator::TileDataType> only_src;
  std::optional<generator::TileDataType> only_dst;
  if (only_op != nullptr) {
    if (const auto pair = SelectedPair(a, *only_op)) {
      only_src = pair->src;
      only_dst = pair->dst;
    }
  } else {
    if (!a.src.empty()) only_src = generator::RequireType(a.src, "--src");
    if (!a.dst.empty()) only_dst = generator::RequireType(a.dst, "--dst");
  }
  const bool filtered = only_op || only_src || only_dst;
  const tools::Judge judge = ShrinkJudge(a);
  const generator::ControlFilter controls = generator::ParseControlFilter(
      a.rmode.empty() ? "all" : a.rmode, a.sat.empty() ? "both" : a.sat);
  // Every failure of the results file as the judge sees it, grouped by triage signature: the
  // first failure of each (op, pair), or with --triage of each group, in results order. An
  // unsupported record is a start only without --allow-unsupported.
  const tools::CheckReport report =
      tools::CheckResults(vectors, results, 0, false, {}, controls, judge);
  std::vector<const tools::Mismatch*> firsts;
  std::vector<std::optional<std::string>> signatures;  // per start, with --triage
  for (const tools::TriageGroup& g : report.groups) {
    const tools::Mismatch& m = g.first;
    if (m.verdict == tools::Verdict::Unsupported && judge.allow_unsupported) continue;
    if (only_op && m.c.op != only_op) continue;
    if (only_src && m.c.pair.src != *only_src) continue;
    if (only_dst && m.c.pair.dst != *only_dst) continue;
    if (!judge.Counts(m.c, m.expected, m.got)) continue;  // --signature, --class
    if (a.triage) {
      firsts.push_back(&m);
      signatures.push_back(tools::SignatureText(*m.c.op, m.signature));
      continue;
    }
    const auto earlier = std::find_if(firsts.begin(), firsts.end(), [&](const tools::Mismatch* f) {
      return f->c.op == m.c.op && f->c.pair.Whole() == m.c.pair.Whole();
    });
    if (earlier == firsts.end()) {
      firsts.push_back(&m);
      signatures.emplace_back();
    } else if ((*earlier)->verdict == tools::Verdict::Unsupported &&
               m.verdict != tools::Verdict::Unsupported) {
      *earlier = &m;  // a wrong answer of the pair before an unsupported one
    }
  }
  const std::uint64_t failures =
      report.mismatched + (judge.allow_unsupported ? 0 : report.unsupported);
  if (firsts.size() > 1 && !a.out.empty()) {
    throw InputError("--out names one file but " + std::to_string(firsts.size()) +
                     (a.triage ? " triage groups" : " (op, pair)s") +
                     " fail; give no --out (files are named shrunk-<op>-<src>-<dst>.bin"
                     "; with --triage shrunk-<op>-<src>-<dst>-<group>.bin)");
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  if (firsts.empty() && filtered) {
    // Does the results file hold a section the selection names at all?
    const tools::CheckReport& sections = report;
    std::string listed;
    bool any = false;
    for (const tools::FileTally& f : sections.per_file) {
      const std::string name = f.op->name + " " + std::string(oracle::Format(f.pair.src).name) +
                               " -> " + std::string(oracle::Format(f.pair.dst).name);
      if (listed.find(name) == std::string::npos) listed += (listed.empty() ? "" : ", ") + name;
      if ((!only_op || f.op == only_op) && (!only_src || f.pair.src == *only_src) &&
          (!only_dst || f.pair.dst == *only_dst)) {
        any = true;
      }
    }
    if (!any) {
      std::string wanted = only_op ? only_op->name : std::string("any op");
      if (only_src || only_dst) {
        wanted += " " + (only_src ? std::string(oracle::Format(*only_src).name) : "any") + " -> " +
                  (only_dst ? std::string(oracle::Format(*only_dst).name) : "any");
      }
      throw InputError("no section for " + wanted + " in " + results.string() +
                       " (sections: " + (listed.empty() ? std::string("none") : listed) + ")");
    }
  }
  if (firsts.empty()) {
    if (a.json) {
      std::cout << nlohmann::ordered_json{{"from", results.string()},
                                          {"mismatches", 0},
                                          {"results", all}}
                       .dump()
                << "\n";
    } else {
      std::cout << "ptovec shrink: no failures to shrink in " << results.string()
                << (only_op || only_src || only_dst ? " for the selected op and types" : "")
                << (judge.plain() ? "" : " as judged here") << "\n"
                << JudgeLine(judge);
      if (report.waived > 0) {
        std::cout << report.waived << " mismatches waived by known differences\n";
      }
      if (report.unsupported > 0 && judge.allow_unsupported) {
        std::cout << report.unsupported << " unsupported answers skipped (--allow-unsupported)\n";
      }
    }
    return kExitOk;
  }
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  std::vector<tools::ShrinkResult> shrunk;
  for (std::size_t k = 0; k < firsts.size(); ++k) {
    // Over the whole pair: a split pair's file group (OpDef::file_groups) is a file's, not a
    // bound on the search.
    generator::Case c = firsts[k]->c;
    c.pair = c.pair.Whole();
    tools::Judge group_judge = judge;
    if (signatures[k]) group_judge.signature = signatures[k];
    shrunk.push_back(tools::ShrinkFrom(*device, c, 100000, group_judge, controls));
  }
  device->Close();  // a device that fails at its end is an error, whatever it answered
  if (std::none_of(shrunk.begin(), shrunk.end(), [](const auto& r) { return r.failed; })) {
    // Nothing was reproduced: there is nothing to report but that.
    const tools::Mismatch& m = *firsts.front();
    throw InputError(
        "the device now agrees with the oracle on " +
        (firsts.size() == 1 ? std::string("the mismatch")
                            : "all " + std::to_string(firsts.size()) + " first mismatches") +
        " of " + results.string() + " (not reproducible; first: " + m.file + " vector " +
        std::to_string(m.index) + ", " + generator::EvalCommand(m.c) + ")");
  }
  std::vector<std::string> replaced;
  for (std::size_t k = 0; k < firsts.size(); ++k) {
    const tools::Mismatch* m = firsts[k];
    const tools::ShrinkResult& r = shrunk[k];
    std::string out = a.out;
    if (a.triage && out.empty() && r.minimal) {
      out = tools::DefaultCounterexampleFileName(r.minimal->c, json_file);
      out.insert(out.rfind('.'), "-" + std::to_string(k + 1));
    }
    const std::string file = WriteResultFile(r, out, json_file, a.seed, replaced);
    if (a.json) {
      nlohmann::ordered_json j;
      j["file_in_results"] = m->file;
      j["record"] = m->index;
      if (signatures[k]) j["signature"] = *signatures[k];
      j["reproduced"] = r.failed;
      j.update(ResultJson(r, file));
      all.push_back(j);
    } else {
      std::cout << "ptovec shrink: from " << m->file << " vector " << m->index << " ("
                << m->c.op->name << " " << oracle::Format(m->c.pair.src).name << " -> "
                << oracle::Format(m->c.pair.dst).name << "), device " << device->Name() << "\n";
      if (signatures[k]) {
        std::cout << "triage group " << k + 1 << " of " << firsts.size() << ": " << *signatures[k]
                  << "\n";
      }
      std::cout << JudgeLine(judge);
      if (!r.failed) {
        std::cout << "the device now agrees with the oracle on this case (not reproducible): "
                  << generator::EvalCommand(m->c) << "\n";
      } else {
        tools::PrintShrinkResult(std::cout, r);
        std::cout << "wrote " << file << "\n";
      }
    }
  }
  if (a.json) {
    std::cout << nlohmann::ordered_json{{"from", results.string()},
                                        {"device", device->Name()},
                                        {"mismatches", failures},
                                        {"results", all}}
                     .dump()
              << "\n";
  }
  std::cout.flush();
  PrintReplaced(replaced);
  return kExitMismatch;  // the results file holds mismatches
}

int Shrink(const ShrinkArgs& a) {
  CheckDeviceArgs(a.device);
  bool json_file = false;
  if (a.format == "json") {
    json_file = true;
  } else if (a.format != "bin") {
    throw InputError("unknown --format '" + a.format + "' (accepted: bin, json)");
  }
  if (!a.from.empty()) return RunFrom(a, json_file);
  if (a.triage)
    throw InputError("--triage goes with --from RESULTS (it shrinks each triage group)");
  if (!a.vectors.empty()) throw InputError("--vectors goes with --from RESULTS only");
  if (a.op.empty()) {
    throw InputError("--op is required without --from (accepted: " + generator::OpNamesList() +
                     ")");
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
               "prints it (needs --op), e.g. 'input +normal; expected +inf OF|NX; got +largest "
               "OF|NX; word 1 code nearer zero; flags same'");
  s.add_option("--class", args->classes,
               "minimise only failures whose first input is of these classes (+normal, "
               "-subnormal, qnan, +int, ... comma-separated), e.g. +normal,+subnormal for "
               "positive finite inputs");
  s.add_flag("--triage", args->triage,
             "with --from: shrink every triage group of the results file (one per failure "
             "signature and pair) to its own simplest case, not only each pair's first failure");
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
