#include "src/runtime/progress_slot.h"

#include <utility>

#include "src/runtime/progress.h"

namespace pmix::runtime {
namespace detail {

void SlotRegistry::DetachAll() {
  std::lock_guard<std::mutex> lock(mu);
  for (EventSlot* slot : live) slot->Detach();
  live.clear();
}

EventSlot::EventSlot(SlotRegistry* registry, Callback fn)
    : registry_(registry), fn_(std::move(fn)) {}

std::unique_ptr<EventSlot> EventSlot::Create(SlotRegistry* registry, int fd, short what,
                                             const timeval* delay, Callback fn) {
  auto slot = std::make_unique<EventSlot>(registry, std::move(fn));
  slot->ev_ = event_new(registry->base, fd, what, &EventSlot::Trampoline, slot.get());
  if (slot->ev_ == nullptr) {
    output::Error("progress", "event_new failed for fd %d", fd);
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(registry->mu);
    registry->live.insert(slot.get());
  }
  // Added only once registered: from here on the callback may run.
  if (event_add(slot->ev_, delay) != 0) {
    output::Error("progress", "event_add failed for fd %d", fd);
    return nullptr;  // the destructor unregisters and frees the event
  }
  return slot;
}

EventSlot::~EventSlot() {
  if (registry_ != nullptr) {
    std::lock_guard<std::mutex> lock(registry_->mu);
    registry_->live.erase(this);
  }
  // Off the progress thread this waits for a running callback to return;
  // on it (also inside our own callback) it returns at once.
  if (ev_ != nullptr) event_free(ev_);
  if (destroyed_ != nullptr) *destroyed_ = true;
}

void EventSlot::Disarm() {
  if (ev_ != nullptr) event_del(ev_);
}

bool EventSlot::Reassign(short what) {
  if (ev_ == nullptr) return false;
  event_base* base = event_get_base(ev_);
  evutil_socket_t fd = event_get_fd(ev_);
  event_del(ev_);
  if (event_assign(ev_, base, fd, what, &EventSlot::Trampoline, this) != 0 ||
      event_add(ev_, nullptr) != 0) {
    output::Error("progress", "re-arming the watch of fd %d failed", static_cast<int>(fd));
    return false;
  }
  return true;
}

void EventSlot::Detach() {
  if (ev_ != nullptr) event_free(ev_);
  ev_ = nullptr;
  registry_ = nullptr;
}

void EventSlot::Trampoline(evutil_socket_t /*fd*/, short what, void* arg) {
  auto* self = static_cast<EventSlot*>(arg);
  ++self->registry_->callbacks_run;
  const bool persistent = (event_get_events(self->ev_) & EV_PERSIST) != 0;
  // The callback may destroy this slot (and with it fn_): run a moved-out
  // copy and learn through `destroyed` whether `self` is still there.
  bool destroyed = false;
  self->destroyed_ = &destroyed;
  Callback fn = std::move(self->fn_);
  RunContained("event callback", [&] { fn(what); });
  if (destroyed) return;
  self->destroyed_ = nullptr;
  // A one-shot timer releases what its callback holds right away.
  if (persistent) self->fn_ = std::move(fn);
}

}  // namespace detail

ProgressEngine::Timer::Timer(std::unique_ptr<detail::EventSlot> slot) : slot_(std::move(slot)) {}
ProgressEngine::Timer::~Timer() = default;
void ProgressEngine::Timer::Cancel() { slot_->Disarm(); }

ProgressEngine::FdWatch::FdWatch(std::unique_ptr<detail::EventSlot> slot)
    : slot_(std::move(slot)) {}
ProgressEngine::FdWatch::~FdWatch() = default;

bool ProgressEngine::FdWatch::SetWantWrite(bool want_write) {
  return slot_->Reassign(static_cast<short>(EV_READ | EV_PERSIST | (want_write ? EV_WRITE : 0)));
}

}  // namespace pmix::runtime
