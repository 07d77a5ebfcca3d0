// ptovec: the command line. Every command derives its ops, types and slots from the op registry.
//
// Exit status: 0 success; 1 a checked thing failed (eval --batch with a bad line); 2 usage or
// input errors (unknown op/type/mode, illegal pair, malformed word, unreadable file).
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/merge.hpp"
#include "ptovec/generator/ops.hpp"
#include "ptovec/generator/schema.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/suite_folder.hpp"
#include "ptovec/tools/merge_results.hpp"

namespace {

using namespace ptovec::generator;
namespace oracle = ptovec::oracle;

using ptovec::cli::Fail;
using ptovec::cli::kExitMismatch;
using ptovec::cli::kExitUsage;
using ptovec::cli::kWholeNumber;
using ptovec::cli::ProgressWanted;

// --samples: 1 .. 2^32 (more distinct tuples than that is not a sample any more).
const CLI::Validator kSampleCount(
    [](std::string& text) -> std::string {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
          text.size() > 10 || std::stoull(text) < 1 || std::stoull(text) > (1ULL << 32)) {
        return "'" + text + "' is not a sample count (accepted: 1..4294967296)";
      }
      return {};
    },
    "1..2^32");

// ---- eval ----

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
std::vector<Case> CasesFromArgs(EvalArgs a) {
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
      throw InputError(a.op + " has no rounding mode (its vectors are RNE, Sat off): --rmode all "
                       "does not apply");
    }
    modes.clear();
    for (const auto m : oracle::kAllRoundingModes) modes.emplace_back(oracle::RoundingModeName(m));
  }
  std::vector<Case> cases;
  for (std::size_t i = 0; i < a.inputs.size(); i += slots) {
    const std::vector<std::string> group(a.inputs.begin() + static_cast<std::ptrdiff_t>(i),
                                         a.inputs.begin() + static_cast<std::ptrdiff_t>(i + slots));
    for (const std::string& mode : modes) {
      for (const bool sat : sats) cases.push_back(MakeCase(a.op, a.src, a.dst, mode, sat, group));
    }
  }
  return cases;
}

int RunEvalBatch(const std::string& path) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) {
      return Fail("--batch " + path + " is a directory (expected a file of eval lines, or - for "
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
    if (const std::size_t at = line.find("ptovec eval "); at != std::string::npos &&
        line.find_first_of(" \t", first) >= at) {
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
      for (const Case& c : CasesFromArgs(args)) {
        std::cout << EvalLineJson(c, EvaluateCase(c)).dump() << "\n";
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

// ---- list ----

// The ops and pairs `list` shows: --op, --src and --dst narrow them (each checked by name).
struct ListFilter {
  std::string op, src, dst;
};

int RunList(bool as_json, const SamplingOptions& sampling, const ListFilter& filter) {
  if (!filter.op.empty()) RequireOp(filter.op);
  std::optional<TileDataType> src;
  std::optional<TileDataType> dst;
  if (!filter.src.empty()) src = RequireType(filter.src, "--src");
  if (!filter.dst.empty()) dst = RequireType(filter.dst, "--dst");
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const OpDef& op : AllOps()) {
    if (!filter.op.empty() && op.name != filter.op) continue;
    nlohmann::ordered_json entry;
    entry["op"] = op.name;
    entry["instruction"] = op.instruction;
    entry["seed_function"] = op.seed_function;
    entry["seed_source"] = op.seed_source;
    entry["summary"] = op.summary;
    nlohmann::ordered_json slots = nlohmann::ordered_json::array();
    for (const Slot& s : op.slots) {
      std::string type = s.role == SlotRole::Source        ? "src"
                         : s.role == SlotRole::Destination ? "dst"
                                                           : std::string(oracle::Format(s.fixed_type).name);
      slots.push_back({{"name", s.name}, {"type", type}, {"description", s.description}});
    }
    entry["slots"] = slots;
    entry["controls"] = ControlsFor(op).size();
    nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
    for (const TypePair& p : op.legal_pairs) {
      if ((src && p.src != *src) || (dst && p.dst != *dst)) continue;
      const bool in_default = std::find(op.default_suite_pairs.begin(), op.default_suite_pairs.end(),
                                        p) != op.default_suite_pairs.end();
      nlohmann::ordered_json pair = {{"src", oracle::Format(p.src).name},
                                     {"dst", oracle::Format(p.dst).name},
                                     {"default_suite", in_default},
                                     {"vectors", VectorCount({&op, p}, sampling)}};
      if (op.pair_note) {
        if (const std::string note = op.pair_note(p); !note.empty()) pair["note"] = note;
      }
      pairs.push_back(pair);
    }
    entry["pairs"] = pairs;
    if (!pairs.empty()) out.push_back(entry);
  }
  if (out.empty()) {
    return Fail("no legal pair matches --op '" + filter.op + "' --src '" + filter.src +
                "' --dst '" + filter.dst + "' (`ptovec list` shows every pair)");
  }
  if (as_json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::uint64_t suite_total = 0;
  for (const auto& entry : out) {
    std::cout << entry["op"].get<std::string>() << "  (" << entry["instruction"].get<std::string>()
              << "; " << entry["seed_function"].get<std::string>() << ", seed "
              << entry["seed_source"].get<std::string>() << ")\n    "
              << entry["summary"].get<std::string>() << "\n    inputs:";
    for (const auto& s : entry["slots"]) {
      std::cout << " " << s["name"].get<std::string>() << ":" << s["type"].get<std::string>();
    }
    std::cout << "; controls per input: " << entry["controls"].get<std::size_t>()
              << "\n    pairs (src -> dst: vectors; * = in the default suite):\n";
    std::string note;  // one note per op, printed once after its pairs, each such pair marked
    for (const auto& p : entry["pairs"]) {
      const bool star = p["default_suite"].get<bool>();
      if (star) suite_total += p["vectors"].get<std::uint64_t>();
      std::cout << "     " << (star ? "* " : "  ") << p["src"].get<std::string>() << " -> "
                << p["dst"].get<std::string>() << ": " << p["vectors"].get<std::uint64_t>()
                << (p.contains("note") ? "  (raw copy, see note)" : "") << "\n";
      if (p.contains("note") && note.empty()) note = p["note"].get<std::string>();
    }
    if (!note.empty()) {
      // The note names the first such destination; say it of all of them.
      std::cout << "    note: " << entry["op"].get<std::string>() << " to any type but e8m0 "
                << note.substr(note.find("copies ")) << "\n";
    }
  }
  std::cout << (filter.op.empty() && filter.src.empty() && filter.dst.empty()
                    ? "default suite: "
                    : "default-suite pairs shown: ")
            << suite_total << " vectors (--samples " << sampling.samples << ")\n";
  return 0;
}

// ---- generate ----

struct GenerateArgs {
  std::string op;
  std::string src;
  std::string dst;
  std::string format = "bin";
  std::string out;  // default: vectors/default for the whole suite, else DefaultOutFor()
  std::uint64_t seed = 1;
  std::uint64_t samples = 100000;
  std::string rmode = "all";
  std::string sat = "both";
  std::string shard;  // "K/N" or empty
  unsigned threads = 0;
  bool quiet = false;
};

std::vector<Job> SelectJobs(const GenerateArgs& a) {
  std::optional<TileDataType> src;
  std::optional<TileDataType> dst;
  if (!a.src.empty()) src = RequireType(a.src, "--src");
  if (!a.dst.empty()) dst = RequireType(a.dst, "--dst");
  std::vector<Job> jobs;
  if (!a.op.empty()) {
    const OpDef& op = RequireOp(a.op);
    if (src && dst) {
      if (!IsLegalPair(op, {*src, *dst})) {
        throw InputError(op.name + " does not accept " + a.src + " -> " + a.dst +
                         " (`ptovec list` shows every pair)");
      }
      return {{&op, {*src, *dst}}};
    }
    for (const TypePair& p : op.default_suite_pairs) {
      if ((!src || p.src == *src) && (!dst || p.dst == *dst)) jobs.push_back({&op, p});
    }
  } else {
    for (const Job& j : DefaultSuite()) {
      if ((!src || j.pair.src == *src) && (!dst || j.pair.dst == *dst)) jobs.push_back(j);
    }
  }
  if (jobs.empty()) {
    throw InputError("no pair of the default suite matches --src '" + a.src + "' --dst '" + a.dst +
                     "' (give both --src and --dst to pick any legal pair; `ptovec list`)");
  }
  return jobs;
}

// The default --out: the default suite's folder only for the whole default suite; a partial
// generate goes to a folder named after its selection ("vectors/tcvt_fp32_e8m0",
// "vectors/tcvt", "vectors/any_fp16_any"), so it never lands in vectors/default by accident.
// A shard goes to its own folder: "<that folder>_shard<K>of<N>" ("vectors/default_shard0of4").
std::string DefaultOutFor(const GenerateArgs& a, const std::optional<ShardSelection>& shard) {
  const auto part = [](const std::string& s) { return s.empty() ? std::string("any") : s; };
  std::string out;
  if (a.op.empty() && a.src.empty() && a.dst.empty()) {
    out = "vectors/default";
  } else if (a.src.empty() && a.dst.empty()) {
    out = "vectors/" + a.op;
  } else {
    out = "vectors/" + part(a.op) + "_" + part(a.src) + "_" + part(a.dst);
  }
  if (shard) out += "_shard" + std::to_string(shard->index) + "of" + std::to_string(shard->of);
  return out;
}

int RunGenerate(const GenerateArgs& a) {
  GenerateOptions options;
  if (a.format == "bin") {
    options.binary = true, options.json = false;
  } else if (a.format == "json") {
    options.binary = false, options.json = true;
  } else if (a.format == "both") {
    options.binary = true, options.json = true;
  } else {
    return Fail("unknown --format '" + a.format + "' (accepted: bin, json, both)");
  }
  if (a.samples == 0) return Fail("--samples must be at least 1 (got 0)");
  options.controls = ParseControlFilter(a.rmode, a.sat);
  if (!a.shard.empty()) options.shard = ParseShardSelection(a.shard);
  const std::vector<Job> jobs = SelectJobs(a);
  const std::string out = a.out.empty() ? DefaultOutFor(a, options.shard) : a.out;
  options.out_dir = out;
  options.sampling = {a.seed, a.samples};
  options.threads = a.threads;
  options.progress = !a.quiet && ProgressWanted();
  const auto files = GenerateSuite(jobs, options);
  std::uint64_t vectors = 0;
  std::uint64_t bytes = 0;
  for (const auto& f : files) {
    bytes += f.bytes;
    if (f.format == (options.binary ? "bin" : "json")) vectors += f.count;
  }
  std::cerr << "ptovec: wrote " << files.size() << " file(s), " << vectors << " vectors, " << bytes
            << " bytes, and manifest.json to " << out;
  const std::size_t listed = ReadManifest(options.out_dir / "manifest.json").files.size();
  if (listed > files.size()) {
    std::cerr << " (the suite there now has " << listed << " files)";
  }
  std::cerr << "\n";
  return 0;
}

// ---- merge ----

int RunMerge(const std::vector<std::string>& folders, const std::string& out, bool quiet) {
  if (out.empty()) return Fail("--out is required (a new or empty folder for the merged suite)");
  std::vector<std::filesystem::path> paths(folders.begin(), folders.end());
  // Results files of runs of the shards are checked for presence first, so a merge that could
  // not join them writes nothing; a merge that fails later removes the --out folder it made.
  const auto results = ptovec::tools::ShardResultsFiles(paths);
  std::error_code error;
  const bool made_out = !std::filesystem::exists(out, error);
  struct RemoveOnFailure {
    std::filesystem::path folder;
    bool armed;
    ~RemoveOnFailure() {
      std::error_code ignored;
      if (armed) std::filesystem::remove_all(folder, ignored);
    }
  } guard{out, made_out};
  const auto files = MergeShards(paths, out, !quiet && ProgressWanted());
  std::uint64_t bytes = 0;
  for (const auto& f : files) bytes += f.bytes;
  std::cerr << "ptovec: merged " << folders.size() << " shard folders into " << files.size()
            << " file(s), " << bytes << " bytes, and manifest.json in " << out;
  if (results) {
    const std::filesystem::path target = std::filesystem::path(out) / results->front().filename();
    ptovec::tools::MergeShardResults(paths, *results, out, target);
    std::cerr << ", and their results in " << target.string();
  }
  guard.armed = false;
  std::cerr << "\n";
  return 0;
}

// ---- schema ----

int RunSchema(const std::string& name) {
  const auto schema = SchemaByName(name);
  if (!schema) {
    std::string names;
    for (const std::string& n : SchemaNames()) names += (names.empty() ? "" : ", ") + n;
    return Fail("unknown schema '" + name + "' (accepted: " + names + ")");
  }
  std::cout << schema->dump(2) << "\n";
  return 0;
}

}  // namespace

namespace ptovec::cli {

int Fail(const std::string& message) {
  std::cerr << "ptovec: error: " << message << "\n";
  return kExitUsage;
}

bool ProgressWanted() {
  const char* ci = std::getenv("CI");
  return ::isatty(STDERR_FILENO) != 0 && (ci == nullptr || *ci == '\0');
}

const CLI::Validator kWholeNumber(
    [](std::string& text) -> std::string {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
        return "'" + text + "' is not a whole number (accepted: 0, 1, 2, ...)";
      }
      return {};
    },
    "WHOLE NUMBER");

}  // namespace ptovec::cli

int main(int argc, char** argv) {
  CLI::App app{"ptovec: exact conformance vectors for the PTO ISA numeric profile"};
  app.require_subcommand(1);
  app.set_version_flag("--version", PTOVEC_VERSION);

  GenerateArgs gen;
  CLI::App* generate = app.add_subcommand(
      "generate", "write vector files and manifest.json (with no --op: the whole default suite)");
  generate->add_option("--op", gen.op, "only this op (" + OpNamesList() + ")");
  generate->add_option("--src", gen.src, "only this source type");
  generate->add_option("--dst", gen.dst, "only this destination type");
  generate->add_option("--format", gen.format, "bin, json or both (default bin)");
  generate->add_option("--out", gen.out,
                       "output folder (default vectors/default for the whole default suite, "
                       "else vectors/<op>_<src>_<dst> of the selection); a folder holding a "
                       "suite is added to, never narrowed");
  generate->add_option("--seed", gen.seed, "sampling seed (default 1)")->check(kWholeNumber);
  generate->add_option("--samples", gen.samples,
                       "sampled input tuples per sampled pair (default 100000)")
      ->check(kSampleCount);
  generate->add_option("--rmode", gen.rmode,
                       "only these rounding modes, comma-separated (RNE,RTZ) or all (default "
                       "all); ops without a mode keep their one control");
  generate->add_option("--sat", gen.sat, "only Sat off, on, or both (default both)");
  generate->add_option("--shard", gen.shard,
                       "write only shard K/N (K from 0) of every file, into its own folder "
                       "(default <out>_shard<K>of<N>); `ptovec merge` joins the N folders into "
                       "the unsharded files, byte for byte");
  generate->add_option("--threads", gen.threads,
                       "worker threads (default: all cores; never changes the output)")
      ->check(kWholeNumber);
  generate->add_flag("--quiet", gen.quiet, "no progress on stderr");

  bool list_json = false;
  std::uint64_t list_samples = 100000;
  CLI::App* list = app.add_subcommand("list", "ops, legal type pairs and vector counts");
  list->add_flag("--json", list_json, "machine-readable output");
  ListFilter list_filter;
  list->add_option("--op", list_filter.op, "only this op");
  list->add_option("--src", list_filter.src, "only pairs from this source type");
  list->add_option("--dst", list_filter.dst, "only pairs to this destination type");
  list->add_option("--samples", list_samples, "samples assumed for sampled pairs (default 100000)")
      ->check(kSampleCount);

  EvalArgs eval_args;
  std::string batch;
  CLI::App* eval = app.add_subcommand(
      "eval", "evaluate cases and print one JSON line each (--batch FILE or - for stdin). Note: "
              "tcvt to any type but e8m0 copies the word's bits (TileProfileConvert's rule); "
              "use --op encode to convert a value into fp32, fp16, bf16, e4m3, hif8 or an "
              "integer type");
  AddEvalOptions(*eval, eval_args);
  eval->add_option("--batch", batch, "read one case per line (the arguments of eval) from FILE");

  std::vector<std::string> merge_folders;
  std::string merge_out;
  bool merge_quiet = false;
  CLI::App* merge = app.add_subcommand(
      "merge", "join the N shard folders of `generate --shard K/N` into the unsharded suite, "
               "byte for byte, and the results files of runs of them (one per folder) into the "
               "results of a run of that suite");
  merge->add_option("shards", merge_folders, "the shard folders, in any order")->required();
  merge->add_option("--out", merge_out, "output folder (new or empty)")->required();
  merge->add_flag("--quiet", merge_quiet, "no progress on stderr");

  std::string schema_name;
  CLI::App* schema = app.add_subcommand(
      "schema", "print the JSON Schema of a file format (schemas/*.schema.json are copies)");
  schema->add_option("name", schema_name, "vectors, manifest, eval, binary-header, results or results-binary-header")->required();

  const std::vector<ptovec::cli::Command> commands = {ptovec::cli::AddCheckCommand(app),
                                                     ptovec::cli::AddRunCommand(app),
                                                     ptovec::cli::AddShrinkCommand(app)};

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return Fail(e.what());
  }

  try {
    if (generate->parsed()) return RunGenerate(gen);
    if (list->parsed()) return RunList(list_json, {1, list_samples}, list_filter);
    if (schema->parsed()) return RunSchema(schema_name);
    if (merge->parsed()) return RunMerge(merge_folders, merge_out, merge_quiet);
    for (const ptovec::cli::Command& c : commands) {
      if (c.app->parsed()) return c.run();
    }
    if (eval->parsed()) {
      if (!batch.empty()) {
        if (!eval_args.op.empty() || !eval_args.inputs.empty()) {
          return Fail("--batch takes its cases from the file; give no other eval arguments");
        }
        return RunEvalBatch(batch);
      }
      // Every case is checked before anything is printed: a bad word prints nothing.
      std::vector<std::pair<Case, ptovec::oracle::Encoded>> results;
      for (const Case& c : CasesFromArgs(eval_args)) results.emplace_back(c, EvaluateCase(c));
      for (const auto& [c, r] : results) std::cout << EvalLineJson(c, r).dump() << "\n";
      // Decimal inputs that are not a code's value exactly: say which code stands for them.
      if (!results.empty()) {
        const Case& c = results.front().first;
        std::size_t k = 0;
        for (const std::string& text : eval_args.inputs) {
          const std::size_t slot = k % c.op->slots.size();
          if (text == "both" || text == "on" || text == "off") continue;
          ++k;
          const TileDataType type = c.op->slots[slot].TypeFor(c.pair);
          const auto d = ptovec::generator::ParseDecimalInput(text, type, c.op->slots[slot].name);
          if (d && !d->exact) {
            std::cerr << "ptovec: note: " << text << " is not exactly a value of "
                      << ptovec::oracle::Format(type).name << "; it is taken as the nearest (RNE) "
                      << HexWord(d->code, type) << " = "
                      << ptovec::generator::ValueText(type, d->code) << "\n";
          }
        }
      }
      if (!results.empty() && results.front().first.op->pair_note) {
        const Case& c = results.front().first;
        if (const std::string note = c.op->pair_note(c.pair); !note.empty()) {
          std::cerr << "ptovec: note: " << note << "\n";
        }
      }
      return 0;
    }
  } catch (const InputError& e) {
    return Fail(e.what());
  } catch (const std::exception& e) {
    return Fail(e.what());
  }
  return kExitUsage;
}
