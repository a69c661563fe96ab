// The event API of the standard (§10.1): PMIx_Register_event_handler,
// PMIx_Deregister_event_handler, PMIx_Notify_event. They work for whichever
// role the process holds. Registration is local to the process (the
// server relays every event in range and the client filters), so only
// notification depends on the role: it goes through src/event/roles.h
// (the server role first, for a host that is also a client).
//
// Each call copies its inputs on the caller's thread, then runs on the
// progress thread; the blocking forms (cbfunc NULL) wait through
// runtime::CallBlocking, so inside a PMIx callback they return
// PMIX_ERR_WOULD_BLOCK. Callbacks are always called after the API returned,
// on the progress thread.
#include <climits>
#include <memory>
#include <utility>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/event/dispatcher.h"
#include "src/event/event.h"
#include "src/event/handler_module.h"
#include "src/event/roles.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"
#include "src/server/server_state.h"

namespace pmix::event {
namespace {

using RegResult = std::pair<pmix_status_t, size_t>;

bool Initialized() { return runtime::AnyRoleInitialized() && runtime::Engine() != nullptr; }

// Progress thread: registers; `then` runs before cached events are replayed
// to the new handler (the standard delivers nothing before the
// registration callback completed).
void RegisterOnProgress(const std::shared_ptr<HandlerSpec>& spec, pmix_notification_fn_t fn,
                        const std::function<void(RegResult)>& then) {
  Dispatcher& d = LocalDispatcher();
  Result<size_t> id = d.Register(std::move(*spec), fn);
  then(id.ok() ? RegResult{PMIX_SUCCESS, *id} : RegResult{id.status().code(), UINT32_MAX});
  if (!id.ok()) return;
  const size_t handler = *id;
  if (runtime::Engine() != nullptr) {
    (void)runtime::Engine()->Post([handler] { LocalDispatcher().ReplayCached(handler); });
  }
}

// Progress thread: where an event this process raises goes.
void NotifyOnProgress(Event& ev, bool source_given, std::function<void(Status)> done) {
  server::Server* s = server::CurrentServer();
  client::Client* c = client::CurrentClient();
  if (s == nullptr && c == nullptr) return done(PMIX_ERR_INIT);
  if (!source_given) ev.source = s != nullptr ? s->myproc : c->myproc;
  auto shared = std::make_shared<const Event>(std::move(ev));
  if (s != nullptr) return server::EventsNotifyFromHost(*s, std::move(shared), std::move(done));
  client::EventsNotify(*c, std::move(shared), std::move(done));
}

// Runs `start` on the progress thread; blocking when `blocking`, else the
// result goes to `report` there. Returns what the API returns.
template <class T>
pmix_status_t RunApi(bool blocking, std::function<void(std::function<void(T)>)> start,
                     std::function<pmix_status_t(T)> blocking_result,
                     std::function<void(T)> report) {
  if (blocking) {
    Result<T> rc = runtime::CallBlocking<T>(std::move(start));
    return rc.ok() ? blocking_result(std::move(rc).value()) : rc.status().code();
  }
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  Status posted =
      engine->Post([start = std::move(start), report = std::move(report)] { start(report); });
  return posted.code();
}

}  // namespace
}  // namespace pmix::event

namespace event = pmix::event;
using pmix::Result;
using pmix::Status;

extern "C" pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes,
                                                     pmix_info_t info[], size_t ninfo,
                                                     pmix_notification_fn_t evhdlr,
                                                     pmix_hdlr_reg_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Register_event_handler", [&]() -> pmix_status_t {
    if (!event::Initialized()) return PMIX_ERR_INIT;
    if (evhdlr == nullptr) return PMIX_ERR_BAD_PARAM;
    Result<event::HandlerSpec> parsed = event::ParseHandlerSpec(codes, ncodes, info, ninfo);
    if (!parsed.ok()) return parsed.status().code();
    auto spec = std::make_shared<event::HandlerSpec>(std::move(parsed).value());
    // Work the handler queues for later may outlive its deregistration
    // and the caller's dlclose (handler_module.h).
    event::KeepModuleLoaded(reinterpret_cast<const void*>(evhdlr));
    return event::RunApi<event::RegResult>(
        cbfunc == nullptr,
        [spec, evhdlr](std::function<void(event::RegResult)> done) {
          event::RegisterOnProgress(spec, evhdlr, done);
        },
        [](event::RegResult r) {
          if (r.first != PMIX_SUCCESS) return r.first;
          return r.second > INT_MAX ? PMIX_ERR_EVENT_REGISTRATION
                                    : static_cast<pmix_status_t>(r.second);
        },
        [cbfunc, cbdata](event::RegResult r) { cbfunc(r.first, r.second, cbdata); });
  });
}

extern "C" pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc,
                                                       void* cbdata) {
  return pmix::ApiGuard("PMIx_Deregister_event_handler", [&]() -> pmix_status_t {
    if (!event::Initialized()) return PMIX_ERR_INIT;
    return event::RunApi<pmix_status_t>(
        cbfunc == nullptr,
        [evhdlr_ref](std::function<void(pmix_status_t)> done) {
          done(event::LocalDispatcher().Deregister(evhdlr_ref).code());
        },
        [](pmix_status_t rc) { return rc; },
        [cbfunc, cbdata](pmix_status_t rc) { cbfunc(rc, cbdata); });
  });
}

extern "C" pmix_status_t PMIx_Notify_event(pmix_status_t status, const pmix_proc_t* source,
                                           pmix_data_range_t range, const pmix_info_t info[],
                                           size_t ninfo, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Notify_event", [&]() -> pmix_status_t {
    if (!event::Initialized()) return PMIX_ERR_INIT;
    pmix_proc_t src{};
    if (source != nullptr) src = *source;
    Result<event::Event> made = event::MakeEvent(status, src, range, info, ninfo);
    if (!made.ok()) return made.status().code();
    auto ev = std::make_shared<event::Event>(std::move(made).value());
    const bool source_given = source != nullptr;
    // NULL cbfunc is the blocking form, except on the progress thread (an
    // event handler or another callback raising an event, as OpenPMIx's own
    // test servers do from their LOST_CONNECTION handler): there it cannot
    // wait, so the event is queued and PMIX_SUCCESS returned (OpenPMIx
    // accepts it the same way) rather than refused with WOULD_BLOCK and lost.
    pmix::runtime::ProgressEngine* engine = pmix::runtime::Engine();
    const bool blocking = cbfunc == nullptr && (engine == nullptr || engine->BlockingAllowed());
    return event::RunApi<pmix_status_t>(
        blocking,
        [ev, source_given](std::function<void(pmix_status_t)> done) {
          event::NotifyOnProgress(*ev, source_given, [done](Status st) { done(st.code()); });
        },
        [](pmix_status_t rc) { return rc; },
        [cbfunc, cbdata](pmix_status_t rc) {
          if (cbfunc != nullptr) cbfunc(rc, cbdata);
        });
  });
}
