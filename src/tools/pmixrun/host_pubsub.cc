// pmixrun's publish / lookup / unpublish upcalls (see host_pubsub.h).
#include "src/tools/pmixrun/host_pubsub.h"

#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "pmix.h"
#include "src/tools/pmixrun/pubsub_store.h"

namespace pmixrun {
namespace {

using pubsub::Clock;

struct Waiter {
  pmix_lookup_cbfunc_t cbfunc = nullptr;
  void* cbdata = nullptr;
};

struct Delivery {
  Waiter to;
  pubsub::LookupResult result;
};

// The store, the callbacks of the lookups it holds, and the timer thread
// that expires them. Destroyed at exit, which stops and joins the timer.
struct State {
  std::mutex mutex;
  pubsub::Store store;
  std::map<pubsub::WaiterId, Waiter> waiters;
  pubsub::WaiterId next_id = 1;
  std::condition_variable wake;  // the timer: a new deadline, or stop
  std::thread timer;
  bool stopping = false;

  ~State() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    if (timer.joinable()) timer.join();
  }
};

State& Shared() {
  static State state;
  return state;
}

// --- answering lookups (never with the mutex held: the library's callback
// may be reentered) -----------------------------------------------------------

void Answer(const Waiter& to, const pubsub::LookupResult& r) {
  std::vector<pmix_pdata_t> pdata(r.found.size());
  pmix_status_t status = r.status;
  for (size_t i = 0; i < r.found.size(); ++i) {
    PMIx_Pdata_construct(&pdata[i]);
    PMIx_Load_key(pdata[i].key, r.found[i].key.c_str());
    pdata[i].proc = r.found[i].publisher;
    if (PMIx_Value_xfer(&pdata[i].value, r.found[i].value.get()) != PMIX_SUCCESS)
      status = PMIX_ERR_NOMEM;
  }
  if (status == PMIX_ERR_NOMEM) {
    to.cbfunc(status, nullptr, 0, to.cbdata);
  } else {
    to.cbfunc(status, pdata.empty() ? nullptr : pdata.data(), pdata.size(), to.cbdata);
  }
  for (pmix_pdata_t& p : pdata) PMIx_Pdata_destruct(&p);
}

// Mutex held: the callbacks of the answered lookups, removed from the table.
std::vector<Delivery> Collect(State& st, std::vector<pubsub::Answered>&& answered) {
  std::vector<Delivery> out;
  for (pubsub::Answered& a : answered) {
    auto it = st.waiters.find(a.id);
    if (it == st.waiters.end()) continue;
    out.push_back(Delivery{it->second, std::move(a.result)});
    st.waiters.erase(it);
  }
  return out;
}

void Deliver(const std::vector<Delivery>& deliveries) {
  for (const Delivery& d : deliveries) Answer(d.to, d.result);
}

void TimerLoop() {
  State& st = Shared();
  std::unique_lock<std::mutex> lock(st.mutex);
  while (!st.stopping) {
    auto next = st.store.NextDeadline();
    if (next) {
      st.wake.wait_until(lock, *next);
    } else {
      st.wake.wait(lock);
    }
    if (st.stopping) break;
    std::vector<Delivery> due = Collect(st, st.store.Expire(Clock::now()));
    if (due.empty()) continue;
    lock.unlock();
    Deliver(due);
    lock.lock();
  }
}

// --- reading the upcalls' arguments ---------------------------------------------

bool Is(const pmix_info_t& info, const char* key) { return PMIx_Check_key(info.key, key); }

std::optional<int64_t> Number(const pmix_value_t& v) {
  int64_t n = 0;
  if (PMIx_Value_get_number(&v, &n, PMIX_INT64) != PMIX_SUCCESS) return std::nullopt;
  return n;
}

// A uint8_t enum (range, persistence) given as a number.
template <class T>
pmix_status_t ReadByte(const pmix_value_t& v, T* out) {
  auto n = Number(v);
  if (!n || *n < 0 || *n > UINT8_MAX) return PMIX_ERR_BAD_PARAM;
  *out = static_cast<T>(*n);
  return PMIX_SUCCESS;
}

pmix_status_t ReadRange(const pmix_value_t& v, pmix_data_range_t* out) {
  if (v.type != PMIX_DATA_RANGE) return ReadByte(v, out);
  *out = v.data.range;
  return PMIX_SUCCESS;
}

pmix_status_t ReadPersistence(const pmix_value_t& v, pmix_persistence_t* out) {
  if (v.type != PMIX_PERSIST) return ReadByte(v, out);
  *out = v.data.persist;
  return PMIX_SUCCESS;
}

// One id, or a data array of PMIX_UINT32 / PMIX_INT32 ids.
pmix_status_t ReadIds(const pmix_value_t& v, std::vector<uint32_t>* out) {
  if (v.type != PMIX_DATA_ARRAY) {
    auto n = Number(v);
    if (!n || *n < 0 || *n > UINT32_MAX) return PMIX_ERR_BAD_PARAM;
    out->push_back(static_cast<uint32_t>(*n));
    return PMIX_SUCCESS;
  }
  const pmix_data_array_t* a = v.data.darray;
  if (a == nullptr || (a->size > 0 && a->array == nullptr)) return PMIX_ERR_BAD_PARAM;
  if (a->type != PMIX_UINT32 && a->type != PMIX_INT32 && a->type != PMIX_INT)
    return PMIX_ERR_BAD_PARAM;
  const auto* ids = static_cast<const uint32_t*>(a->array);  // same size and representation
  out->insert(out->end(), ids, ids + a->size);
  return PMIX_SUCCESS;
}

pmix_status_t ReadAccess(const pmix_value_t& v, pubsub::Access* access) {
  const pmix_data_array_t* a = v.type == PMIX_DATA_ARRAY ? v.data.darray : nullptr;
  if (a == nullptr || a->type != PMIX_INFO || (a->size > 0 && a->array == nullptr))
    return PMIX_ERR_BAD_PARAM;
  access->restricted = true;
  const auto* items = static_cast<const pmix_info_t*>(a->array);
  for (size_t i = 0; i < a->size; ++i) {
    pmix_status_t rc = PMIX_SUCCESS;
    if (Is(items[i], PMIX_ACCESS_USERIDS)) rc = ReadIds(items[i].value, &access->uids);
    if (Is(items[i], PMIX_ACCESS_GRPIDS)) rc = ReadIds(items[i].value, &access->gids);
    if (rc != PMIX_SUCCESS) return rc;
  }
  return PMIX_SUCCESS;
}

// The requester: the library names it and adds its effective ids.
pubsub::Identity Who(const pmix_proc_t* proc, const pmix_info_t info[], size_t ninfo) {
  pubsub::Identity who;
  who.proc = *proc;
  who.uid = getuid();
  who.gid = getgid();
  for (size_t i = 0; i < ninfo; ++i) {
    uint32_t* id = Is(info[i], PMIX_USERID) ? &who.uid : Is(info[i], PMIX_GRPID) ? &who.gid : nullptr;
    auto n = id != nullptr ? Number(info[i].value) : std::nullopt;
    if (n && *n >= 0 && *n <= UINT32_MAX) *id = static_cast<uint32_t>(*n);
  }
  return who;
}

pmix_status_t ParsePublish(const pmix_proc_t* proc, const pmix_info_t info[], size_t ninfo,
                           pubsub::PublishRequest* req) {
  req->who = Who(proc, info, ninfo);
  for (size_t i = 0; i < ninfo; ++i) {
    const pmix_info_t& in = info[i];
    pmix_status_t rc = PMIX_SUCCESS;
    if (Is(in, PMIX_RANGE)) {
      rc = ReadRange(in.value, &req->range);
    } else if (Is(in, PMIX_PERSISTENCE)) {
      rc = ReadPersistence(in.value, &req->persistence);
    } else if (Is(in, PMIX_ACCESS_PERMISSIONS)) {
      rc = ReadAccess(in.value, &req->access);
    } else if (std::strncmp(in.key, "pmix", 4) != 0) {
      pubsub::ValuePtr value = pubsub::CopyValue(in.value);
      if (value == nullptr) return PMIX_ERR_BAD_PARAM;
      req->data.emplace_back(in.key, std::move(value));
    }
    if (rc != PMIX_SUCCESS) return rc;
  }
  return PMIX_SUCCESS;
}

// PMIX_WAIT: true or 0 (or no value) = all keys, n = n keys, false = none.
size_t WaitFor(const pmix_value_t& v, size_t nkeys) {
  if (v.type == PMIX_UNDEF) return nkeys;
  if (v.type == PMIX_BOOL) return v.data.flag ? nkeys : 0;
  auto n = Number(v);
  return !n || *n <= 0 ? nkeys : static_cast<size_t>(*n);
}

pmix_status_t ParseLookup(const pmix_proc_t* proc, char** keys, const pmix_info_t info[],
                          size_t ninfo, pubsub::LookupRequest* req) {
  req->who = Who(proc, info, ninfo);
  for (size_t i = 0; keys != nullptr && keys[i] != nullptr; ++i) req->keys.emplace_back(keys[i]);
  for (size_t i = 0; i < ninfo; ++i) {
    const pmix_info_t& in = info[i];
    if (Is(in, PMIX_RANGE) && ReadRange(in.value, &req->range) != PMIX_SUCCESS)
      return PMIX_ERR_BAD_PARAM;
    if (Is(in, PMIX_WAIT)) req->wait_for = WaitFor(in.value, req->keys.size());
    if (Is(in, PMIX_TIMEOUT)) {
      auto seconds = Number(in.value);
      if (seconds && *seconds > 0) req->deadline = Clock::now() + std::chrono::seconds(*seconds);
    }
  }
  return PMIX_SUCCESS;
}

// --- the upcalls ------------------------------------------------------------------

pmix_status_t Publish(const pmix_proc_t* proc, const pmix_info_t info[], size_t ninfo,
                      pmix_op_cbfunc_t, void*) {
  if (proc == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
  pubsub::PublishRequest req;
  pmix_status_t rc = ParsePublish(proc, info, ninfo, &req);
  if (rc != PMIX_SUCCESS) return rc;
  State& st = Shared();
  std::vector<Delivery> ready;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    std::vector<pubsub::Answered> answered;
    rc = st.store.Publish(std::move(req), &answered);
    ready = Collect(st, std::move(answered));
  }
  Deliver(ready);
  return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

pmix_status_t Lookup(const pmix_proc_t* proc, char** keys, const pmix_info_t info[], size_t ninfo,
                     pmix_lookup_cbfunc_t cbfunc, void* cbdata) {
  if (proc == nullptr || cbfunc == nullptr || (info == nullptr && ninfo > 0))
    return PMIX_ERR_BAD_PARAM;
  pubsub::LookupRequest req;
  pmix_status_t rc = ParseLookup(proc, keys, info, ninfo, &req);
  if (rc != PMIX_SUCCESS) return rc;
  State& st = Shared();
  std::optional<pubsub::LookupResult> now;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    pubsub::WaiterId id = st.next_id++;
    bool timed = req.deadline.has_value();
    now = st.store.Lookup(std::move(req), id);
    if (!now) {
      st.waiters[id] = Waiter{cbfunc, cbdata};
      if (timed && !st.timer.joinable()) st.timer = std::thread(TimerLoop);
      st.wake.notify_all();
    }
  }
  if (now) Answer(Waiter{cbfunc, cbdata}, *now);
  return PMIX_SUCCESS;
}

pmix_status_t Unpublish(const pmix_proc_t* proc, char** keys, const pmix_info_t info[],
                        size_t ninfo, pmix_op_cbfunc_t, void*) {
  if (proc == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
  pubsub::Identity who = Who(proc, info, ninfo);
  std::optional<pmix_data_range_t> range;
  std::vector<std::string> names;
  for (size_t i = 0; keys != nullptr && keys[i] != nullptr; ++i) names.emplace_back(keys[i]);
  for (size_t i = 0; i < ninfo; ++i) {
    pmix_data_range_t r = PMIX_RANGE_UNDEF;
    if (!Is(info[i], PMIX_RANGE)) continue;
    if (ReadRange(info[i].value, &r) != PMIX_SUCCESS) return PMIX_ERR_BAD_PARAM;
    range = r == PMIX_RANGE_UNDEF ? PMIX_RANGE_SESSION : r;
  }
  State& st = Shared();
  std::lock_guard<std::mutex> lock(st.mutex);
  pmix_status_t rc = st.store.Unpublish(who, names, range);
  return rc == PMIX_SUCCESS ? PMIX_OPERATION_SUCCEEDED : rc;
}

// A requester that went will not read the answer; the library still
// releases its request when called back.
constexpr pmix_status_t kRequesterGone = PMIX_ERR_LOST_CONNECTION;

}  // namespace

void FillPubsubModule(pmix_server_module_t* module) {
  module->publish = Publish;
  module->lookup = Lookup;
  module->unpublish = Unpublish;
}

void PubsubProcGone(const std::string& nspace, pmix_rank_t rank) {
  pmix_proc_t proc;
  PMIx_Load_procid(&proc, nspace.c_str(), rank);
  State& st = Shared();
  std::vector<Delivery> ready;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    ready = Collect(st, st.store.ProcGone(proc, kRequesterGone));
  }
  Deliver(ready);
}

void PubsubJobGone(const std::string& nspace) {
  State& st = Shared();
  std::vector<Delivery> ready;
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    ready = Collect(st, st.store.JobGone(nspace, kRequesterGone));
  }
  Deliver(ready);
}

}  // namespace pmixrun
