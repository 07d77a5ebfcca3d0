// ptovec shrink (being built: issue 5).
#include "commands.hpp"

namespace ptovec::cli {

Command AddShrinkCommand(CLI::App& app) {
  Command c;
  c.app = app.add_subcommand("shrink", "(not built yet)");
  c.run = [] { return Fail("shrink is not built yet"); };
  return c;
}

}  // namespace ptovec::cli
