// A tool's servers (standard §18.5.3-§18.5.6): PMIx_tool_attach_to_server,
// PMIx_tool_disconnect, PMIx_tool_get_servers, PMIx_tool_set_server, and
// the deprecated PMIx_tool_connect_to_server (attach, as the primary).
//
// attach: the chain of tool_connect.h, skipping servers the tool is
// connected to; when the attributes name one of those, success without a
// new connection. PMIX_PRIMARY_SERVER makes the server the primary (so
// does being the only one). PMIX_ERR_UNREACH when nothing new answered.
// set_server: an attached server becomes the primary; with
// PMIX_WAIT_FOR_CONNECTION it may first wait (PMIX_TIMEOUT seconds, 0:
// without end) for that server to be attached, e.g. a launcher this tool
// started, which connects to this tool's own server (tool_launcher.h) and
// says where it listens; PMIX_ERR_NOT_FOUND (PMIX_ERR_TIMEOUT when it
// waited) otherwise. disconnect: says goodbye and closes; the library stays
// initialised; PMIX_ERR_NOT_FOUND for a server it is not connected to.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "pmix_deprecated.h"
#include "pmix_tool.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"
#include "src/tool/tool_api.h"
#include "src/tool/tool_connect.h"
#include "src/tool/tool_launcher.h"
#include "src/tool/tool_state.h"

namespace pmix::tool {
namespace {

constexpr std::chrono::milliseconds kWaitPoll{100};

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b) {
  return PMIx_Check_nspace(a.nspace, b.nspace) && a.rank == b.rank;
}

// Caller thread: the tool's links as candidates.
std::vector<Candidate> Snapshot() {
  auto got = runtime::CallBlocking<std::vector<Candidate>>(
      [](std::function<void(std::vector<Candidate>)> done) {
        std::vector<Candidate> out;
        if (Tool* t = CurrentTool())
          for (const Link& l : t->links) out.push_back(Candidate{l.server, l.uri});
        done(std::move(out));
      });
  return got.ok() ? std::move(*got) : std::vector<Candidate>{};
}

// Runs fn on the progress thread with the tool; PMIX_ERR_INIT without one.
pmix_status_t OnTool(std::function<pmix_status_t(Tool&)> fn) {
  auto rc = runtime::CallBlocking<pmix_status_t>([fn](std::function<void(pmix_status_t)> done) {
    Tool* t = CurrentTool();
    done(t == nullptr ? PMIX_ERR_INIT : fn(*t));
  });
  return rc.ok() ? *rc : rc.status().code();
}

pmix_status_t SetPrimary(const pmix_proc_t& server) {
  return OnTool([server](Tool&) {
    Link* l = FindLink(server);
    if (l == nullptr) return PMIX_ERR_NOT_FOUND;
    MakePrimary(*l);
    return PMIX_SUCCESS;
  });
}

// set_server's wait for `server` to become reachable.
Status WaitForServer(const pmix_proc_t& server, std::chrono::seconds timeout) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    pmix_status_t rc = SetPrimary(server);
    if (rc != PMIX_ERR_NOT_FOUND) return rc;
    if (auto uri = LauncherPeerUri(server)) {
      pmix_info_t attach[2];
      PMIX_INFO_CONSTRUCT(&attach[0]);
      PMIX_INFO_CONSTRUCT(&attach[1]);
      bool yes = true;
      PMIX_INFO_LOAD(&attach[0], PMIX_SERVER_URI, uri->c_str(), PMIX_STRING);
      PMIX_INFO_LOAD(&attach[1], PMIX_PRIMARY_SERVER, &yes, PMIX_BOOL);
      Status st = AttachOne(nullptr, nullptr, std::span<const pmix_info_t>(attach, 2));
      PMIX_INFO_DESTRUCT(&attach[0]);
      PMIX_INFO_DESTRUCT(&attach[1]);
      return st;
    }
    if (timeout.count() > 0 && std::chrono::steady_clock::now() - start >= timeout)
      return PMIX_ERR_TIMEOUT;
    std::this_thread::sleep_for(kWaitPoll);
  }
}

}  // namespace

wire::Infos Forwardable(std::span<const pmix_info_t> info) {
  wire::Infos out;
  for (const pmix_info_t& i : info) {
    if (i.value.type == PMIX_POINTER) continue;
    if (!out.Append(i).ok()) continue;  // an info the codec cannot carry stays home
  }
  return out;
}

Status AdoptConnection(client::Connected&& connected, bool primary) {
  auto holder = std::make_shared<client::Connected>(std::move(connected));
  auto rc = runtime::CallBlocking<pmix_status_t>(
      [holder, primary](std::function<void(pmix_status_t)> done) {
        done(AddLink(std::move(*holder), primary).code());
      });
  return rc.ok() ? Status(*rc) : rc.status();
}

bool Connected() { return !Snapshot().empty(); }

Status AttachOne(pmix_proc_t* proc, pmix_proc_t* server, std::span<const pmix_info_t> info) {
  auto opts = ReadConnectOptions(info);
  if (!opts.ok()) return opts.status();
  bool primary = InfoFlag(info, PMIX_PRIMARY_SERVER);
  std::vector<Candidate> have = Snapshot();
  std::optional<pmix_proc_t> matched;
  Skip skip = [&have, &matched](const Candidate& c) {
    for (const Candidate& h : have) {
      bool same = c.server.nspace[0] != '\0' ? SameProc(c.server, h.server) : c.uri == h.uri;
      if (same) matched = h.server;
      if (same) return true;
    }
    return false;
  };
  wire::Infos directives = Forwardable(info);
  auto hello = client::MakeHello("tool", client::MyProc(), directives.view());
  if (!hello.ok()) return hello.status();
  auto conn = Rendezvous(*opts, *hello, skip);
  pmix_proc_t attached;
  if (conn.ok()) {
    attached = conn->welcome.server;
    PMIX_RETURN_IF_ERROR(AdoptConnection(std::move(*conn), primary));
  } else if (matched && opts->Targeted()) {
    attached = *matched;  // already attached to the server named
    if (primary) PMIX_RETURN_IF_ERROR(Status(SetPrimary(attached)));
  } else {
    return conn.status();
  }
  if (proc != nullptr) *proc = client::MyProc();
  if (server != nullptr) *server = attached;
  return Status();
}

std::vector<std::shared_ptr<wire::Connection>> AllServers() {
  std::vector<std::shared_ptr<wire::Connection>> out;
  if (Tool* t = CurrentTool())
    for (const Link& l : t->links) out.push_back(l.conn);
  return out;
}

void SayGoodbye(std::vector<std::shared_ptr<wire::Connection>> conns, std::function<void()> then) {
  struct Round {
    size_t waiting = 0;
    bool finished = false;
    std::vector<std::shared_ptr<wire::Connection>> conns;
    std::function<void()> then;
    std::unique_ptr<runtime::ProgressEngine::Timer> timer;
  };
  auto round = std::make_shared<Round>();
  round->conns = std::move(conns);
  round->then = std::move(then);
  auto finish = [round] {
    if (round->finished) return;
    round->finished = true;
    round->timer.reset();
    for (const auto& c : round->conns) c->Close(PMIX_ERR_INIT);
    round->then();
  };
  for (const auto& c : round->conns) {
    if (c->closed()) continue;
    ++round->waiting;
    Status sent = c->Request(static_cast<uint16_t>(wire::Msg::kFinalize), {},
                             [round, finish](Status, ptl::Frame&&) {
                               if (--round->waiting == 0) finish();
                             });
    if (!sent.ok()) --round->waiting;
  }
  if (round->waiting == 0) return finish();
  round->timer = runtime::Engine()->AddTimer(kGoodbyeTimeout, finish);
}

}  // namespace pmix::tool

namespace tool = pmix::tool;
namespace runtime = pmix::runtime;
using pmix::Status;

namespace {

bool ToolInitialized() { return runtime::InitCount(runtime::Role::kTool).load() > 0; }

}  // namespace

extern "C" pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t* myproc, pmix_proc_t* server,
                                                    pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_tool_attach_to_server", [&]() -> Status {
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    std::lock_guard<std::mutex> lock(tool::ToolMutex());
    if (!ToolInitialized()) return PMIX_ERR_INIT;
    return tool::AttachOne(myproc, server, pmix::InfoSpan(info, ninfo));
  });
}

extern "C" pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t* proc, pmix_info_t info[],
                                                     size_t ninfo) {
  return pmix::ApiGuard("PMIx_tool_connect_to_server", [&]() -> Status {
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    std::lock_guard<std::mutex> lock(tool::ToolMutex());
    if (!ToolInitialized()) return PMIX_ERR_INIT;
    pmix::wire::Infos all;
    for (size_t i = 0; i < ninfo; ++i) PMIX_RETURN_IF_ERROR(all.Append(info[i]));
    bool yes = true;
    PMIX_RETURN_IF_ERROR(all.Add(PMIX_PRIMARY_SERVER, &yes, PMIX_BOOL));
    return tool::AttachOne(proc, nullptr, all.view());
  });
}

extern "C" pmix_status_t PMIx_tool_disconnect(const pmix_proc_t* server) {
  return pmix::ApiGuard("PMIx_tool_disconnect", [&]() -> Status {
    if (server == nullptr) return PMIX_ERR_BAD_PARAM;
    std::lock_guard<std::mutex> lock(tool::ToolMutex());
    if (!ToolInitialized()) return PMIX_ERR_INIT;
    pmix_proc_t target = *server;
    auto rc = runtime::CallBlocking<pmix_status_t>([target](std::function<void(pmix_status_t)> done) {
      tool::Link* l = tool::FindLink(target);
      if (l == nullptr) return done(PMIX_ERR_NOT_FOUND);
      tool::SayGoodbye({l->conn}, [target, done] {
        (void)tool::DropLink(target);
        done(PMIX_SUCCESS);
      });
    });
    return rc.ok() ? Status(*rc) : rc.status();
  });
}

extern "C" pmix_status_t PMIx_tool_get_servers(pmix_proc_t* servers[], size_t* nservers) {
  return pmix::ApiGuard("PMIx_tool_get_servers", [&]() -> Status {
    if (servers == nullptr || nservers == nullptr) return PMIX_ERR_BAD_PARAM;
    *servers = nullptr;
    *nservers = 0;
    if (!ToolInitialized()) return PMIX_ERR_INIT;
    auto list = runtime::CallBlocking<std::vector<pmix_proc_t>>(
        [](std::function<void(std::vector<pmix_proc_t>)> done) {
          std::vector<pmix_proc_t> out;
          tool::Link* primary = tool::PrimaryLink();
          if (primary != nullptr) out.push_back(primary->server);
          if (tool::Tool* t = tool::CurrentTool())
            for (const tool::Link& l : t->links)
              if (&l != primary) out.push_back(l.server);
          done(std::move(out));
        });
    if (!list.ok()) return list.status();
    if (list->empty()) return Status();
    auto* out = static_cast<pmix_proc_t*>(std::calloc(list->size(), sizeof(pmix_proc_t)));
    if (out == nullptr) return PMIX_ERR_NOMEM;
    std::copy(list->begin(), list->end(), out);
    *servers = out;
    *nservers = list->size();
    return Status();
  });
}

extern "C" pmix_status_t PMIx_tool_set_server(const pmix_proc_t* server, pmix_info_t info[],
                                              size_t ninfo) {
  return pmix::ApiGuard("PMIx_tool_set_server", [&]() -> Status {
    if (server == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    std::lock_guard<std::mutex> lock(tool::ToolMutex());
    if (!ToolInitialized()) return PMIX_ERR_INIT;
    auto directives = pmix::InfoSpan(info, ninfo);
    if (!pmix::InfoFlag(directives, PMIX_WAIT_FOR_CONNECTION)) return tool::SetPrimary(*server);
    int64_t timeout = pmix::InfoInt(directives, PMIX_TIMEOUT).value_or(0);
    return tool::WaitForServer(*server, std::chrono::seconds(std::max<int64_t>(timeout, 0)));
  });
}
