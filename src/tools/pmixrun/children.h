// The job's processes: starting them (fork + exec with the environment
// PMIx_server_setup_fork gives), forwarding their output, signalling and
// reaping them. Main thread only.
#ifndef PMIXX_TOOLS_PMIXRUN_CHILDREN_H
#define PMIXX_TOOLS_PMIXRUN_CHILDREN_H

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "src/tools/pmixrun/iof_forward.h"

namespace pmixrun {

// One output stream of one process.
struct Stream {
  int fd = -1;          // read end of its pipe, -1 once at EOF
  int target = 1;       // where it goes: 1 stdout, 2 stderr
  std::string pending;  // a partial line, when tagging
  // A chunk is being delivered to the server (iof_forward.h): not read meanwhile.
  InFlight in_flight = std::make_shared<std::atomic<bool>>(false);
};

// A process's stdin when tools feed it (stdin_feed.h).
struct Input {
  int fd = -1;          // write end of its pipe (non-blocking), -1: none or closed
  std::string pending;  // pushed, not yet taken by the pipe
  bool eof = false;     // close once pending is written
};

struct Child {
  int rank = 0;
  Input in;
  std::string tag;  // prefix of each forwarded line ("[rank] "); empty: untagged
  pid_t pid = -1;
  Stream out, err;
  bool reaped = false;
  bool stopped_on_exec = false;  // held stopped for a debugger (debug_directives.h)
  std::optional<int> early_status;  // a wait status collected while starting it
  int exit_code = 0;    // the shell's convention: 128+signal if killed
  int term_signal = 0;  // nonzero if killed by a signal
};

// Looks `prog` up the way execvp would (the directories of `search_path`,
// a PATH value, unless it has a '/'). On failure *error says why and *code
// is 127 (not found) or 126 (not executable).
bool ResolveProgram(const std::string& prog, const std::string& search_path, std::string* path,
                    std::string* error, int* code);
// The same with pmixrun's own PATH.
bool ResolveProgram(const std::string& prog, std::string* path, std::string* error, int* code);

// Forks one process running `path` with `argv` and `env` in directory `cwd`
// (empty: pmixrun's), its stdout and stderr on pipes, stdin from a pipe
// (child->in.fd) when `stdin_pipe`, else from /dev/null, in its own
// process group. A process that cannot enter `cwd` says so on its stderr
// and exits with 127. With `stop_on_exec` it is traced until its exec
// (PTRACE_TRACEME), then detached with SIGSTOP: it stays stopped on its
// first instruction, child->stopped_on_exec set, until a SIGCONT (a
// debugger's, or host_debug.h's release); one that never got to exec is
// reaped as usual.
bool StartChild(Child* child, const std::string& path, const std::vector<std::string>& argv,
                const std::vector<std::string>& env, const std::string& cwd, bool stdin_pipe,
                bool stop_on_exec, std::string* error);

// Reads what is available on `s` (one chunk) and writes it on (each line
// prefixed with child->tag when that is set) and to the server for the
// tools that pull it (iof_forward.h: child->rank of `nspace`); at EOF
// closes it.
void ForwardOutput(const std::string& nspace, Child* child, Stream* s);

// Sends `sig` to the process group of every process not yet reaped.
void SignalAll(std::vector<Child>& children, int sig);

// Collects every exited child; returns those reaped by this call.
std::vector<Child*> ReapExited(std::vector<Child>& children);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_CHILDREN_H
