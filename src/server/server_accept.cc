// The accept loop and the limits before authentication (server_accept.h).
#include "src/server/server_accept.h"

#include <algorithm>
#include <cstring>

#include "pmix.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{2000};
// Connections accepted per wake-up, so that one busy listener cannot keep
// the progress thread from everything else.
constexpr int kAcceptBurst = 64;

void AcceptPending(Server& s, size_t index);

// Watches every listener (again). False when one cannot be watched.
bool WatchListeners(Server& s) {
  s.listen_watches.clear();
  runtime::ProgressEngine* engine = runtime::Engine();
  for (size_t i = 0; i < s.listeners.size(); ++i) {
    auto watch = engine->WatchFd(s.listeners[i].fd(), false, [i](bool, bool) {
      if (Server* server = CurrentServer()) AcceptPending(*server, i);
    });
    if (watch == nullptr) return false;
    s.listen_watches.push_back(std::move(watch));
  }
  return true;
}

// Whether nothing keeps the listeners paused any more.
bool MayResume(const Server& s) {
  const AcceptState& a = s.accept;
  return !a.stopped && a.retry == nullptr &&
         s.greeting.size() < a.limits.max_unauthenticated;
}

void Resume(Server& s) {
  s.accept.full = false;
  if (!WatchListeners(s)) output::Error("server", "cannot watch the listeners again");
}

// accept() failed for lack of descriptors or memory: the pending connection
// stays pending, so the listener stays readable; stop watching it for a
// while rather than be woken for it at once, again and again.
void BackOff(Server& s) {
  AcceptState& a = s.accept;
  ++a.resource_failures;
  a.backoff = a.backoff.count() == 0 ? kFirstBackoff : std::min(a.backoff * 2, kMaxBackoff);
  output::PeerError("server", "cannot accept a connection: out of descriptors or memory "
                    "(%ld ms back-off)", static_cast<long>(a.backoff.count()));
  s.listen_watches.clear();  // also from inside a watch's own callback (progress.h)
  a.retry = runtime::Engine()->AddTimer(a.backoff, [] {
    Server* server = CurrentServer();
    if (server == nullptr) return;
    server->accept.retry.reset();
    if (MayResume(*server)) {
      Resume(*server);
    } else {
      server->accept.full = !server->accept.stopped;  // ForgetGreeting resumes
    }
  });
  if (a.retry == nullptr && !a.stopped) Resume(s);  // no timer: better busy than deaf
}

void PauseWhileFull(Server& s) {
  if (s.accept.full) return;
  s.accept.full = true;
  output::PeerError("server", "%zu connections have not said hello yet: not accepting more "
                    "until one does or times out", s.greeting.size());
  s.listen_watches.clear();
}

void Greet(Server& s, ptl::Fd fd) {
  const ptl::Limits& limits = s.accept.limits;
  auto conn = wire::Connection::Create(*runtime::Engine(), std::move(fd),
                                       ptl::FrameReader(limits.max_hello_size), nullptr);
  std::weak_ptr<wire::Connection> weak = conn;
  Status started = conn->Start(
      [weak](ptl::Frame&& frame) {
        auto c = weak.lock();
        if (c && CurrentServer() != nullptr) OnHello(*CurrentServer(), c, std::move(frame));
      },
      [weak](Status) {
        auto c = weak.lock();
        if (c && CurrentServer() != nullptr) ForgetGreeting(*CurrentServer(), c);
      });
  if (!started.ok()) return;
  auto timeout = limits.hello_timeout;
  auto timer = runtime::Engine()->AddTimer(timeout, [weak, timeout] {
    auto c = weak.lock();
    if (c == nullptr) return;
    output::PeerError("server", "closing a connection that sent no hello within %lld s",
                      static_cast<long long>(
                          std::chrono::duration_cast<std::chrono::seconds>(timeout).count()));
    c->Close(PMIX_ERR_TIMEOUT);
  });
  s.greeting.emplace(conn, std::move(timer));
}

void AcceptPending(Server& s, size_t index) {
  for (int n = 0; n < kAcceptBurst && !s.accept.stopped; ++n) {
    if (s.greeting.size() >= s.accept.limits.max_unauthenticated) return PauseWhileFull(s);
    auto fd = ptl::Accept(s.listeners[index]);
    if (!fd.ok()) {
      if (fd.status().code() == PMIX_ERR_OUT_OF_RESOURCE) BackOff(s);
      return;  // WOULD_BLOCK, or an error that only concerns that socket
    }
    s.accept.backoff = std::chrono::milliseconds(0);
    Greet(s, std::move(*fd));
  }
}

}  // namespace

Status StartListening(Server& s, std::span<const pmix_info_t> info) {
  auto limits = ptl::PeerLimits();
  if (!limits.ok()) return limits.status();
  s.accept.limits = *limits;
  wire::Infos directives;
  for (const auto& i : info) {
    if (std::strncmp(i.key, PMIX_SERVER_TMPDIR, PMIX_MAX_KEYLEN) != 0)
      PMIX_RETURN_IF_ERROR(directives.Append(i));
  }
  PMIX_RETURN_IF_ERROR(directives.Add(PMIX_SERVER_TMPDIR, s.tmpdir.c_str(), PMIX_STRING));
  auto listeners = ptl::Listen(directives.view());
  if (!listeners.ok()) return listeners.status();
  s.listeners = std::move(*listeners);
  return WatchListeners(s) ? Status() : Status(PMIX_ERR_OUT_OF_RESOURCE);
}

void StopAccepting(Server& s) {
  s.accept.stopped = true;
  s.accept.retry.reset();
  s.listen_watches.clear();
}

void ForgetGreeting(Server& s, const std::shared_ptr<wire::Connection>& conn) {
  if (s.greeting.erase(conn) == 0) return;
  if (s.accept.full && MayResume(s)) Resume(s);
}

void GrantConnectedLimits(const Server& s, wire::Connection& conn) {
  conn.SetMaxFrame(s.accept.limits.max_msg_size);
  conn.SetDecodeBudget(s.accept.limits.max_decoded_size);
  conn.SetMaxQueued(s.accept.limits.max_send_queue);
}

}  // namespace pmix::server
