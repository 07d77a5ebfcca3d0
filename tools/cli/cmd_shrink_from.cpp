// `ptovec shrink --from RESULTS`: the failures of a results file (the first of each (op, pair), or
// with --triage of each cause and unsupported group) shrunk to their simplest cases, reported as
// text, JSON, and with --report-json/--report-html as the report model with its shrunk cases.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/generator/readers.hpp"
#include "ptovec/tools/check.hpp"
#include "ptovec/tools/check_outputs.hpp"
#include "ptovec/tools/check_report.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"
#include "ptovec/tools/results.hpp"
#include "ptovec/tools/shrink.hpp"
#include "shrink_command.hpp"

namespace ptovec::cli::shrink_command {

using generator::InputError;

namespace {

// The starts --op/--src/--dst select: --src and --dst both or neither with --op (and legal for
// it), either alone without.
tools::ShrinkFromFilter FromFilter(const ShrinkArgs& a) {
  tools::ShrinkFromFilter filter;
  filter.op = a.op.empty() ? nullptr : &generator::RequireOp(a.op, a.resolved_edition);
  filter.triage = a.triage;
  if (filter.op != nullptr) {
    if (const auto pair = SelectedPair(a, *filter.op)) {
      filter.src = pair->src;
      filter.dst = pair->dst;
    }
  } else {
    if (!a.src.empty()) filter.src = generator::RequireType(a.src, "--src", a.resolved_edition);
    if (!a.dst.empty()) filter.dst = generator::RequireType(a.dst, "--dst", a.resolved_edition);
  }
  return filter;
}

// "" when the results file was written by device `device` (or does not say by which), else a
// note naming both: its answers are another device's, so a failure in it, or none, says nothing
// of `device`.
std::string OtherDeviceNote(const std::string& device, const tools::CheckReport& report) {
  if (report.device.empty() || device == report.device) return {};
  return "the results are of device " + report.device + ", not " + device +
         " (--dut): `ptovec run --dut` this device first to shrink its failures";
}

// OtherDeviceNote of the --dut device (opened for its name).
std::string OtherDeviceNote(const ShrinkArgs& a, const tools::CheckReport& report) {
  if (report.device.empty()) return {};
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  const std::string name = device->Name();
  device->Close();
  return OtherDeviceNote(name, report);
}

// Prints that the results file holds no failure to shrink (as judged here).
void PrintNothingToShrink(const ShrinkArgs& a, const tools::ShrinkFromFilter& filter,
                          const tools::CheckReport& report, const tools::Judge& judge) {
  const std::string note = OtherDeviceNote(a, report);
  if (a.json) {
    nlohmann::ordered_json j{
        {"from", a.from}, {"mismatches", 0}, {"results", nlohmann::ordered_json::array()}};
    if (!note.empty()) j["note"] = note;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << "ptovec shrink: no failures to shrink in " << a.from
            << (filter.filtered() ? " for the selected op and types" : "")
            << (judge.plain() ? "" : " as judged here") << "\n"
            << JudgeLine(judge);
  if (!note.empty()) std::cout << "note: " << note << "\n";
  if (report.waived > 0) {
    std::cout << report.waived << " mismatches waived by known differences\n";
  }
  if (report.unsupported > 0 && judge.allow_unsupported) {
    std::cout << report.unsupported << " unsupported answers skipped (--allow-unsupported)\n";
  }
}

// The text report of start `k` and its result (written to `file`).
void PrintFromResult(const tools::ShrinkStarts& starts, std::size_t k, const tools::ShrinkResult& r,
                     const std::string& file, const std::string& device,
                     const tools::Judge& judge) {
  const tools::Mismatch& m = starts.starts[k];
  std::cout << "ptovec shrink: from " << m.file << " vector " << m.index << " (" << m.c.op->name
            << " " << oracle::Format(m.c.pair.src).name << " -> "
            << oracle::Format(m.c.pair.dst).name << "), device " << device << "\n";
  if (!starts.labels[k].empty()) std::cout << starts.labels[k] << "\n";
  std::cout << JudgeLine(judge);
  if (!r.failed) {
    std::cout << "the device now agrees with the oracle on this case (not reproducible): "
              << generator::EvalCommand(m.c) << "\n";
    const std::string note = OtherDeviceNote(device, starts.report);
    if (!note.empty()) std::cout << "note: " << note << "\n";
  } else {
    tools::PrintShrinkResult(std::cout, r);
    std::cout << "wrote " << file << "\n";
  }
}

// Writes each start's counterexample file and reports it (text, or JSON after the last); returns
// the files written, one per start ("" where nothing was reproduced).
std::vector<std::string> ReportFromResults(const ShrinkArgs& a, bool json_file,
                                           const tools::ShrinkStarts& starts,
                                           const std::vector<tools::ShrinkResult>& shrunk,
                                           const std::string& device, const tools::Judge& judge,
                                           std::vector<std::string>& replaced) {
  std::vector<std::string> files;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < starts.starts.size(); ++k) {
    const tools::ShrinkResult& r = shrunk[k];
    std::string out = a.out;
    if (a.triage && out.empty() && r.minimal) {
      out = tools::DefaultCounterexampleFileName(r.minimal->c, json_file);
      out.insert(out.rfind('.'), "-" + std::to_string(k + 1));
    }
    const std::string file = WriteResultFile(r, out, json_file, a.seed, replaced);
    files.push_back(file);
    if (!a.json) {
      PrintFromResult(starts, k, r, file, device, judge);
      continue;
    }
    nlohmann::ordered_json j;
    j["file_in_results"] = starts.starts[k].file;
    j["record"] = starts.starts[k].index;
    if (!starts.labels[k].empty()) j["triage"] = starts.labels[k];
    if (starts.signatures[k]) j["signature"] = *starts.signatures[k];
    j["reproduced"] = r.failed;
    j.update(ResultJson(r, file));
    all.push_back(j);
  }
  if (a.json) {
    nlohmann::ordered_json j{
        {"from", a.from}, {"device", device}, {"mismatches", starts.failures}, {"results", all}};
    const bool any_lost = std::any_of(shrunk.begin(), shrunk.end(),
                                      [](const tools::ShrinkResult& r) { return !r.failed; });
    const std::string note = OtherDeviceNote(device, starts.report);
    if (any_lost && !note.empty()) j["note"] = note;
    std::cout << j.dump() << "\n";
  }
  return files;
}

// Refuses --report-json/--report-html files that would overwrite an input or cannot be written,
// before anything runs.
void CheckReportFiles(const ShrinkArgs& a, const generator::VectorSelection& vectors) {
  std::vector<tools::OutputFile> outputs;
  if (!a.report.report_json.empty()) outputs.emplace_back("--report-json", a.report.report_json);
  if (!a.report.report_html.empty()) outputs.emplace_back("--report-html", a.report.report_html);
  if (outputs.empty()) return;
  std::vector<std::filesystem::path> inputs = tools::VectorInputFiles(vectors);
  inputs.emplace_back(a.from);
  tools::RefuseOverwritingInputs(outputs, inputs);
  for (const tools::OutputFile& output : outputs) tools::CheckOutputFolder(output);
}

// The report of the results file as shrink judged it, with its shrunk cases: the --triage table
// on stdout (text output) and the --report-json/--report-html files.
void FinishShrinkReport(const ShrinkArgs& a, const tools::ShrinkStarts& starts,
                        const generator::VectorSelection& vectors,
                        std::vector<tools::ShrunkCase> shrunk) {
  if (a.triage && !a.json) tools::PrintShrunkSummary(std::cout, shrunk);
  if (a.report.report_json.empty() && a.report.report_html.empty()) return;
  tools::CheckReport report = starts.report;
  report.environment = tools::VectorsEnvironment(vectors.paths);
  report.shrunk = std::move(shrunk);
  WriteReportFiles(report, a.report);
}

}  // namespace

int RunFrom(const ShrinkArgs& a, bool json_file) {
  const std::filesystem::path results = a.from;
  const generator::VectorSelection vectors = tools::ShrinkFromVectors(results, a.vectors);
  const tools::ShrinkFromFilter filter = FromFilter(a);
  const tools::Judge judge = ShrinkJudge(a);
  const generator::ControlFilter controls = generator::ParseControlFilter(
      a.rmode.empty() ? "all" : a.rmode, a.sat.empty() ? "both" : a.sat);
  CheckReportFiles(a, vectors);
  const tools::ShrinkStarts starts =
      tools::FindShrinkStarts(vectors, results, filter, judge, controls);
  if (starts.starts.size() > 1 && !a.out.empty()) {
    throw InputError("--out names one file but " + std::to_string(starts.starts.size()) +
                     (a.triage ? " causes" : " (op, pair)s") +
                     " fail; give no --out (files are named shrunk-<op>-<src>-<dst>.bin"
                     "; with --triage shrunk-<op>-<src>-<dst>-<cause>.bin)");
  }
  if (starts.starts.empty()) {
    PrintNothingToShrink(a, filter, starts.report, judge);
    FinishShrinkReport(a, starts, vectors, {});
    return kExitOk;
  }
  std::unique_ptr<tools::Device> device = OpenDevice(a.device);
  const std::vector<tools::ShrinkResult> shrunk =
      tools::ShrinkEachStart(*device, starts, results, judge, controls);
  std::vector<std::string> replaced;
  const std::vector<std::string> files =
      ReportFromResults(a, json_file, starts, shrunk, device->Name(), judge, replaced);
  FinishShrinkReport(a, starts, vectors, tools::ShrunkCases(starts, shrunk, files));
  std::cout.flush();
  PrintReplaced(replaced);
  return kExitMismatch;  // the results file holds mismatches
}

}  // namespace ptovec::cli::shrink_command
