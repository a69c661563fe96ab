// The debugger directives of a job (see debug_directives.h).
#include "src/tools/pmixrun/debug_directives.h"

#include <algorithm>
#include <cstring>

#include "pmix.h"

namespace pmixrun {
namespace {

// A stop directive's value as a rank set; nullopt: names nobody (false).
bool ReadRanks(const pmix_value_t& v, std::optional<RankSet>* out) {
  switch (v.type) {
    case PMIX_UNDEF:
      *out = RankSet{PMIX_RANK_WILDCARD};
      return true;
    case PMIX_BOOL:
      if (v.data.flag)
        *out = RankSet{PMIX_RANK_WILDCARD};
      else
        out->reset();
      return true;
    case PMIX_PROC_RANK:
      *out = RankSet{v.data.rank};
      return true;
    case PMIX_PROC:
      if (v.data.proc == nullptr) return false;
      *out = RankSet{v.data.proc->rank};
      return true;
    case PMIX_DATA_ARRAY: {
      const pmix_data_array_t* a = v.data.darray;
      if (a == nullptr || (a->size > 0 && a->array == nullptr)) return false;
      if (a->type != PMIX_PROC_RANK && a->type != PMIX_PROC) return false;
      RankSet set;
      for (size_t i = 0; i < a->size; ++i)
        set.push_back(a->type == PMIX_PROC_RANK ? static_cast<pmix_rank_t*>(a->array)[i]
                                                : static_cast<pmix_proc_t*>(a->array)[i].rank);
      if (set.empty())
        out->reset();
      else
        *out = std::move(set);
      return true;
    }
    default:
      return false;
  }
}

bool ReadFlag(const pmix_value_t& v, bool* out) {
  if (v.type == PMIX_UNDEF) return *out = true, true;
  if (v.type != PMIX_BOOL) return false;
  return *out = v.data.flag, true;
}

bool ReadCount(const pmix_value_t& v, uint16_t* out) {
  int64_t n = 0;
  if (PMIx_Value_get_number(&v, &n, PMIX_INT64) != PMIX_SUCCESS) return false;
  if (n < 1 || n > 1024) return false;
  *out = static_cast<uint16_t>(n);
  return true;
}

}  // namespace

const char* const kDebugAttributes[] = {PMIX_DEBUG_STOP_IN_INIT,     PMIX_DEBUG_STOP_IN_APP,
                                        PMIX_DEBUG_STOP_ON_EXEC,     PMIX_DEBUGGER_DAEMONS,
                                        PMIX_DEBUG_TARGET,           PMIX_DEBUG_DAEMONS_PER_NODE,
                                        PMIX_DEBUG_DAEMONS_PER_PROC, nullptr};

bool Names(const RankSet& set, pmix_rank_t rank) {
  return std::any_of(set.begin(), set.end(),
                     [rank](pmix_rank_t r) { return r == PMIX_RANK_WILDCARD || r == rank; });
}

bool IsDebugDirective(const pmix_info_t& info) {
  for (const char* const* k = kDebugAttributes; *k != nullptr; ++k)
    if (PMIX_CHECK_KEY(&info, *k)) return true;
  return PMIX_CHECK_KEY(&info, PMIX_DEBUG_JOB);
}

bool ApplyDebugDirective(const pmix_info_t& info, DebugDirectives* d) {
  const pmix_value_t& v = info.value;
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_STOP_IN_INIT)) return ReadRanks(v, &d->stop_in_init);
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_STOP_IN_APP)) return ReadRanks(v, &d->stop_in_app);
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_STOP_ON_EXEC)) return ReadRanks(v, &d->stop_on_exec);
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUGGER_DAEMONS)) return ReadFlag(v, &d->daemons);
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_DAEMONS_PER_NODE)) return ReadCount(v, &d->per_node);
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_DAEMONS_PER_PROC)) return ReadCount(v, &d->per_proc);
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_TARGET)) {
    if (v.type != PMIX_PROC || v.data.proc == nullptr) return false;
    d->target = *v.data.proc;
    return true;
  }
  if (PMIX_CHECK_KEY(&info, PMIX_DEBUG_JOB)) {
    if (v.type != PMIX_STRING || v.data.string == nullptr ||
        std::strlen(v.data.string) > PMIX_MAX_NSLEN)
      return false;
    if (d->target) return true;  // PMIX_DEBUG_TARGET wins
    pmix_proc_t p;
    PMIx_Load_procid(&p, v.data.string, PMIX_RANK_WILDCARD);
    d->target = p;
    return true;
  }
  return false;
}

}  // namespace pmixrun
