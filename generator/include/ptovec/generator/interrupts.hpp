// Clean interrupts and concurrent use: what a SIGINT or SIGTERM undoes, and who may use a suite
// folder at once.
//
// A command that ptovec's main() runs either completes or, interrupted by SIGINT or SIGTERM,
// leaves every file as it found it: the temporaries of the writes in progress are removed, the
// files it already renamed into place are put back as they were (the previous content of each is
// kept as a hard link until the command ends), the lock files it holds and the folders it created
// are removed, its child processes (program devices) are killed and reaped, and it exits 130
// (SIGINT) or 143 (SIGTERM) after one line on stderr ("ptovec: interrupted (SIGINT): no file was
// changed"). A command that fails (exit 2) is undone the same way by main() (UndoFileChanges).
//
// How: SIGINT and SIGTERM are blocked in every thread (main() blocks them before any other
// thread starts, and threads inherit the mask) and one thread waits for them with sigwait(). So
// no code runs in signal-handler context: the undo is ordinary code, and it shares one mutex
// with every change of the files it undoes (a temporary created, a set of temporaries renamed
// into place, a child started). That mutex makes each such change atomic
// with respect to an interrupt: a signal that arrives while `generate` renames its files and
// manifest into place waits for the last rename, then undoes them all. An async-signal-safe
// handler could not take that mutex (it would need lock-free registries and could not wait for
// a rename phase), and a flag checked by the workers would never be seen by a thread blocked in
// a device that does not answer.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptovec::generator {

/// Starts interrupt handling for this process (see above). Call it first thing in main(), before
/// any other thread exists; once only. It also ignores SIGPIPE, so a reader of stdout that goes
/// away (`ptovec check ... | head`) leaves the command to finish its files and exit with its own
/// status (what it prints after that is lost); children must restore SIGPIPE before exec. Without
/// it (library users, unit tests) files are written and renamed as usual and nothing is undone.
void InstallInterruptHandling();

/// Called by main() when the command has completed (exit 0 or 1): the previous contents kept
/// for an undo are removed. An interrupt after this leaves the files as the command wrote them.
void FinishFileChanges();

/// Called by main() instead of FinishFileChanges when the command failed (exit 2): like an
/// interrupt, puts back every file it replaced, removes the files it added, its
/// temporaries and the folders it made (when empty), so a failed command changes nothing. Locks
/// and children are left to their owners (released as the command returned). Returns "" or the
/// first file that could not be put back ("could not restore PATH: reason").
std::string UndoFileChanges();

/// Creates `temp` (fopen mode "wb") and registers it, so that an interrupt removes it; both under
/// the undo mutex, so no temporary is ever created after an interrupt's clean-up. Returns
/// nullptr (errno set) when it cannot be created.
std::FILE* CreateTemporary(const std::filesystem::path& temp);
/// Removes a registered temporary (a write that failed or was abandoned) and forgets it.
void RemoveTemporary(const std::filesystem::path& temp);
/// Renames each (temporary, final path) pair in order, as one step with respect to interrupts
/// (the last pair is usually the manifest that names the others). With interrupt handling, each
/// final path's previous content is kept (hard link, or rename where links are refused) until
/// FinishFileChanges, so an interrupt can put it back. Throws std::runtime_error naming the
/// paths when a rename fails.
void CommitTemporaries(
    const std::vector<std::pair<std::filesystem::path, std::filesystem::path>>& renames);
/// create_directories(folder), recording the folders it made so an interrupt removes them (when
/// empty). Throws std::filesystem::filesystem_error.
void CreateFolders(const std::filesystem::path& folder);

/// Registration of a child process that an interrupt must kill (SIGKILL) and reap. Construct it
/// before fork() (it holds the undo mutex, so no interrupt clean-up runs in between), call
/// Started(pid) in the parent right after fork() (or Started(-1) when fork failed); the mutex is
/// released then. Unregister with ChildReaped(pid) once waitpid() has reaped it.
class ChildStart {
 public:
  ChildStart();
  ChildStart(const ChildStart&) = delete;
  ChildStart& operator=(const ChildStart&) = delete;
  ~ChildStart();
  void Started(pid_t pid);

 private:
  bool locked_ = false;
};
/// Forgets child `pid` (reaped: its pid may be reused).
void ChildReaped(pid_t pid);

/// A lock on a suite folder (flock(2) on FOLDER/.ptovec.lock): one writer (`generate`, `merge`
/// into --out, `run --op` into its work folder) or any number of readers (`run --vectors`,
/// `check`, `merge` of shard folders). A conflicting use is refused at once, never waited for.
/// The lock file holds one line naming its holder ("pid 123 (ptovec generate)"); the last holder
/// removes it when it releases the lock (and an interrupt removes it), so a folder holds no
/// lock file when no ptovec uses it. Vector-file listings ignore it (it is no vector file). A
/// process may lock one folder several times (a writer's lock covers its own reads).
class FolderLock {
 public:
  enum class Mode { Read, Write };
  /// Locks existing folder `folder` for `command` ("generate", "check", ...). A reader of a
  /// folder it cannot write (a read-only copy of a suite) goes without a lock. Throws InputError
  /// ("--out folder vectors/default is being written by another ptovec (pid 123 (ptovec
  /// generate)); wait for it to finish, or use another folder") on a conflict, InputError when
  /// the lock file cannot be made.
  FolderLock(const std::filesystem::path& folder, Mode mode, std::string_view command,
             std::string_view role);
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();

  /// The name of the lock file in a folder.
  static constexpr std::string_view kFileName = ".ptovec.lock";

 private:
  std::size_t slot_ = static_cast<std::size_t>(-1);  // index in the process's table; -1: none
};

/// The command running in this process ("generate"), for lock files; set by main().
void SetCommandName(std::string_view command);
/// That name ("ptovec" when none was set).
std::string CommandName();

}  // namespace ptovec::generator
