// The process's one progress engine (DESIGN §5), shared by every role the
// process holds (client, server, tool), and the blocking-call helper the
// role APIs are built on.
//
// AcquireEngine() starts the engine on its first call (in the mode that
// call asks for: PMIX_EXTERNAL_PROGRESS -> kExternal) and counts further
// calls; ReleaseEngine() stops it when the count drops to zero. Both are
// thread-safe; ReleaseEngine on the progress thread is refused (the engine
// cannot join itself) and returns PMIX_ERR_WOULD_BLOCK.
#ifndef PMIXX_SRC_RUNTIME_CONTEXT_H
#define PMIXX_SRC_RUNTIME_CONTEXT_H

#include <chrono>
#include <functional>

#include "src/common/status.h"
#include "src/runtime/progress.h"

namespace pmix::runtime {

Status AcquireEngine(ProgressEngine::Mode mode);
Status ReleaseEngine();

// The running engine, or nullptr. The pointer stays valid until the last
// ReleaseEngine(); role code holds an acquisition while it uses it.
ProgressEngine* Engine();

// Runs `start` on the progress thread and waits for the value it hands to
// its `done` argument (which may be called later, from any callback on the
// progress thread, exactly once). Returns PMIX_ERR_WOULD_BLOCK when called
// on the progress thread (a blocking API inside a PMIx callback) and
// PMIX_ERR_INIT when no engine runs. In external-progress mode the waiting
// thread drives the engine (RunOnce) while it waits.
template <class T>
Result<T> CallBlocking(std::function<void(std::function<void(T)> done)> start);

// The blocking form of an _nb operation whose `start` either fails at once
// (its status is returned, the callback is never called) or returns
// PMIX_SUCCESS and later calls the callback once, from any thread. Errors
// as CallBlocking (PMIX_ERR_INIT, PMIX_ERR_WOULD_BLOCK).
template <class T>
Result<T> WaitForCallback(const std::function<pmix_status_t(std::function<void(T&&)>)>& start);

// Waits for `completion`, driving the engine when it runs in external
// mode. Not on the progress thread.
void WaitDriving(const std::function<bool(std::chrono::milliseconds)>& wait_for);

template <class T>
Result<T> CallBlocking(std::function<void(std::function<void(T)> done)> start) {
  ProgressEngine* engine = Engine();
  if (engine == nullptr) return Status(PMIX_ERR_INIT);
  if (!engine->BlockingAllowed()) return Status(PMIX_ERR_WOULD_BLOCK);
  // Shared with the setter, which then notifies after unlocking (progress.h).
  auto completion = SharedCompletion<T>::Make();
  Status posted = engine->Post([start = std::move(start), completion] {
    start([completion](T value) { completion->Set(std::move(value)); });
  });
  if (!posted.ok()) return posted;
  std::optional<T> value;
  WaitDriving([&](std::chrono::milliseconds slice) {
    value = completion->WaitFor(slice);
    return value.has_value();
  });
  return std::move(*value);
}

template <class T>
Result<T> WaitForCallback(const std::function<pmix_status_t(std::function<void(T&&)>)>& start) {
  ProgressEngine* engine = Engine();
  if (engine == nullptr) return Status(PMIX_ERR_INIT);
  if (!engine->BlockingAllowed()) return Status(PMIX_ERR_WOULD_BLOCK);
  auto completion = SharedCompletion<T>::Make();
  pmix_status_t rc = start([completion](T&& r) { completion->Set(std::move(r)); });
  if (rc != PMIX_SUCCESS) return Status(rc);
  std::optional<T> out;
  WaitDriving([&](std::chrono::milliseconds slice) {
    out = completion->WaitFor(slice);
    return out.has_value();
  });
  return std::move(*out);
}

}  // namespace pmix::runtime

#endif  // PMIXX_SRC_RUNTIME_CONTEXT_H
