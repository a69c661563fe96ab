// PMIx_Get and PMIx_Get_nb (standard §5.3, §5.4, §6.2, RFC0009).
//
// A get is one post to the progress thread, which owns the cache: look up
// (get_rules.h PlanLookup), answer on a hit. On a miss, the rules decide
// whether the server is asked (non-reserved keys of other processes;
// reserved keys and job data of another namespace whose job info is not
// cached yet) or NOT_FOUND is the answer. The server's reply carries the
// target's data (and, when asked for, that namespace's job info), which
// goes into the cache before the lookup runs again -- so later gets about
// the same process are local.
//
// kGet request: proc, key (NULL: all), the caller's infos, bool "send the
// job info". Reply: status, bool has_job [, i32 nlocalprocs, the job's
// image (src/wire/job_image.h: a descriptor to a local client)], then
// records (wire/proc_data.h) to the end (server_get.cc).
#include <cstdlib>
#include <cstring>
#include <memory>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/client/get_rules.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/hwloc/topology.h"
#include "src/runtime/context.h"
#include "src/server/server_self.h"
#include "src/wire/job_image.h"
#include "src/wire/proc_data.h"

namespace pmix::client {
namespace {

using Done = std::function<void(Status, gds::ValuePtr)>;

// What a get asks, validated (Prepare). The key is borrowed: the caller's
// for a get answered on its thread, the GetOp's own copy otherwise.
struct GetArgs {
  pmix_proc_t target;    // set by Prepare first (zeroing 260 bytes per Get shows)
  std::string_view key;  // empty: every key of the target
  getrules::GetDirectives dirs;
  bool own_target = false;  // the caller's own rank (not the wildcard)
};

// One get in flight (progress thread only).
struct GetOp : GetArgs {
  GetOp(const GetArgs& args, std::string_view key_text) : GetArgs(args), key_copy(key_text) {
    key = key_copy;
  }
  GetOp(const GetOp&) = delete;  // key views key_copy
  GetOp& operator=(const GetOp&) = delete;

  std::string key_copy;
  std::shared_ptr<wire::Infos> infos;  // the caller's, forwarded to the server
  Done done;
  bool finished = false;
  std::unique_ptr<runtime::ProgressEngine::Timer> guard;
};
using GetOpPtr = std::shared_ptr<GetOp>;

// The client's own bound on a wait the server times (PMIX_TIMEOUT): a little
// later than the server's, so the server's PMIX_ERR_TIMEOUT normally wins.
constexpr std::chrono::milliseconds kGuardSlack{1000};

// A key held only in a scope that excludes the requester is reported to it
// as PMIX_ERR_EXISTS_OUTSIDE_SCOPE for its own keys and as PMIX_ERR_NOT_FOUND
// for another process's (as OpenPMIx 4.2.2 answers: callers of a peer's key
// expect NOT_FOUND; docs/architecture.md, compatibility notes). Either way
// the answer is immediate: the key will not appear in the requester's scope.
void Finish(GetOp& op, Status status, gds::ValuePtr value) {
  if (op.finished) return;
  op.finished = true;
  if (status.code() == PMIX_ERR_EXISTS_OUTSIDE_SCOPE && !op.own_target) status = PMIX_ERR_NOT_FOUND;
  op.guard.reset();
  Done done = std::move(op.done);
  done(status, std::move(value));
}

bool OwnNspace(const Client& c, const pmix_proc_t& p) {
  return PMIx_Check_nspace(c.myproc.nspace, p.nspace);
}

gds::ValuePtr NewValue() {
  gds::ValuePtr v(PMIx_Value_create(1));
  if (v == nullptr) throw std::bad_alloc();
  return v;
}

// Every key of one instance as a PMIX_DATA_ARRAY of PMIX_INFO.
gds::ValuePtr ArrayValue(gds::InfoArray&& infos) {
  gds::ValuePtr v = NewValue();
  auto* array = static_cast<pmix_data_array_t*>(std::calloc(1, sizeof(pmix_data_array_t)));
  if (array == nullptr) throw std::bad_alloc();
  array->type = PMIX_INFO;
  array->size = infos.size();
  array->array = infos.release();
  v->type = PMIX_DATA_ARRAY;
  v->data.darray = array;
  return v;
}

std::optional<std::string> TargetHost(const Client& c, const GetArgs& op) {
  if (op.dirs.realm != getrules::Realm::kNode || op.dirs.nodeid || op.dirs.hostname ||
      op.target.rank >= PMIX_RANK_VALID)
    return std::nullopt;
  auto host = c.cache.FetchValue(op.target, gds::Where::Proc(), PMIX_GDS_VIEW_ALL, PMIX_HOSTNAME);
  if (!host.ok() || (*host)->type != PMIX_STRING || (*host)->data.string == nullptr)
    return std::nullopt;
  return std::string((*host)->data.string);
}

// Other processes' committed data lives in c.peers (client_modex.h): a
// PROC-realm step about another process that the cache misses looks there.
bool PeerStep(const Client& c, const getrules::LookupStep& step, std::string_view key) {
  return step.where.realm == PMIX_GDS_REALM_PROC && step.proc().rank != PMIX_RANK_WILDCARD &&
         !getrules::IsReservedKey(key) && !PMIx_Check_procid(&step.proc(), &c.myproc);
}

// Every key of one process: the cache's (its registration, and what this
// process stored with PMIx_Store_internal) and, for another process, what it
// committed. The cache wins where both name a key, as in a single-key Get.
Result<gds::ValuePtr> LookupAll(Client& c, const getrules::LookupStep& step, pmix_gds_view_t view) {
  auto all = c.cache.Fetch(step.proc(), step.where, view, "");
  auto committed = PeerStep(c, step, "") ? c.peers.FetchAll(step.proc())
                                         : Result<wire::Infos>(Status(PMIX_ERR_NOT_FOUND));
  if (!committed.ok() && committed.status().code() != PMIX_ERR_NOT_FOUND) return committed.status();
  if (!committed.ok()) {
    if (!all.ok()) return all.status().code() == PMIX_ERR_BAD_PARAM ? Status(PMIX_ERR_NOT_FOUND) : all.status();
    return ArrayValue(std::move(*all));
  }
  wire::Infos merged;
  if (all.ok()) {
    for (const pmix_info_t& kv : all->view()) PMIX_RETURN_IF_ERROR(merged.Append(kv));
  }
  for (const pmix_info_t& kv : committed->view()) {
    bool shadowed = false;
    if (all.ok()) {
      for (const pmix_info_t& cached : all->view()) shadowed = shadowed || PMIX_CHECK_KEY(&kv, cached.key);
    }
    if (!shadowed) PMIX_RETURN_IF_ERROR(merged.Append(kv));
  }
  auto array = merged.ToMalloced();
  if (!array.ok()) return array.status();
  return ArrayValue(gds::InfoArray(*array, merged.size()));
}

// The local answer (the cache, then other processes' committed data): the
// value, or NOT_FOUND / EXISTS_OUTSIDE_SCOPE / BAD_PARAM, or the error of
// data that does not decode.
Result<gds::ValuePtr> Lookup(Client& c, const GetArgs& op) {
  if (op.key == PMIX_PROCID) {  // §6.1.4: the caller's id, whatever proc says
    gds::ValuePtr v = NewValue();
    PMIX_RETURN_IF_ERROR(PMIx_Value_load(v.get(), &c.myproc, PMIX_PROC));
    return v;
  }
  getrules::Requester who{c.myproc, c.hostname};
  auto plan = getrules::PlanLookup(op.target, op.key, op.dirs, who, TargetHost(c, op));
  if (!plan.ok()) return plan.status();
  pmix_gds_view_t view = getrules::CacheView(op.dirs);
  if (op.key.empty()) return LookupAll(c, plan.front(), view);
  Status answer = PMIX_ERR_NOT_FOUND;
  for (const auto& step : plan) {
    auto v = c.cache.FetchValue(step.proc(), step.where, view, op.key);
    if (v.ok()) return std::move(*v);
    // A step whose realm instance the store cannot name (no session or app
    // known for it) is a miss, not the caller's error.
    if (v.status().code() == PMIX_ERR_EXISTS_OUTSIDE_SCOPE) answer = v.status();
    if (v.status().code() != PMIX_ERR_NOT_FOUND || !PeerStep(c, step, op.key)) continue;
    auto committed = c.peers.Fetch(step.proc(), op.key);
    if (committed.ok() || committed.status().code() != PMIX_ERR_NOT_FOUND) return committed;
  }
  if (answer.code() == PMIX_ERR_NOT_FOUND && op.own_target && op.key == PMIX_TOPOLOGY2)
  {
    auto topo = hwloc::ProcessTopologyValue();  // OpenPMIx's clients answer it (topology.h)
    if (!topo.ok()) return topo.status();
    return gds::ValuePtr(*topo);
  }
  return answer;
}

// Whether a miss goes to the server (§5.3, §6.2).
bool AskServerOnMiss(const Client& c, const GetOp& op, Status miss) {
  if (miss.code() != PMIX_ERR_NOT_FOUND || op.dirs.optional) return false;
  if (c.conn == nullptr) return false;
  bool own = OwnNspace(c, op.target);
  bool job_data = getrules::IsReservedKey(op.key) || op.target.rank == PMIX_RANK_WILDCARD ||
                  op.dirs.realm != getrules::Realm::kDefault;
  if (job_data) return !own && c.fetched_jobs.count(op.target.nspace) == 0;
  // The caller's own data is in its cache: only a timed get waits at the
  // server for the caller's own commit (another thread may put); an
  // untimed one would wait forever.
  return !(own && op.target.rank == c.myproc.rank) || op.dirs.timeout > 0;
}

// The server's records (the target's data, another job's job record) join
// the other processes' data (client_modex.h), after what came before; the
// job's image, when it came, enters the cache.
Status StoreReply(Client& c, const GetOp& op, std::optional<ForeignImage>& job,
                  std::shared_ptr<const wire::Bytes> payload, size_t offset) {
  std::vector<wire::ProcData> jobs;
  PMIX_RETURN_IF_ERROR(c.peers.Add(c.codec(), std::move(payload), offset, c.myproc, &jobs));
  if (job) {
    std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
    AttachForeignJob(c, op.target.nspace, std::move(*job));
  }
  return StoreJobRecords(c, jobs);
}

void OnServerReply(const GetOpPtr& op, Status status, ptl::Frame&& reply) {
  Client* c = CurrentClient();
  if (op->finished) return;
  if (c == nullptr) return Finish(*op, PMIX_ERR_INIT, nullptr);
  if (!status.ok()) return Finish(*op, status, nullptr);
  wire::Reader r(c->codec(), reply.payload);
  pmix_status_t answer = r.Status();
  std::optional<ForeignImage> job;
  if (r.Bool()) {
    (void)r.I32();  // the job's nlocalprocs (in the image too)
    job.emplace(wire::UnpackImage(r, reply.fds, op->target.nspace));
  }
  reply.fds.clear();  // mapped or refused: closed before the caller wakes
  if (!r.status().ok()) return Finish(*op, r.status(), nullptr);
  size_t offset = r.consumed();
  Status stored = StoreReply(*c, *op, job, std::make_shared<const wire::Bytes>(std::move(reply.payload)), offset);
  if (!stored.ok()) {
    output::Error("client", "data of %s:%u: not stored (%d)", op->target.nspace, op->target.rank,
                  stored.code());
    return Finish(*op, stored, nullptr);
  }
  if (answer != PMIX_SUCCESS) return Finish(*op, answer, nullptr);
  auto v = Lookup(*c, *op);
  Finish(*op, v.ok() ? Status() : v.status(), v.ok() ? std::move(*v) : nullptr);
}

void AskServer(Client& c, const GetOpPtr& op) {
  bool want_job = !OwnNspace(c, op->target) && c.fetched_jobs.count(op->target.nspace) == 0;
  wire::Writer w(c.codec());
  w.Proc(op->target).String(op->key.empty() ? nullptr : op->key_copy.c_str());
  w.InfoArray(op->infos ? op->infos->view() : std::span<const pmix_info_t>());
  w.Bool(want_job);
  auto body = w.Take();
  if (!body.ok()) return Finish(*op, body.status(), nullptr);
  if (op->dirs.timeout > 0) {
    auto delay = std::chrono::seconds(op->dirs.timeout) + kGuardSlack;
    op->guard = runtime::Engine()->AddTimer(delay, [op] { Finish(*op, PMIX_ERR_TIMEOUT, nullptr); });
  }
  c.RequestFrame(wire::Msg::kGet, *body, [op](Status status, ptl::Frame&& reply) {
    OnServerReply(op, status.code() == PMIX_ERR_UNREACH ? Status(PMIX_ERR_NOT_FOUND) : status,
                  std::move(reply));
  });
}

// Progress thread: the whole get.
void RunGet(Client& c, const GetOpPtr& op) {
  // Group ids and the keys the server answers live (client_group_events.cc).
  if (GroupGet(c, &op->target, op->key_copy,
               [op](Status status, gds::ValuePtr v) { Finish(*op, status, std::move(v)); }))
    return;
  if (op->dirs.refresh && AskServerOnMiss(c, *op, PMIX_ERR_NOT_FOUND)) return AskServer(c, op);
  auto v = Lookup(c, *op);
  if (v.ok()) return Finish(*op, Status(), std::move(*v));
  if (op->dirs.refresh || !AskServerOnMiss(c, *op, v.status())) return Finish(*op, v.status(), nullptr);
  AskServer(c, op);
}

// Validates a get's arguments (caller's thread) into *args (meaningful
// only on success). Allocates nothing for a get without infos: most gets
// are answered on the caller's thread.
Status Prepare(const pmix_proc_t* proc, const char* key, const pmix_info_t info[], size_t ninfo,
               GetArgs& args) {
  if (!ClientInitialized()) return PMIX_ERR_INIT;
  PMIX_RETURN_IF_ERROR(getrules::CheckGetKey(key));
  if (ninfo > 0) {
    auto dirs = getrules::ParseGetDirectives(InfoSpan(info, ninfo));
    if (!dirs.ok() || info == nullptr) return PMIX_ERR_BAD_PARAM;
    args.dirs = std::move(*dirs);
  }
  const pmix_proc_t& me = MyProc();
  args.target = proc != nullptr ? *proc : me;
  size_t nslen = ::strnlen(args.target.nspace, PMIX_MAX_NSLEN + 1);
  if (nslen > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
  if (nslen == 0) PMIX_LOAD_NSPACE(args.target.nspace, me.nspace);
  args.own_target = args.target.rank == me.rank && PMIX_CHECK_NSPACE(args.target.nspace, me.nspace);
  if (key != nullptr) args.key = key;
  return Status();
}

// The get as an operation of the progress thread (without `done`).
Result<GetOpPtr> NewOp(const GetArgs& args, const pmix_info_t info[], size_t ninfo) {
  auto op = std::make_shared<GetOp>(args, args.key);
  if (ninfo > 0) {
    auto copy = wire::Infos::CopyOf(InfoSpan(info, ninfo));
    if (!copy.ok()) return copy.status();
    op->infos = std::make_shared<wire::Infos>(std::move(*copy));
  }
  return op;
}

// The value as the caller asked for it: PMIX_GET_POINTER_VALUES keeps it in
// the library until finalize.
pmix_value_t* HandOut(Client* c, const GetArgs& op, gds::ValuePtr& value) {
  if (!op.dirs.pointer_values || c == nullptr || value == nullptr) return value.release();
  c->pointer_values.push_back(std::move(value));
  return c->pointer_values.back().get();
}

struct GetOut {
  pmix_status_t status = PMIX_ERROR;
  pmix_value_t* value = nullptr;
};

// The fast path (DESIGN §5: an answer from data the caller's thread may
// read): a hit in the cache, looked up on the caller's thread as a reader
// of cache_mu (which never waits), with no thread hand-off. Anything
// else -- a write under way, a miss,
// a refresh, pointer values, puts not yet applied, a store that does not
// allow concurrent reads -- goes the regular way, which repeats the lookup
// on the progress thread.
std::optional<gds::ValuePtr> TryCallerThread(const GetArgs& op) {
  if (op.dirs.refresh || op.dirs.pointer_values) return std::nullopt;
  Client* c = ClientForReaders();
  if (c == nullptr || c->cache.module() == nullptr || !c->cache.module()->concurrent_reads)
    return std::nullopt;
  runtime::ReadMostly::Reader inside(c->cache_mu);
  if (!inside || c->writes_in_flight.load(std::memory_order_acquire) != 0) return std::nullopt;
  auto v = Lookup(*c, op);
  if (!v.ok()) return std::nullopt;
  return std::move(*v);
}

}  // namespace

Status StoreJobRecords(Client& c, const std::vector<wire::ProcData>& jobs) {
  if (jobs.empty()) return Status();
  std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
  Status first;
  for (const wire::ProcData& job : jobs) {
    Status stored = wire::StoreProcData(c.cache, job, PMIX_GLOBAL);
    if (first.ok()) first = stored;
  }
  return first;
}

void AttachForeignJob(Client& c, const std::string& nspace, ForeignImage image) {
  if (!image.ok()) {
    output::Error("client", "job info of %s: not usable (%s)", nspace.c_str(),
                  PMIx_Error_string(image.status().code()));
  } else if (*image != nullptr) {
    c.cache.AttachImage(std::move(*image));
  }
  c.fetched_jobs.insert(nspace);
}

}  // namespace pmix::client

using pmix::Status;
namespace client = pmix::client;
namespace runtime = pmix::runtime;

namespace {

pmix_status_t GetBlocking(const pmix_proc_t* proc, const pmix_key_t key, const pmix_info_t info[],
                          size_t ninfo, pmix_value_t** val) {
  return pmix::ApiGuard("PMIx_Get", [&]() -> Status {
    if (pmix::server::ServerOnly()) {  // mpirun/orted read their own store
      if (val == nullptr) return PMIX_ERR_BAD_PARAM;
      auto v = pmix::server::Get(proc, key == nullptr ? "" : key);
      if (!v.ok()) return v.status();
      *val = *v;
      return Status();
    }
    client::GetArgs args;
    PMIX_RETURN_IF_ERROR(client::Prepare(proc, key, info, ninfo, args));
    if (val == nullptr || (args.dirs.static_values && *val == nullptr)) return PMIX_ERR_BAD_PARAM;
    if (args.dirs.static_values) args.dirs.pointer_values = false;
    if (auto hit = client::TryCallerThread(args)) {
      if (args.dirs.static_values) {
        **val = **hit;  // the caller's storage takes over the contents
        std::free(hit->release());
      } else {
        *val = hit->release();
      }
      return Status();
    }
    auto made = client::NewOp(args, info, ninfo);
    if (!made.ok()) return made.status();
    client::GetOpPtr op = std::move(*made);
    auto out = runtime::CallBlocking<client::GetOut>([op](std::function<void(client::GetOut)> done) {
      client::Client* c = client::CurrentClient();
      if (c == nullptr) return done({PMIX_ERR_INIT, nullptr});
      op->done = [op, done](Status status, pmix::gds::ValuePtr value) {
        pmix_value_t* raw = client::HandOut(client::CurrentClient(), *op, value);
        done({status.code(), raw});
      };
      client::RunGet(*c, op);
    });
    if (!out.ok()) return out.status();
    if (out->status != PMIX_SUCCESS) {
      if (out->value != nullptr && !op->dirs.pointer_values) PMIx_Value_free(out->value, 1);
      return out->status;
    }
    if (op->dirs.static_values) {
      **val = *out->value;  // the caller's storage takes over the contents
      std::free(out->value);
    } else {
      *val = out->value;
    }
    return Status();
  });
}

}  // namespace

// A failed get leaves *val NULL (as OpenPMIx does: callers release it on
// their error paths), except when the caller passed its own storage with
// PMIX_GET_STATIC_VALUES: that pointer stays the caller's.
extern "C" pmix_status_t PMIx_Get(const pmix_proc_t* proc, const pmix_key_t key,
                                  const pmix_info_t info[], size_t ninfo, pmix_value_t** val) {
  pmix_status_t rc = GetBlocking(proc, key, info, ninfo, val);
  if (rc != PMIX_SUCCESS && val != nullptr &&
      !(info != nullptr && pmix::InfoFlag(pmix::InfoSpan(info, ninfo), PMIX_GET_STATIC_VALUES)))
    *val = nullptr;
  return rc;
}

extern "C" pmix_status_t PMIx_Get_nb(const pmix_proc_t* proc, const pmix_key_t key,
                                     const pmix_info_t info[], size_t ninfo,
                                     pmix_value_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Get_nb", [&]() -> Status {
    client::GetArgs args;
    PMIX_RETURN_IF_ERROR(client::Prepare(proc, key, info, ninfo, args));
    auto made = client::NewOp(args, info, ninfo);
    if (!made.ok()) return made.status();
    client::GetOpPtr op = std::move(*made);
    // No storage to return a static value into (§5.4.1).
    if (cbfunc == nullptr || op->dirs.static_values) return PMIX_ERR_BAD_PARAM;
    runtime::ProgressEngine* engine = runtime::Engine();
    if (engine == nullptr) return PMIX_ERR_INIT;
    return engine->Post([op, cbfunc, cbdata] {
      client::Client* c = client::CurrentClient();
      if (c == nullptr) return cbfunc(PMIX_ERR_INIT, nullptr, cbdata);
      op->done = [op, cbfunc, cbdata](Status status, pmix::gds::ValuePtr value) {
        // Library-owned: released when the callback returns (unless kept
        // for PMIX_GET_POINTER_VALUES).
        pmix_value_t* raw = client::HandOut(client::CurrentClient(), *op, value);
        cbfunc(status.code(), raw, cbdata);
        if (!op->dirs.pointer_values && raw != nullptr) PMIx_Value_free(raw, 1);
      };
      client::RunGet(*c, op);
    });
  });
}
