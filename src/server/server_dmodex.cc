// Direct modex, both directions (standard §5.3, §6.2, §17.2.x):
//  - a client's get for a process this server does not host goes to the
//    host's direct_modex upcall; the host's answer (a blob of records,
//    wire/proc_data.h) goes into the stores (StoreRemoteData), then the
//    held requests for that process are answered from them (a key its
//    server holds only out of our sight, kHiddenKeysKey: not found, at once);
//  - PMIx_server_dmodex_request: the host asks for a local process's data
//    on behalf of another node; answered, once the process has committed,
//    with its records as committed (no re-encoding).
#include <cstring>
#include <memory>

#include "mca/bfrops/base/bfrops_base.h"
#include "pmix.h"
#include "src/client/get_rules.h"
#include "src/common/api_guard.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_get.h"
#include "src/server/server_internal.h"

namespace pmix::server::get {
namespace {

// What a direct_modex upcall keeps alive until its callback.
struct HostCall {
  pmix_proc_t target{};
  wire::Infos infos;
};

std::pair<std::string, pmix_rank_t> Key(const pmix_proc_t& p) { return {p.nspace, p.rank}; }

void StoreHostData(Server& s, const std::shared_ptr<const wire::Bytes>& blob) {
  auto taken = StoreRemoteData(s, blob);
  if (!taken.ok())
    output::Error("server", "direct modex: the host's data is refused (%s)",
                  PMIx_Error_string(taken.status().code()));
}

void CallHost(Server& s, const pmix_proc_t& target, std::span<const pmix_info_t> infos);
void ScheduleRetry(const pmix_proc_t& target);

// Whether target's server said it holds key only where this node cannot
// see it (its committed scope excludes us: the key will not come).
bool KnownHidden(const pmix_proc_t& target, const std::string& key) {
  const auto& hidden = GetState().hidden;
  auto it = hidden.find(Key(target));
  return !key.empty() && it != hidden.end() && it->second.count(key) != 0;
}

// Answers every request waiting on the host for target. A request with a
// PMIX_TIMEOUT whose key is not in the data yet stays held (§5.3: the
// target may still post it) and the host is asked again.
void FinishHostWait(Server& s, const pmix_proc_t& target, pmix_status_t status) {
  auto& held = GetState().held;
  bool retry = false;
  for (auto it = held.begin(); it != held.end();) {
    const Request& req = it->second.req;
    if (it->second.wait != Wait::kHost || !SameProc(req.target, target)) {
      ++it;
      continue;
    }
    bool job = getrules::IsReservedKey(req.key) || req.target.rank == PMIX_RANK_WILDCARD;
    if (status != PMIX_SUCCESS) {
      ReplyStatus(req, status);
    } else if (job) {
      ReplyData(s, req, req.target.rank < PMIX_RANK_VALID ? req.target.rank : PMIX_RANK_UNDEF);
    } else if (TryAnswer(s, req)) {
    } else if (KnownHidden(target, req.key)) {
      ReplyStatus(req, PMIX_ERR_EXISTS_OUTSIDE_SCOPE);  // the client says NOT_FOUND
    } else if (req.timeout > 0 && !req.immediate && !req.refresh) {
      retry = true;
      ++it;
      continue;
    } else {
      ReplyStatus(req, PMIX_ERR_NOT_FOUND);
    }
    it = held.erase(it);
  }
  if (retry) ScheduleRetry(target);
}

constexpr std::chrono::milliseconds kRetryPause{200};

void RetryHost(const pmix_proc_t& target) {
  Server* s = CurrentServer();
  if (s == nullptr) return;
  for (const auto& [id, h] : GetState().held) {
    if (h.wait == Wait::kHost && SameProc(h.req.target, target)) {
      return CallHost(*s, target, h.req.infos.view());
    }
  }
}

void ScheduleRetry(const pmix_proc_t& target) {
  auto& slot = GetState().host_retry[Key(target)];
  slot = runtime::Engine()->AddTimer(kRetryPause, [target] {
    auto& retries = GetState().host_retry;
    auto it = retries.find(Key(target));
    // Keep the firing timer alive until its callback returns.
    std::unique_ptr<runtime::ProgressEngine::Timer> self;
    if (it != retries.end()) {
      self = std::move(it->second);
      retries.erase(it);
    }
    RetryHost(target);
  });
}

void OnHostData(Server& s, const pmix_proc_t& target, pmix_status_t status,
                const std::shared_ptr<const wire::Bytes>& blob) {
  GetState().host_inflight.erase(Key(target));
  GetState().hidden.erase(Key(target));  // this answer says what is hidden now
  if (status == PMIX_SUCCESS && !blob->empty()) StoreHostData(s, blob);
  FinishHostWait(s, target, status);
}

// pmix_modex_cbfunc_t: any thread.
void HostModexDone(pmix_status_t status, const char* data, size_t ndata, void* cbdata,
                   pmix_release_cbfunc_t release_fn, void* release_cbdata) {
  std::unique_ptr<HostCall> call(static_cast<HostCall*>(cbdata));
  // The host's buffer is valid until release_fn: the one copy, kept as the
  // stored records' buffer.
  auto copy = std::make_shared<wire::Bytes>();
  try {
    if (data != nullptr && ndata > 0) copy->assign(data, data + ndata);
  } catch (const std::bad_alloc&) {
    status = PMIX_ERR_NOMEM;
  }
  if (release_fn != nullptr) release_fn(release_cbdata);
  std::shared_ptr<const wire::Bytes> blob = std::move(copy);
  if (call == nullptr) return;
  pmix_proc_t target = call->target;
  PostToServer([target, status, blob](Server& s) { OnHostData(s, target, status, blob); });
}

// The data another node's host asked for: the job record and proc's (or,
// for a wildcard rank, every rank's) records as remote processes see them,
// concatenated as they are stored.
Result<wire::Bytes> CollectForRemote(Server& s, const pmix_proc_t& proc) {
  auto codec = bfrops::DefaultCodec();
  if (!codec.ok()) return codec.status();
  wire::Bytes out;
  wire::ProcData job = JobRecord(s, proc.nspace);
  if (job.kvs.size() > 0) PMIX_RETURN_IF_ERROR(wire::AppendRecord(*codec, job.proc, job.kvs.view(), out));
  std::vector<pmix_rank_t> ranks;
  if (proc.rank == PMIX_RANK_WILDCARD) {
    ranks = s.modex.Ranks(proc.nspace);
  } else {
    ranks.push_back(proc.rank);
  }
  size_t total = out.size();
  pmix_proc_t one = proc;
  for (pmix_rank_t rank : ranks) {
    one.rank = rank;
    total += s.modex.Size(one, PMIX_GDS_VIEW_REMOTE);
  }
  out.reserve(total);
  for (pmix_rank_t rank : ranks) {
    one.rank = rank;
    s.modex.Append(one, PMIX_GDS_VIEW_REMOTE, out);
    PMIX_RETURN_IF_ERROR(AppendHiddenKeys(*codec, one, s.modex.HiddenKeys(one, PMIX_GDS_VIEW_REMOTE), out));
  }
  return out;
}

void AnswerDmodex(Server& s, const DmodexHold& hold) {
  auto blob = CollectForRemote(s, hold.proc);
  if (!blob.ok()) return hold.cbfunc(blob.status().code(), nullptr, 0, hold.cbdata);
  hold.cbfunc(PMIX_SUCCESS, reinterpret_cast<char*>(blob->data()), blob->size(), hold.cbdata);
}

void ServeDmodex(Server& s, const DmodexHold& hold) {
  Namespace* ns = s.FindNamespace(hold.proc.nspace);
  if (ns == nullptr) return hold.cbfunc(PMIX_ERR_NOT_FOUND, nullptr, 0, hold.cbdata);
  // Other nodes read this job's data by direct modex: its collect fences,
  // if any, are not worth a copy of every commit kept for the host.
  ns->host_blob.Disable();
  pmix_rank_t rank = hold.proc.rank;
  if (rank == PMIX_RANK_WILDCARD) return AnswerDmodex(s, hold);
  if (rank >= PMIX_RANK_VALID) return hold.cbfunc(PMIX_ERR_BAD_PARAM, nullptr, 0, hold.cbdata);
  // Not ours, or committed already: what we have. Else wait for its commit.
  if (!ns->IsLocal(rank) || ns->committed.count(rank) != 0) return AnswerDmodex(s, hold);
  GetState().dmodex_holds.push_back(hold);
}

// One direct_modex upcall per target at a time.
void CallHost(Server& s, const pmix_proc_t& target, std::span<const pmix_info_t> request_infos) {
  State& state = GetState();
  if (!state.host_inflight.insert(Key(target)).second) return;
  auto call = std::make_unique<HostCall>();
  call->target = target;
  auto infos = wire::Infos::CopyOf(request_infos);
  if (infos.ok()) call->infos = std::move(*infos);
  HostCall* raw = call.get();
  pmix_status_t rc = s.module.direct_modex(&raw->target, raw->infos.data(), raw->infos.size(),
                                           HostModexDone, raw);
  if (rc == PMIX_SUCCESS) {
    call.release();  // HostModexDone owns it now
    return;
  }
  state.host_inflight.erase(Key(target));
  // PMIX_OPERATION_SUCCEEDED: done, the data (if any) is in the store.
  FinishHostWait(s, target, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
}

}  // namespace

Status AppendHiddenKeys(const pmix_bfrops_module_t* codec, const pmix_proc_t& proc,
                        const std::vector<std::string>& keys, wire::Bytes& out) {
  if (keys.empty()) return Status();
  std::vector<char*> names;
  names.reserve(keys.size());
  for (const std::string& k : keys) names.push_back(const_cast<char*>(k.c_str()));
  pmix_data_array_t array{PMIX_STRING, names.size(), names.data()};
  pmix_info_t marker;
  PMIx_Info_construct(&marker);
  PMIX_LOAD_KEY(marker.key, kHiddenKeysKey);
  marker.value.type = PMIX_DATA_ARRAY;
  marker.value.data.darray = &array;  // shallow: packing only reads it
  return wire::AppendRecord(codec, proc, std::span<const pmix_info_t>(&marker, 1), out);
}

Result<bool> ParseHiddenKeys(std::span<const pmix_info_t> kvs, std::vector<std::string>* keys) {
  bool marker = false;
  for (const pmix_info_t& kv : kvs)
    marker = marker || std::strncmp(kv.key, kHiddenKeysKey, PMIX_MAX_KEYLEN + 1) == 0;
  if (!marker) return false;
  if (kvs.size() != 1) return Status(PMIX_ERR_BAD_PARAM);
  const pmix_value_t& v = kvs[0].value;
  const pmix_data_array_t* array = v.type == PMIX_DATA_ARRAY ? v.data.darray : nullptr;
  if (array == nullptr || array->type != PMIX_STRING || (array->size > 0 && array->array == nullptr))
    return Status(PMIX_ERR_BAD_PARAM);
  const char* const* names = static_cast<const char* const*>(array->array);
  keys->clear();
  for (size_t i = 0; i < array->size; ++i) {
    size_t n = names[i] == nullptr ? 0 : ::strnlen(names[i], PMIX_MAX_KEYLEN + 1);
    if (n == 0 || n > PMIX_MAX_KEYLEN) return Status(PMIX_ERR_BAD_PARAM);
    keys->emplace_back(names[i], n);
  }
  return true;
}

void AskHost(Server& s, Request&& req) {
  pmix_proc_t target = req.target;
  auto infos = wire::Infos::CopyOf(req.infos.view());
  Hold(s, std::move(req), Wait::kHost);
  if (GetState().host_retry.count(Key(target)) != 0) return;  // asked again soon anyway
  CallHost(s, target, infos.ok() ? infos->view() : std::span<const pmix_info_t>());
}

void DmodexOnCommit(Server& s, const pmix_proc_t& proc) {
  auto& holds = GetState().dmodex_holds;
  std::vector<DmodexHold> ready;
  for (auto it = holds.begin(); it != holds.end();) {
    if (SameProc(it->proc, proc)) {
      ready.push_back(*it);
      it = holds.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& hold : ready) AnswerDmodex(s, hold);
}

// proc.nspace empty with whole_nspace: every hold (shutdown).
void DmodexFail(Server&, const pmix_proc_t& proc, pmix_status_t status, bool whole_nspace) {
  auto& holds = GetState().dmodex_holds;
  std::vector<DmodexHold> failed;
  for (auto it = holds.begin(); it != holds.end();) {
    bool match = whole_nspace ? (proc.nspace[0] == '\0' || PMIx_Check_nspace(it->proc.nspace, proc.nspace))
                              : SameProc(it->proc, proc);
    if (match) {
      failed.push_back(*it);
      it = holds.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& hold : failed) hold.cbfunc(status, nullptr, 0, hold.cbdata);
}

}  // namespace pmix::server::get

extern "C" pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t* proc,
                                                    pmix_dmodex_response_fn_t cbfunc,
                                                    void* cbdata) {
  return pmix::ApiGuard("PMIx_server_dmodex_request", [&]() -> pmix::Status {
    namespace server = pmix::server;
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (proc == nullptr || cbfunc == nullptr) return PMIX_ERR_BAD_PARAM;
    size_t nslen = ::strnlen(proc->nspace, PMIX_MAX_NSLEN + 1);
    if (nslen == 0 || nslen > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
    server::get::DmodexHold hold{*proc, cbfunc, cbdata};
    pmix::runtime::ProgressEngine* engine = pmix::runtime::Engine();
    if (engine == nullptr) return PMIX_ERR_INIT;
    return engine->Post([hold] {
      server::Server* s = server::CurrentServer();
      if (s == nullptr) return hold.cbfunc(PMIX_ERR_INIT, nullptr, 0, hold.cbdata);
      server::get::ServeDmodex(*s, hold);
    });
  });
}
