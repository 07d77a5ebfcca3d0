// ptovec run (being built: issue 5).
#include "commands.hpp"

namespace ptovec::cli {

Command AddRunCommand(CLI::App& app) {
  Command c;
  c.app = app.add_subcommand("run", "(not built yet)");
  c.run = [] { return Fail("run is not built yet"); };
  return c;
}

}  // namespace ptovec::cli
