// ptovec check (being built: issue 5).
#include "commands.hpp"

namespace ptovec::cli {

Command AddCheckCommand(CLI::App& app) {
  Command c;
  c.app = app.add_subcommand("check", "(not built yet)");
  c.run = [] { return Fail("check is not built yet"); };
  return c;
}

}  // namespace ptovec::cli
