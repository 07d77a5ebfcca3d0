// The Python scripts ptovec runs (scripts.hpp).
#include "scripts.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "ptovec/generator/atomic_file.hpp"
#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/interrupts.hpp"

namespace ptovec::cli {

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

// Starts `argv` (argv[0] searched in PATH) with its standard output on `out_fd`, registered with
// the interrupt handling (an interrupt kills and reaps it), with the signal mask emptied and
// SIGPIPE, SIGINT and SIGTERM at their defaults (ptovec blocks or ignores them). Returns its pid,
// or -1 (errno set) when it cannot be started.
pid_t StartScript(const std::vector<std::string>& argv, int out_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attributes);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (const int signal_number : {SIGPIPE, SIGINT, SIGTERM}) sigaddset(&defaults, signal_number);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  generator::ChildStart start;
  const int error = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  start.Started(error == 0 ? pid : -1);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) errno = error;
  return error == 0 ? pid : -1;
}

// Runs `python` on script `name` with a temporary copy of JSON text `json` (`OUT.tmp-json`,
// removed after) and "-"; what the script writes on its standard output becomes `out` (under a
// temporary name, renamed when the script exits 0). Returns the script's exit status (-1: killed;
// 127: `python` cannot be started).
int RunScript(const std::string& python, const std::string& name, const std::string& json,
              const std::filesystem::path& out) {
  // The JSON copy is a registered temporary: an interrupt (or a failed command) removes it too.
  struct Removed {
    std::filesystem::path path;
    ~Removed() { generator::RemoveTemporary(path); }
  } input{out.string() + ".tmp-json"};
  {
    std::unique_ptr<FILE, int (*)(FILE*)> f(generator::CreateTemporary(input.path), std::fclose);
    const bool written = f != nullptr &&
                         std::fwrite(json.data(), 1, json.size(), f.get()) == json.size() &&
                         std::fclose(f.release()) == 0;
    if (!written) throw generator::InputError("cannot write " + input.path.string());
  }
  generator::AtomicFile file(out);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw generator::InputError("cannot make a pipe for " + name);
  const pid_t pid =
      StartScript({python, ToolScript(name).string(), input.path.string(), "-"}, fds[1]);
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return 127;
  }
  std::array<char, 65536> buffer{};
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    file.Write(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  generator::ChildReaped(pid);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
