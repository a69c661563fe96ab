// The main loop (see runner.h).
#include "src/tools/pmixrun/runner.h"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/pmixrun/host_debug.h"
#include "src/tools/pmixrun/host_job_control.h"
#include "src/tools/pmixrun/host_module.h"
#include "src/tools/pmixrun/host_pubsub.h"
#include "src/tools/pmixrun/job_events.h"
#include "src/tools/pmixrun/spawner.h"
#include "src/tools/pmixrun/stdin_feed.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

constexpr auto kKillGrace = std::chrono::seconds(3);   // SIGTERM, then SIGKILL
constexpr auto kDrainGrace = std::chrono::seconds(2);  // output held by grandchildren
constexpr int kTimeoutExit = 124;

std::string NspaceOf(const pmix_proc_t& proc) {
  return std::string(proc.nspace, strnlen(proc.nspace, PMIX_MAX_NSLEN));
}

// How messages name a process: "rank N" in the primary job.
std::string Who(const Job& job, pmix_rank_t rank) {
  std::string r = "rank " + std::to_string(rank);
  return job.primary ? r : "job " + job.nspace() + " " + r;
}

class Runner {
 public:
  Runner(const RunSettings& settings, JobTable& jobs, Launcher& launcher)
      : settings_(settings), jobs_(jobs), launcher_(launcher) {
    if (settings.timeout_s > 0)
      timeout_at_ = Clock::now() + std::chrono::seconds(settings.timeout_s);
  }

  int Run() {
    while (!Finished()) {
      std::vector<pollfd> fds = PollSet();
      (void)poll(fds.data(), fds.size(), PollTimeoutMs());
      OnWakeup();
      bool flowed = false;
      for (size_t i = 1; i < fds.size(); ++i)
        if (fds[i].revents != 0) {
          const Owner& o = owners_[i - 1];
          if (o.stream == nullptr) {
            FeedStdin(o.child);
            continue;
          }
          ForwardOutput(o.job->nspace(), o.child, o.stream);
          flowed = true;
        }
      // Output still coming in (or still being delivered) is no sign of a
      // grandchild holding a pipe: the drain grace counts from the last of it.
      if (drain_until_ && (flowed || AnyInFlight())) drain_until_ = Clock::now() + kDrainGrace;
      CheckDeadlines();
      EndFinishedJobs();
    }
    for (const PendingSpawn& spawn : TakeSpawns()) RefuseSpawn(spawn);  // came too late
    if (forced_status_) return *forced_status_;
    return first_failure_.value_or(0);
  }

 private:
  bool Finished() {
    for (auto& job : jobs_.all())
      if (!job->ended) return false;
    if (!drain_until_) drain_until_ = Clock::now() + kDrainGrace;
    for (auto& job : jobs_.all())
      for (const Child& c : job->children)
        if (c.out.fd >= 0 || c.err.fd >= 0) return Clock::now() >= *drain_until_;
    return true;
  }

  bool AnyInFlight() {
    for (auto& job : jobs_.all())
      for (const Child& c : job->children)
        if (c.out.in_flight->load() || c.err.in_flight->load()) return true;
    return false;
  }

  // The doorbell first, then every open stream, job after job in rank
  // order (so output a rank wrote before a collective is written on before
  // what others wrote after it). A stream whose last chunk the server is
  // still delivering waits (iof_forward.h).
  std::vector<pollfd> PollSet() {
    std::vector<pollfd> fds{{WakeupFd(), POLLIN, 0}};
    owners_.clear();
    for (auto& job : jobs_.all()) {
      for (Child& c : job->children) {
        for (Stream* s : {&c.out, &c.err}) {
          if (s->fd < 0 || s->in_flight->load()) continue;
          fds.push_back({s->fd, POLLIN, 0});
          owners_.push_back(Owner{job.get(), &c, s});
        }
        if (WantsToFeed(c)) {  // a tool's input for its stdin (stdin_feed.h)
          fds.push_back({c.in.fd, POLLOUT, 0});
          owners_.push_back(Owner{job.get(), &c, nullptr});
        }
      }
    }
    return fds;
  }

  int PollTimeoutMs() const {
    std::optional<Clock::time_point> next = timeout_at_;
    auto consider = [&](const std::optional<Clock::time_point>& t) {
      if (t && (!next || *t < *next)) next = t;
    };
    consider(drain_until_);
    for (const auto& job : jobs_.all()) {
      consider(job->kill_at);
      consider(job->timeout_at);
    }
    if (!next) return 1000;  // also covers a doorbell byte lost to a full pipe
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*next - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 1000));
  }

  void OnWakeup() {
    for (uint8_t what : DrainWakeup()) {
      if (what == SIGINT || what == SIGTERM || what == SIGHUP) OnTerminatingSignal(what);
      if (what == SIGUSR1 || what == SIGUSR2)
        for (auto& job : jobs_.all()) SignalAll(job->children, what);
    }
    for (AbortRequest& req : TakeAborts()) OnAbort(req);
    for (const JobControlRequest& req : TakeJobControls()) ApplyJobControl(jobs_, req);
    ApplyPushes(jobs_);
    ApplyDebugEvents(jobs_);
    for (const PendingSpawn& spawn : TakeSpawns()) OnSpawn(spawn);
    for (size_t j = 0; j < jobs_.all().size(); ++j)
      for (Child* c : ReapExited(jobs_.all()[j]->children)) OnExit(*jobs_.all()[j], *c);
  }

  void OnTerminatingSignal(int sig) {
    if (settings_.verbose > 0) std::fprintf(stderr, "pmixrun: passing on signal %d\n", sig);
    stopping_ = true;
    KillAll(++signals_seen_ > 1 ? SIGKILL : sig, PMIX_ERR_JOB_KILLED_BY_CMD);
  }

  void KillAll(int sig, pmix_status_t why) {
    for (auto& job : jobs_.all()) KillJob(*job, sig, why);
  }

  // Ends `job` and, the first time, the jobs it spawned.
  void KillJob(Job& job, int sig, pmix_status_t why) {
    const bool first = !job.killing;
    job.killing = true;
    if (!job.AllReaped()) {
      if (!job.term_status) job.term_status = why;
      SignalAll(job.children, sig);
      if (sig != SIGKILL && !job.kill_at) job.kill_at = Clock::now() + kKillGrace;
    }
    if (!first && sig != SIGKILL) return;
    for (auto& other : jobs_.all()) {
      if (other.get() == &job || other->ParentNspace() != job.nspace()) continue;
      if (!stopping_ && !other->killing && !other->AllReaped())
        std::fprintf(stderr, "pmixrun: terminating job %s (spawned by job %s)\n",
                     other->nspace().c_str(), job.nspace().c_str());
      KillJob(*other, sig, PMIX_ERR_JOB_CANCELED);
    }
  }

  void OnAbort(const AbortRequest& req) {
    Job* job = jobs_.Find(NspaceOf(req.from));
    std::string who = job != nullptr ? Who(*job, req.from.rank) : NspaceOf(req.from);
    std::fprintf(stderr, "pmixrun: %s called PMIx_Abort with status %d%s%s\n", who.c_str(),
                 req.status, req.message.empty() ? "" : ": ", req.message.c_str());
    if (!forced_status_) forced_status_ = req.status;
    if (req.targets.empty()) {
      if (job != nullptr) KillJob(*job, SIGTERM, PMIX_ERR_JOB_ABORTED);
      return;
    }
    for (const pmix_proc_t& target : req.targets) {
      Job* tjob = jobs_.Find(NspaceOf(target));
      if (tjob == nullptr) continue;
      if (target.rank == PMIX_RANK_WILDCARD) {
        KillJob(*tjob, SIGTERM, PMIX_ERR_JOB_ABORTED);
        continue;
      }
      if (!tjob->term_status) tjob->term_status = PMIX_ERR_JOB_ABORTED;
      for (Child& c : tjob->children)
        if (!c.reaped && static_cast<pmix_rank_t>(c.rank) == target.rank) kill(-c.pid, SIGTERM);
    }
  }

  void OnSpawn(const PendingSpawn& spawn) {
    Job* parent = jobs_.Find(NspaceOf(spawn.request.requester));
    if (stopping_ || (parent != nullptr && parent->killing)) return RefuseSpawn(spawn);
    (void)StartSpawn(spawn, jobs_, launcher_);
  }

  void OnExit(Job& job, Child& c) {
    FeedStdin(&c);  // closes its stdin, completes the pushes waiting on it
    const auto rank = static_cast<pmix_rank_t>(c.rank);
    if (settings_.verbose > 0)
      std::fprintf(stderr, "pmixrun: %s (pid %d) exited, status %d\n", Who(job, rank).c_str(),
                   c.pid, c.exit_code);
    PubsubProcGone(job.nspace(), rank);  // its PERSIST_PROC data
    // Before the events about it: whoever hears of its end finds the server
    // done with it (a Get of what it never committed fails at once).
    launcher_.RetireProc(job, c);
    if (job.launch_failed) return;       // never ran as part of a job
    RaiseProcTerminated(job, c);
    NotifyParentProcEnded(job, c);
    if (c.exit_code == 0) return;
    if (!first_failure_) first_failure_ = c.exit_code;
    if (!job.first_failed) job.first_failed = FailedProc{rank, c.exit_code};
    if (job.killing) return;  // its death is ours, or the job's end is already decided
    const pmix_status_t why =
        c.term_signal != 0 ? PMIX_ERR_JOB_ABORTED_BY_SIG : PMIX_ERR_JOB_NON_ZERO_TERM;
    if (!job.term_status) job.term_status = why;
    ReportFailure(job, c);
    KillJob(job, SIGTERM, why);
  }

  void ReportFailure(const Job& job, const Child& c) {
    const auto rank = static_cast<pmix_rank_t>(c.rank);
    const std::string who = Who(job, rank);
    if (c.term_signal != 0)
      std::fprintf(stderr, "pmixrun: %s (pid %d) was killed by signal %d (%s)\n", who.c_str(),
                   c.pid, c.term_signal, strsignal(c.term_signal));
    else
      std::fprintf(stderr, "pmixrun: %s (pid %d) exited with status %d%s\n", who.c_str(), c.pid,
                   c.exit_code, RankFinalized(job.nspace(), rank) ? "" : " before PMIx_Finalize");
    if (job.AllReaped()) return;
    if (job.primary)
      std::fprintf(stderr, "pmixrun: terminating the job\n");
    else
      std::fprintf(stderr, "pmixrun: terminating job %s\n", job.nspace().c_str());
  }

  void CheckDeadlines() {
    auto now = Clock::now();
    if (timeout_at_ && now >= *timeout_at_) {
      timeout_at_.reset();
      std::fprintf(stderr, "pmixrun: job timed out after %d s; terminating it\n",
                   settings_.timeout_s);
      if (!forced_status_) forced_status_ = kTimeoutExit;
      stopping_ = true;
      KillAll(SIGTERM, PMIX_ERR_JOB_CANCELED);
    }
    for (auto& job : jobs_.all()) {
      if (job->timeout_at && now >= *job->timeout_at) {
        job->timeout_at.reset();
        std::fprintf(stderr, "pmixrun: job %s timed out after %d s; terminating it\n",
                     job->nspace().c_str(), job->timeout_s);
        KillJob(*job, SIGTERM, PMIX_ERR_JOB_CANCELED);
      }
      if (job->kill_at && now >= *job->kill_at) {
        job->kill_at.reset();
        SignalAll(job->children, SIGKILL);
      }
    }
  }

  // Jobs whose processes are all gone: their parent hears of it, their
  // namespace goes.
  void EndFinishedJobs() {
    for (auto& job : jobs_.all()) {
      if (job->ended || !job->AllReaped()) continue;
      job->ended = true;
      job->kill_at.reset();
      job->timeout_at.reset();
      if (!job->launch_failed) NotifyParentJobEnded(*job);
      if (settings_.verbose > 0)
        std::fprintf(stderr, "pmixrun: job %s ended\n", job->nspace().c_str());
      launcher_.Retire(*job);
    }
  }

  const RunSettings& settings_;
  JobTable& jobs_;
  Launcher& launcher_;
  struct Owner {
    Job* job;
    Child* child;
    Stream* stream;
  };
  std::vector<Owner> owners_;  // of PollSet()'s fds after the first
  std::optional<Clock::time_point> timeout_at_, drain_until_;
  std::optional<int> forced_status_, first_failure_;
  bool stopping_ = false;  // a signal or --timeout is ending everything: no new jobs
  int signals_seen_ = 0;
};

}  // namespace

int RunJobs(const RunSettings& settings, JobTable& jobs, Launcher& launcher) {
  return Runner(settings, jobs, launcher).Run();
}

}  // namespace pmixrun
