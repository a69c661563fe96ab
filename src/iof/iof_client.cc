// IO forwarding in the process that asks for it (iof_client.h).
#include "src/iof/iof_client.h"

#include <unistd.h>

#include <cerrno>
#include <map>

#include "pmix.h"

#include "src/client/client_state.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/iof/iof_wire.h"
#include "src/runtime/context.h"
#include "src/server/server_iof_peer.h"
#include "src/server/server_upcall.h"

namespace pmix::iof {
namespace {

constexpr size_t kStdinChunk = 64 * 1024;

struct Registration {
  std::unique_ptr<Sink> sink;
  bool in_process = false;
  uint64_t remote = 0;  // the server's id (deregistration)
  std::unique_ptr<runtime::ProgressEngine::Timer> timer;
};

struct StdinPump {
  bool active = false;
  std::vector<pmix_proc_t> targets;
  wire::Infos directives;
  std::unique_ptr<runtime::ProgressEngine::FdWatch> watch;
};

struct State {
  size_t next = 0;
  std::map<size_t, Registration> regs;
  StdinPump pump;
};

State& St() {
  static auto* state = new State;  // progress thread only; never destroyed
  return *state;
}

// Where requests go: the server this process is connected to, else its
// own server, else nowhere.
enum class Route { kRemote, kInProcess, kNone };
Route RouteNow() {
  client::Client* c = client::CurrentClient();
  if (c != nullptr && c->conn != nullptr && !c->conn->closed()) return Route::kRemote;
  if (server::CurrentServer() != nullptr) return Route::kInProcess;
  return Route::kNone;
}

void ArmTimer(size_t handle, Registration& reg) {
  if (reg.timer != nullptr || !reg.sink->WantsTimer()) return;
  reg.timer = runtime::Engine()->AddTimer(reg.sink->options().buffer_time, [handle] {
    auto it = St().regs.find(handle);
    if (it == St().regs.end()) return;
    it->second.timer.reset();
    it->second.sink->Flush();
  });
}

void DeliverTo(size_t handle, const pmix_proc_t& source, pmix_iof_channel_t channel,
               std::string_view data, std::span<const pmix_info_t> info) {
  auto it = St().regs.find(handle);
  if (it == St().regs.end()) return;  // deregistered: discarded
  it->second.sink->Deliver(source, channel, data, info);
  ArmTimer(handle, it->second);
}

// Reads "status, u64" replies.
void ReadReply(Status st, wire::Reader& r, pmix_status_t* status, uint64_t* id) {
  *status = st.ok() ? r.Status() : st.code();
  *id = st.ok() ? r.U64() : 0;
  if (st.ok() && !r.status().ok() && *status == PMIX_SUCCESS) *status = r.status().code();
}

void SendPush(std::vector<pmix_proc_t> targets, const wire::Infos& directives, wire::Bytes data,
              bool eof, std::function<void(pmix_status_t)> done) {
  Route route = RouteNow();
  if (route == Route::kNone) return done(PMIX_ERR_UNREACH);
  auto copy = wire::Infos::CopyOf(directives.view());
  if (!copy.ok()) return done(copy.status().code());
  if (route == Route::kInProcess) {
    server::Server* s = server::CurrentServer();
    return server::IofPush(*s, server::SelfRequester(*s).proc, std::move(targets), std::move(*copy),
                           std::move(data), eof, std::move(done));
  }
  client::Client* c = client::CurrentClient();
  Push p{std::move(targets), std::move(*copy), std::move(data), eof};
  wire::Writer w(c->codec());
  Write(w, p);
  auto body = w.Take();
  if (!body.ok()) return done(body.status().code());
  c->Request(wire::Msg::kIof, *body, [done](Status st, wire::Reader& r) {
    pmix_status_t status;
    uint64_t ignored;
    ReadReply(st, r, &status, &ignored);
    done(status);
  });
}

void WatchStdin();

void PumpStdin() {
  StdinPump& pump = St().pump;
  pump.watch.reset();  // one chunk in flight at a time
  if (!pump.active) return;
  char buf[kStdinChunk];
  ssize_t n;
  do {
    n = ::read(STDIN_FILENO, buf, sizeof buf);
  } while (n < 0 && errno == EINTR);
  if (n < 0 && errno == EAGAIN) return WatchStdin();
  bool eof = n <= 0;
  if (eof) pump.active = false;
  wire::Bytes data;
  if (n > 0) data.assign(buf, buf + n);
  SendPush(pump.targets, pump.directives, std::move(data), eof, [eof](pmix_status_t rc) {
    if (rc != PMIX_SUCCESS) {
      output::Verbose("iof", 1, "forwarding stdin stopped: %s", PMIx_Error_string(rc));
      St().pump.active = false;
      return;
    }
    if (!eof) WatchStdin();
  });
}

void WatchStdin() {
  StdinPump& pump = St().pump;
  if (!pump.active || pump.watch != nullptr) return;
  pump.watch = runtime::Engine()->WatchFd(STDIN_FILENO, false, [](bool, bool) { PumpStdin(); });
  if (pump.watch == nullptr) pump.active = false;
}

}  // namespace

void StartPull(PullRequest&& req, std::function<void(pmix_status_t, size_t)> done) {
  Route route = RouteNow();
  if (route == Route::kNone) return done(PMIX_ERR_UNREACH, 0);
  size_t handle = St().next++;
  Registration& reg = St().regs[handle];
  reg.sink = std::make_unique<Sink>(ReadPullOptions(req.directives.view(), req.cbfunc != nullptr),
                                    req.cbfunc, handle);
  if (route == Route::kInProcess) {
    reg.in_process = true;
    server::Server* s = server::CurrentServer();
    auto sink = [handle](const server::IofChunk& c) {
      DeliverTo(handle, c.source, c.channel, std::string_view(c.data.data(), c.data.size()), c.info);
    };
    uint64_t id = server::IofPull(*s, &St(), std::move(req.procs), req.channels,
                                  std::move(req.directives), sink, {},
                                  [handle, done](pmix_status_t status, uint64_t) {
                                    if (status != PMIX_SUCCESS) St().regs.erase(handle);
                                    done(status, handle);
                                  });
    if (auto it = St().regs.find(handle); it != St().regs.end()) it->second.remote = id;
    return;
  }
  client::Client* c = client::CurrentClient();
  Pull p{std::move(req.procs), req.channels, std::move(req.directives), handle};
  wire::Writer w(c->codec());
  Write(w, p);
  auto body = w.Take();
  if (!body.ok()) {
    St().regs.erase(handle);
    return done(body.status().code(), 0);
  }
  c->Request(wire::Msg::kIof, *body, [handle, done](Status st, wire::Reader& r) {
    pmix_status_t status;
    uint64_t id;
    ReadReply(st, r, &status, &id);
    auto it = St().regs.find(handle);
    if (status != PMIX_SUCCESS || it == St().regs.end()) {
      St().regs.erase(handle);
      return done(status == PMIX_SUCCESS ? PMIX_ERR_NOT_FOUND : status, 0);
    }
    it->second.remote = id;
    done(PMIX_SUCCESS, handle);
  });
}

void StartDeregister(size_t handle, wire::Infos&& directives, std::function<void(pmix_status_t)> done) {
  auto it = St().regs.find(handle);
  if (it == St().regs.end()) return done(PMIX_ERR_BAD_PARAM);
  it->second.sink->Flush();
  bool in_process = it->second.in_process;
  uint64_t remote = it->second.remote;
  St().regs.erase(it);
  if (in_process) {
    server::Server* s = server::CurrentServer();
    return done(s == nullptr ? PMIX_SUCCESS : server::IofDeregister(*s, &St(), remote, directives.view()));
  }
  client::Client* c = client::CurrentClient();
  if (c == nullptr || c->conn == nullptr || c->conn->closed()) return done(PMIX_SUCCESS);
  Deregister d{remote, std::move(directives)};
  wire::Writer w(c->codec());
  Write(w, d);
  auto body = w.Take();
  if (!body.ok()) return done(body.status().code());
  c->Request(wire::Msg::kIof, *body, [done](Status st, wire::Reader& r) {
    pmix_status_t status;
    uint64_t ignored;
    ReadReply(st, r, &status, &ignored);
    // Gone at the server already (it lost us, or never had it), or the
    // server went away meanwhile (its registrations with it): nothing is left.
    bool gone = status == PMIX_ERR_NOT_FOUND || status == PMIX_ERR_LOST_CONNECTION ||
                status == PMIX_ERR_UNREACH;
    done(gone ? PMIX_SUCCESS : status);
  });
}

void StartPush(PushRequest&& req, std::function<void(pmix_status_t)> done) {
  auto dirs = req.directives.view();
  bool stop = InfoFlag(dirs, PMIX_IOF_COMPLETE);
  StdinPump& pump = St().pump;
  if (InfoFlag(dirs, PMIX_IOF_PUSH_STDIN) && !stop) {
    if (RouteNow() == Route::kNone) return done(PMIX_ERR_UNREACH);
    if (req.targets.empty()) return done(PMIX_ERR_BAD_PARAM);
    pump.targets = std::move(req.targets);
    auto copy = wire::Infos::CopyOf(dirs);
    if (!copy.ok()) return done(copy.status().code());
    pump.directives = std::move(*copy);
    pump.active = true;
    WatchStdin();
    return done(pump.active ? PMIX_SUCCESS : PMIX_ERR_OUT_OF_RESOURCE);
  }
  if (stop && pump.active) {
    pump.active = false;
    pump.watch.reset();
    if (req.targets.empty()) req.targets = pump.targets;
  }
  if (req.targets.empty()) return done(PMIX_ERR_BAD_PARAM);
  bool eof = stop && req.data.empty();
  if (!req.has_data && !stop) return done(PMIX_ERR_BAD_PARAM);
  SendPush(std::move(req.targets), req.directives, std::move(req.data), eof, std::move(done));
}

void OnIofFrame(const pmix_bfrops_module_t* codec, ptl::Frame&& frame) {
  wire::Reader r(codec, frame.payload);
  if (ReadOp(r) != Op::kDeliver) return;
  Delivery d = ReadDelivery(r);
  if (!r.status().ok()) {
    output::Error("iof", "malformed forwarded output from the server: %s",
                  PMIx_Error_string(r.status().code()));
    return;
  }
  DeliverTo(static_cast<size_t>(d.tag), d.source, d.channel,
            std::string_view(reinterpret_cast<const char*>(d.data.data()), d.data.size()),
            d.info.view());
}

void ShutdownIof() {
  State& st = St();
  for (auto& [handle, reg] : st.regs) reg.sink->Flush();
  st.regs.clear();
  st.pump.active = false;
  st.pump.watch.reset();
}

}  // namespace pmix::iof
