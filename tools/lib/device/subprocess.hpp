// Child processes for program devices (schemas/dut-protocol.md, "Starting"): command-line
// splitting, fork/exec with pipes on stdin/stdout/stderr, waiting with a limit, and the POSIX
// descriptor helpers the device's threads share. Private to ptovec_tools.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace ptovec::tools {

/// Splits a command line like a POSIX shell splits plain words: blanks (space, tab, newline)
/// separate words; '...' is literal; "..." allows \" \\ \$ \` escapes; a backslash outside quotes
/// escapes the next character. No expansion of any kind. Throws DeviceError ("cannot start
/// 'LINE': unterminated single quote", "... double quote", "... trailing backslash").
std::vector<std::string> SplitCommandLine(const std::string& line);

/// Sets SIGPIPE to ignored (once per process, and only when it has its default action), so that
/// writing to a device that has exited gives EPIPE instead of killing ptovec.
void IgnoreSigpipe();

/// Closes `fd` when it is open (>= 0) and sets it to -1.
void CloseFd(int& fd);

/// Writes the `n` bytes at `p` to `fd`, retrying after EINTR and short writes; false on an error
/// (EPIPE when the reader has gone).
bool WriteAll(int fd, const char* p, std::size_t n);

/// The errno a child wrote to its close-on-exec status pipe `fd` when its exec failed, read
/// through EINTR; 0 when exec succeeded (the pipe closed with nothing written).
int ReadExecErrno(int fd);

/// A started child: its process id and the parent's ends of its stdin, stdout and stderr pipes
/// (close-on-exec).
struct ChildProcess {
  pid_t pid = -1;
  int to_child = -1;      ///< the child's stdin
  int from_child = -1;    ///< the child's stdout
  int child_stderr = -1;  ///< the child's stderr
};

/// Starts argv[0] (searched in PATH, execvp) with arguments argv (not empty) and pipes on its
/// stdin, stdout and stderr. fork + exec rather than posix_spawn: the child asks for SIGKILL when
/// its parent thread goes (Linux PR_SET_PDEATHSIG), so a killed ptovec leaves no device running.
/// An exec failure is reported by the child through a close-on-exec pipe, so it throws here.
/// Throws DeviceError naming `command_line` ("cannot start 'LINE': pipe: REASON",
/// "cannot start 'LINE': PROGRAM: REASON"); nothing is left open or running then.
ChildProcess StartChild(const std::vector<std::string>& argv, const std::string& command_line);

/// Waits up to `limit` for process `pid` to exit, polling every 2 ms (so a child that never exits
/// cannot hang the caller); true with its waitpid status in `status` when it exited.
bool WaitForExit(pid_t pid, std::chrono::milliseconds limit, int& status);

}  // namespace ptovec::tools
