// ptovec: the command line. Every command lives in its own cmd_*.cpp and derives its ops, types
// and slots from the op registry; this file holds what they share and the dispatch.
//
// Exit status: 0 success; 1 a checked thing failed (a mismatch, eval --batch with a bad line); 2
// usage or input errors (unknown op/type/mode, illegal pair, malformed word, unreadable file),
// after which every file is as the command found it.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ptovec/generator/escape.hpp"
#include "ptovec/generator/interrupts.hpp"

namespace ptovec::cli {

int Fail(const std::string& message) {
  // Escaped once more: a message from any library (nlohmann_json quotes raw bytes of a file it
  // failed to parse) stays one printable UTF-8 line in a CI log.
  std::cerr << "ptovec: error: " << generator::EscapeText(message) << "\n";
  return kExitUsage;
}

std::function<int()> Guarded(std::function<int()> run) {
  return [run = std::move(run)] {
    try {
      return run();
    } catch (const std::exception& e) {
      return Fail(e.what());
    }
  };
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

const CLI::Validator kSampleCount(
    [](std::string& text) -> std::string {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
          text.size() > 10 || std::stoull(text) < 1 || std::stoull(text) > (1ULL << 32)) {
        return "'" + text + "' is not a sample count (accepted: 1..4294967296)";
      }
      return {};
    },
    "1..2^32");

}  // namespace ptovec::cli

int main(int argc, char** argv) {
  // Before any thread starts: SIGINT and SIGTERM undo the command's file changes and exit 130 or
  // 143 (generator/interrupts.hpp).
  ptovec::generator::InstallInterruptHandling();
  CLI::App app{"ptovec: exact conformance vectors for the PTO ISA numeric profile"};
  app.require_subcommand(1);
  app.set_version_flag("--version", PTOVEC_VERSION);
  using namespace ptovec::cli;
  // In the order --help lists them.
  const std::vector<Command> commands = {
      AddGenerateCommand(app), AddListCommand(app),   AddEvalCommand(app), AddMergeCommand(app),
      AddSchemaCommand(app),   AddCheckCommand(app),  AddRunCommand(app),  AddShrinkCommand(app),
      AddCoverageCommand(app), AddReportCommand(app), AddDiffCommand(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (argc == 1) {  // bare `ptovec`: name the commands and where they are described
      std::string names;
      for (const Command& c : commands) names += (names.empty() ? "" : ", ") + c.app->get_name();
      return Fail("a command is required (" + names + "); `ptovec --help` describes them");
    }
    return Fail(e.what());
  } catch (const CLI::ParseError& e) {
    return Fail(e.what());
  }
  for (const Command& c : commands) {
    if (c.app->parsed()) {
      ptovec::generator::SetCommandName(c.app->get_name());
      const int status = c.run();
      if (status != kExitUsage) {
        ptovec::generator::FinishFileChanges();
        return status;
      }
      // A command that failed changes no file: what it wrote or replaced is put back.
      const std::string problem = ptovec::generator::UndoFileChanges();
      if (!problem.empty()) Fail(problem);
      return status;
    }
  }
  return kExitUsage;
}
