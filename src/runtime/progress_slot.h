// Internal to the progress engine: one libevent event (a timer or an fd
// watch) plus the C++ callback it runs, and the per-engine registry of live
// slots that lets the engine disarm handles which outlive it.
//
// Threads: Create/Disarm/the destructor may run on any thread (libevent is
// set up with pthread locking, so event_add/event_del are safe there;
// event_del from another thread waits for a running callback of that
// event). Reassign and the callback itself belong to the progress thread.
// The callback may destroy its own slot: the trampoline moves the callback
// out before calling it and touches the slot afterwards only if it is
// still alive.
#ifndef PMIXX_SRC_RUNTIME_PROGRESS_SLOT_H
#define PMIXX_SRC_RUNTIME_PROGRESS_SLOT_H

#include <event2/event.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <set>

#include "src/common/output.h"

namespace pmix::runtime::detail {

// Runs a callback on the progress thread: an exception must not unwind
// through libevent's C frames, so it is logged and dropped here.
template <class F>
void RunContained(const char* kind, F&& fn) noexcept {
  try {
    fn();
  } catch (const std::exception& e) {
    output::Error("progress", "%s threw: %s", kind, e.what());
  } catch (...) {
    output::Error("progress", "%s threw a non-standard exception", kind);
  }
}

class EventSlot;

// The live slots of one engine. The engine's destructor calls DetachAll()
// after its loop has stopped for good.
struct SlotRegistry {
  event_base* base = nullptr;
  std::uint64_t callbacks_run = 0;  // progress thread only: every callback run

  std::mutex mu;
  std::set<EventSlot*> live;  // guarded by mu

  // Frees the events of all live slots, which become inert.
  void DetachAll();
};

class EventSlot {
 public:
  using Callback = std::function<void(short what)>;

  // A new event on registry->base for `fd` (-1 for a timer) and `what`
  // (EV_* flags), added with `delay` (nullptr: none). nullptr on failure.
  static std::unique_ptr<EventSlot> Create(SlotRegistry* registry, int fd, short what,
                                           const timeval* delay, Callback fn);
  EventSlot(SlotRegistry* registry, Callback fn);  // not armed: use Create
  ~EventSlot();
  EventSlot(const EventSlot&) = delete;
  EventSlot& operator=(const EventSlot&) = delete;

  void Disarm();              // event_del; the callback will not start again
  bool Reassign(short what);  // progress thread: same fd, new EV_* flags
  void Detach();              // registry->mu held: free the event, go inert

 private:
  static void Trampoline(evutil_socket_t fd, short what, void* arg);

  SlotRegistry* registry_;     // nullptr once detached
  event* ev_ = nullptr;        // nullptr once detached
  Callback fn_;                // moved out while it runs
  bool* destroyed_ = nullptr;  // set by the trampoline while fn_ runs
};

}  // namespace pmix::runtime::detail

#endif  // PMIXX_SRC_RUNTIME_PROGRESS_SLOT_H
