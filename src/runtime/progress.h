// The progress engine: one thread per process that owns all socket I/O and
// all mutable protocol state (DESIGN §5), on a libevent event_base.
//
// Other threads never touch that state: they Post() a closure, which runs
// on the progress thread in posting order. A blocking API is its
// non-blocking form plus a completion the caller waits on (SharedCompletion
// in context.h's helpers); a blocking API called ON the progress thread
// (i.e. from inside a PMIx callback) must not wait, and BlockingAllowed()
// says so (PMIX_ERR_WOULD_BLOCK is the status the APIs return then).
//
// External progress (PMIX_EXTERNAL_PROGRESS at init): no thread is started;
// the application calls PMIx_Progress(), which runs one non-blocking pass
// of the loop on the caller's thread, and that thread counts as the
// progress thread while it does.
//
// Lifetime: Start() once, Stop() once (joins the thread after running the
// closures already posted; closures posted after Stop() are dropped and
// their owners destroyed, never run). Thread-safe: Post, AddTimer,
// IsProgressThread, BlockingAllowed may be called from any thread.
#ifndef PMIXX_SRC_RUNTIME_PROGRESS_H
#define PMIXX_SRC_RUNTIME_PROGRESS_H

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "src/common/status.h"

struct event_base;

namespace pmix::runtime {

namespace detail {
class EventSlot;  // progress_slot.h: one libevent event plus its callback
}

class ProgressEngine {
 public:
  enum class Mode { kThread, kExternal };

  ProgressEngine();
  ~ProgressEngine();  // Stop()s if still running
  ProgressEngine(const ProgressEngine&) = delete;
  ProgressEngine& operator=(const ProgressEngine&) = delete;

  // PMIX_ERR_OUT_OF_RESOURCE when libevent or the thread could not be
  // created; PMIX_ERROR when already started (also after Stop()).
  Status Start(Mode mode);
  // Not on the progress thread (it would join itself): there it only logs
  // an error. A no-op when not running; the destructor calls it.
  void Stop();

  // Runs `fn` on the progress thread, after every closure posted before it.
  // Returns PMIX_ERR_INIT when the engine is not running (fn not run).
  // PMIX_ERR_BAD_PARAM for an empty fn.
  Status Post(std::function<void()> fn);

  // Runs `fn` once on the progress thread after `delay`; the returned handle
  // cancels it when destroyed or Cancel()ed first. Use on any thread.
  // Returns nullptr (fn not run) when the engine is not running or libevent
  // could not allocate the event.
  class Timer;
  std::unique_ptr<Timer> AddTimer(std::chrono::milliseconds delay, std::function<void()> fn);

  // Watches `fd` on the progress thread: `on_ready(readable, writable)`
  // runs there whenever it is ready for what `want_write` asks (read always;
  // write too when true). Meant for the progress thread (the state the
  // callback touches lives there); creating one elsewhere is safe too. The
  // handle stops watching when destroyed; it does not close the fd (which
  // should be non-blocking: readiness is level-triggered, the callback
  // runs again while data is left). Returns nullptr when the engine is not
  // running, fd < 0, or libevent failed.
  class FdWatch;
  std::unique_ptr<FdWatch> WatchFd(int fd, bool want_write,
                                   std::function<void(bool readable, bool writable)> on_ready);

  // External mode: one non-blocking pass (PMIx_Progress): the closures
  // queued when it starts, then one EVLOOP_NONBLOCK pass of the loop (I/O,
  // due timers, closures posted meanwhile). Returns the number of callbacks
  // run (closures, timers, fd watches); 0 in thread mode, when not running,
  // or when called on the progress thread (re-entry from a callback). Calls
  // from several threads are serialised.
  int RunOnce();

  bool IsProgressThread() const;
  bool BlockingAllowed() const { return !IsProgressThread(); }
  // Whether a progress thread runs the engine (a waiting caller need not
  // drive it); any thread.
  bool HasThread() const;
  // Whether every closure posted so far has run to its end (any thread):
  // then what the caller posted before has been done, and a message it
  // writes itself cannot overtake one of them.
  bool Quiet() const;
  event_base* base() const;  // progress thread only

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Handles. Both may outlive the engine (its destructor disarms them; they
// are inert afterwards) but must not be destroyed concurrently with it.
// Destroying a handle, or Cancel(), on the progress thread (also from inside
// its own callback) never blocks; on another thread it waits for a callback
// of that handle that is running at that moment to return (so do not hold a
// lock that callback needs). After it returns the callback never starts.
class ProgressEngine::Timer {
 public:
  explicit Timer(std::unique_ptr<detail::EventSlot> slot);  // made by AddTimer
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  void Cancel();  // idempotent; no effect after the timer fired

 private:
  std::unique_ptr<detail::EventSlot> slot_;
};

class ProgressEngine::FdWatch {
 public:
  explicit FdWatch(std::unique_ptr<detail::EventSlot> slot);  // made by WatchFd
  ~FdWatch();
  FdWatch(const FdWatch&) = delete;
  FdWatch& operator=(const FdWatch&) = delete;
  // Starts or stops asking for writability (read is always watched), e.g.
  // while output is queued. Progress thread only (may be called from the
  // watch's own callback). False when libevent refused (then not watching).
  bool SetWantWrite(bool want_write);

 private:
  std::unique_ptr<detail::EventSlot> slot_;
};

namespace detail {

// What Completion and SharedCompletion share: the value, once, and the
// waits for it. Store() keeps the first value (false for a later one).
template <class T>
class OneShot {
 public:
  T Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return value_.has_value(); });
    return std::move(*value_);
  }
  // Waits at most `timeout`; nullopt when it expired.
  std::optional<T> WaitFor(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, timeout, [&] { return value_.has_value(); })) return std::nullopt;
    return std::move(*value_);
  }

 protected:
  bool Store(T value) {  // mu_ held
    if (value_) return false;  // one shot: later results are ignored
    value_.emplace(std::move(value));
    return true;
  }
  std::mutex mu_;
  std::condition_variable cv_;

 private:
  std::optional<T> value_;
};

}  // namespace detail

// A one-shot result a blocking API waits for; Set() from any thread (the
// progress thread, typically), Wait() from the caller's. The waiter may own
// it (on its stack) and destroy it as soon as the wait returns; a waiter
// that shares it with the setter uses SharedCompletion (below).
template <class T>
class Completion : public detail::OneShot<T> {
 public:
  void Set(T value) {
    // Notified under the lock: the waiter typically owns this object on its
    // stack and destroys it as soon as Wait returns, so Set must not touch
    // it after releasing the mutex.
    std::lock_guard<std::mutex> lock(this->mu_);
    if (this->Store(std::move(value))) this->cv_.notify_all();
  }
};

// The waiter of the blocking-API helpers (context.h: CallBlocking,
// WaitForCallback). Same one-shot contract as Completion, but Set() notifies
// after releasing the lock: a waiter woken under the setter's lock would
// only block on that mutex again, and on a machine with more runnable
// threads than cores that is one more context switch per blocking call
// (issue 10). Notifying after the unlock touches the object after the
// waiter may have seen the value, returned and let go of it, so the object
// lives only in a shared_ptr (Make()) and Set() holds a reference of its
// own until it has notified: whoever waits may drop theirs as soon as the
// wait returns. Completion keeps notifying under its lock for the waiters
// that own it on their stack.
template <class T>
class SharedCompletion : public detail::OneShot<T>,
                         public std::enable_shared_from_this<SharedCompletion<T>> {
 public:
  static std::shared_ptr<SharedCompletion> Make() {
    return std::shared_ptr<SharedCompletion>(new SharedCompletion());
  }
  SharedCompletion(const SharedCompletion&) = delete;
  SharedCompletion& operator=(const SharedCompletion&) = delete;

  // From any thread, through any live reference.
  void Set(T value) {
    std::shared_ptr<SharedCompletion> self = this->shared_from_this();  // alive until notified
    {
      std::lock_guard<std::mutex> lock(this->mu_);
      if (!this->Store(std::move(value))) return;
    }
    this->cv_.notify_all();
  }

 private:
  SharedCompletion() = default;
};

}  // namespace pmix::runtime

#endif  // PMIXX_SRC_RUNTIME_PROGRESS_H
