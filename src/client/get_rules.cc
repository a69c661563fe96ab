#include "src/client/get_rules.h"

#include <cstring>

#include "src/common/info_lookup.h"

namespace pmix::getrules {
namespace {

// A qualifier present but unreadable as the type its attribute names.
template <class T>
Status ReadQualifier(std::span<const pmix_info_t> info, const char* key, std::optional<T> read,
                     std::optional<T>& out) {
  if (FindInfo(info, key) == nullptr) return Status();
  if (!read) return PMIX_ERR_BAD_PARAM;
  out = std::move(read);
  return Status();
}

Status ReadScope(std::span<const pmix_info_t> info, GetDirectives& d) {
  const pmix_info_t* i = FindInfo(info, PMIX_DATA_SCOPE);
  if (i == nullptr) return Status();
  if (i->value.type == PMIX_SCOPE) {
    d.scope = i->value.data.scope;
    return Status();
  }
  auto n = InfoU32(info, PMIX_DATA_SCOPE);
  if (!n || *n > PMIX_INTERNAL) return PMIX_ERR_BAD_PARAM;
  d.scope = static_cast<pmix_scope_t>(*n);
  return Status();
}

// The realm qualifiers, in the standard's order of precedence when a
// caller names several (the most specific wins).
struct RealmFlag {
  const char* key;
  Realm realm;
};
constexpr RealmFlag kRealmFlags[] = {
    {PMIX_SESSION_INFO, Realm::kSession}, {PMIX_JOB_INFO, Realm::kJob},
    {PMIX_APP_INFO, Realm::kApp},         {PMIX_NODE_INFO, Realm::kNode},
    {"pmix.proc.info", Realm::kProc},
};

bool ValidRank(pmix_rank_t rank) { return rank < PMIX_RANK_VALID; }

gds::Where SessionWhere(const GetDirectives& d) {
  if (d.session) return gds::Where::Session(*d.session);
  gds::Where w;
  w.realm = PMIX_GDS_REALM_SESSION;
  return w;
}

void AddAppStep(LookupPlan& plan, const pmix_proc_t& target, const GetDirectives& d,
                const Requester& who) {
  if (d.appnum) return plan.Add(target, PMIX_RANK_WILDCARD, gds::Where::App(*d.appnum));
  gds::Where w;
  w.realm = PMIX_GDS_REALM_APP;
  // A rank: the store reads target's PMIX_APPNUM.
  if (ValidRank(target.rank)) return plan.Add(target, target.rank, std::move(w));
  if (PMIx_Check_nspace(target.nspace, who.me.nspace))
    return plan.Add(who.me, who.me.rank, std::move(w));
  plan.Add(target, PMIX_RANK_WILDCARD, gds::Where::App(0));
}

gds::Where NodeWhere(const GetDirectives& d, const Requester& who,
                     const std::optional<std::string>& target_host) {
  gds::Where w;
  w.realm = PMIX_GDS_REALM_NODE;
  w.nodeid = d.nodeid;
  w.hostname = d.hostname;
  if (!w.nodeid && !w.hostname) w.hostname = target_host ? *target_host : std::string(who.hostname);
  return w;
}

void AddExplicitRealm(LookupPlan& plan, const pmix_proc_t& target, const GetDirectives& d,
                      const Requester& who, const std::optional<std::string>& target_host) {
  switch (d.realm) {
    case Realm::kSession:
      return plan.Add(who.me, PMIX_RANK_WILDCARD, SessionWhere(d));
    case Realm::kJob:
      return plan.Add(target, PMIX_RANK_WILDCARD, gds::Where::Job());
    case Realm::kApp:
      return AddAppStep(plan, target, d, who);
    case Realm::kNode:
      return plan.Add(target, PMIX_RANK_WILDCARD, NodeWhere(d, who, target_host));
    case Realm::kProc:
    case Realm::kDefault:
      return;  // not explicit: PlanLookup's own
  }
}

}  // namespace

bool IsReservedKey(std::string_view key) { return key.substr(0, 4) == "pmix"; }

Status CheckPutKey(const char* key, bool reserved_allowed) {
  PMIX_RETURN_IF_ERROR(CheckGetKey(key));
  if (key == nullptr || key[0] == '\0') return PMIX_ERR_BAD_PARAM;
  if (!reserved_allowed && IsReservedKey(key) && !PostableReservedKey(key)) return PMIX_ERR_BAD_PARAM;
  return Status();
}

// Reserved keys a process may still post about itself, because a real
// consumer does and fails or complains without it (OpenPMIx 4.2.2 accepts
// every reserved key on Put). Open MPI 4.1: MPI_Init puts PMIX_HOSTNAME
// ("pmix.hname", GLOBAL) and aborts when that is refused; a directly
// launched rank puts its binding as PMIX_CPUSET and logs "Bad parameter in
// ess_base_fns.c" when refused; orted puts PMIX_PROC_URI. The locality
// string is the same kind of fact about the process itself.
bool PostableReservedKey(const char* key) {
  static constexpr const char* kPostable[] = {PMIX_HOSTNAME, PMIX_CPUSET, PMIX_PROC_URI,
                                              PMIX_LOCALITY_STRING};
  for (const char* k : kPostable) {
    if (std::strncmp(key, k, PMIX_MAX_KEYLEN) == 0) return true;
  }
  return false;
}

Status CheckPutScope(pmix_scope_t scope) {
  switch (scope) {
    case PMIX_LOCAL:
    case PMIX_REMOTE:
    case PMIX_GLOBAL:
    case PMIX_INTERNAL:
      return Status();
    default:
      return PMIX_ERR_BAD_PARAM;
  }
}

Status CheckGetKey(const char* key) {
  if (key == nullptr) return Status();
  size_t len = ::strnlen(key, PMIX_MAX_KEYLEN + 1);
  if (len == 0 || len > PMIX_MAX_KEYLEN) return PMIX_ERR_BAD_PARAM;
  return Status();
}

Result<GetDirectives> ParseGetDirectives(std::span<const pmix_info_t> info) {
  GetDirectives d;
  if (info.data() == nullptr && !info.empty()) return Status(PMIX_ERR_BAD_PARAM);
  if (info.empty()) return d;
  d.optional = InfoFlag(info, PMIX_OPTIONAL);
  d.immediate = InfoFlag(info, PMIX_IMMEDIATE);
  d.refresh = InfoFlag(info, PMIX_GET_REFRESH_CACHE);
  d.static_values = InfoFlag(info, PMIX_GET_STATIC_VALUES);
  d.pointer_values = InfoFlag(info, PMIX_GET_POINTER_VALUES);
  std::optional<int64_t> timeout;
  PMIX_RETURN_IF_ERROR(ReadQualifier(info, PMIX_TIMEOUT, InfoInt(info, PMIX_TIMEOUT), timeout));
  if (timeout && (*timeout < 0 || *timeout > INT32_MAX)) return Status(PMIX_ERR_BAD_PARAM);
  d.timeout = static_cast<int>(timeout.value_or(0));
  PMIX_RETURN_IF_ERROR(ReadScope(info, d));
  for (const RealmFlag& flag : kRealmFlags) {
    if (InfoFlag(info, flag.key)) d.realm = flag.realm;
  }
  PMIX_RETURN_IF_ERROR(ReadQualifier(info, PMIX_NODEID, InfoU32(info, PMIX_NODEID), d.nodeid));
  PMIX_RETURN_IF_ERROR(ReadQualifier(info, PMIX_APPNUM, InfoU32(info, PMIX_APPNUM), d.appnum));
  PMIX_RETURN_IF_ERROR(
      ReadQualifier(info, PMIX_SESSION_ID, InfoU32(info, PMIX_SESSION_ID), d.session));
  PMIX_RETURN_IF_ERROR(
      ReadQualifier(info, PMIX_HOSTNAME, InfoString(info, PMIX_HOSTNAME), d.hostname));
  return d;
}

pmix_gds_view_t CacheView(const GetDirectives& d) {
  if (d.scope == PMIX_LOCAL) return PMIX_GDS_VIEW_LOCAL;
  if (d.scope == PMIX_REMOTE) return PMIX_GDS_VIEW_REMOTE;
  return PMIX_GDS_VIEW_ALL;
}

// Every return is `plan`, built in place (a plan is ~700 bytes: returning
// another object would copy it on every PMIx_Get).
LookupPlan PlanLookup(const pmix_proc_t& target, std::string_view key, const GetDirectives& d,
                      const Requester& who, const std::optional<std::string>& target_host) {
  LookupPlan plan;
  if (d.realm != Realm::kDefault && d.realm != Realm::kProc) {
    AddExplicitRealm(plan, target, d, who, target_host);
    return plan;
  }
  bool usable = target.rank == PMIX_RANK_WILDCARD || ValidRank(target.rank) ||
                (target.rank == PMIX_RANK_UNDEF && !key.empty());
  if (!usable) {
    plan.Fail(PMIX_ERR_BAD_PARAM);
    return plan;
  }
  bool reserved = IsReservedKey(key);
  if (target.rank == PMIX_RANK_WILDCARD) {
    plan.Add(target, PMIX_RANK_WILDCARD, gds::Where::Job());
    if (reserved) plan.Add(target, PMIX_RANK_WILDCARD, SessionWhere(d));
  } else if (target.rank == PMIX_RANK_UNDEF) {
    if (reserved) plan.Add(target, PMIX_RANK_WILDCARD, gds::Where::Job());
    plan.Add(target, PMIX_RANK_UNDEF, gds::Where::Proc());
  } else {
    // Strictly one lookup, as RFC0009 and OpenPMIx 4.2.2: a job-level key
    // asked of a rank is NOT_FOUND (ask with PMIX_RANK_WILDCARD).
    plan.Add(target, target.rank, gds::Where::Proc());
  }
  if (key.empty()) plan.Truncate(1);
  return plan;
}

}  // namespace pmix::getrules
