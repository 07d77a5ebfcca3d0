// The Python scripts ptovec runs (scripts.hpp).
#include "scripts.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/errors.hpp"

namespace ptovec::cli {

namespace {

// `text` in single quotes for /bin/sh (a quote inside as '\'').
std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::filesystem::path ToolScript(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path bindir(PTOVEC_INSTALL_BINDIR);
  const fs::path datadir(PTOVEC_INSTALL_DATADIR);
  if (!ec && bindir.is_relative()) {
    fs::path prefix = self.parent_path();
    for (const fs::path& part : bindir) {
      if (!part.empty() && part != ".") prefix = prefix.parent_path();
    }
    const fs::path installed =
        (datadir.is_absolute() ? datadir : prefix / datadir) / "ptovec" / name;
    if (fs::is_regular_file(installed, ec)) return installed;
  }
  return fs::path(PTOVEC_SOURCE_DIR) / "tools" / "cli" / name;
}

void DrawFromJson(const std::string& name, const std::string& json,
                  const std::filesystem::path& out) {
  struct Removed {
    std::filesystem::path path;
    ~Removed() {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  } input{out.string() + ".tmp-json"};
  {
    std::ofstream f(input.path, std::ios::binary);
    f << json;
    if (!f.flush()) throw generator::InputError("cannot write " + input.path.string());
  }
  generator::AtomicFile file(out);
  const std::string command = "/usr/bin/python3 " + Quoted(ToolScript(name).string()) + " " +
                              Quoted(input.path.string()) + " -";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw generator::InputError("cannot run " + command);
  std::array<char, 65536> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    file.Write(std::string_view(buffer.data(), n));
  }
  const int status = pclose(pipe);
  if (status != 0) {
    throw generator::InputError("the script " + ToolScript(name).string() + " failed (exit " +
                                std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                ") drawing " + out.string() +
                                "; it needs python3-matplotlib and python3-numpy "
                                "(scripts/install-deps installs them)");
  }
  file.Commit();
}

}  // namespace ptovec::cli
