#include "src/runtime/progress.h"

#include <event2/event.h>
#include <event2/thread.h>

#include <atomic>
#include <deque>
#include <system_error>
#include <thread>
#include <utility>

#include "src/common/output.h"
#include "src/runtime/progress_slot.h"

namespace pmix::runtime {
namespace {

// libevent's lock callbacks are process-global and must be installed before
// the first base that is used from several threads is created.
Status EnableLibeventThreads() {
  static std::once_flag once;
  static int rc = 0;
  std::call_once(once, [] { rc = evthread_use_pthreads(); });
  if (rc != 0) {
    output::Error("progress", "evthread_use_pthreads failed");
    return PMIX_ERR_OUT_OF_RESOURCE;
  }
  return Status();
}

timeval ToTimeval(std::chrono::milliseconds delay) {
  const long long ms = delay.count() < 0 ? 0 : delay.count();
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms % 1000) * 1000);
  return tv;
}

}  // namespace

struct ProgressEngine::Impl {
  enum class State { kIdle, kRunning, kStopped };

  std::atomic<std::thread::id> owner{};  // the thread counting as progress thread
  std::thread thread;                    // thread mode only
  std::mutex run_mu;                     // serialises RunOnce / external Stop
  event* wake = nullptr;                 // activated by Post; drains the queue
  detail::SlotRegistry registry;         // holds the base

  std::mutex mu;  // guards the fields below
  Mode mode = Mode::kThread;
  State state = State::kIdle;
  bool stop_requested = false;  // thread mode: leave the loop once drained
  std::deque<std::function<void()>> queue;
  std::atomic<size_t> unfinished{0};  // posted closures not yet run to their end

  event_base* base() const { return registry.base; }
  bool RunningExternal() {
    std::lock_guard<std::mutex> lock(mu);
    return mode == Mode::kExternal && state == State::kRunning;
  }
  Status CreateBase();
  void FreeBase();
  void ThreadMain();
  int DrainBatch();
  static void OnWake(evutil_socket_t fd, short what, void* arg);
};

Status ProgressEngine::Impl::CreateBase() {
  PMIX_RETURN_IF_ERROR(EnableLibeventThreads());
  // No cached time: a timer added late in a long pass (or from another
  // thread during one) would otherwise count its delay from the start of
  // the pass and fire early. Precise timer: the coarse monotonic clock may
  // lag the one callers measure with.
  event_config* config = event_config_new();
  if (config != nullptr) {
    event_config_set_flag(config, EVENT_BASE_FLAG_NO_CACHE_TIME);
    event_config_set_flag(config, EVENT_BASE_FLAG_PRECISE_TIMER);
    registry.base = event_base_new_with_config(config);
    event_config_free(config);
  }
  if (registry.base == nullptr) {
    output::Error("progress", "event_base_new failed");
    return PMIX_ERR_OUT_OF_RESOURCE;
  }
  // Never added, only activated: the loop runs with EVLOOP_NO_EXIT_ON_EMPTY.
  wake = event_new(registry.base, -1, EV_PERSIST, &Impl::OnWake, this);
  if (wake == nullptr) {
    output::Error("progress", "event_new failed for the wake-up event");
    FreeBase();
    return PMIX_ERR_OUT_OF_RESOURCE;
  }
  return Status();
}

void ProgressEngine::Impl::FreeBase() {
  registry.DetachAll();
  if (wake != nullptr) event_free(wake);
  wake = nullptr;
  if (registry.base != nullptr) event_base_free(registry.base);
  registry.base = nullptr;
}

void ProgressEngine::Impl::ThreadMain() {
  owner.store(std::this_thread::get_id());
  if (event_base_loop(base(), EVLOOP_NO_EXIT_ON_EMPTY) < 0) {
    output::Error("progress", "the event loop failed; progress has stopped");
  }
  owner.store(std::thread::id());
}

// Runs the closures queued at this moment, each destroyed right after it
// ran. Later posts wait for the next pass (Post re-activated the wake-up
// event), so a closure that keeps re-posting cannot starve fd and timer
// callbacks.
int ProgressEngine::Impl::DrainBatch() {
  std::deque<std::function<void()>> batch;
  {
    std::lock_guard<std::mutex> lock(mu);
    batch.swap(queue);
  }
  const int count = static_cast<int>(batch.size());
  while (!batch.empty()) {
    ++registry.callbacks_run;
    detail::RunContained("posted closure", batch.front());
    batch.pop_front();
    unfinished.fetch_sub(1, std::memory_order_release);
  }
  return count;
}

void ProgressEngine::Impl::OnWake(evutil_socket_t /*fd*/, short /*what*/, void* arg) {
  auto* self = static_cast<Impl*>(arg);
  self->DrainBatch();
  std::lock_guard<std::mutex> lock(self->mu);
  // Stop() refuses new posts before it sets stop_requested, so once the
  // queue is empty here nothing accepted is left behind.
  if (self->stop_requested && self->queue.empty()) event_base_loopbreak(self->base());
}

ProgressEngine::ProgressEngine() : impl_(std::make_unique<Impl>()) {}

ProgressEngine::~ProgressEngine() {
  Stop();
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_->FreeBase();
}

Status ProgressEngine::Start(Mode mode) {
  Impl& im = *impl_;
  {
    std::lock_guard<std::mutex> lock(im.mu);
    if (im.state != Impl::State::kIdle) {
      output::Error("progress", "Start: the engine was already started");
      return PMIX_ERROR;
    }
  }
  PMIX_RETURN_IF_ERROR(im.CreateBase());
  {
    std::lock_guard<std::mutex> lock(im.mu);
    im.mode = mode;
    im.state = Impl::State::kRunning;
  }
  if (mode == Mode::kExternal) return Status();
  try {
    im.thread = std::thread([&im] { im.ThreadMain(); });
  } catch (const std::system_error& e) {
    output::Error("progress", "cannot start the progress thread: %s", e.what());
    {
      std::lock_guard<std::mutex> lock(im.mu);
      im.state = Impl::State::kIdle;
      im.queue.clear();
      im.unfinished.store(0);
    }
    im.FreeBase();
    return PMIX_ERR_OUT_OF_RESOURCE;
  }
  return Status();
}

void ProgressEngine::Stop() {
  Impl& im = *impl_;
  if (IsProgressThread()) {
    output::Error("progress", "Stop called on the progress thread; ignored");
    return;
  }
  std::lock_guard<std::mutex> run_lock(im.run_mu);
  Mode mode;
  {
    std::lock_guard<std::mutex> lock(im.mu);
    if (im.state != Impl::State::kRunning) return;
    im.state = Impl::State::kStopped;
    mode = im.mode;
    if (mode == Mode::kThread) {
      im.stop_requested = true;
      event_active(im.wake, EV_READ, 0);
    }
  }
  if (mode == Mode::kThread) {
    im.thread.join();
    return;
  }
  // External mode: run what was accepted before the stop, on this thread.
  im.owner.store(std::this_thread::get_id());
  while (im.DrainBatch() > 0) {
  }
  im.owner.store(std::thread::id());
}

Status ProgressEngine::Post(std::function<void()> fn) {
  if (!fn) return PMIX_ERR_BAD_PARAM;
  Impl& im = *impl_;
  std::lock_guard<std::mutex> lock(im.mu);
  if (im.state != Impl::State::kRunning) return PMIX_ERR_INIT;
  im.queue.push_back(std::move(fn));
  im.unfinished.fetch_add(1, std::memory_order_relaxed);
  // Under mu: Stop() and the destructor cannot free `wake` meanwhile.
  event_active(im.wake, EV_READ, 0);
  return Status();
}

std::unique_ptr<ProgressEngine::Timer> ProgressEngine::AddTimer(std::chrono::milliseconds delay,
                                                                std::function<void()> fn) {
  if (!fn) return nullptr;
  Impl& im = *impl_;
  std::lock_guard<std::mutex> lock(im.mu);
  if (im.state != Impl::State::kRunning) return nullptr;
  const timeval tv = ToTimeval(delay);
  auto slot =
      detail::EventSlot::Create(&im.registry, -1, 0, &tv, [fn = std::move(fn)](short) { fn(); });
  if (slot == nullptr) return nullptr;
  return std::make_unique<Timer>(std::move(slot));
}

std::unique_ptr<ProgressEngine::FdWatch> ProgressEngine::WatchFd(
    int fd, bool want_write, std::function<void(bool readable, bool writable)> on_ready) {
  if (fd < 0 || !on_ready) return nullptr;
  Impl& im = *impl_;
  std::lock_guard<std::mutex> lock(im.mu);
  if (im.state != Impl::State::kRunning) return nullptr;
  const short what = static_cast<short>(EV_READ | EV_PERSIST | (want_write ? EV_WRITE : 0));
  auto slot = detail::EventSlot::Create(&im.registry, fd, what, nullptr,
                                        [fn = std::move(on_ready)](short events) {
                                          fn((events & EV_READ) != 0, (events & EV_WRITE) != 0);
                                        });
  if (slot == nullptr) return nullptr;
  return std::make_unique<FdWatch>(std::move(slot));
}

int ProgressEngine::RunOnce() {
  Impl& im = *impl_;
  if (IsProgressThread() || !im.RunningExternal()) return 0;
  std::lock_guard<std::mutex> run_lock(im.run_mu);
  if (!im.RunningExternal()) return 0;  // stopped while we waited
  im.owner.store(std::this_thread::get_id());
  const std::uint64_t before = im.registry.callbacks_run;
  im.DrainBatch();
  if (event_base_loop(im.base(), EVLOOP_NONBLOCK) < 0) {
    output::Error("progress", "event_base_loop failed in RunOnce");
  }
  const int count = static_cast<int>(im.registry.callbacks_run - before);
  im.owner.store(std::thread::id());
  return count;
}

bool ProgressEngine::Quiet() const {
  return impl_->unfinished.load(std::memory_order_acquire) == 0;
}

bool ProgressEngine::HasThread() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->mode == Mode::kThread && impl_->state == Impl::State::kRunning;
}

bool ProgressEngine::IsProgressThread() const {
  return impl_->owner.load() == std::this_thread::get_id();
}

event_base* ProgressEngine::base() const { return impl_->base(); }

}  // namespace pmix::runtime
