// Clean interrupts (interrupts.hpp, which gives the design and why a sigwait() thread rather
// than a signal handler): the one registry and mutex that file undo (temporaries, commits,
// created folders), child processes and folder locks share, the interrupt that undoes
// them, and each of the three's registration.
#include "ptovec/generator/interrupts.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "ptovec/generator/errors.hpp"
#include "ptovec/generator/escape.hpp"

namespace ptovec::generator {

namespace {

namespace fs = std::filesystem;

struct Change {
  std::string final_path;  // absolute
  std::string previous;    // its previous content (a hard link), or "" when it did not exist
};

struct HeldLock {
  std::string path;  // FOLDER/.ptovec.lock, absolute
  dev_t dev = 0;     // the folder's identity
  ino_t ino = 0;
  int fd = -1;  // -1: released
  bool write = false;
  int count = 0;
};

// The process's registry. Never destroyed: the interrupt thread may use it while main() returns.
struct State {
  std::mutex mutex;
  bool installed = false;
  bool finished = false;
  std::vector<std::string> temporaries;
  std::vector<Change> changes;
  std::vector<std::string> created_folders;
  std::vector<pid_t> children;
  std::vector<HeldLock> locks;
  std::string command = "ptovec";
};

State& S() {
  static State* state = new State;
  return *state;
}

std::string Absolute(const fs::path& path) {
  std::error_code error;
  const fs::path a = fs::absolute(path, error);
  return (error ? path : a).string();
}

// Where the previous content of `final_path` is kept until the command ends: a name that folder
// listings skip (".tmp-") and that no other process uses (the pid).
std::string PreviousName(const std::string& final_path) {
  return final_path + ".tmp-" + std::to_string(::getpid()) + ".previous";
}

bool Journaled(const State& s, const std::string& final_path) {
  for (const Change& c : s.changes) {
    if (c.final_path == final_path) return true;
  }
  return false;
}

// Records `final_path`'s current state before it is replaced (once per path: the
// first record is the state to go back to). Under the mutex, with handling installed.
void Journal(State& s, const std::string& final_path) {
  if (Journaled(s, final_path)) return;
  struct stat st {};
  if (::lstat(final_path.c_str(), &st) != 0) {
    s.changes.push_back({final_path, ""});
    return;
  }
  const std::string previous = PreviousName(final_path);
  ::unlink(previous.c_str());
  if (::link(final_path.c_str(), previous.c_str()) != 0) {
    if (::rename(final_path.c_str(), previous.c_str()) != 0) {
      throw std::runtime_error("cannot keep the previous " + final_path + ": " +
                               std::strerror(errno));
    }
  }
  s.changes.push_back({final_path, previous});
}

void WriteStderr(const std::string& text) {
  const char* p = text.data();
  std::size_t n = text.size();
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// Releases one held lock: the last holder removes the lock file. Under the mutex.
void Release(HeldLock& lock) {
  if (lock.fd < 0) return;
  if (::flock(lock.fd, LOCK_EX | LOCK_NB) == 0) {
    struct stat ours {
    }, named{};
    if (::fstat(lock.fd, &ours) == 0 && ::stat(lock.path.c_str(), &named) == 0 &&
        ours.st_ino == named.st_ino && ours.st_dev == named.st_dev) {
      ::unlink(lock.path.c_str());
    }
  }
  ::close(lock.fd);
  lock.fd = -1;
  lock.count = 0;
}

// Puts every journaled file back as it was, last change first; returns "" or the first problem.
// Under the mutex.
std::string PutBack(State& s) {
  std::string problem;
  for (auto c = s.changes.rbegin(); c != s.changes.rend(); ++c) {
    const bool ok = c->previous.empty() ? (::unlink(c->final_path.c_str()) == 0 || errno == ENOENT)
                                        : ::rename(c->previous.c_str(), c->final_path.c_str()) == 0;
    if (!ok && problem.empty()) {
      problem = "could not restore " + c->final_path + ": " + std::strerror(errno);
    }
  }
  s.changes.clear();
  return problem;
}

// Removes the folders the command made, deepest first. Under the mutex.
void RemoveCreatedFolders(State& s) {
  for (auto f = s.created_folders.rbegin(); f != s.created_folders.rend(); ++f) {
    ::rmdir(f->c_str());  // only when empty: never a file of someone else
  }
  s.created_folders.clear();
}

// The interrupt: undo every change, then exit. Runs on the sigwait() thread and keeps the mutex
// until _exit, so no other thread changes a file after the undo.
[[noreturn]] void OnInterrupt(int signal_number) {
  State& s = S();
  s.mutex.lock();
  for (const pid_t pid : s.children) ::kill(pid, SIGKILL);
  for (const pid_t pid : s.children) {  // reaped, so none is left running when ptovec exits
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  for (const std::string& temp : s.temporaries) ::unlink(temp.c_str());
  const std::string problem = s.finished ? std::string() : PutBack(s);
  for (HeldLock& lock : s.locks) Release(lock);
  RemoveCreatedFolders(s);
  const char* name = signal_number == SIGINT ? "SIGINT" : "SIGTERM";
  std::string line = std::string("ptovec: interrupted (") + name + "): ";
  if (s.finished) {
    line += "the command had finished; its files are complete";
  } else if (!problem.empty()) {
    line += problem;
  } else {
    line += "no file was changed";
  }
  WriteStderr(EscapeText(line) + "\n");
  ::_exit(128 + signal_number);
}

}  // namespace

void InstallInterruptHandling() {
  State& s = S();
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  // A reader that goes away (`ptovec check ... | head`) makes writes to stdout fail with EPIPE
  // instead of killing ptovec while it writes its files; children get SIGPIPE back before exec.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, nullptr);
  {
    std::lock_guard lock(s.mutex);
    s.installed = true;
  }
  // A signal ignored when ptovec started (nohup, a background job of a script) stays ignored:
  // the kernel discards an ignored signal, so sigwait() never sees it.
  std::thread([set] {
    for (;;) {
      int signal_number = 0;
      if (::sigwait(&set, &signal_number) == 0) OnInterrupt(signal_number);
    }
  }).detach();
}

void FinishFileChanges() {
  State& s = S();
  std::lock_guard lock(s.mutex);
  for (const Change& c : s.changes) {
    if (!c.previous.empty()) ::unlink(c.previous.c_str());
  }
  s.changes.clear();
  s.finished = true;
}

std::string UndoFileChanges() {
  State& s = S();
  std::lock_guard lock(s.mutex);
  for (const std::string& temp : s.temporaries) ::unlink(temp.c_str());
  s.temporaries.clear();
  std::string problem = s.finished ? std::string() : PutBack(s);
  RemoveCreatedFolders(s);
  s.finished = true;
  return problem;
}

std::FILE* CreateTemporary(const fs::path& temp) {
  State& s = S();
  std::lock_guard lock(s.mutex);
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file != nullptr) s.temporaries.push_back(Absolute(temp));
  return file;
}

void RemoveTemporary(const fs::path& temp) {
  State& s = S();
  std::lock_guard lock(s.mutex);
  ::unlink(temp.c_str());
  const std::string absolute = Absolute(temp);
  std::erase(s.temporaries, absolute);
}

void CommitTemporaries(const std::vector<std::pair<fs::path, fs::path>>& renames) {
  State& s = S();
  std::lock_guard lock(s.mutex);
  for (const auto& [temp, final_path] : renames) {
    if (s.installed && !s.finished) Journal(s, Absolute(final_path));
    if (::rename(temp.c_str(), final_path.c_str()) != 0) {
      throw std::runtime_error("cannot rename " + temp.string() + " to " + final_path.string() +
                               ": " + std::strerror(errno));
    }
    std::erase(s.temporaries, Absolute(temp));
  }
}

void CreateFolders(const fs::path& folder) {
  State& s = S();
  std::lock_guard lock(s.mutex);
  std::vector<std::string> made;
  std::error_code error;
  for (fs::path p = fs::absolute(folder); !p.empty() && !fs::exists(p, error);
       p = p.parent_path()) {
    made.push_back(p.string());
    if (p == p.parent_path()) break;
  }
  fs::create_directories(folder);
  s.created_folders.insert(s.created_folders.end(), made.rbegin(), made.rend());
}

ChildStart::ChildStart() {
  S().mutex.lock();
  locked_ = true;
}

ChildStart::~ChildStart() {
  if (locked_) S().mutex.unlock();
}

void ChildStart::Started(pid_t pid) {
  if (pid > 0) S().children.push_back(pid);
  if (locked_) S().mutex.unlock();
  locked_ = false;
}

void ChildReaped(pid_t pid) {
  State& s = S();
  std::lock_guard lock(s.mutex);
  std::erase(s.children, pid);
}

void SetCommandName(std::string_view command) {
  State& s = S();
  std::lock_guard lock(s.mutex);
  s.command = "ptovec " + std::string(command);
}

std::string CommandName() {
  State& s = S();
  std::lock_guard lock(s.mutex);
  return s.command;
}

FolderLock::FolderLock(const fs::path& folder, Mode mode, std::string_view command,
                       std::string_view role) {
  const bool write = mode == Mode::Write;
  State& s = S();
  std::lock_guard guard(s.mutex);
  const fs::path dir = folder.empty() ? fs::path(".") : folder;
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode)) return;  // the caller reports it
  for (std::size_t i = 0; i < s.locks.size(); ++i) {
    HeldLock& held = s.locks[i];
    if (held.fd >= 0 && held.dev == ds.st_dev && held.ino == ds.st_ino) {
      if (write && !held.write) {
        throw InputError(std::string(role) + " " + folder.string() +
                         " is read by this command and cannot also be written");
      }
      ++held.count;
      slot_ = i;
      return;
    }
  }
  const std::string path = Absolute(dir / kFileName);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
      const int e = errno;
      if (!write && (e == EACCES || e == EROFS || e == EPERM)) return;  // nobody writes there
      throw InputError("cannot lock " + std::string(role) + " " + folder.string() +
                       ": cannot create " + path + ": " + std::strerror(e));
    }
    if (::flock(fd, (write ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
      const int e = errno;
      char text[201] = {};
      const ssize_t n = ::pread(fd, text, 200, 0);
      ::close(fd);
      std::string holder(text, n > 0 ? static_cast<std::size_t>(n) : 0);
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
      if (e != EWOULDBLOCK) {
        throw InputError("cannot lock " + std::string(role) + " " + folder.string() + " (" + path +
                         "): " + std::strerror(e));
      }
      throw InputError(std::string(role) + " " + folder.string() + " is in use by another ptovec" +
                       (holder.empty() ? std::string() : " (" + holder + ")") +
                       "; wait for it to finish, or use another folder");
    }
    struct stat ours {
    }, named{};
    if (::fstat(fd, &ours) != 0 || ::stat(path.c_str(), &named) != 0 ||
        ours.st_ino != named.st_ino || ours.st_dev != named.st_dev) {
      ::close(fd);  // the last holder removed it meanwhile: lock the new one
      continue;
    }
    if (write || ours.st_size == 0) {
      const std::string line =
          "pid " + std::to_string(::getpid()) + ", " +
          std::string(s.command == "ptovec" ? "ptovec " + std::string(command) : s.command) +
          (write ? ", writing" : ", reading") + "\n";
      if (::ftruncate(fd, 0) == 0) {
        [[maybe_unused]] const ssize_t w = ::pwrite(fd, line.data(), line.size(), 0);
      }
    }
    s.locks.push_back({path, ds.st_dev, ds.st_ino, fd, write, 1});
    slot_ = s.locks.size() - 1;
    return;
  }
  throw InputError("cannot lock " + std::string(role) + " " + folder.string() + " (" + path +
                   " keeps being replaced)");
}

FolderLock::~FolderLock() {
  if (slot_ == static_cast<std::size_t>(-1)) return;
  State& s = S();
  std::lock_guard guard(s.mutex);
  HeldLock& held = s.locks[slot_];
  if (held.fd >= 0 && --held.count == 0) Release(held);
}

}  // namespace ptovec::generator
