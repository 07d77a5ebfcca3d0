// The Python scripts ptovec runs (scripts.hpp).
#include "scripts.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
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

namespace {

// Runs `python` on script `name` with a temporary copy of JSON text `json` (`OUT.tmp-json`,
// removed after) and "-"; what the script writes on its standard output becomes `out` (under a
// temporary name, renamed when the script exits 0). Returns the script's exit status (-1: killed).
int RunScript(const std::string& python, const std::string& name, const std::string& json,
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
  const std::string command = Quoted(python) + " " + Quoted(ToolScript(name).string()) + " " +
                              Quoted(input.path.string()) + " -";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (pipe == nullptr) throw generator::InputError("cannot run " + command);
  std::array<char, 65536> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) {
    file.Write(std::string_view(buffer.data(), n));
  }
  const int status = pclose(pipe.release());
  const int code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 0) file.Commit();
  return code;
}

}  // namespace

void DrawFromJson(const std::string& name, const std::string& json,
                  const std::filesystem::path& out) {
  if (const int code = RunScript("/usr/bin/python3", name, json, out); code != 0) {
    throw generator::InputError("the script " + ToolScript(name).string() + " failed (exit " +
                                std::to_string(code) + ") drawing " + out.string() +
                                "; it needs python3-matplotlib and python3-numpy "
                                "(scripts/install-deps installs them)");
  }
}

std::string VenvPython() {
  if (const char* python = std::getenv("PTOVEC_PYTHON"); python != nullptr && *python != '\0') {
    return python;
  }
  const std::filesystem::path venv =
      std::filesystem::path(PTOVEC_SOURCE_DIR) / ".venv" / "bin" / "python3";
  if (access(venv.c_str(), X_OK) == 0) return venv.string();
  return "python3";
}

void WriteUcisFromJson(const std::string& json, const std::filesystem::path& out) {
  const std::string python = VenvPython();
  const std::string how =
      "run scripts/install-deps (it installs the pyucis of "
      "scripts/venv-requirements.txt into .venv), or set PTOVEC_PYTHON to a "
      "Python that has it (pip install pyucis)";
  if (python.find('/') != std::string::npos && access(python.c_str(), X_OK) != 0) {
    throw generator::InputError("--ucis: PTOVEC_PYTHON " + python +
                                " is not an executable file (give a Python that has pyucis)");
  }
  const int code = RunScript(python, "coverage_ucis.py", json, out);
  if (code == 3) {  // coverage_ucis.py: pyucis cannot be imported
    throw generator::InputError("--ucis needs the Python package pyucis, which " + python +
                                " cannot import: " + how);
  }
  if (code == 127) throw generator::InputError("--ucis: no Python " + python + ": " + how);
  if (code != 0) {
    throw generator::InputError("the script " + ToolScript("coverage_ucis.py").string() +
                                " failed (exit " + std::to_string(code) + ") writing " +
                                out.string());
  }
}

}  // namespace ptovec::cli
