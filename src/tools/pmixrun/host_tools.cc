// Tools and pmixrun (see host_tools.h).
#include "src/tools/pmixrun/host_tools.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "pmix.h"
#include "src/tools/pmixrun/debug_directives.h"

namespace pmixrun {
namespace {

std::string g_base;
int g_verbose = 0;
std::atomic<int> g_next_tool{0};

const pmix_info_t* Find(const pmix_info_t* info, size_t ninfo, const char* key) {
  for (size_t i = 0; i < ninfo && info != nullptr; ++i)
    if (PMIX_CHECK_KEY(&info[i], key)) return &info[i];
  return nullptr;
}

void ToolConnected(pmix_info_t* info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                   void* cbdata) {
  const pmix_info_t* uid = Find(info, ninfo, PMIX_USERID);
  if (uid == nullptr || uid->value.type != PMIX_UINT32 || uid->value.data.uint32 != getuid()) {
    if (g_verbose > 0)
      std::fprintf(stderr, "pmixrun: refusing a tool of uid %u\n",
                   uid != nullptr ? uid->value.data.uint32 : 0u);
    cbfunc(PMIX_ERR_NO_PERMISSIONS, nullptr, cbdata);
    return;
  }
  if (Find(info, ninfo, PMIX_NSPACE) != nullptr) {
    cbfunc(PMIX_SUCCESS, nullptr, cbdata);
    return;
  }
  std::string name = g_base + "@tool." + std::to_string(g_next_tool++);
  pmix_proc_t id;
  PMIx_Load_procid(&id, name.c_str(), 0);
  if (g_verbose > 0) std::fprintf(stderr, "pmixrun: tool %s connected\n", name.c_str());
  cbfunc(PMIX_SUCCESS, &id, cbdata);
}

// What pmixrun honours in a spawn request (spawn_request.h, launch.h).
const char* const kSpawnAttributes[] = {
    PMIX_WDIR, PMIX_SET_SESSION_CWD, PMIX_PREFIX, PMIX_HOST, PMIX_TAG_OUTPUT,
    PMIX_SET_ENVAR, PMIX_ADD_ENVAR, PMIX_UNSET_ENVAR, PMIX_PREPEND_ENVAR, PMIX_APPEND_ENVAR,
    PMIX_FIRST_ENVAR, PMIX_NOTIFY_COMPLETION, PMIX_NOTIFY_JOB_EVENTS,
    PMIX_NOTIFY_PROC_TERMINATION, PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION,
    PMIX_EVENT_SILENT_TERMINATION, PMIX_JOB_TIMEOUT, PMIX_FWD_STDIN, PMIX_FWD_STDOUT,
    PMIX_FWD_STDERR, PMIX_PSET_NAME, PMIX_COSPAWN_APP, nullptr};

}  // namespace

void FillToolModule(pmix_server_module_t* module, const std::string& nspace, int verbose) {
  g_base = nspace.substr(0, nspace.rfind('@'));  // "prun-<host>-<pid>" of "...@1"
  g_verbose = verbose;
  module->tool_connected = ToolConnected;
}

void RegisterAttributes() {
  std::vector<char*> attrs;
  for (const char* const* list : {kSpawnAttributes, kDebugAttributes})
    for (const char* const* a = list; *a != nullptr; ++a) attrs.push_back(const_cast<char*>(*a));
  attrs.push_back(nullptr);
  (void)PMIx_Register_attributes(const_cast<char*>("PMIx_Spawn"), attrs.data());
}

}  // namespace pmixrun
