// PMIx_Put, PMIx_Commit, PMIx_Store_internal (standard §5.2).
//
// A put is validated and its value copied on the caller's thread, then
// posted to the progress thread, which owns the cache: the value goes into
// the cache under the caller's own proc at once (so its own Get sees it,
// in posting order) and, unless PMIX_INTERNAL, onto the pending list that
// PMIx_Commit sends to the server.
//
// kCommit body (one-way): u32 group count, then per group a u32 scope and
// a u64 size, then each group's key/values as one record of this process
// (wire/proc_data.h), in put order (server_commit.cc reads it).
#include <cstring>
#include <memory>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/client/get_rules.h"
#include "src/common/api_guard.h"
#include "src/common/output.h"
#include "src/runtime/context.h"
#include "src/server/server_self.h"
#include "src/wire/proc_data.h"

namespace pmix::client {
namespace {

// One key/value as an owned info (deep copy of the caller's value).
Result<std::shared_ptr<wire::Infos>> CopyKv(const char* key, const pmix_value_t& val) {
  pmix_info_t shallow;
  std::memset(&shallow, 0, sizeof(shallow));
  PMIX_LOAD_KEY(shallow.key, key);
  shallow.value = val;
  auto kv = std::make_shared<wire::Infos>();
  PMIX_RETURN_IF_ERROR(kv->Append(shallow));
  return kv;
}

void ApplyPut(Client& c, pmix_scope_t scope, wire::Infos& kv) {
  Status stored;
  {
    std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
    stored = c.cache.Put(c.myproc, gds::Where::Proc(), scope, kv.view());
    c.writes_in_flight.fetch_sub(1, std::memory_order_release);
  }
  if (!stored.ok()) {
    output::Error("client", "PMIx_Put(%s): the cache refused it (%d)", kv.view()[0].key,
                  stored.code());
    return;
  }
  if (scope == PMIX_INTERNAL) return;
  if (c.pending_puts.empty() || c.pending_puts.back().first != scope) {
    c.pending_puts.emplace_back(scope, std::move(kv));
    return;
  }
  c.pending_puts.back().second.Append(kv.view()[0]).ok();
}

// The commit body (server_commit.cc): a header of scopes and sizes, then
// one record per scope group, sent without another copy.
Result<wire::Body> CommitBody(const Client& c,
                              const std::vector<std::pair<pmix_scope_t, wire::Infos>>& groups) {
  auto records = std::make_shared<wire::Bytes>();
  wire::Writer header(c.codec());
  header.U32(static_cast<uint32_t>(groups.size()));
  for (const auto& [scope, kvs] : groups) {
    size_t before = records->size();
    PMIX_RETURN_IF_ERROR(wire::AppendRecord(c.codec(), c.myproc, kvs.view(), *records));
    header.U32(scope).U64(records->size() - before);
  }
  auto head = header.Take();
  if (!head.ok()) return head.status();
  return wire::Body(std::move(*head), std::move(records));
}

Status Post(std::function<void(Client&)> fn) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  Status posted = engine->Post([fn = std::move(fn)] {
    if (Client* c = CurrentClient(); c != nullptr) fn(*c);
  });
  return posted;
}

// Posts a write of the cache; readers on other threads fall back to the
// progress thread until it is applied (fn must decrement the counter).
Status PostWrite(std::function<void(Client&)> fn) {
  Client* reader = ClientForReaders();
  if (reader != nullptr) reader->writes_in_flight.fetch_add(1, std::memory_order_acq_rel);
  Status posted = Post(std::move(fn));
  if (!posted.ok() && reader != nullptr) reader->writes_in_flight.fetch_sub(1);
  return posted;
}

bool StorableRank(pmix_rank_t rank) { return rank < PMIX_RANK_VALID || rank == PMIX_RANK_WILDCARD; }

}  // namespace

void CommitPending(Client& c) {
  if (c.pending_puts.empty()) return;
  auto groups = std::move(c.pending_puts);
  c.pending_puts.clear();
  if (c.codec() == nullptr) return;  // singleton or server lost: nothing to send to
  auto body = CommitBody(c, groups);
  if (!body.ok()) {
    output::Error("client", "PMIx_Commit: cannot pack the data (%d)", body.status().code());
    return;
  }
  Status sent = c.SendBody(wire::Msg::kCommit, std::move(*body));
  if (!sent.ok()) output::Verbose("client", 1, "PMIx_Commit: not sent (%d)", sent.code());
}

void PutShutdown(Client& client) {
  client.pending_puts.clear();
  client.peers.Clear();
  client.fetched_jobs.clear();
  client.pointer_values.clear();
}

}  // namespace pmix::client

using pmix::Status;
namespace client = pmix::client;
namespace getrules = pmix::getrules;

extern "C" pmix_status_t PMIx_Put(pmix_scope_t scope, const pmix_key_t key, pmix_value_t* val) {
  return pmix::ApiGuard("PMIx_Put", [&]() -> Status {
    if (!client::ClientInitialized()) return PMIX_ERR_INIT;
    PMIX_RETURN_IF_ERROR(getrules::CheckPutKey(key, false));
    if (val == nullptr) return PMIX_ERR_BAD_PARAM;
    PMIX_RETURN_IF_ERROR(getrules::CheckPutScope(scope));
    auto kv = client::CopyKv(key, *val);
    if (!kv.ok()) return kv.status();
    auto shared = std::move(*kv);
    return client::PostWrite([scope, shared](client::Client& c) { client::ApplyPut(c, scope, *shared); });
  });
}

extern "C" pmix_status_t PMIx_Commit(void) {
  return pmix::ApiGuard("PMIx_Commit", [&]() -> Status {
    if (!client::ClientInitialized()) return PMIX_ERR_INIT;
    return client::Post(client::CommitPending);
  });
}

// Reserved keys are accepted here although §5.2.2 lists BAD_PARAM for
// them: Open MPI 4.1 stores "pmix.locstr" / "pmix.loc" this way and fails
// MPI_Init when refused, and OpenPMIx 4.2.2 accepts them (DESIGN §8).
extern "C" pmix_status_t PMIx_Store_internal(const pmix_proc_t* proc, const pmix_key_t key,
                                             pmix_value_t* val) {
  return pmix::ApiGuard("PMIx_Store_internal", [&]() -> Status {
    bool as_server = pmix::server::ServerOnly();
    if (!client::ClientInitialized() && !as_server) return PMIX_ERR_INIT;
    if (proc == nullptr || val == nullptr) return PMIX_ERR_BAD_PARAM;
    PMIX_RETURN_IF_ERROR(getrules::CheckPutKey(key, true));
    size_t nslen = ::strnlen(proc->nspace, PMIX_MAX_NSLEN + 1);
    if (nslen == 0 || nslen > PMIX_MAX_NSLEN || !client::StorableRank(proc->rank))
      return PMIX_ERR_BAD_PARAM;
    auto kv = client::CopyKv(key, *val);
    if (!kv.ok()) return kv.status();
    auto shared = std::move(*kv);
    pmix_proc_t target = *proc;
    if (as_server) return pmix::server::StoreInternal(target, shared);
    return client::PostWrite([target, shared](client::Client& c) {
      Status stored;
      {
        std::unique_lock<pmix::runtime::ReadMostly> lock(c.cache_mu);
        stored = c.cache.Put(target, pmix::gds::Where::Proc(), PMIX_INTERNAL, shared->view());
        c.writes_in_flight.fetch_sub(1, std::memory_order_release);
      }
      if (!stored.ok())
        pmix::output::Error("client", "PMIx_Store_internal(%s): refused (%d)", shared->view()[0].key,
                            stored.code());
    });
  });
}
