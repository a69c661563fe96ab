// The hello, the welcome and the client state of a client or tool
// (client_link.h).
#include "src/client/client_link.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/gds_base.h"
#include "mca/psec/base/psec_base.h"
#include "mca/ptl/base/frame_io.h"
#include "mca/ptl/base/ptl_base.h"
#include "pmix_version.h"
#include "src/common/output.h"
#include "src/common/text.h"
#include "src/jobinfo/jobinfo.h"
#include "src/wire/job_image.h"

namespace pmix::client {
namespace {

// The largest payload a frame's 32-bit length can announce.
constexpr size_t kMaxFromServer = UINT32_MAX;

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? "" : v;
}

Result<Welcome> ParseWelcome(ptl::Frame& reply, const wire::Hello& hello) {
  auto fields = wire::DecodeFields(reply.payload);
  if (!fields.ok()) return fields.status();
  if (fields->empty()) return Status(PMIX_ERR_UNPACK_FAILURE);
  int status = std::atoi((*fields)[0].c_str());
  if (status != PMIX_SUCCESS) return Status(status);
  if (fields->size() < 3) return Status(PMIX_ERR_UNPACK_FAILURE);
  Welcome w;
  auto codec = bfrops::CodecByName((*fields)[1]);
  if (!codec.ok()) return codec.status();
  w.codec = *codec;
  const std::string& body = (*fields)[2];
  wire::Reader r(w.codec, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(body.data()),
                                                   body.size()));
  w.server = r.Proc();
  w.hostname = r.String();
  w.nlocalprocs = r.I32();
  w.gds = r.String();
  if (!r.status().ok()) return r.status();
  auto image = wire::UnpackImage(r, reply.fds, hello.nspace);
  if (!image.ok()) {
    output::Error("client", "the job data the server sent is not usable: %s",
                  PMIx_Error_string(image.status().code()));
    return image.status();
  }
  w.image = std::move(*image);
  if (hello.role == "tool") w.assigned = r.Proc();
  if (!r.status().ok()) return r.status();
  return w;
}

// A job of one on this node: the job info of a process without a server
// (a singleton, an unconnected tool).
Result<wire::Infos> JobOfOne(const std::string& hostname) {
  wire::Infos job;
  uint32_t one = 1;
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_JOB_SIZE, &one, PMIX_UINT32));
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_UNIV_SIZE, &one, PMIX_UINT32));
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_NODE_MAP, hostname.c_str(), PMIX_STRING));
  PMIX_RETURN_IF_ERROR(job.Add(PMIX_PROC_MAP, "0", PMIX_STRING));
  return job;
}

}  // namespace

Result<wire::Hello> MakeHello(const std::string& role, const pmix_proc_t& me,
                              std::span<const pmix_info_t> directives) {
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  const pmix_psec_module_t* psec = psec::Choose(Env("PMIX_SECURITY_MODE"));
  if (psec == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  auto cred = psec::CreateCredential(*psec, {});
  if (!cred.ok()) return cred.status();
  wire::Hello hello;
  hello.version = PMIXX_VERSION;
  hello.role = role;
  hello.codec = (*codec)->codec;
  hello.psec = psec->name;
  hello.credential.assign(cred->begin(), cred->end());
  hello.nspace = me.nspace;
  hello.rank = me.rank;
  hello.pid = static_cast<uint32_t>(::getpid());
  // The regions this process can map: a server whose regions are of
  // another module (this process chose PMIX_MCA_gds=hash) sends the bytes.
  // When the framework cannot say, none: everything comes inline.
  hello.regions.emplace();
  if (auto attachable = gds::AttachableModules(); attachable.ok()) {
    for (const std::string& name : *attachable) {
      if (!hello.regions->empty()) *hello.regions += ',';
      *hello.regions += name;
    }
  }
  if (!directives.empty()) {
    wire::Writer w(*codec);
    w.InfoArray(directives);
    auto packed = w.Take();
    if (!packed.ok()) return packed.status();
    hello.info.assign(packed->begin(), packed->end());
  }
  return hello;
}

Result<Connected> ConnectToServer(const wire::Hello& hello, const std::string& uris,
                                  std::chrono::milliseconds timeout) {
  Status last = PMIX_ERR_UNREACH;
  for (const auto& uri : SplitCommas(uris)) {
    auto fd = ptl::Connect(uri, timeout);
    if (!fd.ok()) {
      last = fd.status();
      continue;
    }
    // The server may send descriptors (job-data regions, job_image.h).
    // And frames of any size the format allows: ptl_base_max_msg_size
    // bounds what a server takes from its peers, not what a client takes
    // from its server. A collect fence's result holds every peer's blobs:
    // over TCP or gds hash, 32 processes' 2 MiB were already over 64 MiB.
    Connected c{std::move(*fd), ptl::FrameReader(kMaxFromServer, ptl::kMaxFrameFds), {}, uri};
    ptl::Frame frame{0, static_cast<uint16_t>(wire::Msg::kHello), 1, hello.Encode()};
    PMIX_RETURN_IF_ERROR(ptl::SendFrame(c.fd.get(), frame, timeout));
    auto reply = ptl::RecvFrame(c.fd.get(), c.reader, timeout);
    if (!reply.ok()) return reply.status();
    auto welcome = ParseWelcome(*reply, hello);
    if (!welcome.ok()) return welcome.status();
    c.welcome = std::move(*welcome);
    return c;
  }
  return last;
}

namespace {

// The server's identity as the client's own data, beside the job-level
// copies: OpenPMIx 4.2.2's client stores PMIX_SERVER_URI, _NSPACE and _RANK
// under its own rank when it connects, so clients written for it ask
// PMIx_Get(&me, PMIX_SERVER_URI); a peer's rank or the wildcard are still
// answered by the job info as before (docs/architecture.md).
void KeepServerIdentity(Client& c) {
  pmix_proc_t job = c.myproc;
  job.rank = PMIX_RANK_WILDCARD;
  for (const char* key : {PMIX_SERVER_URI, PMIX_SERVER_NSPACE, PMIX_SERVER_RANK}) {
    auto v = c.cache.FetchValue(job, gds::Where::Job(), PMIX_GDS_VIEW_ALL, key);
    if (v.ok() && *v != nullptr)
      c.cache.PutValue(c.myproc, gds::Where::Proc(), PMIX_INTERNAL, key, **v).ok();
  }
}

}  // namespace

Result<std::unique_ptr<Client>> NewClientState(const pmix_proc_t& me, const Welcome* w) {
  auto c = std::make_unique<Client>();
  c->myproc = me;
  if (w != nullptr) {
    c->server = w->server;
    c->hostname = w->hostname;
  } else {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    c->hostname = host;
    c->singleton = true;
  }
  auto module = (w != nullptr) ? gds::ByName(w->gds) : gds::Default();
  if (!module.ok()) module = gds::Default();
  if (!module.ok()) return module.status();
  auto cache = gds::Store::Create(*module);
  if (!cache.ok()) return cache.status();
  c->cache = std::move(*cache);
  if (w != nullptr && !w->assigned) {
    if (w->image != nullptr) c->cache.AttachImage(w->image);  // the server's image, read in place
    KeepServerIdentity(*c);
    return c;
  }
  // A tool's welcome carries no job: its own job info is that of a job of one.
  auto job = JobOfOne(c->hostname);
  if (!job.ok()) return job.status();
  auto ingested =
      jobinfo::Ingest(c->cache, me.nspace, 1, job->view(), jobinfo::Context{c->hostname});
  if (!ingested.ok()) return ingested.status();
  return c;
}

}  // namespace pmix::client
