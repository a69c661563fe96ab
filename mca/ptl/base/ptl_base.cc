// The ptl framework spec and its internal listen/accept/connect API.
#include "mca/ptl/base/ptl_base.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utility>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"
#include "pmix.h"
#include "src/common/output.h"

namespace pmix::ptl {
namespace {

const pmix_mca_param_desc_t kBaseParams[] = {
    {"max_msg_size", PMIX_MCA_PARAM_SIZE, "64M",
     "Largest message payload a server accepts from a peer; a larger frame closes that "
     "connection (a client accepts any size from its own server). "
     "64 MiB holds the job-level data of jobs of ~10^5 processes and large modex blobs, "
     "and bounds the memory one peer can make the server commit",
     nullptr},
    {"max_hello_size", PMIX_MCA_PARAM_SIZE, "8K",
     "Largest first message (the hello) a server accepts from a peer that has not "
     "authenticated yet; a larger one closes the connection. A hello is a few hundred bytes "
     "(a munge credential ~0.3 KiB, a namespace <= 255 bytes), so anyone who can reach the "
     "socket gets a few KiB of the server's memory at most",
     nullptr},
    {"max_decoded_size", PMIX_MCA_PARAM_SIZE, "64M",
     "Most memory a server lets one message of a connected peer take once decoded (arrays, "
     "strings, values); a message that would take more is refused with "
     "PMIX_ERR_OUT_OF_RESOURCE. 64 MiB is ~60,000 infos or ~120,000 procs in one message",
     nullptr},
    {"max_send_queue", PMIX_MCA_PARAM_SIZE, "64M",
     "Most bytes a server queues for a connected peer that does not read its socket (events, "
     "collective results, forwarded output), behind the message being written; a peer that "
     "would make it queue more is disconnected. A peer that reads keeps a few messages queued "
     "at most; 64 MiB is the size of the largest message a peer accepts (max_msg_size)",
     nullptr},
    {"max_unauthenticated", PMIX_MCA_PARAM_UNSIGNED, "256",
     "Most connections a server holds before they have said hello and authenticated; at the "
     "limit it accepts nothing more (the rest wait in the kernel's backlog) until one leaves",
     nullptr},
    {"hello_timeout", PMIX_MCA_PARAM_UNSIGNED, "10",
     "Seconds a server waits for a new connection's hello before closing it (a client sends "
     "its hello right after connecting)",
     nullptr},
};

const mca::FrameworkSpec kSpec = {
    "ptl",
    PMIX_PTL_INTERFACE_MAJOR,
    PMIX_PTL_INTERFACE_MINOR,
    true,
    "Transports between clients/tools and their server (Unix sockets, TCP)",
    kBaseParams,
};
// Known to pmix_info before first use.
const mca::KnownFramework kKnown(kSpec);

Result<std::span<const mca::SelectedModule>> Modules() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  return framework.Selected();
}

const pmix_ptl_module_t* AsPtl(const mca::SelectedModule& selected) {
  return static_cast<const pmix_ptl_module_t*>(selected.module);
}

}  // namespace

Listener::Listener(Listener&& other) noexcept
    : module_(std::exchange(other.module_, nullptr)),
      fd_(std::exchange(other.fd_, -1)),
      uri_(std::move(other.uri_)) {}

Listener& Listener::operator=(Listener&& other) noexcept {
  if (this != &other) {
    Unlisten();
    module_ = std::exchange(other.module_, nullptr);
    fd_ = std::exchange(other.fd_, -1);
    uri_ = std::move(other.uri_);
  }
  return *this;
}

Listener::~Listener() { Unlisten(); }

void Listener::Unlisten() {
  if (module_ != nullptr && fd_ >= 0) module_->unlisten(fd_, uri_.c_str());
  module_ = nullptr;
  fd_ = -1;
}

Result<Limits> PeerLimits() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  Limits l;
  l.max_msg_size = framework.BaseParam("max_msg_size").value.size;
  l.max_hello_size = framework.BaseParam("max_hello_size").value.size;
  l.max_decoded_size = framework.BaseParam("max_decoded_size").value.size;
  l.max_send_queue = framework.BaseParam("max_send_queue").value.size;
  // 0 would mean a server that admits nobody: at least one, for a second.
  l.max_unauthenticated = std::max<size_t>(
      1, static_cast<size_t>(framework.BaseParam("max_unauthenticated").value.uinteger));
  l.hello_timeout = std::chrono::seconds(
      std::max<unsigned long long>(1, framework.BaseParam("hello_timeout").value.uinteger));
  return l;
}

Result<std::vector<Listener>> Listen(std::span<const pmix_info_t> info) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  std::vector<Listener> listeners;
  for (const mca::SelectedModule& selected : *modules) {
    const pmix_ptl_module_t* module = AsPtl(selected);
    int fd = -1;
    char* uri = nullptr;
    pmix_status_t rc = module->listen(info.data(), info.size(), &fd, &uri);
    if (rc == PMIX_ERR_NOT_SUPPORTED) continue;
    if (rc != PMIX_SUCCESS) {
      // The module has said why, once.
      output::Verbose("ptl", 1, "%s cannot listen: %s", module->name, PMIx_Error_string(rc));
      return Status(rc);
    }
    std::unique_ptr<char, decltype(&std::free)> owned(uri, &std::free);
    listeners.emplace_back(module, fd, std::string(uri));
    output::Verbose("ptl", 5, "%s listening at %s", module->name, uri);
  }
  if (listeners.empty()) return Status(PMIX_ERR_NOT_SUPPORTED);
  return listeners;
}

Result<Fd> Accept(const Listener& listener) {
  if (listener.module() == nullptr) return Status(PMIX_ERR_BAD_PARAM);
  int fd = -1;
  pmix_status_t rc = listener.module()->accept(listener.fd(), &fd);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return Fd(fd);
}

Result<Fd> Connect(std::string_view uri, std::chrono::milliseconds timeout) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  std::string text(uri);
  int timeout_ms = static_cast<int>(std::min<long long>(timeout.count(), 1 << 30));
  for (const mca::SelectedModule& selected : *modules) {
    const pmix_ptl_module_t* module = AsPtl(selected);
    int fd = -1;
    pmix_status_t rc = module->connect(text.c_str(), timeout_ms, &fd);
    if (rc == PMIX_ERR_NOT_SUPPORTED) continue;
    if (rc != PMIX_SUCCESS) {
      output::Verbose("ptl", 2, "%s: cannot connect to %s: %s", module->name, text.c_str(),
                      PMIx_Error_string(rc));
      return Status(rc);
    }
    return Fd(fd);
  }
  output::Error("ptl", "no selected transport recognises the URI '%s'", text.c_str());
  return Status(PMIX_ERR_NOT_SUPPORTED);
}

}  // namespace pmix::ptl
