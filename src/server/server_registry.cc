// What the host tells the server about its jobs: namespaces (with their
// job information), clients, and the environment a client is forked with.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mca/psec/base/psec_base.h"
#include "pmix_server.h"
#include "pmix_version.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/jobinfo/derive.h"
#include "src/runtime/context.h"
#include "src/server/server_connect.h"
#include "src/server/server_group.h"
#include "src/server/server_app_setup.h"
#include "src/server/server_identity.h"
#include "src/server/server_internal.h"
#include "src/server/server_job_control.h"
#include "src/server/server_topology.h"
#include "src/server/server_job_update.h"
#include "src/server/registration_input.h"

namespace pmix::server {
namespace {

bool ValidNspace(const char* nspace) {
  return nspace != nullptr && nspace[0] != '\0' && ::strnlen(nspace, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

bool HasKey(std::span<const pmix_info_t> info, const pmix_info_t& item) {
  for (const auto& i : info) {
    if (PMIX_CHECK_KEY(&i, item.key)) return true;
  }
  return false;
}

// Lays a namespace's job data out as its image, once, where every local
// client can map it (the gds region module, e.g. shmem; else the heap).
Result<jobinfo::Summary> IngestNamespace(Server& s, const std::string& name, int nlocalprocs,
                                         const InfoAssembly& registration) {
  auto medium = gds::RegionModule();
  jobinfo::Context ctx{s.hostname, medium.ok() ? *medium : nullptr};
  return jobinfo::Ingest(s.store, name, nlocalprocs, registration.parts(), ctx);
}

// `info` is the host's array, read in place (registration_input.h).
Status RegisterNamespace(Server& s, const std::string& name, int nlocalprocs,
                         std::span<const pmix_info_t> info) {
  bool again = s.FindNamespace(name) != nullptr;
  // A re-registration adds to what was registered (a new generation of
  // the image, which clients connected meanwhile receive).
  auto registration = AssembleRegistration(s, name, info);
  if (!registration.ok()) return registration.status();
  auto summary = IngestNamespace(s, name, nlocalprocs, *registration);
  if (!summary.ok()) return summary.status();
  Namespace& ns = s.nspaces[name];
  ns.name = name;
  ns.nlocalprocs = nlocalprocs;
  ns.summary = std::move(*summary);
  if (again) PushJobImage(s, ns);
  return Status();
}

// New resources reach the namespaces already registered too (a new
// generation of their images, pushed to their connected clients).
Status RegisterResources(Server& s, std::span<const pmix_info_t> info) {
  for (const auto& i : info) PMIX_RETURN_IF_ERROR(s.resources.Append(i));
  for (auto& [name, ns] : s.nspaces) {
    if (ns.summary.nodata) continue;  // nothing stored for it, nothing to add to
    auto registration = RegisteredSoFar(s, name);
    if (!registration.ok()) return registration.status();
    std::vector<const pmix_info_t*> added;
    for (const auto& i : info) {
      if (!registration->Has(i.key)) added.push_back(&i);
    }
    if (added.empty()) continue;
    for (const pmix_info_t* i : added) registration->Borrow(*i);
    // Ingestion is idempotent: the whole array again, so that what is
    // derived sees everything (a new generation of the image).
    auto summary = IngestNamespace(s, name, ns.nlocalprocs, *registration);
    if (!summary.ok()) return summary.status();
    ns.summary = std::move(*summary);
    PushJobImage(s, ns);
  }
  return Status();
}

// Forgets resources by key: namespaces registered later do not get them.
Status DeregisterResources(Server& s, std::span<const pmix_info_t> info) {
  wire::Infos kept;
  for (const auto& r : s.resources.view()) {
    if (!HasKey(info, r)) PMIX_RETURN_IF_ERROR(kept.Append(r));
  }
  s.resources = std::move(kept);
  return Status();
}

void DeregisterNamespace(Server& s, const std::string& name) {
  AppSetupOnNamespaceGone(name);  // also for a namespace that was never registered
  Namespace* ns = s.FindNamespace(name);
  if (ns == nullptr) return;
  for (auto& [rank, record] : ns->clients) {
    if (record.peer != nullptr) {
      record.peer->finalized = true;
      record.peer->conn->Close(PMIX_ERR_NOT_FOUND);
    }
  }
  FenceOnNamespaceGone(s, name);
  GetOnNamespaceGone(s, name);
  JobControlOnNamespaceGone(s, name);
  ConnectOnNamespaceGone(s, name);
  GroupOnNamespaceGone(s, name);
  pmix_proc_t all;
  PMIx_Load_procid(&all, name.c_str(), PMIX_RANK_WILDCARD);
  s.store.Remove(all).ok();
  s.nspaces.erase(name);
}

// Calls an op callback on the progress thread, after the API returned.
void Complete(pmix_op_cbfunc_t cbfunc, void* cbdata, Status status) {
  if (cbfunc == nullptr) return;
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr || !engine->Post([=] { cbfunc(status.code(), cbdata); }).ok())
    cbfunc(status.code(), cbdata);
}

}  // namespace

// Runs fn on the progress thread with the server (server_internal.h).
pmix_status_t RunOp(std::function<Status(Server&)> fn, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  if (!ServerInitialized()) return PMIX_ERR_INIT;
  if (cbfunc == nullptr) {
    auto rc = runtime::CallBlocking<pmix_status_t>([fn](std::function<void(pmix_status_t)> done) {
      Server* s = CurrentServer();
      done(s == nullptr ? PMIX_ERR_INIT : fn(*s).code());
    });
    return rc.ok() ? *rc : rc.status().code();
  }
  Status posted = runtime::Engine()->Post([fn, cbfunc, cbdata] {
    Server* s = CurrentServer();
    Status status = s == nullptr ? Status(PMIX_ERR_INIT) : fn(*s);
    cbfunc(status.code(), cbdata);
  });
  return posted.code();
}

struct ForkEnv {
  std::vector<std::pair<std::string, std::string>> vars;
};
std::atomic<const ForkEnv*> g_fork_env{nullptr};

void PublishForkEnv(const Server& s) {
  auto snapshot = std::make_unique<ForkEnv>();
  std::string uris;
  for (const auto& l : s.listeners) uris += (uris.empty() ? "" : ",") + l.uri();
  auto names = psec::SelectedNames();
  std::string modes;
  if (names.ok()) {
    for (const auto& n : *names) modes += (modes.empty() ? "" : ",") + n;
  }
  snapshot->vars = {{"PMIX_SERVER_URI", uris},
                    {"PMIX_SERVER_NSPACE", s.myproc.nspace},
                    {"PMIX_SERVER_RANK", std::to_string(s.myproc.rank)},
                    {"PMIX_HOSTNAME", s.hostname},
                    {"PMIX_VERSION", PMIXX_VERSION},
                    {"PMIX_SECURITY_MODE", modes},
                    {"PMIX_GDS_MODULE", s.store.module() != nullptr ? s.store.module()->name : "hash"},
                    {"PMIX_SERVER_TMPDIR", s.tmpdir},
                    {"PMIX_SYSTEM_TMPDIR", s.system_tmpdir}};
  delete g_fork_env.exchange(snapshot.release(), std::memory_order_acq_rel);
}

void RetractForkEnv() { delete g_fork_env.exchange(nullptr, std::memory_order_acq_rel); }

}  // namespace pmix::server

using pmix::Status;
namespace server = pmix::server;

extern "C" pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs,
                                                     pmix_info_t info[], size_t ninfo,
                                                     pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_register_nspace", [&]() -> pmix_status_t {
    if (!server::ValidNspace(nspace) || nlocalprocs < 0 || (info == nullptr && ninfo > 0))
      return PMIX_ERR_BAD_PARAM;
    // As with OpenPMIx, the host keeps `info` valid until the callback (or
    // until a blocking call returns): it is read in place, never copied
    // (a copy cost more than the ingestion at S = 100k procs).
    std::span<const pmix_info_t> view = pmix::InfoSpan(info, ninfo);
    std::string name(nspace);
    return server::RunOp(
        [name, nlocalprocs, view](server::Server& s) {
          return server::RegisterNamespace(s, name, nlocalprocs, view);
        },
        cbfunc, cbdata);
  });
}

extern "C" void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc,
                                              void* cbdata) {
  pmix::ApiGuardVoid("PMIx_server_deregister_nspace", [&] {
    if (!server::ValidNspace(nspace)) {
      server::Complete(cbfunc, cbdata, PMIX_ERR_BAD_PARAM);
      return;
    }
    std::string name(nspace);
    pmix_status_t rc = server::RunOp(
        [name](server::Server& s) {
          server::DeregisterNamespace(s, name);
          return Status();
        },
        cbfunc, cbdata);
    if (rc != PMIX_SUCCESS && cbfunc != nullptr) server::Complete(cbfunc, cbdata, rc);
  });
}

extern "C" pmix_status_t PMIx_server_register_client(const pmix_proc_t* proc, uid_t uid, gid_t gid,
                                                     void* server_object, pmix_op_cbfunc_t cbfunc,
                                                     void* cbdata) {
  return pmix::ApiGuard("PMIx_server_register_client", [&]() -> pmix_status_t {
    if (proc == nullptr || !server::ValidNspace(proc->nspace) || proc->rank >= PMIX_RANK_VALID)
      return PMIX_ERR_BAD_PARAM;
    pmix_proc_t p = *proc;
    return server::RunOp(
        [p, uid, gid, server_object](server::Server& s) {
          server::Namespace& ns = s.nspaces[p.nspace];
          ns.name = p.nspace;
          server::ClientRecord& record = ns.clients[p.rank];
          record.uid = uid;
          record.gid = gid;
          record.server_object = server_object;
          ns.deregistered.erase(p.rank);
          return Status();
        },
        cbfunc, cbdata);
  });
}

extern "C" void PMIx_server_deregister_client(const pmix_proc_t* proc, pmix_op_cbfunc_t cbfunc,
                                              void* cbdata) {
  pmix::ApiGuardVoid("PMIx_server_deregister_client", [&] {
    if (proc == nullptr || !server::ValidNspace(proc->nspace)) {
      server::Complete(cbfunc, cbdata, PMIX_ERR_BAD_PARAM);
      return;
    }
    pmix_proc_t p = *proc;
    pmix_status_t rc = server::RunOp(
        [p](server::Server& s) {
          server::Namespace* ns = s.FindNamespace(p.nspace);
          if (ns == nullptr) return Status(PMIX_ERR_NOT_FOUND);
          auto it = ns->clients.find(p.rank);
          if (it == ns->clients.end()) return Status(PMIX_ERR_NOT_FOUND);
          // The host says the process is gone (an RM reaping a process that
          // ended): a connected one is lost as it is (finalized or not), one
          // that never connected is dropped from the collectives waiting for
          // it (ClientDeregistered). A refused connection claiming the rank
          // changes nothing: only the host speaks for the real process.
          server::PeerPtr peer = it->second.peer;
          bool never_connected = peer == nullptr && it->second.departed == PMIX_SUCCESS;
          server::ClientRecord last = std::move(it->second);
          last.peer = nullptr;
          if (peer != nullptr) {  // its end not seen yet (an RM reaps before the server reads EOF)
            last.pid = peer->pid;
            last.departed = peer->finalized ? PMIX_ERR_NOT_FOUND : PMIX_ERR_PROC_TERM_WO_SYNC;
          } else if (never_connected) {
            last.departed = PMIX_ERR_NOT_FOUND;
          }
          ns->clients.erase(it);
          ns->deregistered.insert_or_assign(p.rank, std::move(last));
          if (peer != nullptr) peer->conn->Close(PMIX_ERR_NOT_FOUND);
          if (never_connected) server::ClientDeregistered(s, *ns, p.rank);
          return Status();
        },
        cbfunc, cbdata);
    if (rc != PMIX_SUCCESS && cbfunc != nullptr) server::Complete(cbfunc, cbdata, rc);
  });
}

extern "C" pmix_status_t PMIx_server_register_resources(pmix_info_t info[], size_t ninfo,
                                                        pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_register_resources", [&]() -> pmix_status_t {
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    auto copy = pmix::wire::Infos::CopyOf(pmix::InfoSpan(info, ninfo));
    if (!copy.ok()) return copy.status().code();
    auto infos = std::make_shared<pmix::wire::Infos>(std::move(*copy));
    return server::RunOp(
        [infos](server::Server& s) { return server::RegisterResources(s, infos->view()); }, cbfunc,
        cbdata);
  });
}

extern "C" pmix_status_t PMIx_server_deregister_resources(pmix_info_t info[], size_t ninfo,
                                                          pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_deregister_resources", [&]() -> pmix_status_t {
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    auto copy = pmix::wire::Infos::CopyOf(pmix::InfoSpan(info, ninfo));
    if (!copy.ok()) return copy.status().code();
    auto infos = std::make_shared<pmix::wire::Infos>(std::move(*copy));
    return server::RunOp(
        [infos](server::Server& s) { return server::DeregisterResources(s, infos->view()); }, cbfunc,
        cbdata);
  });
}

// The environment of a client: who it is, where its server listens, and
// the server's choices. Values never contain '*', '[' or ']' (Open MPI's
// singleton path joins them with '*' and brackets). Works in a forked
// child (no progress thread there): it only reads the published snapshot.
extern "C" pmix_status_t PMIx_server_setup_fork(const pmix_proc_t* proc, char*** env) {
  return pmix::ApiGuard("PMIx_server_setup_fork", [&]() -> pmix_status_t {
    if (proc == nullptr || env == nullptr || !server::ValidNspace(proc->nspace))
      return PMIX_ERR_BAD_PARAM;
    const server::ForkEnv* common = server::g_fork_env.load(std::memory_order_acquire);
    if (common == nullptr) return PMIX_ERR_INIT;
    std::string nspace(proc->nspace, ::strnlen(proc->nspace, PMIX_MAX_NSLEN));
    pmix_status_t rc = PMIx_Setenv("PMIX_NAMESPACE", nspace.c_str(), true, env);
    if (rc == PMIX_SUCCESS)
      rc = PMIx_Setenv("PMIX_RANK", std::to_string(proc->rank).c_str(), true, env);
    for (const auto& [name, value] : common->vars) {
      if (rc != PMIX_SUCCESS) break;
      rc = PMIx_Setenv(name.c_str(), value.c_str(), true, env);
    }
    if (rc == PMIX_SUCCESS) rc = server::ApplyLocalSupportEnv(nspace, env).code();
    return rc;
  });
}
