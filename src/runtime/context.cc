#include "src/runtime/context.h"

#include <pthread.h>

#include <atomic>
#include <memory>
#include <mutex>

namespace pmix::runtime {
namespace {

struct Shared {
  std::mutex mu;
  int count = 0;
  unsigned forks = 0;  // ForkCount() when the engine started (a forked child has none)
  std::unique_ptr<ProgressEngine> engine;
  ProgressEngine::Mode mode = ProgressEngine::Mode::kThread;
};

// Forks this process went through (as a child): a fork handler counts
// them, so that telling a forked child from its parent takes no system
// call on every API call (getpid() is one).
std::atomic<unsigned> g_forks{0};

unsigned ForkCount() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::pthread_atfork(nullptr, nullptr, [] { g_forks.fetch_add(1, std::memory_order_relaxed); });
  });
  return g_forks.load(std::memory_order_relaxed);
}

Shared& State() {
  static Shared* shared = new Shared;  // never destroyed: used until exit
  return *shared;
}

}  // namespace

Status AcquireEngine(ProgressEngine::Mode mode) {
  Shared& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.count == 0) {
    auto engine = std::make_unique<ProgressEngine>();
    PMIX_RETURN_IF_ERROR(engine->Start(mode));
    s.engine = std::move(engine);
    s.mode = mode;
    s.forks = ForkCount();
  }
  ++s.count;
  return Status();
}

Status ReleaseEngine() {
  Shared& s = State();
  std::unique_ptr<ProgressEngine> stopping;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.count == 0) return PMIX_ERR_INIT;
    if (s.engine->IsProgressThread()) return PMIX_ERR_WOULD_BLOCK;
    if (--s.count > 0) return Status();
    stopping = std::move(s.engine);
  }
  stopping->Stop();
  return Status();
}

ProgressEngine* Engine() {
  Shared& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  // After fork() the child has the parent's memory but not its progress
  // thread: nothing may be posted there (it would never run).
  if (s.engine != nullptr && s.forks != ForkCount()) return nullptr;
  return s.engine.get();
}

void WaitDriving(const std::function<bool(std::chrono::milliseconds)>& wait_for) {
  ProgressEngine* engine = Engine();
  bool external = false;
  {
    Shared& s = State();
    std::lock_guard<std::mutex> lock(s.mu);
    external = s.engine != nullptr && s.mode == ProgressEngine::Mode::kExternal;
  }
  if (!external) {
    while (!wait_for(std::chrono::milliseconds(1000))) {
    }
    return;
  }
  // External progress: nobody else runs the loop, so the waiter does.
  while (!wait_for(std::chrono::milliseconds(0))) {
    if (engine->RunOnce() == 0) {
      if (wait_for(std::chrono::milliseconds(1))) return;
    }
  }
}

}  // namespace pmix::runtime
