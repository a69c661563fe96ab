// Events on the client (spec ch. 10): what the server relays (kEvent),
// what this process raises, and the loss of the server.
//
// Decision (server lost): the client raises PMIX_ERR_LOST_CONNECTION to
// its own handlers only (PMIX_RANGE_PROC_LOCAL), with source = the client
// itself (the library detected it locally) and PMIX_EVENT_AFFECTED_PROC =
// the server's identity, so handlers that filter on the server match.
#include <memory>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/output.h"
#include "src/event/dispatcher.h"
#include "src/event/roles.h"
#include "src/runtime/state.h"

namespace pmix::client {
namespace {

bool SelfInRange(const Client& c, const event::Event& ev) {
  return ev.range == PMIX_RANGE_PROC_LOCAL || event::TargetInRange(ev, c.myproc) ||
         InGroupRange(c, ev);
}

}  // namespace

void HandleEvent(Client& c, const pmix_bfrops_module_t* codec, ptl::Frame&& frame) {
  wire::Reader r(codec, frame.payload);
  pmix_status_t code = r.Status();
  pmix_proc_t source = r.Proc();
  pmix_data_range_t range = PMIX_RANGE_UNDEF;
  r.Unpack(&range, 1, PMIX_DATA_RANGE);
  wire::Infos info = r.InfoArray();
  if (!r.status().ok()) {
    output::Error("client", "malformed event from the server: %s",
                  PMIx_Error_string(r.status().code()));
    return;
  }
  Result<event::Event> made = event::MakeEvent(code, source, range, info.data(), info.size());
  if (!made.ok()) {
    output::Error("client", "event %d from the server refused: %s", code,
                  PMIx_Error_string(made.status().code()));
    return;
  }
  auto ev = std::make_shared<const event::Event>(std::move(made).value());
  event::LocalDispatcher().Deliver(ev, c.myproc, GroupOnEvent(c, ev));
}

void EventsOnServerLost(Client& c) {
  pmix_info_t affected;
  PMIX_INFO_CONSTRUCT(&affected);
  PMIX_INFO_LOAD(&affected, PMIX_EVENT_AFFECTED_PROC, &c.server, PMIX_PROC);
  Result<event::Event> made =
      event::MakeEvent(PMIX_ERR_LOST_CONNECTION, c.myproc, PMIX_RANGE_PROC_LOCAL, &affected, 1);
  PMIX_INFO_DESTRUCT(&affected);
  if (!made.ok()) return;
  event::LocalDispatcher().Deliver(std::make_shared<const event::Event>(std::move(made).value()),
                                   c.myproc);
}

void EventsNotify(Client& c, event::EventPtr ev, std::function<void(Status)> done) {
  if (SelfInRange(c, *ev)) event::LocalDispatcher().Deliver(ev, c.myproc);
  if (ev->range == PMIX_RANGE_PROC_LOCAL) return done(Status());
  if (c.singleton) return done(ev->range == PMIX_RANGE_RM ? Status(PMIX_ERR_UNREACH) : Status());
  if (c.codec() == nullptr) return done(PMIX_ERR_LOST_CONNECTION);
  Result<wire::Bytes> body = event::PackEvent(c.codec(), *ev);
  if (!body.ok()) return done(body.status());
  c.Request(wire::Msg::kNotify, *body, [done](Status st, wire::Reader& r) {
    if (!st.ok()) return done(st);
    pmix_status_t answer = r.Status();
    done(r.status().ok() ? Status(answer) : r.status());
  });
}

void EventsShutdown(Client&) {
  if (runtime::InitCount(runtime::Role::kServer).load() == 0) event::ShutdownLocalDispatcher();
}

}  // namespace pmix::client
