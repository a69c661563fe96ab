// The main loop (see runner.h).
#include "src/tools/pmixrun/runner.h"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "pmix.h"
#include "src/tools/pmixrun/host_module.h"
#include "src/tools/pmixrun/wakeup.h"

namespace pmixrun {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kKillGrace = std::chrono::seconds(3);   // SIGTERM, then SIGKILL
constexpr auto kDrainGrace = std::chrono::seconds(2);  // output held by grandchildren
constexpr int kTimeoutExit = 124;

// One termination event's infos, alive until the library is done with them.
struct TermEvent {
  pmix_info_t info[2];
};

void TermEventDone(pmix_status_t, void* cbdata) {
  auto* ev = static_cast<TermEvent*>(cbdata);
  PMIx_Info_destruct(&ev->info[0]);
  PMIx_Info_destruct(&ev->info[1]);
  std::free(ev);
}

class Runner {
 public:
  Runner(const RunSettings& settings, std::vector<Child>& children)
      : settings_(settings), children_(children), killing_(settings.start_failed) {
    if (settings.timeout_s > 0)
      timeout_at_ = Clock::now() + std::chrono::seconds(settings.timeout_s);
  }

  int Run() {
    while (!Finished()) {
      std::vector<pollfd> fds = PollSet();
      (void)poll(fds.data(), fds.size(), PollTimeoutMs());
      OnWakeup();
      for (size_t i = 1; i < fds.size(); ++i)
        if (fds[i].revents != 0)
          ForwardOutput(owners_[i - 1].first, owners_[i - 1].second, settings_.tag_output);
      CheckDeadlines();
    }
    if (forced_status_) return *forced_status_;
    return first_failure_.value_or(0);
  }

 private:
  bool AllReaped() const {
    for (const Child& c : children_)
      if (!c.reaped) return false;
    return true;
  }

  bool Finished() {
    if (!AllReaped()) return false;
    if (!drain_until_) drain_until_ = Clock::now() + kDrainGrace;
    for (const Child& c : children_)
      if (c.out.fd >= 0 || c.err.fd >= 0) return Clock::now() >= *drain_until_;
    return true;
  }

  // The doorbell first, then every open stream in rank order (so output a
  // rank wrote before a collective is written on before what others wrote
  // after it).
  std::vector<pollfd> PollSet() {
    std::vector<pollfd> fds{{WakeupFd(), POLLIN, 0}};
    owners_.clear();
    for (Child& c : children_) {
      for (Stream* s : {&c.out, &c.err}) {
        if (s->fd < 0) continue;
        fds.push_back({s->fd, POLLIN, 0});
        owners_.emplace_back(&c, s);
      }
    }
    return fds;
  }

  int PollTimeoutMs() const {
    std::optional<Clock::time_point> next = timeout_at_;
    for (auto t : {kill_at_, drain_until_})
      if (t && (!next || *t < *next)) next = t;
    if (!next) return 1000;  // also covers a doorbell byte lost to a full pipe
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*next - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 1000));
  }

  void OnWakeup() {
    for (uint8_t what : DrainWakeup()) {
      if (what == SIGINT || what == SIGTERM || what == SIGHUP) OnTerminatingSignal(what);
      if (what == SIGUSR1 || what == SIGUSR2) SignalAll(children_, what);
    }
    for (AbortRequest& req : TakeAborts()) OnAbort(req);
    for (Child* c : ReapExited(children_)) OnExit(*c);
  }

  void OnTerminatingSignal(int sig) {
    if (settings_.verbose > 0) std::fprintf(stderr, "pmixrun: passing on signal %d\n", sig);
    if (++signals_seen_ > 1) return KillJob(SIGKILL);
    SignalAll(children_, sig);
    killing_ = true;
    if (!kill_at_) kill_at_ = Clock::now() + kKillGrace;
  }

  void KillJob(int sig) {
    killing_ = true;
    SignalAll(children_, sig);
    if (sig != SIGKILL && !kill_at_) kill_at_ = Clock::now() + kKillGrace;
  }

  void OnAbort(const AbortRequest& req) {
    std::fprintf(stderr, "pmixrun: rank %u called PMIx_Abort with status %d%s%s\n", req.from,
                 req.status, req.message.empty() ? "" : ": ", req.message.c_str());
    if (!forced_status_) forced_status_ = req.status;
    if (req.targets.empty()) return KillJob(SIGTERM);
    for (Child& c : children_)
      for (pmix_rank_t r : req.targets)
        if (!c.reaped && static_cast<pmix_rank_t>(c.rank) == r) kill(-c.pid, SIGTERM);
  }

  void OnExit(const Child& c) {
    if (settings_.verbose > 0)
      std::fprintf(stderr, "pmixrun: rank %d (pid %d) exited, status %d\n", c.rank, c.pid,
                   c.exit_code);
    RaiseTerminated(c);
    if (c.exit_code == 0) return;
    if (!first_failure_) first_failure_ = c.exit_code;
    if (killing_) return;  // its death is ours, or the job's end is already decided
    if (c.term_signal != 0)
      std::fprintf(stderr, "pmixrun: rank %d (pid %d) was killed by signal %d (%s)\n", c.rank,
                   c.pid, c.term_signal, strsignal(c.term_signal));
    else
      std::fprintf(stderr, "pmixrun: rank %d (pid %d) exited with status %d%s\n", c.rank, c.pid,
                   c.exit_code,
                   RankFinalized(static_cast<pmix_rank_t>(c.rank)) ? "" : " before PMIx_Finalize");
    if (!AllReaped()) std::fprintf(stderr, "pmixrun: terminating the job\n");
    KillJob(SIGTERM);
  }

  // PMIX_EVENT_PROC_TERMINATED to the job, from the process that ended.
  void RaiseTerminated(const Child& c) {
    auto* ev = static_cast<TermEvent*>(std::calloc(1, sizeof(TermEvent)));
    if (ev == nullptr) return;
    pmix_proc_t proc;
    PMIx_Load_procid(&proc, settings_.nspace.c_str(), static_cast<pmix_rank_t>(c.rank));
    PMIx_Info_construct(&ev->info[0]);
    PMIx_Info_construct(&ev->info[1]);
    (void)PMIx_Info_load(&ev->info[0], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    int code = c.exit_code;
    (void)PMIx_Info_load(&ev->info[1], PMIX_EXIT_CODE, &code, PMIX_INT);
    pmix_status_t rc = PMIx_Notify_event(PMIX_EVENT_PROC_TERMINATED, &proc, PMIX_RANGE_NAMESPACE,
                                         ev->info, 2, TermEventDone, ev);
    if (rc != PMIX_SUCCESS) TermEventDone(rc, ev);
  }

  void CheckDeadlines() {
    auto now = Clock::now();
    if (timeout_at_ && now >= *timeout_at_) {
      timeout_at_.reset();
      std::fprintf(stderr, "pmixrun: job timed out after %d s; terminating it\n",
                   settings_.timeout_s);
      if (!forced_status_) forced_status_ = kTimeoutExit;
      KillJob(SIGTERM);
    }
    if (kill_at_ && now >= *kill_at_) {
      kill_at_.reset();
      if (!AllReaped()) SignalAll(children_, SIGKILL);
    }
  }

  const RunSettings& settings_;
  std::vector<Child>& children_;
  std::vector<std::pair<Child*, Stream*>> owners_;  // of PollSet()'s fds after the first
  std::optional<Clock::time_point> timeout_at_, kill_at_, drain_until_;
  std::optional<int> forced_status_, first_failure_;
  bool killing_ = false;
  int signals_seen_ = 0;
};

}  // namespace

int RunJob(const RunSettings& settings, std::vector<Child>& children) {
  return Runner(settings, children).Run();
}

}  // namespace pmixrun
