// Child processes for program devices: see subprocess.hpp.
#include "device/subprocess.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "ptovec/generator/interrupts.hpp"
#include "ptovec/tools/device.hpp"

namespace ptovec::tools {

std::vector<std::string> SplitCommandLine(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (ch == '\'') {
      const std::size_t end = line.find('\'', i + 1);
      if (end == std::string::npos) {
        throw DeviceError("cannot start '" + line + "': unterminated single quote");
      }
      word.append(line, i + 1, end - i - 1);
      in_word = true;
      i = end;
    } else if (ch == '"') {
      in_word = true;
      std::size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() &&
            std::strchr("\"\\$`", line[j + 1]) != nullptr) {
          ++j;
        }
        word.push_back(line[j]);
      }
      if (j >= line.size()) {
        throw DeviceError("cannot start '" + line + "': unterminated double quote");
      }
      i = j;
    } else if (ch == '\\') {
      if (i + 1 >= line.size()) {
        throw DeviceError("cannot start '" + line + "': trailing backslash");
      }
      word.push_back(line[++i]);
      in_word = true;
    } else {
      word.push_back(ch);
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

void IgnoreSigpipe() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction current {};
    if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      ::sigaction(SIGPIPE, &ignore, nullptr);
    }
  });
}

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool WriteAll(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

int ReadExecErrno(int fd) {
  int e = 0;
  ssize_t r = 0;
  do {
    r = ::read(fd, &e, sizeof e);
  } while (r < 0 && errno == EINTR);
  return r == static_cast<ssize_t>(sizeof e) ? e : 0;
}

ChildProcess StartChild(const std::vector<std::string>& argv, const std::string& command_line) {
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
  int exec_status[2] = {-1, -1};  // the child writes errno here when exec fails
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0 ||
      ::pipe2(exec_status, O_CLOEXEC) != 0) {
    const int e = errno;
    for (int* p : {in, out, err, exec_status}) {
      CloseFd(p[0]);
      CloseFd(p[1]);
    }
    throw DeviceError("cannot start '" + command_line + "': pipe: " + std::strerror(e));
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Only async-signal-safe calls in the child.
  const pid_t parent = ::getpid();
  int rc = 0;
  ChildProcess child;
  // Registered before an interrupt can look (an interrupt kills and reaps it).
  generator::ChildStart registration;
  child.pid = ::fork();
  if (child.pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent is already gone
    // ptovec blocks SIGINT and SIGTERM in its threads (generator/interrupts.hpp) and a signal
    // mask survives exec: the device gets the default, so Ctrl-C and kill stop it too.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGPIPE, SIG_DFL);  // ignored by ptovec, and SIG_IGN survives exec
    if (::dup2(in[0], 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0) {
      const int e = errno;
      [[maybe_unused]] const ssize_t w = ::write(exec_status[1], &e, sizeof e);
      ::_exit(127);
    }
    ::execvp(args[0], args.data());
    const int e = errno;
    [[maybe_unused]] const ssize_t w = ::write(exec_status[1], &e, sizeof e);
    ::_exit(127);
  }
  registration.Started(child.pid);
  CloseFd(exec_status[1]);
  if (child.pid < 0) {
    rc = errno;
  } else if (const int e = ReadExecErrno(exec_status[0]); e != 0) {  // exec failed: reap it
    rc = e;
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    generator::ChildReaped(child.pid);
  }
  CloseFd(exec_status[0]);
  CloseFd(in[0]);
  CloseFd(out[1]);
  CloseFd(err[1]);
  if (rc != 0) {
    CloseFd(in[1]);
    CloseFd(out[0]);
    CloseFd(err[0]);
    throw DeviceError("cannot start '" + command_line + "': " + argv[0] + ": " + std::strerror(rc));
  }
  child.to_child = in[1];
  child.from_child = out[0];
  child.child_stderr = err[0];
  return child;
}

bool WaitForExit(pid_t pid, std::chrono::milliseconds limit, int& status) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    int s = 0;
    const pid_t r = ::waitpid(pid, &s, WNOHANG);
    if (r == pid) {
      generator::ChildReaped(pid);
      status = s;
      return true;
    }
    if (r < 0 && errno != EINTR) return false;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace ptovec::tools
