// The pure rules behind PMIx_Put and PMIx_Get (standard ch. 5 and 6,
// RFC0009): which keys a process may post, what a get's directives mean,
// and where in a gds store (include/pmix/mca/gds.h) a get looks.
//
// No state, no I/O: the client (client_put.cc, client_get.cc) and the
// server (server_get.cc) apply these, and unit tests check them
// (test/unit/client/get_rules_test.cc). Thread-safe.
#ifndef PMIXX_SRC_CLIENT_GET_RULES_H
#define PMIXX_SRC_CLIENT_GET_RULES_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "mca/gds/base/gds_base.h"
#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::getrules {

// Keys starting with "pmix" belong to the standard / the host (RFC0009).
bool IsReservedKey(std::string_view key);

// A key a client may pass to PMIx_Put / PMIx_Store_internal: non-NULL,
// 1..PMIX_MAX_KEYLEN characters (NUL within PMIX_MAX_KEYLEN + 1 bytes),
// and (when reserved_allowed is false) not reserved. PMIX_ERR_BAD_PARAM.
Status CheckPutKey(const char* key, bool reserved_allowed);
// The reserved keys PMIx_Put accepts anyway (compatibility with real
// consumers; get_rules.cc lists them and why).
bool PostableReservedKey(const char* key);

// PMIx_Put's scopes: LOCAL, REMOTE, GLOBAL, INTERNAL (PMIX_ERR_BAD_PARAM
// for UNDEF and unknown values, as OpenPMIx 4.2.2 answers).
Status CheckPutScope(pmix_scope_t scope);

// A get key: NULL (all of a process's data) or 1..PMIX_MAX_KEYLEN chars.
Status CheckGetKey(const char* key);

enum class Realm { kDefault, kSession, kJob, kApp, kProc, kNode };

// A get's directives (§5.4, §6.1), as parsed from its info array.
struct GetDirectives {
  bool optional = false;        // PMIX_OPTIONAL: the client's cache only
  bool immediate = false;       // PMIX_IMMEDIATE: the server does not wait / ask its host
  bool refresh = false;         // PMIX_GET_REFRESH_CACHE
  bool static_values = false;   // PMIX_GET_STATIC_VALUES
  bool pointer_values = false;  // PMIX_GET_POINTER_VALUES
  int timeout = 0;              // PMIX_TIMEOUT seconds; 0: none
  std::optional<pmix_scope_t> scope;  // PMIX_DATA_SCOPE
  Realm realm = Realm::kDefault;      // the realm qualifiers
  std::optional<uint32_t> nodeid;     // PMIX_NODEID
  std::optional<std::string> hostname;  // PMIX_HOSTNAME
  std::optional<uint32_t> appnum;     // PMIX_APPNUM
  std::optional<uint32_t> session;    // PMIX_SESSION_ID
};

// PMIX_ERR_BAD_PARAM for a NULL array with a nonzero count, a negative
// timeout, or a qualifier whose value has the wrong type. Unknown infos
// are ignored (they go to the server and the host as they are).
Result<GetDirectives> ParseGetDirectives(std::span<const pmix_info_t> info);

// The view a requester's own cache is read with: PMIX_DATA_SCOPE LOCAL or
// REMOTE narrow it, anything else sees everything.
pmix_gds_view_t CacheView(const GetDirectives& d);

// One place a get looks: the proc to name it by and the realm instance.
// The proc is PlanLookup's target or requester itself when the rank is
// theirs (borrowed), else a copy with the step's rank. Neither a copy nor
// a zeroed proc on the common path: 260 bytes each, on every PMIx_Get.
class LookupStep {
 public:
  LookupStep() = default;
  LookupStep(const LookupStep& other) { *this = other; }
  LookupStep& operator=(const LookupStep& other) {
    where = other.where;
    borrowed_ = other.borrowed_;
    has_renamed_ = other.has_renamed_;
    if (has_renamed_) renamed_ = other.renamed_;
    return *this;
  }

  const pmix_proc_t& proc() const { return borrowed_ != nullptr ? *borrowed_ : renamed_; }
  gds::Where where;

 private:
  friend class LookupPlan;
  const pmix_proc_t* borrowed_ = nullptr;
  bool has_renamed_ = false;
  pmix_proc_t renamed_;  // left uninitialised until has_renamed_
};

// The steps of a get, first hit wins, or the reason there are none. At
// most two steps, kept in place, so that planning a get allocates and
// copies next to nothing (it runs on every PMIx_Get). Borrows the procs
// PlanLookup was given: use it while they live.
class LookupPlan {
 public:
  static constexpr size_t kMaxSteps = 2;

  bool ok() const { return status_.ok(); }
  Status status() const { return status_; }
  size_t size() const { return size_; }
  const LookupStep& operator[](size_t i) const { return steps_[i]; }
  const LookupStep& front() const { return steps_[0]; }
  const LookupStep* begin() const { return steps_.data(); }
  const LookupStep* end() const { return steps_.data() + size_; }

  // Appends a step: proc (borrowed) with rank `rank`, in where.
  void Add(const pmix_proc_t& proc, pmix_rank_t rank, gds::Where where) {
    LookupStep& step = steps_[size_++];
    if (proc.rank == rank) {
      step.borrowed_ = &proc;
    } else {
      step.renamed_ = proc;
      step.renamed_.rank = rank;
      step.has_renamed_ = true;
    }
    step.where = std::move(where);
  }
  void Truncate(size_t n) { size_ = n < size_ ? n : size_; }
  // No steps: the get cannot be planned.
  void Fail(Status status) {
    status_ = status;
    size_ = 0;
  }

 private:
  Status status_;
  std::array<LookupStep, kMaxSteps> steps_;
  size_t size_ = 0;
};

// Who is asking, for the realm defaults.
struct Requester {
  const pmix_proc_t& me;      // borrowed for the call
  std::string_view hostname;  // the local node (borrowed for the call)
};

// The lookups that answer a get for `key` (empty: every key) about
// `target`, first hit wins (RFC0009: one lookup on the common path; the
// later steps only on a miss):
//   explicit realm   one step in that realm (session: PMIX_SESSION_ID or the
//                    caller's session; app: PMIX_APPNUM, else target's app,
//                    for a wildcard rank the caller's app in its own job and
//                    app 0 in another; node: PMIX_NODEID/PMIX_HOSTNAME, else
//                    target_host when known, else the local node);
//   rank WILDCARD    the job realm; a reserved key then the session realm;
//   rank UNDEF       the proc realm across ranks; a reserved key looks in the
//                    job realm first;
//   a valid rank     the proc realm only (a job-level key asked of a rank
//                    is NOT_FOUND, as in OpenPMIx 4.2.2).
// An empty key uses the first step only (and rank UNDEF is then refused:
// PMIX_ERR_BAD_PARAM). The plan borrows target and who.me (LookupPlan).
// PMIX_ERR_BAD_PARAM for other unusable ranks
// (PMIX_RANK_LOCAL_NODE etc.) outside the job/session/node realms.
LookupPlan PlanLookup(const pmix_proc_t& target, std::string_view key, const GetDirectives& d,
                      const Requester& who, const std::optional<std::string>& target_host = {});

}  // namespace pmix::getrules

#endif  // PMIXX_SRC_CLIENT_GET_RULES_H
