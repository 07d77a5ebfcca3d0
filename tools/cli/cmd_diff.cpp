// ptovec diff --from E1 --to E2: what changes answer from one specification edition to another
// (docs/cli.md "diff"): the vectors of E2's selection under both editions, counted per pair, the
// simplest changed case of each with its two eval lines, and --out the changed vectors as E2's.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/suite.hpp"
#include "ptovec/generator/word_text.hpp"
#include "ptovec/oracle/edition.hpp"
#include "ptovec/oracle/rounding.hpp"
#include "ptovec/tools/edition_diff.hpp"
#include "selection.hpp"

namespace {

using ptovec::generator::Case;
using ptovec::generator::Encoded;
using ptovec::generator::InputError;
using ptovec::generator::Job;
using ptovec::oracle::Edition;
using ptovec::tools::GonePair;
using ptovec::tools::PairDiff;
using json = nlohmann::ordered_json;

struct DiffArgs : ptovec::cli::SelectionArgs {
  std::string from;
  std::string to;
  std::string out;   // --out DIR: the changed vectors as vector files of --to
  std::string json;  // --json FILE
};

// The edition an option names; an unknown name is refused as --edition's is.
Edition RequireEditionOption(const std::string& name, const std::string& option) {
  const auto edition = ptovec::oracle::ParseEdition(name);
  if (!edition) {
    throw InputError("unknown " + option + " '" + name +
                     "' (accepted: " + ptovec::oracle::EditionNamesList() + ")");
  }
  return *edition;
}

std::string Name(Edition e) { return std::string(ptovec::oracle::EditionName(e)); }

// The counts of the rows and the total line, in column order.
struct Counts {
  std::uint64_t vectors = 0, changed = 0, word = 0, flags = 0, unchanged = 0, fresh = 0;
  void Add(const PairDiff& d) {
    vectors += d.vectors, changed += d.changed, word += d.word, flags += d.flags;
    unchanged += d.unchanged, fresh += d.fresh;
  }
};

constexpr int kNameWidth = 28;
constexpr int kCountWidth = 12;

void PrintCounts(std::ostream& os, const std::string& name, const Counts& c) {
  os << std::left << std::setw(kNameWidth) << name << std::right;
  for (std::uint64_t v : {c.vectors, c.changed, c.word, c.flags, c.unchanged, c.fresh}) {
    os << ' ' << std::setw(kCountWidth) << v;
  }
}

std::string InputsText(const Case& c) {
  std::string text;
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    text +=
        (i == 0 ? "" : " ") + ptovec::generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair));
  }
  return text;
}

std::string AnswerText(const Case& c, Encoded e) {
  return "out " + ptovec::generator::HexWord(e.word, c.pair.dst) + " flags " +
         ptovec::generator::HexStatus(e.status) + " (" + ptovec::generator::FlagNames(e.status) +
         ")";
}

void PrintSimplest(std::ostream& os, const PairDiff& d, Edition from, Edition to) {
  const Case& c = *d.simplest;
  os << "  simplest changed: in " << InputsText(c) << ' '
     << ptovec::oracle::RoundingModeName(c.control.rounding_mode) << " Sat "
     << (c.control.saturating ? "on" : "off") << ": " << Name(from) << ' '
     << AnswerText(c, d.from_answer) << ", " << Name(to) << ' ' << AnswerText(c, d.to_answer)
     << "\n    " << ptovec::tools::EvalLineIn(c, from) << "\n    "
     << ptovec::tools::EvalLineIn(c, to) << "\n";
}

void PrintReport(std::ostream& os, const std::vector<PairDiff>& diffs,
                 const std::vector<GonePair>& gone, const DiffArgs& a, Edition from, Edition to) {
  os << "ptovec diff --from " << Name(from) << " --to " << Name(to) << ": seed " << a.seed
     << ", samples " << a.samples << ", suite " << (a.suite.empty() ? "default" : a.suite)
     << ", controls " << ptovec::generator::ParseControlFilter(a.rmode, a.sat).Describe() << "\n";
  os << std::left << std::setw(kNameWidth) << "pair" << std::right;
  for (const char* h : {"vectors", "changed", "word", "flags", "unchanged", "new"}) {
    os << ' ' << std::setw(kCountWidth) << h;
  }
  os << "\n";
  Counts total;
  for (const PairDiff& d : diffs) {
    Counts row;
    row.Add(d);
    total.Add(d);
    PrintCounts(os, ptovec::generator::JobBaseName(d.job), row);
    os << (d.from_op == nullptr ? "  (new: not in " + Name(from) + ")" : "") << "\n";
    if (d.simplest) PrintSimplest(os, d, from, to);
  }
  std::uint64_t gone_vectors = 0;
  for (const GonePair& g : gone) {
    os << std::left << std::setw(kNameWidth) << ptovec::generator::JobBaseName(g.job) << std::right
       << ' ' << std::setw(kCountWidth) << g.vectors << "  gone: " << g.reason << "\n";
    gone_vectors += g.vectors;
  }
  PrintCounts(os, "total", total);
  os << "\n";
  if (!gone.empty()) {
    os << "gone: " << ptovec::generator::Counted(gone.size(), "pair") << " of " << Name(from)
       << "'s selection, " << ptovec::generator::Counted(gone_vectors, "vector") << "\n";
  }
}

json CountsJson(const Counts& c) {
  return json{{"vectors", c.vectors}, {"changed", c.changed},     {"word", c.word},
              {"flags", c.flags},     {"unchanged", c.unchanged}, {"new", c.fresh}};
}

json CaseAnswers(const PairDiff& d, Edition from, Edition to) {
  const Case& c = *d.simplest;
  json in = json::array();
  for (std::size_t i = 0; i < c.op->slots.size(); ++i) {
    in.push_back(ptovec::generator::HexWord(c.in[i], c.op->slots[i].TypeFor(c.pair)));
  }
  const auto answer = [&](Encoded e) {
    return json{{"out", ptovec::generator::HexWord(e.word, c.pair.dst)},
                {"flags", ptovec::generator::HexStatus(e.status)}};
  };
  return json{{"in", in},
              {"rmode", ptovec::oracle::RoundingModeName(c.control.rounding_mode)},
              {"sat", c.control.saturating},
              {"from", answer(d.from_answer)},
              {"to", answer(d.to_answer)},
              {"eval_from", ptovec::tools::EvalLineIn(c, from)},
              {"eval_to", ptovec::tools::EvalLineIn(c, to)}};
}

json ReportJson(const std::vector<PairDiff>& diffs, const std::vector<GonePair>& gone,
                const DiffArgs& a, Edition from, Edition to) {
  json pairs = json::array();
  for (const PairDiff& d : diffs) {
    pairs.push_back({{"name", ptovec::generator::JobBaseName(d.job)},
                     {"op", d.job.op->name},
                     {"src", ptovec::oracle::Format(d.job.pair.src).name},
                     {"dst", ptovec::oracle::Format(d.job.pair.dst).name},
                     {"status", d.from_op == nullptr ? "new" : "compared"},
                     {"vectors", d.vectors},
                     {"changed", d.changed},
                     {"word", d.word},
                     {"flags", d.flags},
                     {"unchanged", d.unchanged},
                     {"new", d.fresh},
                     {"simplest", d.simplest ? CaseAnswers(d, from, to) : json(nullptr)}});
  }
  Counts total;
  for (const PairDiff& d : diffs) total.Add(d);
  json gone_list = json::array();
  for (const GonePair& g : gone) {
    gone_list.push_back({{"name", ptovec::generator::JobBaseName(g.job)},
                         {"op", g.job.op->name},
                         {"src", ptovec::oracle::Format(g.job.pair.src).name},
                         {"dst", ptovec::oracle::Format(g.job.pair.dst).name},
                         {"reason", g.reason},
                         {"vectors", g.vectors}});
  }
  return json{{"from", Name(from)},
              {"to", Name(to)},
              {"seed", a.seed},
              {"samples", a.samples},
              {"suite", a.suite.empty() ? "default" : a.suite},
              {"controls", ptovec::generator::ControlFilterJson(
                               ptovec::generator::ParseControlFilter(a.rmode, a.sat))},
              {"pairs", pairs},
              {"gone", gone_list},
              {"total", CountsJson(total)}};
}

// --out: the inputs with a changed vector, each under every control of its file (what a vector
// file holds), as vector files of --to with a manifest of suite "diff".
void WriteChanged(const std::vector<PairDiff>& diffs, const DiffArgs& a,
                  ptovec::generator::GenerateOptions options) {
  std::vector<Job> jobs;
  options.selected.clear();
  options.selection.clear();
  for (const PairDiff& d : diffs) {
    if (d.changed_inputs.empty()) continue;
    jobs.push_back(d.job);
    options.selected.push_back(
        std::make_shared<const std::vector<ptovec::generator::Inputs>>(d.changed_inputs));
  }
  if (jobs.empty()) {
    std::cerr << "ptovec: note: no vector changed; nothing written to " << a.out << "\n";
    return;
  }
  options.out_dir = a.out;
  options.suite = "diff";
  const auto files = ptovec::generator::GenerateSuite(jobs, options);
  std::uint64_t vectors = 0;
  for (const auto& f : files) vectors += f.count;
  std::cerr << "ptovec: wrote " << ptovec::generator::Counted(files.size(), "file") << ", "
            << ptovec::generator::Counted(vectors, "vector") << " and manifest.json to " << a.out
            << "\n";
}

int RunDiff(const DiffArgs& a) {
  const Edition from = RequireEditionOption(a.from, "--from");
  const Edition to = RequireEditionOption(a.to, "--to");
  if (from == to) {
    throw InputError("--from and --to are both " + a.to +
                     " (give two different editions: " + ptovec::oracle::EditionNamesList() + ")");
  }
  ptovec::cli::CheckInputOptions(a);
  ptovec::generator::GenerateOptions gen;
  gen.edition = to;
  gen.controls = ptovec::generator::ParseControlFilter(a.rmode, a.sat);
  gen.sampling = {a.seed, a.samples};
  gen.threads = a.threads;
  gen.progress = !a.quiet && ptovec::cli::ProgressWanted();
  const std::vector<Job> jobs =
      ptovec::cli::KeepControlledJobs(ptovec::cli::SelectJobs(a, to), gen.controls, a);
  if (a.suite == "smoke") ptovec::cli::SelectSmoke(jobs, a, gen);
  ptovec::tools::DiffOptions options{from,         to,        gen.sampling, gen.controls,
                                     gen.selected, a.threads, gen.progress, !a.out.empty()};
  const std::vector<PairDiff> diffs = ptovec::tools::DiffJobs(jobs, options);
  std::vector<Job> from_jobs;
  try {  // the same selection in --from (none when it names what --from lacks)
    from_jobs = ptovec::cli::SelectJobs(a, from);
  } catch (const InputError&) {
  }
  const std::vector<GonePair> gone = ptovec::tools::GoneJobs(from_jobs, jobs, options);
  std::ostringstream text;
  PrintReport(text, diffs, gone, a, from, to);
  if (!a.json.empty()) {
    ptovec::generator::WriteFileAtomically(a.json,
                                           ReportJson(diffs, gone, a, from, to).dump(2) + "\n");
  }
  if (!a.out.empty()) WriteChanged(diffs, a, gen);
  std::cout << text.str();
  return ptovec::cli::kExitOk;
}

}  // namespace

namespace ptovec::cli {

Command AddDiffCommand(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* diff = app.add_subcommand(
      "diff",
      "the vectors whose answer changes from one specification edition to another, per pair, "
      "with the simplest changed case and its two eval lines");
  diff->add_option("--from", args->from, "the older edition: " + oracle::EditionNamesList())
      ->required();
  diff->add_option("--to", args->to,
                   "the newer edition, whose selection is compared: " + oracle::EditionNamesList())
      ->required();
  AddJobOptions(*diff, *args);
  AddInputOptions(*diff, *args, "");
  diff->add_option("--out", args->out,
                   "write the inputs with a changed vector, under every control of their "
                   "file, as vector files of --to with a manifest (suite \"diff\")");
  diff->add_option("--json", args->json, "write the report as JSON to this file too");
  Command c;
  c.app = diff;
  c.run = Guarded([args] { return RunDiff(*args); });
  return c;
}

}  // namespace ptovec::cli
