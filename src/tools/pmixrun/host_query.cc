// pmixrun's query and log upcalls (see host_query.h).
#include "src/tools/pmixrun/host_query.h"

#include <syslog.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {
namespace {

// --- query --------------------------------------------------------------------

constexpr const char* kOwnKeys = PMIX_QUERY_JOB_STATUS "," PMIX_QUERY_SUPPORTED_KEYS;

std::string NspaceOf(const pmix_query_t& q, const pmix_proc_t* requester) {
  for (size_t i = 0; i < q.nqual && q.qualifiers != nullptr; ++i) {
    const pmix_info_t& qual = q.qualifiers[i];
    if (PMIX_CHECK_KEY(&qual, PMIX_NSPACE) && qual.value.type == PMIX_STRING &&
        qual.value.data.string != nullptr)
      return qual.value.data.string;
  }
  return requester != nullptr ? requester->nspace : "";
}

struct Results {
  pmix_info_t* infos = nullptr;
  size_t n = 0;
};

void ReleaseResults(void* cbdata) {
  auto* r = static_cast<Results*>(cbdata);
  PMIx_Info_free(r->infos, r->n);
  delete r;
}

pmix_status_t Query(pmix_proc_t* requester, pmix_query_t* queries, size_t nqueries,
                    pmix_info_cbfunc_t cbfunc, void* cbdata) {
  std::vector<std::pair<std::string, pmix_status_t>> statuses;  // JOB_STATUS answers
  size_t supported = 0, total = 0;
  for (size_t q = 0; q < nqueries; ++q) {
    for (char** k = queries[q].keys; k != nullptr && *k != nullptr; ++k) {
      ++total;
      if (std::strcmp(*k, PMIX_QUERY_SUPPORTED_KEYS) == 0) ++supported;
      if (std::strcmp(*k, PMIX_QUERY_JOB_STATUS) != 0) continue;
      std::string ns = NspaceOf(queries[q], requester);
      if (KnownNamespace(ns)) statuses.emplace_back(ns, PMIX_SUCCESS);
    }
  }
  size_t n = statuses.size() + supported;
  if (n == 0) return PMIX_ERR_NOT_FOUND;  // cbfunc is not called
  auto* r = new Results{PMIx_Info_create(n), n};
  size_t i = 0;
  for (const auto& s : statuses)
    PMIx_Info_load(&r->infos[i++], PMIX_QUERY_JOB_STATUS, &s.second, PMIX_STATUS);
  for (size_t s = 0; s < supported; ++s)
    PMIx_Info_load(&r->infos[i++], PMIX_QUERY_SUPPORTED_KEYS, kOwnKeys, PMIX_STRING);
  if (cbfunc == nullptr) {
    ReleaseResults(r);
    return PMIX_OPERATION_SUCCEEDED;
  }
  cbfunc(n == total ? PMIX_SUCCESS : PMIX_ERR_PARTIAL_SUCCESS, r->infos, r->n, cbdata,
         ReleaseResults, r);
  return PMIX_SUCCESS;
}

// --- log ----------------------------------------------------------------------

// Keys that describe a log request rather than name a channel.
constexpr const char* kModifiers[] = {
    PMIX_LOG_SOURCE,
    PMIX_LOG_SYSLOG_PRI,
    PMIX_LOG_TIMESTAMP,
    PMIX_LOG_TAG_OUTPUT,
    PMIX_LOG_GENERATE_TIMESTAMP,
    PMIX_LOG_TIMESTAMP_OUTPUT,
    PMIX_LOG_XML_OUTPUT,
    PMIX_LOG_ONCE,
    PMIX_LOG_AGG,
    PMIX_USERID,
    PMIX_GRPID,
};

bool IsModifier(const pmix_info_t& info) {
  for (const char* m : kModifiers)
    if (PMIX_CHECK_KEY(&info, m)) return true;
  return false;
}

const pmix_info_t* Find(const pmix_info_t* a, size_t n, const char* key) {
  for (size_t i = 0; i < n && a != nullptr; ++i)
    if (PMIX_CHECK_KEY(&a[i], key)) return &a[i];
  return nullptr;
}

struct LogStyle {
  std::string who;
  std::string stamp;  // "YYYY-mm-dd HH:MM:SS " or ""
  bool once = false;
};

LogStyle Style(const pmix_proc_t* client, const pmix_info_t* dirs, size_t ndirs) {
  LogStyle style;
  const pmix_info_t* src = Find(dirs, ndirs, PMIX_LOG_SOURCE);
  const pmix_proc_t* who =
      src != nullptr && src->value.type == PMIX_PROC && src->value.data.proc != nullptr
          ? src->value.data.proc
          : client;
  if (who != nullptr) style.who = std::string(who->nspace) + ":" + std::to_string(who->rank);
  const pmix_info_t* once = Find(dirs, ndirs, PMIX_LOG_ONCE);
  style.once = once != nullptr && PMIx_Info_true(once);
  const pmix_info_t* ts = Find(dirs, ndirs, PMIX_LOG_TIMESTAMP);
  const pmix_info_t* gen = Find(dirs, ndirs, PMIX_LOG_GENERATE_TIMESTAMP);
  time_t when = 0;
  if (ts != nullptr && ts->value.type == PMIX_TIME)
    when = ts->value.data.time;
  else if (gen != nullptr && PMIx_Info_true(gen))
    when = std::time(nullptr);
  struct tm parts;
  char buf[64];
  if (when != 0 && ::localtime_r(&when, &parts) != nullptr &&
      std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S ", &parts) > 0)
    style.stamp = buf;
  return style;
}

// Serves one channel; false when pmixrun has no such channel.
bool Serve(const pmix_info_t& entry, const LogStyle& style) {
  FILE* stream = PMIX_CHECK_KEY(&entry, PMIX_LOG_STDERR)   ? stderr
                 : PMIX_CHECK_KEY(&entry, PMIX_LOG_STDOUT) ? stdout
                                                           : nullptr;
  bool sys =
      PMIX_CHECK_KEY(&entry, PMIX_LOG_SYSLOG) || PMIX_CHECK_KEY(&entry, PMIX_LOG_LOCAL_SYSLOG);
  if ((stream == nullptr && !sys) || entry.value.type != PMIX_STRING) return false;
  std::string text = entry.value.data.string != nullptr ? entry.value.data.string : "";
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (sys) {
    ::syslog(LOG_ERR, "pmixrun log from %s: %s", style.who.c_str(), text.c_str());
    return true;
  }
  std::fprintf(stream, "%s[pmixrun log from %s] %s\n", style.stamp.c_str(), style.who.c_str(),
               text.c_str());
  std::fflush(stream);
  return true;
}

void Log(const pmix_proc_t* client, const pmix_info_t data[], size_t ndata,
         const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  LogStyle style = Style(client, directives, ndirs);
  size_t channels = 0, served = 0;
  for (size_t i = 0; i < ndata && data != nullptr; ++i) {
    if (IsModifier(data[i])) continue;
    ++channels;
    if (Serve(data[i], style) && ++served > 0 && style.once) break;
  }
  pmix_status_t status = served == 0                        ? PMIX_ERR_NOT_SUPPORTED
                         : served == channels || style.once ? PMIX_SUCCESS
                                                            : PMIX_ERR_PARTIAL_SUCCESS;
  if (cbfunc != nullptr) cbfunc(status, cbdata);
}

}  // namespace

void FillQueryModule(pmix_server_module_t* module) { module->query = Query; }
void FillLogModule(pmix_server_module_t* module) { module->log = Log; }

}  // namespace pmixrun
