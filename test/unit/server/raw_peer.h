// A peer that speaks the wire protocol by hand, without the client library:
// the hostile clients of the limit tests and of the server fuzzer. It runs
// against a server in the same process (in_process_server.h), whose URI
// and registered clients it learns from the public server API.
//
// Every wait is bounded; nothing here asserts (callers do).
#ifndef PMIXX_TEST_UNIT_SERVER_RAW_PEER_H
#define PMIXX_TEST_UNIT_SERVER_RAW_PEER_H

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>

#include "mca/ptl/base/frame_io.h"
#include "mca/ptl/base/ptl_base.h"
#include "pmix.h"
#include "pmix_server.h"
#include "src/wire/buffer.h"
#include "src/wire/protocol.h"

namespace pmix::test_support {

// The (first) server URI a client would get (PMIX_SERVER_URI from
// setup_fork); empty on failure.
inline std::string ServerUri() {
  pmix_proc_t p;
  PMIx_Load_procid(&p, "any", 0);
  char** env = nullptr;
  if (PMIx_server_setup_fork(&p, &env) != PMIX_SUCCESS) return {};
  std::string uri;
  for (char** e = env; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, "PMIX_SERVER_URI=", 16) == 0) uri = *e + 16;
  }
  PMIx_Argv_free(env);
  if (auto comma = uri.find(','); comma != std::string::npos) uri.resize(comma);
  return uri;
}

// Registers namespace `nspace` with `nprocs` ranks, all clients of this
// process's uid/gid (a server with its own progress thread), and returns
// ServerUri(); empty on failure.
inline std::string RegisterJob(const char* nspace, int nprocs) {
  struct Done {
    std::mutex mu;
    std::condition_variable cv;
    int left;
    void One() {
      std::lock_guard<std::mutex> lock(mu);
      --left;
      cv.notify_all();
    }
  } done{{}, {}, 1 + nprocs};
  auto cb = [](pmix_status_t, void* cbdata) { static_cast<Done*>(cbdata)->One(); };
  if (PMIx_server_register_nspace(nspace, nprocs, nullptr, 0, cb, &done) != PMIX_SUCCESS)
    return {};
  for (int r = 0; r < nprocs; ++r) {
    pmix_proc_t p;
    PMIx_Load_procid(&p, nspace, static_cast<pmix_rank_t>(r));
    if (PMIx_server_register_client(&p, ::getuid(), ::getgid(), nullptr, cb, &done) !=
        PMIX_SUCCESS)
      return {};
  }
  {
    std::unique_lock<std::mutex> lock(done.mu);
    if (!done.cv.wait_for(lock, std::chrono::seconds(10), [&] { return done.left <= 0; }))
      return {};
  }
  return ServerUri();
}

class RawPeer {
 public:
  // The welcome may carry the job image's descriptor (src/wire/job_image.h).
  RawPeer() : reader_(size_t{1} << 30, ptl::kMaxFrameFds) {}

  bool Connect(const std::string& uri) {
    auto fd = ptl::Connect(uri, std::chrono::seconds(10));
    if (!fd.ok()) return false;
    fd_ = std::move(*fd);
    return true;
  }
  int fd() const { return fd_.get(); }
  void Close() { fd_.Reset(); }

  bool SendRaw(const void* bytes, size_t n) {
    const char* p = static_cast<const char*>(bytes);
    while (n > 0) {
      pollfd pfd{fd_.get(), POLLOUT, 0};
      if (::poll(&pfd, 1, 10000) <= 0) return false;
      ssize_t sent = ::send(fd_.get(), p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (sent <= 0) return false;
      p += sent;
      n -= static_cast<size_t>(sent);
    }
    return true;
  }
  bool Send(uint16_t type, uint32_t tag, const std::vector<uint8_t>& payload, uint8_t flags = 0) {
    ptl::Frame f{flags, type, tag, payload};
    return ptl::SendFrame(fd_.get(), f, std::chrono::seconds(10)).ok();
  }
  // The next frame, or nullopt when none came within `wait` or the stream ended.
  std::optional<ptl::Frame> Recv(std::chrono::milliseconds wait) {
    auto f = ptl::RecvFrame(fd_.get(), reader_, wait);
    if (!f.ok()) {
      last_ = f.status();
      return std::nullopt;
    }
    return std::move(*f);
  }
  Status last_status() const { return last_; }

  // Whether the server closed the connection within `wait` (what it sent
  // meanwhile is read and dropped).
  bool ClosedWithin(std::chrono::milliseconds wait) {
    auto deadline = std::chrono::steady_clock::now() + wait;
    char buf[4096];
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd pfd{fd_.get(), POLLIN, 0};
      if (::poll(&pfd, 1, 50) <= 0) continue;
      ssize_t n = ::recv(fd_.get(), buf, sizeof buf, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return true;
    }
    return false;
  }

  // Says hello as (nspace, rank) with the native codec and credential; the
  // server's answer (its first field is the status) or nullopt.
  std::optional<std::vector<std::string>> Hello(const char* nspace, pmix_rank_t rank,
                                                std::chrono::milliseconds wait) {
    auto reply = HelloFrame(nspace, rank, wait);
    if (!reply) return std::nullopt;
    auto fields = wire::DecodeFields(reply->payload);
    if (!fields.ok() || fields->empty()) return std::nullopt;
    return *fields;
  }
  // The same, the whole answer (with the descriptors it carried); regions:
  // the hello's field of that name (wire::Hello), not said when nullopt.
  std::optional<ptl::Frame> HelloFrame(const char* nspace, pmix_rank_t rank,
                                       std::chrono::milliseconds wait,
                                       std::optional<std::string> regions = std::nullopt) {
    wire::Hello h;
    h.version = "test";
    h.role = "client";
    h.codec = "native1";
    h.psec = "native";
    h.nspace = nspace;
    h.rank = rank;
    h.pid = static_cast<uint32_t>(::getpid());
    h.regions = std::move(regions);
    if (!Send(static_cast<uint16_t>(wire::Msg::kHello), 1, h.Encode())) return std::nullopt;
    return Recv(wait);
  }

 private:
  ptl::Fd fd_;
  ptl::FrameReader reader_;
  Status last_;
};

// Connects `p` to `uri` and says hello as (nspace, rank); true when admitted.
inline bool JoinAs(RawPeer& p, const std::string& uri, const char* nspace, pmix_rank_t rank) {
  if (!p.Connect(uri)) return false;
  auto reply = p.Hello(nspace, rank, std::chrono::seconds(10));
  return reply.has_value() && (*reply)[0] == "0";
}

// The status heading the next frame, which must carry `tag`; nullopt when
// none came within `wait`.
inline std::optional<pmix_status_t> NextStatus(RawPeer& p, const pmix_bfrops_module_t* codec,
                                               uint32_t tag, std::chrono::milliseconds wait) {
  auto reply = p.Recv(wait);
  if (!reply) return std::nullopt;
  EXPECT_EQ(reply->tag, tag);
  wire::Reader r(codec, reply->payload);
  return r.Status();
}

}  // namespace pmix::test_support

#endif  // PMIXX_TEST_UNIT_SERVER_RAW_PEER_H
