// PMIx_Resolve_peers and PMIx_Resolve_nodes (standard §7.2; the binding
// note spec/resolve-peers-nodes.txt, with PMIX_ERR_NOT_FOUND for the codes
// it names that v4.0 removed).
//
// Both read job data (resolve_data.h) on the progress thread: a client
// its cache, a process that is only a server its store. A client asking
// about another namespace first has the Get machinery bring that
// namespace's job info into its cache (a get of its PMIX_NSPACE: the
// server sends the whole job info along, RFC0009); an unknown namespace
// is PMIX_ERR_NOT_FOUND. A NULL or empty nspace means every namespace the
// process knows (a client: its own and those whose job info it fetched; a
// server: the registered ones); a NULL nodename the caller's node.
//
// Outputs: *procs from PMIx_Proc_create (PMIX_PROC_FREE), *nodelist a
// malloc'd "a,b" string; NULL/0 when there is nothing to report.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/client/resolve_data.h"
#include "src/common/api_guard.h"
#include "src/runtime/context.h"
#include "src/server/server_self.h"
#include "src/server/server_state.h"

namespace pmix::client {
namespace {

// Bounds the fetch of another namespace's job info at a host that never
// answers (seconds).
constexpr int kFetchTimeout = 10;

// The nspace argument ("" for NULL: every namespace).
std::string NspaceArg(const char* nspace) {
  return nspace == nullptr ? std::string() : std::string(nspace, ::strnlen(nspace, PMIX_MAX_NSLEN));
}

// Brings nspace's job info into a client's cache (nothing to do for its
// own namespace or in a server-only process).
Status FetchJobInfo(const char* nspace) {
  if (server::ServerOnly() || !ClientInitialized() || PMIx_Check_nspace(nspace, MyProc().nspace))
    return Status();
  pmix_proc_t job;
  PMIx_Load_procid(&job, nspace, PMIX_RANK_WILDCARD);
  pmix_info_t timeout;
  int seconds = kFetchTimeout;
  PMIx_Info_load(&timeout, PMIX_TIMEOUT, &seconds, PMIX_INT);
  pmix_value_t* value = nullptr;
  pmix_status_t rc = PMIx_Get(&job, PMIX_NSPACE, &timeout, 1, &value);
  PMIx_Info_destruct(&timeout);
  if (value != nullptr) PMIx_Value_free(value, 1);
  if (rc == PMIX_ERR_WOULD_BLOCK || rc == PMIX_ERR_INIT) return Status(rc);
  return rc == PMIX_SUCCESS ? Status() : Status(PMIX_ERR_NOT_FOUND);
}

// What the progress thread reads from.
struct View {
  const gds::Store* store = nullptr;
  std::vector<std::string> nspaces;  // every namespace the process knows
  std::string hostname;
};

Result<View> CurrentView() {
  View v;
  if (Client* c = CurrentClient(); c != nullptr && !server::ServerOnly()) {
    v.store = &c->cache;
    v.nspaces.emplace_back(c->myproc.nspace);
    for (const std::string& ns : c->fetched_jobs) v.nspaces.push_back(ns);
    v.hostname = c->hostname;
  } else if (server::Server* s = server::CurrentServer(); s != nullptr) {
    v.store = &s->store;
    for (const auto& [name, ns] : s->nspaces) v.nspaces.push_back(name);
    v.hostname = s->hostname;
  } else {
    return Status(PMIX_ERR_INIT);
  }
  return v;
}

std::vector<std::string> Targets(const View& v, const std::string& nspace) {
  return nspace.empty() ? v.nspaces : std::vector<std::string>{nspace};
}

struct PeersOut {
  pmix_status_t status = PMIX_ERROR;
  std::vector<pmix_proc_t> procs;
};

PeersOut Peers(const std::string& node, const std::string& nspace) {
  auto view = CurrentView();
  if (!view.ok()) return {view.status().code(), {}};
  std::string where = node.empty() ? view->hostname : node;
  PeersOut out{PMIX_SUCCESS, {}};
  for (const std::string& ns : Targets(*view, nspace)) {
    auto ranks = resolve::PeersOn(*view->store, ns, where, view->hostname);
    if (!ranks.ok()) {
      if (!nspace.empty()) return {ranks.status().code(), {}};
      continue;  // "every namespace": those without data for the node add nothing
    }
    for (pmix_rank_t r : *ranks) {
      pmix_proc_t p;
      PMIx_Load_procid(&p, ns.c_str(), r);
      out.procs.push_back(p);
    }
  }
  return out;
}

struct NodesOut {
  pmix_status_t status = PMIX_ERROR;
  std::vector<std::string> nodes;
};

NodesOut Nodes(const std::string& nspace) {
  auto view = CurrentView();
  if (!view.ok()) return {view.status().code(), {}};
  NodesOut out{PMIX_SUCCESS, {}};
  for (const std::string& ns : Targets(*view, nspace)) {
    auto nodes = resolve::NodesOf(*view->store, ns);
    if (!nodes.ok()) {
      if (!nspace.empty()) return {nodes.status().code(), {}};
      continue;
    }
    for (const std::string& n : *nodes)
      if (std::find(out.nodes.begin(), out.nodes.end(), n) == out.nodes.end())
        out.nodes.push_back(n);
  }
  return out;
}

template <class T>
Result<T> OnProgressThread(std::function<T()> fn) {
  return runtime::CallBlocking<T>([fn](std::function<void(T)> done) { done(fn()); });
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Resolve_peers(const char* nodename, const pmix_nspace_t nspace,
                                            pmix_proc_t** procs, size_t* nprocs) {
  return pmix::ApiGuard("PMIx_Resolve_peers", [&]() -> pmix_status_t {
    if (procs == nullptr || nprocs == nullptr) return PMIX_ERR_BAD_PARAM;
    *procs = nullptr;
    *nprocs = 0;
    std::string ns = client::NspaceArg(nspace);
    std::string node = nodename != nullptr ? nodename : "";
    pmix_status_t fetched = ns.empty() ? PMIX_SUCCESS : client::FetchJobInfo(ns.c_str()).code();
    if (fetched != PMIX_SUCCESS) return fetched;
    auto out =
        client::OnProgressThread<client::PeersOut>([node, ns] { return client::Peers(node, ns); });
    if (!out.ok()) return out.status().code();
    if (out->status != PMIX_SUCCESS || out->procs.empty()) return out->status;
    pmix_proc_t* array = PMIx_Proc_create(out->procs.size());
    if (array == nullptr) return PMIX_ERR_NOMEM;
    std::memcpy(array, out->procs.data(), out->procs.size() * sizeof(pmix_proc_t));
    *procs = array;
    *nprocs = out->procs.size();
    return PMIX_SUCCESS;
  });
}

extern "C" pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char** nodelist) {
  return pmix::ApiGuard("PMIx_Resolve_nodes", [&]() -> pmix_status_t {
    if (nodelist == nullptr) return PMIX_ERR_BAD_PARAM;
    *nodelist = nullptr;
    std::string ns = client::NspaceArg(nspace);
    pmix_status_t fetched = ns.empty() ? PMIX_SUCCESS : client::FetchJobInfo(ns.c_str()).code();
    if (fetched != PMIX_SUCCESS) return fetched;
    auto out = client::OnProgressThread<client::NodesOut>([ns] { return client::Nodes(ns); });
    if (!out.ok()) return out.status().code();
    if (out->status != PMIX_SUCCESS || out->nodes.empty()) return out->status;
    std::string list;
    for (const std::string& n : out->nodes) list += (list.empty() ? "" : ",") + n;
    *nodelist = ::strdup(list.c_str());
    return *nodelist != nullptr ? PMIX_SUCCESS : PMIX_ERR_NOMEM;
  });
}
