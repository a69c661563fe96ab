// What a PMIx_Spawn asks pmixrun for (§12.2): ParseSpawn copies the spawn
// upcall's arrays into a SpawnRequest (pure; any thread), ResolveSpawn turns
// it into the apps of the job to start (main thread; looks at the file
// system).
//
// Honoured attributes, in the job_info array or an app's info array (the
// app's win): PMIX_WDIR, PMIX_SET_SESSION_CWD, PMIX_PREFIX (PATH and
// LD_LIBRARY_PATH get <prefix>/bin and <prefix>/lib first; the executable is
// looked up there), PMIX_HOST (must name this node), PMIX_TAG_OUTPUT, and
// PMIX_SET_ENVAR, PMIX_ADD_ENVAR, PMIX_UNSET_ENVAR, PMIX_PREPEND_ENVAR,
// PMIX_APPEND_ENVAR, PMIX_FIRST_ENVAR (applied in order, job's first). Job
// attributes: PMIX_NOTIFY_COMPLETION, PMIX_NOTIFY_JOB_EVENTS,
// PMIX_NOTIFY_PROC_TERMINATION, PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION,
// PMIX_EVENT_SILENT_TERMINATION, PMIX_JOB_TIMEOUT, PMIX_FWD_STDIN (a rank,
// or true: every rank). PMIX_FWD_STDOUT / PMIX_FWD_STDERR / PMIX_FWD_STDDIAG
// ask for what pmixrun always does (all output goes to the server's IO
// forwarding, iof_forward.h). The requester's identity
// (PMIX_USERID, ...), PMIX_PERSONALITY, PMIX_TIMEOUT, PMIX_SPAWN_TIMEOUT and
// PMIX_ENVARS_HARVESTED are skipped quietly; the debugger directives
// (debug_directives.h) are read into `debug` (the job's, or the app's);
// PMIX_COSPAWN_APP (an app's) into the app's `cospawn`; any other "pmix" attribute
// (mapping, binding, ... meaningless on one node) is accepted and listed in
// `ignored`; other keys are not attributes and are skipped.
#ifndef PMIXX_TOOLS_PMIXRUN_SPAWN_REQUEST_H
#define PMIXX_TOOLS_PMIXRUN_SPAWN_REQUEST_H

#include <optional>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/tools/pmixrun/debug_directives.h"
#include "src/tools/pmixrun/job_info.h"
#include "src/tools/pmixrun/jobs.h"

namespace pmixrun {

// One environment change (PMIX_*_ENVAR).
struct EnvEdit {
  enum class Kind { kSet, kAdd, kUnset, kPrepend, kAppend, kFirst };
  Kind kind = Kind::kSet;
  std::string name;
  std::string value;
  char separator = ':';
};

// Where and how processes run: from the job_info array or an app's infos.
struct RunDirectives {
  std::optional<std::string> wdir;    // PMIX_WDIR
  std::optional<bool> session_cwd;    // PMIX_SET_SESSION_CWD
  std::optional<std::string> prefix;  // PMIX_PREFIX
  std::optional<std::string> host;    // PMIX_HOST
  std::optional<bool> tag_output;     // PMIX_TAG_OUTPUT
  std::vector<EnvEdit> env_edits;     // PMIX_*_ENVAR, in order
};

struct AppRequest {
  std::string cmd;
  std::vector<std::string> argv;  // as given (argv[0] included); empty: {cmd}
  std::vector<std::string> env;   // pmix_app_t.env: "NAME=value" to set
  std::string cwd;                // pmix_app_t.cwd ("" if none)
  int maxprocs = 1;
  RunDirectives directives;
  bool cospawn = false;   // PMIX_COSPAWN_APP: a job of its own (spawner.h)
  DebugDirectives debug;  // the debugger directives in the app's infos
};

struct SpawnRequest {
  pmix_proc_t requester{};
  std::vector<AppRequest> apps;
  RunDirectives directives;  // the job's
  JobNotices notices;
  int job_timeout_s = 0;             // PMIX_JOB_TIMEOUT
  std::string pset;                  // PMIX_PSET_NAME: a process set of the new job ("": none)
  std::optional<pmix_rank_t> fwd_stdin;  // PMIX_FWD_STDIN: whose stdin tools may feed
  DebugDirectives debug;             // PMIX_DEBUG_* (debug_directives.h), job level
  bool requester_is_tool = false;    // PMIX_REQUESTOR_IS_TOOL (the library adds it)
  std::vector<std::string> ignored;  // attribute keys accepted without effect
};

// An app's maxprocs 0 leaves the count to pmixrun: N for PMIX_MAPBY
// "ppr:N:node" (the app's or the job's), one for a debugger's daemons.
//
// PMIX_ERR_JOB_NO_EXE_SPECIFIED (no app, or an app with neither cmd nor
// argv), PMIX_ERR_BAD_PARAM (maxprocs < 1 otherwise, an honoured attribute whose
// value has the wrong type); *error says which. *out is complete only on
// PMIX_SUCCESS.
pmix_status_t ParseSpawn(const pmix_proc_t* requester, const pmix_info_t job_info[], size_t ninfo,
                         const pmix_app_t apps[], size_t napps, SpawnRequest* out,
                         std::string* error);

// What a spawned job's apps are resolved against.
struct ResolveContext {
  std::vector<std::string> base_env;  // every job's processes start from it
  std::string cwd;                    // pmixrun's working directory
  std::string hostname;               // this node
  std::string session_cwd;            // PMIX_SET_SESSION_CWD's directory (made later)
  bool tag_output = false;            // --tag-output
};

// Fills out->apps. PMIX_ERR_JOB_EXE_NOT_FOUND, PMIX_ERR_JOB_APP_NOT_EXECUTABLE,
// PMIX_ERR_JOB_WDIR_NOT_FOUND, PMIX_ERR_JOB_FAILED_TO_MAP (PMIX_HOST names
// another node), PMIX_ERR_JOB_INSUFFICIENT_RESOURCES (more than
// kMaxSpawnProcs processes); *error says why.
constexpr int kMaxSpawnProcs = 1024;
pmix_status_t ResolveSpawn(const SpawnRequest& req, const ResolveContext& ctx, JobLayout* out,
                           std::string* error);

// Applies `edit` to a list of "NAME=value" (§12.2.4's semantics).
void ApplyEnvEdit(const EnvEdit& edit, std::vector<std::string>* env);

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_SPAWN_REQUEST_H
