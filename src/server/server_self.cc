#include "src/server/server_self.h"

#include <cstdlib>
#include <optional>

#include "pmix.h"
#include "src/common/output.h"
#include "src/hwloc/topology.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"
#include "src/server/server_identity.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

struct Answer {
  pmix_status_t status = PMIX_ERROR;
  pmix_value_t* value = nullptr;
  bool self = false;  // asked about the server's own process
};

// Every PROC-realm key of proc: what the host registered and what it committed.
Answer LookupAll(const Server& s, const pmix_proc_t& proc) {
  auto registered = s.store.Fetch(proc, gds::Where::Proc(), PMIX_GDS_VIEW_ALL, "");
  auto committed = proc.rank < PMIX_RANK_VALID ? s.modex.FetchAll(proc, PMIX_GDS_VIEW_ALL)
                                               : Result<wire::Infos>(Status(PMIX_ERR_NOT_FOUND));
  if (!registered.ok() && !committed.ok()) return {registered.status().code(), nullptr};
  wire::Infos merged;
  if (registered.ok())
    for (const pmix_info_t& kv : registered->view())
      if (!merged.Append(kv).ok()) return {PMIX_ERR_NOMEM, nullptr};
  if (committed.ok())
    for (const pmix_info_t& kv : committed->view())
      if (!merged.Append(kv).ok()) return {PMIX_ERR_NOMEM, nullptr};
  auto infos = merged.ToMalloced();
  if (!infos.ok()) return {infos.status().code(), nullptr};
  pmix_value_t* v = PMIx_Value_create(1);
  auto* array = static_cast<pmix_data_array_t*>(std::calloc(1, sizeof(pmix_data_array_t)));
  if (v == nullptr || array == nullptr) {
    PMIx_Value_free(v, 1);
    std::free(array);
    PMIx_Info_free(*infos, merged.size());
    return {PMIX_ERR_NOMEM, nullptr};
  }
  array->type = PMIX_INFO;
  array->size = merged.size();
  array->array = *infos;
  v->type = PMIX_DATA_ARRAY;
  v->data.darray = array;
  return {PMIX_SUCCESS, v};
}

Answer Lookup(const Server& s, const pmix_proc_t& proc, const std::string& key) {
  // The server's own process (or PMIX_PROCID, which names the caller
  // whatever proc says, §6.1.4): answered from what the server knows.
  if (key == PMIX_PROCID || PMIx_Check_procid(&proc, &s.myproc)) {
    if (auto self = SelfValue(s, key)) {
      if (!self->ok()) return {self->status().code(), nullptr};
      return {PMIX_SUCCESS, **self};
    }
  }
  if (key.empty()) return LookupAll(s, proc);
  if (proc.rank < PMIX_RANK_VALID) {
    auto committed = s.modex.Fetch(proc, PMIX_GDS_VIEW_ALL, key);
    if (committed.ok()) return {PMIX_SUCCESS, committed->release()};
  }
  auto v = s.store.FetchValue(proc, gds::Where::Proc(), PMIX_GDS_VIEW_ALL, key);
  if (!v.ok() || proc.rank == PMIX_RANK_WILDCARD)
    v = s.store.FetchValue(proc, gds::Where::Job(), PMIX_GDS_VIEW_ALL, key);
  if (!v.ok()) return {v.status().code(), nullptr};
  return {PMIX_SUCCESS, v->release()};
}

}  // namespace

bool ServerOnly() {
  return ServerInitialized() && runtime::InitCount(runtime::Role::kClient).load() == 0 &&
         runtime::InitCount(runtime::Role::kTool).load() == 0;
}

Status StoreInternal(const pmix_proc_t& proc, std::shared_ptr<wire::Infos> kv) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  PostToServer([proc, kv](Server& s) {
    Status stored = s.store.Put(proc, gds::Where::Proc(), PMIX_INTERNAL, kv->view());
    if (!stored.ok())
      output::Error("server", "PMIx_Store_internal(%s): refused (%d)", kv->view()[0].key, stored.code());
  });
  return Status();
}

Result<pmix_value_t*> Get(const pmix_proc_t* proc, const std::string& key) {
  std::optional<pmix_proc_t> target;
  if (proc != nullptr) target = *proc;
  auto out = runtime::CallBlocking<Answer>([target, key](std::function<void(Answer)> done) {
    Server* s = CurrentServer();
    if (s == nullptr) return done(Answer{PMIX_ERR_INIT, nullptr});
    pmix_proc_t who = target.value_or(s->myproc);
    if (who.nspace[0] == '\0') PMIx_Load_nspace(who.nspace, s->myproc.nspace);
    Answer a = Lookup(*s, who, key);
    a.self = PMIx_Check_procid(&who, &s->myproc);
    done(a);
  });
  if (!out.ok()) return out.status();
  // Its own topology, loaded on the caller's thread (OpenPMIx's server
  // records it under its own id at init; simpfabric reads it so).
  if (out->status == PMIX_ERR_NOT_FOUND && out->self && key == PMIX_TOPOLOGY2)
    return hwloc::ProcessTopologyValue();
  if (out->status != PMIX_SUCCESS) return Status(out->status);
  return out->value;
}

}  // namespace pmix::server
