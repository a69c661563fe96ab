#include "src/event/dispatcher.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "pmix.h"
#include "src/common/output.h"
#include "src/runtime/context.h"

namespace pmix::event {

namespace {

// Completion tokens: the cbdata a handler gets is a number, looked up here,
// so a late or repeated completion never touches freed memory. Guarded by
// a mutex because completions may come from any thread.
struct TokenTable {
  std::mutex mu;
  std::map<uint64_t, std::weak_ptr<Dispatcher>> live;
  uint64_t next = 1;
};

TokenTable& Tokens() {
  static TokenTable* table = new TokenTable;  // never destroyed: used at exit
  return *table;
}

uint64_t NewToken(std::weak_ptr<Dispatcher> owner) {
  TokenTable& t = Tokens();
  std::lock_guard<std::mutex> lock(t.mu);
  const uint64_t token = t.next++;
  t.live.emplace(token, std::move(owner));
  return token;
}

// Removes the token; the owner when it was live.
std::shared_ptr<Dispatcher> TakeToken(uint64_t token) {
  TokenTable& t = Tokens();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.live.find(token);
  if (it == t.live.end()) return nullptr;
  std::shared_ptr<Dispatcher> owner = it->second.lock();
  t.live.erase(it);
  return owner;
}

void DropToken(uint64_t token) {
  TokenTable& t = Tokens();
  std::lock_guard<std::mutex> lock(t.mu);
  t.live.erase(token);
}

void* TokenToCbdata(uint64_t token) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(token));
}
uint64_t CbdataToToken(void* cbdata) { return reinterpret_cast<uintptr_t>(cbdata); }

}  // namespace

std::shared_ptr<Dispatcher> Dispatcher::Create(Poster post, size_t cache_limit) {
  return std::shared_ptr<Dispatcher>(new Dispatcher(std::move(post), cache_limit));
}

Dispatcher::Dispatcher(Poster post, size_t cache_limit)
    : post_(std::move(post)), cache_limit_(cache_limit) {}

Dispatcher::~Dispatcher() { DropRunning(); }

Result<size_t> Dispatcher::Register(HandlerSpec spec, pmix_notification_fn_t fn) {
  return registry_.Add(std::move(spec), fn);
}

Status Dispatcher::Deregister(size_t id) { return registry_.Remove(id); }

void Dispatcher::ReplayCached(size_t id) {
  const Handler* h = registry_.Find(id);
  if (h == nullptr) return;
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (Registry::Matches(*h, *it->event, it->self)) {
      queue_.push_back(std::move(*it));
      it = cache_.erase(it);
    } else {
      ++it;
    }
  }
  StartNext();
}

void Dispatcher::Deliver(EventPtr event, const pmix_proc_t& self, ChainDone done) {
  if (!event) return;
  queue_.push_back(Pending{std::move(event), self, std::move(done)});
  StartNext();
}

void Dispatcher::Shutdown() {
  DropRunning();
  queue_.clear();
  cache_.clear();
  registry_ = Registry();
}

void Dispatcher::DropRunning() {
  if (running_ && running_->token != 0) DropToken(running_->token);
  running_.reset();
}

void Dispatcher::StartNext() {
  while (!running_ && !queue_.empty()) {
    Pending next = std::move(queue_.front());
    queue_.pop_front();
    std::vector<size_t> ids = registry_.Chain(*next.event, next.self);
    if (ids.empty()) {
      if (ChainDone done = std::exchange(next.done, nullptr)) done(wire::Infos(), false);
      if (next.event->do_not_cache || cache_limit_ == 0) continue;
      cache_.push_back(std::move(next));
      if (cache_.size() > cache_limit_) cache_.pop_front();
      continue;
    }
    // Built whole: clang decides Running's default constructibility while
    // Dispatcher is still incomplete (its member initializers unseen), so
    // emplace() with no arguments does not compile there.
    Running run;
    run.what = std::move(next);
    run.ids = std::move(ids);
    running_.emplace(std::move(run));
    if (!RunStep()) EndChain();
  }
}

void Dispatcher::EndChain() {
  ChainDone done = std::move(running_->what.done);
  wire::Infos results = std::move(running_->results);
  running_.reset();
  if (done) done(results, true);
}

bool Dispatcher::RunStep() {
  while (running_->next < running_->ids.size()) {
    const Handler* h = registry_.Find(running_->ids[running_->next++]);
    if (h == nullptr) continue;  // deregistered since the chain was built
    Invoke(*h);
    return true;
  }
  return false;
}

void Dispatcher::Invoke(const Handler& h) {
  Running& r = *running_;
  const Event& ev = *r.what.event;
  Result<wire::Infos> info = wire::Infos::CopyOf(ev.info.view());
  r.handler_info = info.ok() ? std::move(info).value() : wire::Infos();
  if (!h.spec.name.empty()) {
    (void)r.handler_info.Add(PMIX_EVENT_HDLR_NAME, h.spec.name.c_str(), PMIX_STRING);
  }
  if (h.spec.has_object) {
    (void)r.handler_info.Add(PMIX_EVENT_RETURN_OBJECT, h.spec.object, PMIX_POINTER);
  }
  r.handler_name = h.spec.name.empty() ? "UNKNOWN" : h.spec.name;
  r.token = NewToken(weak_from_this());
  pmix_info_t* info_ptr = r.handler_info.size() > 0 ? r.handler_info.data() : nullptr;
  // The handler may call back into us (register, deregister, notify); it
  // cannot end this chain before returning: its completion is posted.
  h.fn(h.id, ev.status, &ev.source, info_ptr, r.handler_info.size(),
       r.results.size() > 0 ? r.results.data() : nullptr, r.results.size(), &Dispatcher::Completion,
       TokenToCbdata(r.token));
}

void Dispatcher::OnHandlerDone(uint64_t token, pmix_status_t status, const wire::Infos& results) {
  if (!running_ || running_->token != token) return;
  Running& r = *running_;
  r.token = 0;
  (void)r.results.Add(r.handler_name.c_str(), &status, PMIX_STATUS);
  for (const pmix_info_t& info : results.view()) (void)r.results.Append(info);
  if (status == PMIX_EVENT_ACTION_COMPLETE || !RunStep()) {
    EndChain();
    StartNext();
  }
}

void Dispatcher::Completion(pmix_status_t status, pmix_info_t* results, size_t nresults,
                            pmix_op_cbfunc_t cbfunc, void* thiscbdata, void* notification_cbdata) {
  const uint64_t token = CbdataToToken(notification_cbdata);
  std::shared_ptr<Dispatcher> owner = TakeToken(token);
  auto copied = std::make_shared<wire::Infos>();
  if (owner && results != nullptr && nresults > 0) {
    Result<wire::Infos> copy = wire::Infos::CopyOf({results, nresults});
    if (copy.ok()) {
      *copied = std::move(copy).value();
    } else {
      output::Error("event", "event handler results dropped: %s",
                    PMIx_Error_string(copy.status().code()));
    }
  }
  if (owner) {
    std::weak_ptr<Dispatcher> weak = owner;
    bool posted = owner->post_([weak, token, status, copied, cbfunc, thiscbdata] {
      if (auto d = weak.lock()) d->OnHandlerDone(token, status, *copied);
      if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, thiscbdata);
    });
    if (posted) return;
  }
  // Stale, repeated or too late: nothing continues, but the handler may
  // release what it handed us.
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, thiscbdata);
}

namespace {

struct LocalState {
  std::shared_ptr<Dispatcher> dispatcher;
  const runtime::ProgressEngine* engine = nullptr;  // the engine it was made under
};

LocalState& Local() {
  static LocalState* state = new LocalState;  // progress thread only; never destroyed
  return *state;
}

bool PostToEngine(std::function<void()> fn) {
  runtime::ProgressEngine* engine = runtime::Engine();
  return engine != nullptr && engine->Post(std::move(fn)).ok();
}

}  // namespace

Dispatcher& LocalDispatcher() {
  LocalState& local = Local();
  // A dispatcher left from an engine that has since stopped (a role that
  // finalized without ShutdownLocalDispatcher) may wait for closures that
  // were dropped with it: start afresh.
  if (local.dispatcher && local.engine != runtime::Engine()) ShutdownLocalDispatcher();
  if (!local.dispatcher) {
    local.dispatcher = Dispatcher::Create(&PostToEngine);
    local.engine = runtime::Engine();
  }
  return *local.dispatcher;
}

void ShutdownLocalDispatcher() {
  LocalState& local = Local();
  if (local.dispatcher) local.dispatcher->Shutdown();
  local.dispatcher.reset();
  local.engine = nullptr;
}

}  // namespace pmix::event
