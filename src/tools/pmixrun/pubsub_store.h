// pmixrun's publish/lookup datastore (standard ch. 9): the rules only, with
// no threads and no clock of its own (callers pass the time), so that it is
// tested alone; host_pubsub.h makes it the server's upcalls.
//
// Data ranges: everything one pmixrun runs is one node and one session, so
// PMIX_RANGE_LOCAL, _SESSION and _GLOBAL cover every process;
// PMIX_RANGE_NAMESPACE covers the processes of one namespace and
// PMIX_RANGE_PROC_LOCAL one process. PMIX_RANGE_RM and _CUSTOM are not
// supported (no process here is the host; no attribute names a custom
// range for publishing). Default range PMIX_RANGE_SESSION.
//
// A lookup finds, per key, data whose publisher is within the requester's
// range and whose range contains the requester (§9.8); data published with
// PMIX_ACCESS_PERMISSIONS is only returned to the uids/gids listed there
// (and to its publisher's uid). Several matches: the narrowest range wins,
// then the earliest. Status: PMIX_SUCCESS all keys found, PMIX_ERR_PARTIAL_
// SUCCESS some, PMIX_ERR_NO_PERMISSIONS none but every key matched data it
// may not read, PMIX_ERR_NOT_FOUND otherwise.
//
// Persistence (default PMIX_PERSIST_APP): _INDEF until unpublished,
// _FIRST_READ until a lookup returned it, _PROC until ProcGone for its
// publisher, _APP until JobGone for its namespace, _SESSION for the whole
// run.
//
// Not thread-safe: one caller at a time (host_pubsub.cc holds a mutex).
#ifndef PMIXX_TOOLS_PMIXRUN_PUBSUB_STORE_H
#define PMIXX_TOOLS_PMIXRUN_PUBSUB_STORE_H

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmix_common.h"

namespace pmixrun::pubsub {

using Clock = std::chrono::steady_clock;

struct ValueFree {
  void operator()(pmix_value_t* v) const { PMIx_Value_free(v, 1); }
};
using ValuePtr = std::unique_ptr<pmix_value_t, ValueFree>;
// A deep copy (nullptr when out of memory or the value cannot be copied).
ValuePtr CopyValue(const pmix_value_t& v);

// A requester or publisher: the process and its effective ids.
struct Identity {
  pmix_proc_t proc{};
  uint32_t uid = 0;
  uint32_t gid = 0;
};

// PMIX_ACCESS_PERMISSIONS: when restricted, only these ids may read.
struct Access {
  bool restricted = false;
  std::vector<uint32_t> uids, gids;
};

struct PublishRequest {
  Identity who;
  pmix_data_range_t range = PMIX_RANGE_SESSION;
  pmix_persistence_t persistence = PMIX_PERSIST_APP;
  Access access;
  std::vector<std::pair<std::string, ValuePtr>> data;
};

struct LookupRequest {
  Identity who;
  pmix_data_range_t range = PMIX_RANGE_SESSION;
  std::vector<std::string> keys;
  // 0: answer at once; n: hold until n of the keys are found (PMIX_WAIT).
  size_t wait_for = 0;
  std::optional<Clock::time_point> deadline;  // of a held lookup (PMIX_TIMEOUT)
};

struct Found {
  std::string key;
  pmix_proc_t publisher{};
  ValuePtr value;
};

struct LookupResult {
  pmix_status_t status = PMIX_ERR_NOT_FOUND;
  std::vector<Found> found;  // one per key found, in the order asked
};

using WaiterId = uint64_t;
// A held lookup answered by a later call.
struct Answered {
  WaiterId id = 0;
  LookupResult result;
};

class Store {
 public:
  // PMIX_SUCCESS; PMIX_ERR_DUPLICATE_KEY when a key is already published
  // in the same range by anyone (same range type covering the same
  // processes) or twice in `req` (nothing is published then);
  // PMIX_ERR_BAD_PARAM (no data, a value that cannot be copied, an invalid
  // range or persistence); PMIX_ERR_NOT_SUPPORTED (range RM / CUSTOM).
  // Held lookups that the new data satisfies are answered into *answered.
  pmix_status_t Publish(PublishRequest req, std::vector<Answered>* answered);

  // The result now, or nullopt when the request wants to wait (wait_for)
  // and fewer keys are found: then it is held as `id` until a Publish
  // satisfies it, its deadline passes (Expire) or its requester goes.
  // Errors of the request itself (a bad range, no keys) are results too.
  std::optional<LookupResult> Lookup(LookupRequest req, WaiterId id);

  // Removes the data `who` published under `keys` (empty: all of it), in
  // `range` (nullopt: any range). PMIX_SUCCESS; PMIX_ERR_NO_PERMISSIONS /
  // PMIX_ERR_NOT_FOUND when some named key had no data of `who` (but some
  // other publisher's / none at all); the keys that had are removed anyway.
  pmix_status_t Unpublish(const Identity& who, const std::vector<std::string>& keys,
                          std::optional<pmix_data_range_t> range);

  // A process ended: its PMIX_PERSIST_PROC data goes, its held lookups
  // are answered with `status`.
  std::vector<Answered> ProcGone(const pmix_proc_t& proc, pmix_status_t status);
  // A namespace ended: the same for all its processes, and its
  // PMIX_PERSIST_APP data goes too.
  std::vector<Answered> JobGone(const std::string& nspace, pmix_status_t status);

  // Held lookups whose deadline is at or before `now`: PMIX_ERR_TIMEOUT.
  std::vector<Answered> Expire(Clock::time_point now);
  std::optional<Clock::time_point> NextDeadline() const;

  size_t size() const { return entries_.size(); }
  size_t held() const { return held_.size(); }

 private:
  struct Entry {
    std::string key;
    ValuePtr value;
    Identity owner;
    pmix_data_range_t range = PMIX_RANGE_SESSION;
    pmix_persistence_t persistence = PMIX_PERSIST_APP;
    Access access;
  };
  // The best entry for one key of `req` (nullptr: none); *denied is set
  // when a matching entry was refused for its access permissions.
  const Entry* Best(const LookupRequest& req, const std::string& key, bool* denied) const;
  size_t CountFound(const LookupRequest& req) const;
  LookupResult Answer(const LookupRequest& req);
  bool Duplicate(const Entry& candidate) const;
  void AnswerSatisfied(std::vector<Answered>* answered);
  template <class Pred>
  std::vector<Answered> Drop(Pred gone_entry, const std::string& nspace, const pmix_proc_t* proc,
                             pmix_status_t status);

  std::vector<std::unique_ptr<Entry>> entries_;  // in publishing order
  std::map<WaiterId, LookupRequest> held_;
};

}  // namespace pmixrun::pubsub

#endif  // PMIXX_TOOLS_PMIXRUN_PUBSUB_STORE_H
