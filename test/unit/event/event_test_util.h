// Shared helpers for the event unit tests: a manual poster (closures run
// when the test pumps them), a recording handler set, and event builders.
#ifndef PMIXX_TEST_UNIT_EVENT_EVENT_TEST_UTIL_H
#define PMIXX_TEST_UNIT_EVENT_EVENT_TEST_UTIL_H

#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/event/dispatcher.h"
#include "src/event/event.h"

namespace pmix::event::testing {

// Closures posted by the dispatcher wait here until Pump().
class ManualPoster {
 public:
  Dispatcher::Poster poster() {
    return [this](std::function<void()> fn) {
      std::lock_guard<std::mutex> lock(mu_);
      if (closed_) return false;
      queue_.push_back(std::move(fn));
      return true;
    };
  }
  // Runs queued closures (and those they post) until none is left.
  int Pump() {
    int n = 0;
    for (;;) {
      std::function<void()> fn;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (queue_.empty()) return n;
        fn = std::move(queue_.front());
        queue_.pop_front();
      }
      fn();
      ++n;
    }
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    queue_.clear();
  }

 private:
  std::mutex mu_;
  std::deque<std::function<void()>> queue_;
  bool closed_ = false;
};

inline pmix_proc_t Proc(const char* nspace, pmix_rank_t rank) {
  pmix_proc_t p;
  PMIX_PROC_CONSTRUCT(&p);
  PMIX_LOAD_PROCID(&p, nspace, rank);
  return p;
}

inline EventPtr MakeTestEvent(pmix_status_t code, const pmix_proc_t& source,
                              std::vector<pmix_info_t> info = {},
                              pmix_data_range_t range = PMIX_RANGE_PROC_LOCAL) {
  Result<Event> ev =
      MakeEvent(code, source, range, info.empty() ? nullptr : info.data(), info.size());
  for (pmix_info_t& i : info) PMIX_INFO_DESTRUCT(&i);
  if (!ev.ok()) return nullptr;
  return std::make_shared<const Event>(std::move(ev).value());
}

inline pmix_info_t BoolInfo(const char* key, bool v = true) {
  pmix_info_t i;
  PMIX_INFO_CONSTRUCT(&i);
  PMIX_INFO_LOAD(&i, key, &v, PMIX_BOOL);
  return i;
}

inline pmix_info_t StringInfo(const char* key, const char* v) {
  pmix_info_t i;
  PMIX_INFO_CONSTRUCT(&i);
  PMIX_INFO_LOAD(&i, key, v, PMIX_STRING);
  return i;
}

// Parses a spec from codes and infos (destructs the infos).
inline HandlerSpec Spec(std::vector<pmix_status_t> codes, std::vector<pmix_info_t> info = {}) {
  Result<HandlerSpec> spec = ParseHandlerSpec(codes.data(), codes.size(),
                                              info.empty() ? nullptr : info.data(), info.size());
  for (pmix_info_t& i : info) PMIX_INFO_DESTRUCT(&i);
  return spec.ok() ? std::move(spec).value() : HandlerSpec{};
}

// One call a handler received.
struct Call {
  size_t id;
  pmix_status_t status;
  pmix_proc_t source;
  std::vector<std::string> info_keys;
  std::vector<std::string> result_keys;
  std::vector<pmix_status_t> result_statuses;  // PMIX_STATUS results, in order
  void* object = nullptr;                      // PMIX_EVENT_RETURN_OBJECT
  pmix_event_notification_cbfunc_fn_t cbfunc;
  void* cbdata;
};

// A process-wide recorder (handlers are plain C function pointers).
struct Recorder {
  std::vector<Call> calls;
  std::function<void(const Call&)> on_call;  // default: complete with `reply`
  pmix_status_t reply = PMIX_SUCCESS;
  static Recorder& Get() {
    static Recorder r;
    return r;
  }
  void Reset() {
    calls.clear();
    on_call = nullptr;
    reply = PMIX_SUCCESS;
  }
  std::vector<size_t> Ids() const {
    std::vector<size_t> ids;
    for (const Call& c : calls) ids.push_back(c.id);
    return ids;
  }
};

inline void RecordingHandler(size_t id, pmix_status_t status, const pmix_proc_t* source,
                             pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                             size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                             void* cbdata) {
  Call c{id, status, *source, {}, {}, {}, nullptr, cbfunc, cbdata};
  for (size_t i = 0; i < ninfo; ++i) {
    c.info_keys.emplace_back(info[i].key);
    if (std::strcmp(info[i].key, PMIX_EVENT_RETURN_OBJECT) == 0) c.object = info[i].value.data.ptr;
  }
  for (size_t i = 0; i < nresults; ++i) {
    c.result_keys.emplace_back(results[i].key);
    if (results[i].value.type == PMIX_STATUS)
      c.result_statuses.push_back(results[i].value.data.status);
  }
  Recorder& r = Recorder::Get();
  r.calls.push_back(c);
  if (r.on_call) {
    r.on_call(c);
  } else {
    cbfunc(r.reply, nullptr, 0, nullptr, nullptr, cbdata);
  }
}

}  // namespace pmix::event::testing

#endif  // PMIXX_TEST_UNIT_EVENT_EVENT_TEST_UTIL_H
