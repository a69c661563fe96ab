// Fuzz target: a server in this process (external progress, so that one
// thread drives both ends) fed hostile streams on fresh connections.
//
// Input: byte 0 picks the mode, the rest is the stream.
//   mode 0  the bytes as they are, from a peer that never said hello
//           (framing and the pre-authentication limits);
//   mode 1  one hello frame whose payload is the bytes (hello decoding,
//           admission);
//   mode 2  a valid hello as rank (byte 0 / 3) % 3 of namespace "fuzz",
//           then the bytes as records: u16 type, u16 length, payload, each
//           sent as a well-framed request (every message handler, on
//           hostile bodies), a trailing partial record as raw bytes.
// After each input the peer disconnects, the server settles, and a
// well-behaved client (rank 3) must still be welcomed: an input that makes
// the server stop serving is a finding (abort), like a crash or a leak.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mca/ptl/base/fd_passing.h"
#include "mca/ptl/base/frame.h"
#include "mca/ptl/base/ptl_base.h"
#include "pmix.h"
#include "pmix_server.h"
#include "src/runtime/context.h"
#include "src/wire/protocol.h"

namespace {

using pmix::ptl::Frame;
using pmix::ptl::FrameReader;

std::string g_uri;
constexpr const char* kNspace = "fuzz";

pmix::runtime::ProgressEngine* Engine() { return pmix::runtime::Engine(); }

// Runs the server until it has had nothing to do for a few passes (or a
// bound of passes, for a server that keeps itself busy), reading and
// dropping what it sends to fd.
void Settle(int fd) {
  int quiet = 0;
  for (int pass = 0; pass < 20000 && quiet < 4; ++pass) {
    int ran = Engine()->RunOnce();
    char sink[65536];
    ssize_t n = fd >= 0 ? ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) : -1;
    quiet = (ran == 0 && n <= 0) ? quiet + 1 : 0;
  }
}

// Writes all bytes, letting the server read when the socket is full.
bool Write(int fd, const uint8_t* p, size_t n) {
  for (int stalls = 0; n > 0 && stalls < 10000;) {
    ssize_t sent = ::send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      p += sent;
      n -= static_cast<size_t>(sent);
      stalls = 0;
      continue;
    }
    if (sent < 0 && errno != EAGAIN && errno != EINTR) return false;  // closed on us
    ++stalls;
    Engine()->RunOnce();
    char sink[65536];
    while (::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0) {
    }
  }
  return n == 0;
}

bool WriteFrame(int fd, uint16_t type, uint32_t tag, const uint8_t* p, size_t n) {
  auto header = pmix::ptl::EncodeFrameHeader(0, type, tag, n);
  if (!header.ok()) return false;
  return Write(fd, header->data(), header->size()) && Write(fd, p, n);
}

int Connect() {
  auto fd = pmix::ptl::Connect(g_uri, std::chrono::seconds(5));
  return fd.ok() ? fd->Release() : -1;
}

std::vector<uint8_t> HelloBytes(pmix_rank_t rank) {
  pmix::wire::Hello h;
  h.version = "fuzz";
  h.role = "client";
  h.codec = "native1";
  h.psec = "native";
  h.nspace = kNspace;
  h.rank = rank;
  h.pid = static_cast<uint32_t>(::getpid());
  return h.Encode();
}

// Sends a hello and waits for the answer; its status field, or -1.
long Greet(int fd, pmix_rank_t rank) {
  auto hello = HelloBytes(rank);
  if (!WriteFrame(fd, static_cast<uint16_t>(pmix::wire::Msg::kHello), 1, hello.data(),
                  hello.size()))
    return -1;
  // The welcome may carry the job image's descriptor (src/wire/job_image.h).
  FrameReader reader(size_t{64} << 20, pmix::ptl::kMaxFrameFds);
  for (int pass = 0; pass < 20000; ++pass) {
    Engine()->RunOnce();
    uint8_t buf[65536];
    std::vector<pmix::ptl::Fd> fds;
    bool truncated = false;
    ssize_t n = pmix::ptl::RecvWithFds(fd, buf, reader.max_fds(), &fds, &truncated);
    if (n == 0 || truncated) return -1;
    if (n > 0 && !reader.Feed({buf, static_cast<size_t>(n)}, std::move(fds)).ok()) return -1;
    if (auto f = reader.Pop()) {
      auto fields = pmix::wire::DecodeFields(f->payload);
      if (!fields.ok() || fields->empty()) return -1;
      return std::strtol((*fields)[0].c_str(), nullptr, 10);
    }
  }
  return -1;
}

void Records(int fd, const uint8_t* p, size_t n) {
  uint32_t tag = 100;
  while (n >= 4) {
    uint16_t type = static_cast<uint16_t>(p[0] | (p[1] << 8));
    size_t len = static_cast<size_t>(p[2] | (p[3] << 8));
    p += 4;
    n -= 4;
    if (len > n) break;
    if (!WriteFrame(fd, type, tag++, p, len)) return;
    p += len;
    n -= len;
  }
  if (n > 0) Write(fd, p, n);
}

pmix_status_t HostFence(const pmix_proc_t[], size_t, const pmix_info_t[], size_t, char* data,
                        size_t ndata, pmix_modex_cbfunc_t cbfunc, void* cbdata) {
  if (cbfunc != nullptr) cbfunc(PMIX_SUCCESS, data, ndata, cbdata, [](void* d) { std::free(d); }, data);
  else std::free(data);
  return PMIX_SUCCESS;
}

pmix_status_t HostDmodex(const pmix_proc_t*, const pmix_info_t[], size_t, pmix_modex_cbfunc_t,
                         void*) {
  return PMIX_ERR_NOT_FOUND;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static pmix_server_module_t module{};
  module.fence_nb = HostFence;
  module.direct_modex = HostDmodex;
  pmix_info_t info;
  bool yes = true;
  PMIx_Info_load(&info, PMIX_EXTERNAL_PROGRESS, &yes, PMIX_BOOL);
  if (PMIx_server_init(&module, &info, 1) != PMIX_SUCCESS) std::abort();
  PMIx_Info_destruct(&info);
  int pending = 5;
  auto done = [](pmix_status_t, void* cbdata) { --*static_cast<int*>(cbdata); };
  if (PMIx_server_register_nspace(kNspace, 4, nullptr, 0, done, &pending) != PMIX_SUCCESS)
    std::abort();
  for (pmix_rank_t r = 0; r < 4; ++r) {
    pmix_proc_t p;
    PMIx_Load_procid(&p, kNspace, r);
    if (PMIx_server_register_client(&p, ::getuid(), ::getgid(), nullptr, done, &pending) !=
        PMIX_SUCCESS)
      std::abort();
  }
  for (int i = 0; i < 100000 && pending > 0; ++i) Engine()->RunOnce();
  if (pending > 0) std::abort();
  pmix_proc_t p;
  PMIx_Load_procid(&p, kNspace, 0);
  char** env = nullptr;
  if (PMIx_server_setup_fork(&p, &env) != PMIX_SUCCESS) std::abort();
  for (char** e = env; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, "PMIX_SERVER_URI=", 16) == 0) g_uri = *e + 16;
  }
  PMIx_Argv_free(env);
  if (auto comma = g_uri.find(','); comma != std::string::npos) g_uri.resize(comma);
  if (g_uri.empty()) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  int fd = Connect();
  if (fd < 0) std::abort();
  switch (data[0] % 3) {
    case 0:
      Write(fd, data + 1, size - 1);
      break;
    case 1:
      WriteFrame(fd, static_cast<uint16_t>(pmix::wire::Msg::kHello), 1, data + 1, size - 1);
      break;
    default:
      if (Greet(fd, (data[0] / 3) % 3) == 0) Records(fd, data + 1, size - 1);
  }
  Settle(fd);
  ::close(fd);
  Settle(-1);
  // The server still serves a well-behaved client.
  int check = Connect();
  if (check < 0) std::abort();
  long status = Greet(check, 3);
  ::close(check);
  Settle(-1);
  if (status != 0) std::abort();
  return 0;
}
