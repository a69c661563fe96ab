// The job's processes (see children.h).
#include "src/tools/pmixrun/children.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace pmixrun {
namespace {

bool IsRunnableFile(const std::string& path, int* err) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return *err = errno, false;
  if (S_ISDIR(st.st_mode)) return *err = EISDIR, false;
  if (access(path.c_str(), X_OK) != 0) return *err = errno, false;
  return true;
}

void WriteAll(int fd, const char* data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a closed stdout loses the output, not the job
    data += n;
    len -= static_cast<size_t>(n);
  }
}

void WriteTagged(const std::string& tag, int fd, std::string_view line) {
  std::string out = tag;
  out.append(line);
  out.push_back('\n');
  WriteAll(fd, out.data(), out.size());
}

// In the forked child: only async-signal-safe calls until exec.
[[noreturn]] void Fail(const char* what, const char* name) {
  const char* why = strerror(errno);
  const char* parts[] = {"pmixrun: cannot ", what, name, ": ", why, "\n"};
  for (const char* p : parts) WriteAll(2, p, strlen(p));
  _exit(127);
}

[[noreturn]] void ExecChild(const char* path, char* const argv[], char* const envp[],
                            const char* cwd, int in_fd, int out_fd, int err_fd, bool trace) {
  setpgid(0, 0);
  int null_fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, 0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  close_range(3, ~0U, 0);  // the server's sockets stay with the server
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  signal(SIGPIPE, SIG_DFL);
  if (*cwd != '\0' && chdir(cwd) != 0) Fail("enter ", cwd);
  if (trace && ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) Fail("stop on exec: ", path);
  execve(path, argv, envp);
  Fail("execute ", path);
}

std::vector<char*> CPointers(const std::vector<std::string>& words) {
  std::vector<char*> out;
  for (const std::string& w : words) out.push_back(const_cast<char*>(w.c_str()));
  out.push_back(nullptr);
  return out;
}

// The traced child stops (SIGTRAP) at its exec: detach, leaving it stopped.
// If it exited instead (it could not exec), keep its status for ReapExited.
void HoldAtExec(Child* child) {
  int status = 0;
  pid_t rc;
  do {
    rc = waitpid(child->pid, &status, 0);
  } while (rc < 0 && errno == EINTR);
  if (rc != child->pid) return;
  if (!WIFSTOPPED(status)) {
    child->early_status = status;
    return;
  }
  if (ptrace(PTRACE_DETACH, child->pid, nullptr, reinterpret_cast<void*>(SIGSTOP)) == 0)
    child->stopped_on_exec = true;
}

}  // namespace

bool ResolveProgram(const std::string& prog, std::string* path, std::string* error, int* code) {
  const char* env_path = std::getenv("PATH");
  return ResolveProgram(prog, env_path != nullptr ? env_path : "/usr/bin:/bin", path, error, code);
}

bool ResolveProgram(const std::string& prog, const std::string& search_path, std::string* path,
                    std::string* error, int* code) {
  int err = ENOENT;
  if (prog.find('/') != std::string::npos) {
    if (IsRunnableFile(prog, &err)) return *path = prog, true;
  } else {
    const std::string& dirs = search_path;
    size_t start = 0;
    for (;;) {
      size_t end = dirs.find(':', start);
      std::string dir = dirs.substr(start, end == std::string::npos ? end : end - start);
      std::string candidate = (dir.empty() ? "." : dir) + "/" + prog;
      int this_err = ENOENT;
      if (IsRunnableFile(candidate, &this_err)) return *path = candidate, true;
      if (this_err != ENOENT && this_err != ENOTDIR) err = this_err;  // keep the telling one
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  *code = err == ENOENT || err == ENOTDIR ? 127 : 126;
  *error = *code == 127 && prog.find('/') == std::string::npos ? prog + ": command not found"
                                                               : prog + ": " + std::strerror(err);
  return false;
}

bool StartChild(Child* child, const std::string& path, const std::vector<std::string>& argv,
                const std::vector<std::string>& env, const std::string& cwd, bool stdin_pipe,
                bool stop_on_exec, std::string* error) {
  int out[2], err[2], in[2] = {-1, -1};
  if (pipe2(out, O_CLOEXEC) != 0) return *error = std::strerror(errno), false;
  if (pipe2(err, O_CLOEXEC) != 0) {
    *error = std::strerror(errno);
    close(out[0]), close(out[1]);
    return false;
  }
  if (stdin_pipe && pipe2(in, O_CLOEXEC) != 0) {
    *error = std::strerror(errno);
    close(out[0]), close(out[1]), close(err[0]), close(err[1]);
    return false;
  }
  std::vector<char*> cargv = CPointers(argv), cenv = CPointers(env);
  pid_t pid = fork();
  if (pid == 0)
    ExecChild(path.c_str(), cargv.data(), cenv.data(), cwd.c_str(), in[0], out[1], err[1],
              stop_on_exec);
  close(out[1]), close(err[1]);
  if (in[0] >= 0) close(in[0]);
  if (pid < 0) {
    *error = std::string("fork: ") + std::strerror(errno);
    close(out[0]), close(err[0]);
    if (in[1] >= 0) close(in[1]);
    return false;
  }
  if (in[1] >= 0) {
    (void)fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    child->in.fd = in[1];
  }
  setpgid(pid, pid);  // also here: no window where a signal misses the group
  child->pid = pid;
  if (stop_on_exec) HoldAtExec(child);
  child->out = Stream{out[0], 1, {}};
  child->err = Stream{err[0], 2, {}};
  return true;
}

void ForwardOutput(const std::string& nspace, Child* child, Stream* s) {
  const bool tag = !child->tag.empty();
  const pmix_iof_channel_t channel = s->target == 1 ? PMIX_FWD_STDOUT_CHANNEL : PMIX_FWD_STDERR_CHANNEL;
  char buf[65536];
  ssize_t n;
  do {
    n = read(s->fd, buf, sizeof buf);
  } while (n < 0 && errno == EINTR);
  if (n > 0) {
    DeliverChunk(nspace, child->rank, channel, buf, static_cast<size_t>(n), s->in_flight);
    if (!tag) return WriteAll(s->target, buf, static_cast<size_t>(n));
    s->pending.append(buf, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t nl; (nl = s->pending.find('\n', start)) != std::string::npos; start = nl + 1)
      WriteTagged(child->tag, s->target, std::string_view(s->pending).substr(start, nl - start));
    s->pending.erase(0, start);
    return;
  }
  if (n < 0 && errno == EAGAIN) return;
  if (tag && !s->pending.empty()) WriteTagged(child->tag, s->target, s->pending);
  s->pending.clear();
  close(s->fd);
  s->fd = -1;
  DeliverEnd(nspace, child->rank, channel);
}

void SignalAll(std::vector<Child>& children, int sig) {
  for (Child& c : children)
    if (!c.reaped && c.pid > 0) kill(-c.pid, sig);
}

std::vector<Child*> ReapExited(std::vector<Child>& children) {
  std::vector<Child*> reaped;
  for (Child& c : children) {
    if (c.reaped || c.pid <= 0) continue;
    int status = 0;
    if (c.early_status) {
      status = *c.early_status;
    } else if (waitpid(c.pid, &status, WNOHANG) != c.pid) {
      continue;
    }
    c.reaped = true;
    if (WIFSIGNALED(status)) {
      c.term_signal = WTERMSIG(status);
      c.exit_code = 128 + c.term_signal;
    } else {
      c.exit_code = WEXITSTATUS(status);
    }
    reaped.push_back(&c);
  }
  return reaped;
}

}  // namespace pmixrun
