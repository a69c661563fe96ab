// The event dispatcher of one process: its handler registry, the queue of
// events waiting for delivery, the chain being run, and the cache of events
// nobody was registered for (spec §10.1).
//
// Delivery: events run one chain at a time, in arrival order. A chain calls
// its handlers (Registry::Chain order) one by one; each handler gets the
// event's infos plus PMIX_EVENT_HDLR_NAME (when it has a name) and
// PMIX_EVENT_RETURN_OBJECT (when it registered one), and the results
// accumulated so far (NULL when none). The next handler runs after the
// previous one called its completion function; PMIX_EVENT_ACTION_COMPLETE
// ends the chain. A completion may come from any thread: its results are
// copied before it returns and the chain continues on the progress thread
// (then its op cbfunc, if any, is called there). Each handler's completion
// adds to the results one info {key = the handler's name, or "UNKNOWN"
// for unnamed handlers (as OpenPMIx keys them), PMIX_STATUS = the status it
// completed with}, followed by the results it returned.
//
// Deregistering a handler while a chain runs removes it from the rest of
// that chain; if it was the one running, its completion still continues
// the chain. A handler that never calls its completion stalls later events
// (the standard requires it to call).
//
// Chain done: Deliver may be given a ChainDone, called once on the progress
// thread when the event's chain ended (with the accumulated results, and
// handled = true) or at once when no handler matched (empty results,
// handled = false; the event is cached as usual but the callback is not
// kept with it). It is not called when the chain is dropped (Shutdown, a
// handler that never completes). The group code reads its handlers'
// verdicts this way (leader election, aborts).
//
// Cache: an event no handler matches is kept (unless it carries
// PMIX_EVENT_DO_NOT_CACHE); at most `cache_limit` of them, the oldest
// dropped first. ReplayCached(id) queues, in arrival order, the cached
// events that handler `id` matches (they then run a full chain).
//
// Threads: every method runs on the progress thread, except that handler
// completions may come from anywhere. `post` (given at creation) must run
// a closure on the progress thread later and return false when it cannot
// (the closure then is dropped); the dispatcher uses it only to continue
// chains. Completions arriving after Shutdown() or after the dispatcher is
// gone are answered (their op cbfunc is called) and otherwise ignored.
#ifndef PMIXX_SRC_EVENT_DISPATCHER_H
#define PMIXX_SRC_EVENT_DISPATCHER_H

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/event/event.h"
#include "src/event/registry.h"
#include "src/wire/buffer.h"

namespace pmix::event {

inline constexpr size_t kDefaultCacheLimit = 64;

class Dispatcher : public std::enable_shared_from_this<Dispatcher> {
 public:
  using Poster = std::function<bool(std::function<void()>)>;

  static std::shared_ptr<Dispatcher> Create(Poster post, size_t cache_limit = kDefaultCacheLimit);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // Registry::Add / Remove (same errors).
  Result<size_t> Register(HandlerSpec spec, pmix_notification_fn_t fn);
  Status Deregister(size_t id);
  // Queues the cached events that handler `id` (received by `self`) matches.
  void ReplayCached(size_t id);

  using ChainDone = std::function<void(const wire::Infos& results, bool handled)>;

  // Queues `event`, received by process `self`, and starts it when no
  // chain runs; `done` (optional) as described above.
  void Deliver(EventPtr event, const pmix_proc_t& self, ChainDone done = nullptr);

  // Drops the queue, the cache, the running chain and every handler.
  void Shutdown();

  const Registry& registry() const { return registry_; }
  size_t cached() const { return cache_.size(); }
  size_t queued() const { return queue_.size(); }
  bool busy() const { return running_.has_value(); }

  // The completion function handed to handlers (pmix_event_notification_cbfunc_fn_t).
  static void Completion(pmix_status_t status, pmix_info_t* results, size_t nresults,
                         pmix_op_cbfunc_t cbfunc, void* thiscbdata, void* notification_cbdata);

 private:
  struct Pending {
    EventPtr event;
    pmix_proc_t self;
    ChainDone done;
  };
  struct Running {
    Pending what;
    std::vector<size_t> ids;
    size_t next = 0;
    wire::Infos results;
    wire::Infos handler_info;  // what the current handler was given
    std::string handler_name;  // of the current handler
    uint64_t token = 0;        // completion token of the current handler
  };

  Dispatcher(Poster post, size_t cache_limit);
  void StartNext();
  bool RunStep();  // false: the chain has no handler left
  void Invoke(const Handler& h);
  void OnHandlerDone(uint64_t token, pmix_status_t status, const wire::Infos& results);
  void DropRunning();
  void EndChain();

  Poster post_;
  size_t cache_limit_;
  Registry registry_;
  std::deque<Pending> queue_;
  std::deque<Pending> cache_;
  std::optional<Running> running_;
};

// The process's dispatcher (progress thread only), created on first use
// with a poster onto runtime::Engine(). ShutdownLocalDispatcher() drops it
// (a later LocalDispatcher() starts afresh); the roles call it when they
// finalize.
Dispatcher& LocalDispatcher();
void ShutdownLocalDispatcher();

}  // namespace pmix::event

#endif  // PMIXX_SRC_EVENT_DISPATCHER_H
