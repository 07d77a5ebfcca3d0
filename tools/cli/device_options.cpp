// The device options shared by `ptovec run` and `ptovec shrink`, and the judging options shared
// by run, check and shrink.
#include <charconv>
#include <cmath>

#include "commands.hpp"
#include "ptovec/generator/cases.hpp"
#include "ptovec/tools/compare.hpp"
#include "ptovec/tools/device.hpp"
#include "ptovec/tools/known_differences.hpp"

namespace ptovec::cli {

void AddDeviceOptions(CLI::App& app, DeviceArgs& args) {
  app.add_option("--dut", args.dut, "the device: a shared library implementing ptovec_dut.h");
  app.add_option("--dut-arg", args.dut_arg, "text passed to the library's ptovec_dut_init");
  app.add_option("--dut-cmd", args.dut_cmd,
                 "the device: a program speaking schemas/dut-protocol.md on stdin/stdout");
  app.add_option("--dut-timeout", args.dut_timeout,
                 "seconds without any answer before the device counts as hung and fails the gate "
                 "(a --dut-cmd program: per answer; a --dut library: per batch, then per case "
                 "when replayed; default 60, 0 = no limit)");
  app.add_flag("--in-process", args.in_process,
               "call the --dut library inside ptovec instead of in a device host process: "
               "faster, but a crash of the library kills ptovec and a hang is never detected");
}

void CheckDeviceArgs(const DeviceArgs& args) {
  if (args.dut.empty() == args.dut_cmd.empty()) {
    throw generator::InputError("give exactly one of --dut LIB.so and --dut-cmd \"PROGRAM ARGS\"");
  }
  if (args.in_process && args.dut.empty()) {
    throw generator::InputError("--in-process goes with --dut only");
  }
  if (!args.dut_arg.empty() && args.dut.empty()) {
    throw generator::InputError("--dut-arg goes with --dut only");
  }
  if (!(args.dut_timeout >= 0) || !std::isfinite(args.dut_timeout) || args.dut_timeout > 2000000) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, args.dut_timeout);
    throw generator::InputError("--dut-timeout " + std::string(buf, r.ptr) +
                                " is out of range (accepted: seconds from 0 to 2000000; 0 = no "
                                "limit)");
  }
}

std::unique_ptr<tools::Device> OpenDevice(const DeviceArgs& args) {
  tools::CommandDeviceOptions options;
  options.answer_timeout = args.dut_timeout;
  if (!args.dut.empty()) {
    if (args.in_process) return tools::OpenLibraryDevice(args.dut, args.dut_arg);
    tools::IsolatedDeviceOptions isolated;
    isolated.timeout = args.dut_timeout;
    return tools::OpenIsolatedLibraryDevice(args.dut, args.dut_arg, isolated);
  }
  return tools::OpenCommandDevice(args.dut_cmd, options);
}

void AddJudgeOptions(CLI::App& app, JudgeArgs& args) {
  app.add_option("--compare", args.compare,
                 "what must agree: word+flags (default: the word and all five status bits) or "
                 "word (words only, for a device without a status register; reports say so)");
  app.add_option("--flags", args.flags,
                 "compare only these status bits with the word (NV,DZ,OF,UF,NX comma-separated, "
                 "e.g. NV,OF for a device that raises only those); the others are ignored");
  app.add_option("--known-differences", args.known_differences,
                 "waive a mismatch where the device gives a behaviour model's exact answer: a "
                 "built-in model (ieee754, riscv, x86, arm) or a file (a path with '/' or ending "
                 "in .json; schemas/known-differences-format.md); repeatable. Waived vectors are "
                 "counted per deviation (or a file's shape rule), apart; anything else still "
                 "fails")
      ->take_all();
  app.add_flag("--allow-unsupported", args.allow_unsupported,
               "unsupported answers (a device that implements only some pairs, modes or Sat "
               "values) do not fail and are never a counterexample; reports and JUnit (skipped) "
               "say how many");
  app.add_flag("--no-diagnosis", args.no_diagnosis,
               "do not diagnose the mismatches: the report has no causes (docs/bring-up.md, "
               "Diagnosis), only its symptom groups; the diagnosis costs nothing on a passing run");
}

tools::Judge MakeJudge(const JudgeArgs& args) {
  tools::Judge judge;
  judge.policy = tools::ParseComparePolicy(args.compare, args.flags);
  judge.known = tools::LoadKnownDifferences(args.known_differences);
  judge.allow_unsupported = args.allow_unsupported;
  judge.diagnose = !args.no_diagnosis;
  return judge;
}

}  // namespace ptovec::cli
