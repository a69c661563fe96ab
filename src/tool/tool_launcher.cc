// The launcher tool's server and its relaying host module (tool_launcher.h).
#include "src/tool/tool_launcher.h"

#include <cstring>

#include "pmix.h"
#include "pmix_server.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_state.h"
#include "src/server/server_tool.h"
#include "src/wire/buffer.h"

namespace pmix::tool {
namespace {

bool g_started = false;  // under the tool's lock

pmix_status_t RelayQuery(pmix_proc_t*, pmix_query_t* queries, size_t nqueries,
                         pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return PMIx_Query_info_nb(queries, nqueries, cbfunc, cbdata);
}

pmix_status_t RelaySpawn(const pmix_proc_t*, const pmix_info_t job_info[], size_t ninfo,
                         const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                         void* cbdata) {
  return PMIx_Spawn_nb(job_info, ninfo, apps, napps, cbfunc, cbdata);
}

pmix_status_t RelayJobControl(const pmix_proc_t*, const pmix_proc_t targets[], size_t ntargets,
                              const pmix_info_t directives[], size_t ndirs,
                              pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return PMIx_Job_control_nb(targets, ntargets, directives, ndirs, cbfunc, cbdata);
}

void RelayLog(const pmix_proc_t*, const pmix_info_t data[], size_t ndata,
              const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
              void* cbdata) {
  pmix_status_t rc = PMIx_Log_nb(data, ndata, directives, ndirs, cbfunc, cbdata);
  if (rc != PMIX_SUCCESS && cbfunc != nullptr)
    cbfunc(rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc, cbdata);
}

// The launcher's own directives that shape its server.
constexpr const char* kPassed[] = {
    PMIX_SERVER_TMPDIR,          PMIX_SYSTEM_TMPDIR,           PMIX_SERVER_SESSION_SUPPORT,
    PMIX_SERVER_SYSTEM_SUPPORT,  PMIX_LAUNCHER_RENDEZVOUS_FILE, PMIX_TCP_REPORT_URI,
    PMIX_HOSTNAME,               PMIX_SERVER_REMOTE_CONNECTIONS, PMIX_EXTERNAL_PROGRESS,
};

}  // namespace

Status StartLauncherServer(const pmix_proc_t& me, std::span<const pmix_info_t> info) {
  if (server::CurrentServer() != nullptr || g_started) return Status();  // already a server
  wire::Infos directives;
  bool yes = true;
  PMIX_RETURN_IF_ERROR(directives.Add(PMIX_SERVER_TOOL_SUPPORT, &yes, PMIX_BOOL));
  PMIX_RETURN_IF_ERROR(directives.Add(PMIX_SERVER_NSPACE, me.nspace, PMIX_STRING));
  PMIX_RETURN_IF_ERROR(directives.Add(PMIX_SERVER_RANK, &me.rank, PMIX_PROC_RANK));
  for (const pmix_info_t& i : info) {
    for (const char* key : kPassed)
      if (std::strncmp(i.key, key, PMIX_MAX_KEYLEN) == 0) PMIX_RETURN_IF_ERROR(directives.Append(i));
  }
  pmix_server_module_t module;
  std::memset(&module, 0, sizeof module);
  module.query = RelayQuery;
  module.spawn = RelaySpawn;
  module.job_control = RelayJobControl;
  module.log = RelayLog;
  pmix_status_t rc = PMIx_server_init(&module, directives.data(), directives.size());
  if (rc == PMIX_SUCCESS) g_started = true;
  return rc;
}

void StopLauncherServer() {
  if (!g_started) return;
  g_started = false;
  (void)PMIx_server_finalize();
}

std::optional<std::string> LauncherPeerUri(const pmix_proc_t& proc) {
  auto got = runtime::CallBlocking<std::optional<std::string>>(
      [proc](std::function<void(std::optional<std::string>)> done) {
        server::Server* s = server::CurrentServer();
        done(s == nullptr ? std::nullopt : server::AdvertisedUri(*s, proc));
      });
  return got.ok() ? std::move(*got) : std::nullopt;
}

}  // namespace pmix::tool
