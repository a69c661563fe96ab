// Events on the server (spec ch. 10): relaying what clients raise to the
// other clients in range, the server's own handlers and the host; passing
// what the host raises to the clients; telling a namespace when one of its
// clients dies without finalizing.
//
// Decision (client lost without PMIx_Finalize), two events, both with
// source = the lost process and PMIX_EVENT_AFFECTED_PROC = the lost process:
// - PMIX_ERR_LOST_CONNECTION, range PMIX_RANGE_PROC_LOCAL, to the server's
//   own handlers only: what OpenPMIx 4.2.2 raises in its server, and what
//   hosts written for it wait for (OpenPMIx's own test server tells the
//   other ranks on that code only);
// - PMIX_ERR_PROC_TERM_WO_SYNC, range PMIX_RANGE_NAMESPACE, to the other
//   clients of its namespace and the server's handlers (the standard's code
//   for a process that exits without PMIx_Finalize; a host that knows more,
//   e.g. the exit status, raises PMIX_EVENT_PROC_TERMINATED itself), with
//   PMIX_EVENT_NON_DEFAULT: only handlers registered for that code get it.
//   OpenPMIx 4.2.2 raises nothing to the other clients and only
//   LOST_CONNECTION to the server, so default handlers written for it (its
//   test server simptest, Open MPI's, which abort on an error event) see
//   exactly what they see there.
// The host is not told through notify_event: it learns of the loss through
// its handlers, and echoing would make hosts that fan events out to every
// server deliver it twice.
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "pmix.h"
#include "pmix_server.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/event/dispatcher.h"
#include "src/event/roles.h"
#include "src/runtime/state.h"
#include "src/server/server_group.h"
#include "src/server/server_internal.h"
#include "src/server/server_state.h"
#include "src/wire/protocol.h"

namespace pmix::server {
namespace {

void SendToPeer(const Peer& peer, const event::Event& ev);

// Sends `ev` to every connected peer in its target range but `origin`.
void SendToClients(Server& s, const event::Event& ev, const Peer* origin) {
  for (const PeerPtr& peer : s.peers) {
    if (peer.get() == origin || peer->conn == nullptr || peer->conn->closed()) continue;
    if (event::TargetInRange(ev, peer->proc)) SendToPeer(*peer, ev);
  }
}

// The events relayed so far, for clients that connect later (§10.1: the
// server library caches events). Progress thread only; emptied at shutdown.
//
// Decision (PMIX_DEBUGGER_RELEASE, §18.4.6): a release is an order to the
// processes paused when it is raised, targeted or not; it is replayed only
// to clients of the namespaces registered then (those started but not yet
// connected, or connected before they registered for it), never to a
// process of a job registered later, which a stale release would otherwise
// let through its PMIX_DEBUG_STOP_IN_INIT pause.
struct Cached {
  event::EventPtr event;
  std::optional<std::set<std::string, std::less<>>> only_for;  // namespaces; none: any
};
constexpr size_t kRelayCacheLimit = 64;
std::deque<Cached>& RelayCache() {
  static auto* cache = new std::deque<Cached>;  // never destroyed
  return *cache;
}

void Remember(const Server& s, const event::EventPtr& ev) {
  if (ev->do_not_cache || ev->range == PMIX_RANGE_PROC_LOCAL || ev->range == PMIX_RANGE_RM) return;
  Cached entry{ev, std::nullopt};
  if (ev->status == PMIX_DEBUGGER_RELEASE) {
    entry.only_for.emplace();
    for (const auto& [name, ns] : s.nspaces) entry.only_for->insert(name);
  }
  std::deque<Cached>& cache = RelayCache();
  cache.push_back(std::move(entry));
  if (cache.size() > kRelayCacheLimit) cache.pop_front();
}

void SendToPeer(const Peer& peer, const event::Event& ev) {
  Result<wire::Bytes> body = event::PackEvent(peer.conn->codec(), ev);
  if (!body.ok()) {
    output::Error("server", "event %d not packed for %s:%u: %s", ev.status, peer.proc.nspace,
                  peer.proc.rank, PMIx_Error_string(body.status().code()));
    return;
  }
  (void)peer.conn->Send(static_cast<uint16_t>(wire::Msg::kEvent), 0, *body);
}

void DeliverToServerHandlers(Server& s, event::EventPtr ev) {
  event::LocalDispatcher().Deliver(std::move(ev), s.myproc);
}

// Keeps the event alive while the host holds its infos.
struct HostNotify {
  event::EventPtr event;
};

void HostNotifyDone(pmix_status_t, void* cbdata) {
  // Any thread: releasing the event touches no server state.
  std::unique_ptr<HostNotify> done(static_cast<HostNotify*>(cbdata));
}

void TellHost(Server& s, const event::EventPtr& ev) {
  if (s.module.notify_event == nullptr) return;
  auto ctx = std::make_unique<HostNotify>(HostNotify{ev});
  const wire::Infos& info = ev->info;
  pmix_info_t* array = info.size() > 0 ? const_cast<wire::Infos&>(info).data() : nullptr;
  pmix_status_t rc = s.module.notify_event(ev->status, &ev->source, ev->range, array, info.size(),
                                           HostNotifyDone, ctx.get());
  if (rc == PMIX_SUCCESS) {
    (void)ctx.release();  // HostNotifyDone frees it
  } else if (rc != PMIX_OPERATION_SUCCEEDED && rc != PMIX_ERR_NOT_SUPPORTED) {
    output::Verbose("server", 1, "host notify_event refused event %d: %s", ev->status,
                    PMIx_Error_string(rc));
  }
}

// Whether the server's own handlers see an event a client raised.
bool ServerInRange(const Server& s, const event::Event& ev) {
  return ev.range == PMIX_RANGE_RM || event::TargetInRange(ev, s.myproc);
}

}  // namespace

void HandleNotify(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  const pmix_bfrops_module_t* codec = peer->conn->codec();
  wire::Reader r(codec, frame.payload);
  pmix_status_t code = r.Status();
  pmix_proc_t source = r.Proc();
  pmix_data_range_t range = PMIX_RANGE_UNDEF;
  r.Unpack(&range, 1, PMIX_DATA_RANGE);
  wire::Infos info = r.InfoArray();
  Status status = r.status();
  if (status.ok()) status = TranslateEventInfos(s, &info);  // group ids: their members
  Result<event::Event> made = status.ok()
                                  ? event::MakeEvent(code, source, range, info.data(), info.size())
                                  : Result<event::Event>(status);
  (void)peer->conn->Reply(frame, StatusBody(codec, made.status().code()));
  if (!made.ok() || range == PMIX_RANGE_PROC_LOCAL) return;
  auto ev = std::make_shared<const event::Event>(std::move(made).value());
  if (GroupOnClientEvent(s, peer, *ev)) return;  // a leader steering its group
  Remember(s, ev);
  SendToClients(s, *ev, peer.get());
  if (ServerInRange(s, *ev)) DeliverToServerHandlers(s, ev);
  TellHost(s, ev);
}

namespace {

// An exit code the host reports about a local client (PMIX_EXIT_CODE with
// PMIX_EVENT_AFFECTED_PROC, or the event's source): kept for proc tables.
void RecordExitCode(Server& s, const event::Event& ev) {
  const pmix_info_t* code = FindInfo(ev.info.view(), PMIX_EXIT_CODE);
  if (code == nullptr || code->value.type != PMIX_INT) return;
  const pmix_info_t* affected = FindInfo(ev.info.view(), PMIX_EVENT_AFFECTED_PROC);
  const pmix_proc_t* who = affected != nullptr && affected->value.type == PMIX_PROC
                               ? affected->value.data.proc
                               : &ev.source;
  if (who == nullptr) return;
  Namespace* ns = s.FindNamespace(who->nspace);
  if (ns == nullptr) return;
  // also of one the host deregistered already (pmixrun does, at the reap)
  if (ClientRecord* record = ns->Record(who->rank)) record->exit_code = code->value.data.integer;
}

}  // namespace

void EventsNotifyFromHost(Server& s, event::EventPtr ev, std::function<void(Status)> done) {
  GroupOnHostEvent(s, *ev);  // other nodes' group news
  RecordExitCode(s, *ev);
  const bool to_server =
      ev->range != PMIX_RANGE_CUSTOM || event::AnyProcMatches(ev->custom_range, s.myproc);
  Remember(s, ev);
  if (ev->range != PMIX_RANGE_PROC_LOCAL) SendToClients(s, *ev, nullptr);
  if (to_server) DeliverToServerHandlers(s, std::move(ev));
  done(Status());
}

void EventsRaise(Server& s, event::EventPtr ev, bool to_host) {
  Remember(s, ev);
  SendToClients(s, *ev, nullptr);
  if (ServerInRange(s, *ev)) DeliverToServerHandlers(s, ev);
  if (to_host) TellHost(s, ev);
}

namespace {

// An event about `peer` (source and affected process), or nullptr.
event::EventPtr LossEvent(const Peer& peer, pmix_status_t code, pmix_data_range_t range,
                          bool non_default) {
  pmix_info_t info[2];
  PMIX_INFO_CONSTRUCT(&info[0]);
  PMIX_INFO_CONSTRUCT(&info[1]);
  PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &peer.proc, PMIX_PROC);
  bool yes = true;
  PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, &yes, PMIX_BOOL);
  Result<event::Event> made = event::MakeEvent(code, peer.proc, range, info, non_default ? 2 : 1);
  PMIX_INFO_DESTRUCT(&info[0]);
  PMIX_INFO_DESTRUCT(&info[1]);
  if (!made.ok()) return nullptr;
  return std::make_shared<const event::Event>(std::move(made).value());
}

}  // namespace

void EventsOnPeerLost(Server& s, const PeerPtr& peer) {
  if (peer->finalized || peer->is_tool || peer->ns == nullptr) return;
  if (auto lost = LossEvent(*peer, PMIX_ERR_LOST_CONNECTION, PMIX_RANGE_PROC_LOCAL, false))
    DeliverToServerHandlers(s, std::move(lost));
  auto ev = LossEvent(*peer, PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_RANGE_NAMESPACE, true);
  if (ev == nullptr) return;
  Remember(s, ev);
  SendToClients(s, *ev, peer.get());
  DeliverToServerHandlers(s, std::move(ev));
}

void EventsOnPeerConnected(Server&, const PeerPtr& peer) {
  if (peer->conn == nullptr || peer->conn->closed()) return;
  for (const Cached& cached : RelayCache()) {
    const event::EventPtr& ev = cached.event;
    if (cached.only_for && (peer->ns == nullptr || cached.only_for->count(peer->ns->name) == 0))
      continue;
    const bool own = std::strncmp(ev->source.nspace, peer->proc.nspace, PMIX_MAX_NSLEN) == 0 &&
                     ev->source.rank == peer->proc.rank;
    if (!own && event::TargetInRange(*ev, peer->proc)) SendToPeer(*peer, *ev);
  }
}

void EventsShutdown(Server&) {
  // Host notify_event contexts are freed by their callbacks; what remains
  // is the relay cache and the process's dispatcher (unless a client role
  // still uses it).
  RelayCache().clear();
  if (runtime::InitCount(runtime::Role::kClient).load() == 0) event::ShutdownLocalDispatcher();
}

}  // namespace pmix::server
