// Reading and resolving a spawn request (see spawn_request.h).
#include "src/tools/pmixrun/spawn_request.h"

#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "pmix.h"
#include "src/tools/pmixrun/children.h"

namespace pmixrun {
namespace {

// --- reading info values --------------------------------------------------

bool Flag(const pmix_info_t& info, bool* out) {
  if (info.value.type == PMIX_UNDEF) return *out = true, true;  // a bare key reads as true
  if (info.value.type != PMIX_BOOL) return false;
  *out = info.value.data.flag;
  return true;
}

bool Text(const pmix_info_t& info, std::string* out) {
  if (info.value.type != PMIX_STRING || info.value.data.string == nullptr) return false;
  *out = info.value.data.string;
  return true;
}

bool Int(const pmix_info_t& info, int* out) {
  int64_t n = 0;
  if (PMIx_Value_get_number(&info.value, &n, PMIX_INT64) != PMIX_SUCCESS) return false;
  if (n < 0 || n > INT_MAX) return false;
  *out = static_cast<int>(n);
  return true;
}

bool Envar(const pmix_info_t& info, EnvEdit::Kind kind, RunDirectives* d) {
  const pmix_value_t& v = info.value;
  if (v.type != PMIX_ENVAR || v.data.envar.envar == nullptr || *v.data.envar.envar == '\0')
    return false;
  EnvEdit edit;
  edit.kind = kind;
  edit.name = v.data.envar.envar;
  edit.value = v.data.envar.value != nullptr ? v.data.envar.value : "";
  if (v.data.envar.separator != '\0') edit.separator = v.data.envar.separator;
  d->env_edits.push_back(std::move(edit));
  return true;
}

// --- the attribute tables ----------------------------------------------------

// Directives valid for the job and for each app; false: wrong value type.
struct DirectiveRow {
  const char* key;
  bool (*apply)(const pmix_info_t&, RunDirectives*);
};

const DirectiveRow kDirectives[] = {
    {PMIX_WDIR, [](const pmix_info_t& i, RunDirectives* d) { return Text(i, &d->wdir.emplace()); }},
    {PMIX_PREFIX,
     [](const pmix_info_t& i, RunDirectives* d) { return Text(i, &d->prefix.emplace()); }},
    {PMIX_HOST, [](const pmix_info_t& i, RunDirectives* d) { return Text(i, &d->host.emplace()); }},
    {PMIX_SET_SESSION_CWD,
     [](const pmix_info_t& i, RunDirectives* d) { return Flag(i, &d->session_cwd.emplace()); }},
    {PMIX_TAG_OUTPUT,
     [](const pmix_info_t& i, RunDirectives* d) { return Flag(i, &d->tag_output.emplace()); }},
    {PMIX_SET_ENVAR,
     [](const pmix_info_t& i, RunDirectives* d) { return Envar(i, EnvEdit::Kind::kSet, d); }},
    {PMIX_ADD_ENVAR,
     [](const pmix_info_t& i, RunDirectives* d) { return Envar(i, EnvEdit::Kind::kAdd, d); }},
    {PMIX_PREPEND_ENVAR,
     [](const pmix_info_t& i, RunDirectives* d) { return Envar(i, EnvEdit::Kind::kPrepend, d); }},
    {PMIX_APPEND_ENVAR,
     [](const pmix_info_t& i, RunDirectives* d) { return Envar(i, EnvEdit::Kind::kAppend, d); }},
    {PMIX_FIRST_ENVAR,
     [](const pmix_info_t& i, RunDirectives* d) { return Envar(i, EnvEdit::Kind::kFirst, d); }},
    {PMIX_UNSET_ENVAR,
     [](const pmix_info_t& i, RunDirectives* d) {
       EnvEdit edit;
       edit.kind = EnvEdit::Kind::kUnset;
       if (!Text(i, &edit.name) || edit.name.empty()) return false;
       d->env_edits.push_back(std::move(edit));
       return true;
     }},
};

// The job's own attributes (the events its requester wants to hear).
struct NoticeRow {
  const char* key;
  bool JobNotices::*flag;
};

const NoticeRow kNotices[] = {
    {PMIX_NOTIFY_COMPLETION, &JobNotices::completion},
    {PMIX_NOTIFY_JOB_EVENTS, &JobNotices::job_events},
    {PMIX_NOTIFY_PROC_TERMINATION, &JobNotices::proc_end},
    {PMIX_NOTIFY_PROC_ABNORMAL_TERMINATION, &JobNotices::proc_abnormal},
    {PMIX_EVENT_SILENT_TERMINATION, &JobNotices::silent},
};

// Attributes that need nothing from pmixrun: the requester's identity the
// library adds, the personality, the spawn's own timeout (a launch here is
// bounded anyway), harvested environments (their directives are applied).
const char* const kQuietlySkipped[] = {
    PMIX_USERID,      PMIX_GRPID,   PMIX_REQUESTOR_IS_CLIENT,
    PMIX_PERSONALITY, PMIX_TIMEOUT, PMIX_SPAWN_TIMEOUT,       PMIX_ENVARS_HARVESTED,
    PMIX_FWD_STDOUT,  PMIX_FWD_STDERR, PMIX_FWD_STDDIAG,
};

// PMIX_FWD_STDIN: a rank (PMIX_RANK_WILDCARD: all), or a bool (true: all).
bool FwdStdin(const pmix_info_t& info, std::optional<pmix_rank_t>* out) {
  if (info.value.type == PMIX_PROC_RANK) return *out = info.value.data.rank, true;
  if (info.value.type == PMIX_BOOL || info.value.type == PMIX_UNDEF) {
    if (PMIX_INFO_TRUE(&info)) *out = PMIX_RANK_WILDCARD;
    return true;
  }
  return false;
}

// A "pmix" attribute that pmixrun does not honour but should mention.
bool IsIgnoredAttribute(const pmix_info_t& info) {
  for (const char* key : kQuietlySkipped)
    if (PMIX_CHECK_KEY(&info, key)) return false;
  return std::strncmp(info.key, "pmix", 4) == 0;
}

bool Honoured(const pmix_info_t& info, bool job_level) {
  for (const DirectiveRow& row : kDirectives)
    if (PMIX_CHECK_KEY(&info, row.key)) return true;
  if (!job_level) return PMIX_CHECK_KEY(&info, PMIX_COSPAWN_APP) || IsDebugDirective(info);
  for (const NoticeRow& row : kNotices)
    if (PMIX_CHECK_KEY(&info, row.key)) return true;
  return PMIX_CHECK_KEY(&info, PMIX_JOB_TIMEOUT) || PMIX_CHECK_KEY(&info, PMIX_PSET_NAME) ||
         PMIX_CHECK_KEY(&info, PMIX_FWD_STDIN) || PMIX_CHECK_KEY(&info, PMIX_REQUESTOR_IS_TOOL) ||
         IsDebugDirective(info);
}

// Applies one honoured info to the job's (`job`) or an app's (`app`). False: a bad value.
bool ApplyInfo(const pmix_info_t& info, RunDirectives* d, SpawnRequest* job, AppRequest* app) {
  for (const DirectiveRow& row : kDirectives)
    if (PMIX_CHECK_KEY(&info, row.key)) return row.apply(info, d);
  if (app != nullptr && PMIX_CHECK_KEY(&info, PMIX_COSPAWN_APP)) return Flag(info, &app->cospawn);
  if (app != nullptr) return ApplyDebugDirective(info, &app->debug);
  for (const NoticeRow& row : kNotices)
    if (PMIX_CHECK_KEY(&info, row.key)) return Flag(info, &(job->notices.*row.flag));
  if (PMIX_CHECK_KEY(&info, PMIX_PSET_NAME)) return Text(info, &job->pset) && !job->pset.empty();
  if (PMIX_CHECK_KEY(&info, PMIX_FWD_STDIN)) return FwdStdin(info, &job->fwd_stdin);
  if (PMIX_CHECK_KEY(&info, PMIX_REQUESTOR_IS_TOOL)) return Flag(info, &job->requester_is_tool);
  if (IsDebugDirective(info)) return ApplyDebugDirective(info, &job->debug);
  return Int(info, &job->job_timeout_s);  // PMIX_JOB_TIMEOUT
}

pmix_status_t ParseInfos(const pmix_info_t* info, size_t ninfo, RunDirectives* d, SpawnRequest* job,
                         AppRequest* app, std::vector<std::string>* ignored, std::string* error) {
  if (info == nullptr && ninfo > 0) return *error = "info array missing", PMIX_ERR_BAD_PARAM;
  for (size_t i = 0; i < ninfo; ++i) {
    if (!Honoured(info[i], job != nullptr)) {
      if (IsIgnoredAttribute(info[i])) ignored->emplace_back(info[i].key);
      continue;
    }
    if (!ApplyInfo(info[i], d, job, app)) {
      *error = std::string("attribute ") + info[i].key + ": value of type " +
               PMIx_Data_type_string(info[i].value.type);
      return PMIX_ERR_BAD_PARAM;
    }
  }
  return PMIX_SUCCESS;
}

pmix_status_t ParseApp(const pmix_app_t& app, size_t index, AppRequest* out,
                       std::vector<std::string>* ignored, std::string* error) {
  out->cmd = app.cmd != nullptr ? app.cmd : "";
  for (char** a = app.argv; a != nullptr && *a != nullptr; ++a) out->argv.emplace_back(*a);
  if (out->cmd.empty() && !out->argv.empty()) out->cmd = out->argv[0];
  if (out->cmd.empty())
    return *error = "app " + std::to_string(index) + " names no executable",
           PMIX_ERR_JOB_NO_EXE_SPECIFIED;
  if (out->argv.empty()) out->argv.push_back(out->cmd);
  for (char** e = app.env; e != nullptr && *e != nullptr; ++e) out->env.emplace_back(*e);
  out->cwd = app.cwd != nullptr ? app.cwd : "";
  if (app.maxprocs < 0)
    return *error = "app " + std::to_string(index) + ": maxprocs " + std::to_string(app.maxprocs) +
                    " (at least 1)",
           PMIX_ERR_BAD_PARAM;
  out->maxprocs = app.maxprocs;  // 0: the launcher decides (SizeUnsetApps)
  return ParseInfos(app.info, app.ninfo, &out->directives, nullptr, out, ignored, error);
}

// --- resolving ---------------------------------------------------------------

std::string_view ShortName(std::string_view host) { return host.substr(0, host.find('.')); }

// Whether every host of a PMIX_HOST list ("name[:slots],...") is this node.
bool OnThisNode(const std::string& list, const std::string& hostname, std::string* other) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = std::min(list.find(',', start), list.size());
    std::string_view entry = std::string_view(list).substr(start, end - start);
    entry = entry.substr(0, entry.find(':'));
    const bool here = entry.empty() || entry == "localhost" || entry == "127.0.0.1" ||
                      ShortName(entry) == ShortName(hostname);
    if (!here) return *other = std::string(entry), false;
    start = end + 1;
  }
  return true;
}

size_t FindVar(const std::vector<std::string>& env, std::string_view name) {
  for (size_t i = 0; i < env.size(); ++i)
    if (env[i].size() > name.size() && env[i].compare(0, name.size(), name) == 0 &&
        env[i][name.size()] == '=')
      return i;
  return env.size();
}

std::string Absolute(const std::string& dir, const std::string& base) {
  return dir.empty() || dir[0] == '/' ? dir : base + "/" + dir;
}

// The app's own choice first (PMIX_WDIR, its cwd, PMIX_SET_SESSION_CWD), then
// the job's, then pmixrun's directory.
std::string WorkingDir(const RunDirectives& job, const AppRequest& app, const ResolveContext& ctx,
                       bool* session) {
  const RunDirectives& own = app.directives;
  if (own.wdir) return Absolute(*own.wdir, ctx.cwd);
  if (!app.cwd.empty()) return Absolute(app.cwd, ctx.cwd);
  if (own.session_cwd.value_or(false)) return *session = true, ctx.session_cwd;
  if (job.wdir) return Absolute(*job.wdir, ctx.cwd);
  if (job.session_cwd.value_or(false)) return *session = true, ctx.session_cwd;
  return ctx.cwd;
}

std::vector<std::string> AppEnv(const RunDirectives& job, const AppRequest& app,
                                const ResolveContext& ctx) {
  std::vector<std::string> env = ctx.base_env;
  for (const std::string& e : app.env) {
    size_t eq = e.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    ApplyEnvEdit({EnvEdit::Kind::kSet, e.substr(0, eq), e.substr(eq + 1), ':'}, &env);
  }
  const std::optional<std::string>& prefix =
      app.directives.prefix ? app.directives.prefix : job.prefix;
  if (prefix && !prefix->empty()) {
    ApplyEnvEdit({EnvEdit::Kind::kPrepend, "PATH", *prefix + "/bin", ':'}, &env);
    ApplyEnvEdit({EnvEdit::Kind::kPrepend, "LD_LIBRARY_PATH", *prefix + "/lib", ':'}, &env);
  }
  for (const EnvEdit& edit : job.env_edits) ApplyEnvEdit(edit, &env);
  for (const EnvEdit& edit : app.directives.env_edits) ApplyEnvEdit(edit, &env);
  return env;
}

pmix_status_t ResolveApp(const SpawnRequest& req, const AppRequest& app, const ResolveContext& ctx,
                         AppLayout* out, std::string* error) {
  std::string other;
  for (const RunDirectives* d : {&req.directives, &app.directives})
    if (d->host && !OnThisNode(*d->host, ctx.hostname, &other))
      return *error = "host " + other + " is not this node (" + ctx.hostname + ")",
             PMIX_ERR_JOB_FAILED_TO_MAP;
  out->env = AppEnv(req.directives, app, ctx);
  bool session = false;
  out->cwd = WorkingDir(req.directives, app, ctx, &session);
  struct stat st {};
  if (!session && (stat(out->cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)))
    return *error = "working directory " + out->cwd + " not found", PMIX_ERR_JOB_WDIR_NOT_FOUND;
  std::string prog = app.cmd;
  if (prog.find('/') != std::string::npos && prog[0] != '/') prog = Absolute(prog, out->cwd);
  size_t path_at = FindVar(out->env, "PATH");
  std::string search = path_at < out->env.size() ? out->env[path_at].substr(5) : "/usr/bin:/bin";
  int code = 0;
  if (!ResolveProgram(prog, search, &out->path, error, &code))
    return code == 127 ? PMIX_ERR_JOB_EXE_NOT_FOUND : PMIX_ERR_JOB_APP_NOT_EXECUTABLE;
  out->argv = app.argv;
  out->nprocs = app.maxprocs;
  out->tag_output =
      app.directives.tag_output.value_or(req.directives.tag_output.value_or(ctx.tag_output));
  return PMIX_SUCCESS;
}

// PMIX_MAPBY "ppr:N:node" (N per node: N here), else 0.
int PprPerNode(const pmix_info_t* info, size_t ninfo) {
  for (size_t i = 0; i < ninfo && info != nullptr; ++i) {
    std::string map;
    if (!PMIX_CHECK_KEY(&info[i], PMIX_MAPBY) || !Text(info[i], &map)) continue;
    if (map.rfind("ppr:", 0) != 0) return 0;
    size_t colon = map.find(':', 4);
    std::string unit = colon == std::string::npos ? "node" : map.substr(colon + 1);
    int n = std::atoi(map.substr(4, colon - 4).c_str());
    return unit == "node" && n > 0 && n <= kMaxSpawnProcs ? n : 0;
  }
  return 0;
}

// Apps with maxprocs 0 leave the count to the launcher: a debugger's
// daemons run one per node (debug_directives.h may say otherwise), and
// PMIX_MAPBY "ppr:N:node" runs N; anything else needs a count.
pmix_status_t SizeUnsetApps(const pmix_info_t* job_info, size_t ninfo, const pmix_app_t apps[],
                            SpawnRequest* req, std::string* error) {
  for (size_t a = 0; a < req->apps.size(); ++a) {
    AppRequest& app = req->apps[a];
    if (app.maxprocs > 0) continue;
    int n = PprPerNode(apps[a].info, apps[a].ninfo);
    if (n == 0) n = PprPerNode(job_info, ninfo);
    const DebugDirectives& d = app.debug.daemons || app.debug.target ? app.debug : req->debug;
    if (n == 0 && (d.daemons || d.target)) n = 1;
    if (n == 0)
      return *error = "app " + std::to_string(a) + ": maxprocs 0 (at least 1)", PMIX_ERR_BAD_PARAM;
    app.maxprocs = n;
  }
  return PMIX_SUCCESS;
}

}  // namespace

pmix_status_t ParseSpawn(const pmix_proc_t* requester, const pmix_info_t job_info[], size_t ninfo,
                         const pmix_app_t apps[], size_t napps, SpawnRequest* out,
                         std::string* error) {
  SpawnRequest req;
  if (requester != nullptr) req.requester = *requester;
  if (apps == nullptr || napps == 0) return *error = "no apps", PMIX_ERR_JOB_NO_EXE_SPECIFIED;
  pmix_status_t rc =
      ParseInfos(job_info, ninfo, &req.directives, &req, nullptr, &req.ignored, error);
  for (size_t a = 0; a < napps && rc == PMIX_SUCCESS; ++a)
    rc = ParseApp(apps[a], a, &req.apps.emplace_back(), &req.ignored, error);
  if (rc == PMIX_SUCCESS) rc = SizeUnsetApps(job_info, ninfo, apps, &req, error);
  if (rc == PMIX_SUCCESS) *out = std::move(req);
  return rc;
}

pmix_status_t ResolveSpawn(const SpawnRequest& req, const ResolveContext& ctx, JobLayout* out,
                           std::string* error) {
  std::vector<AppLayout> apps(req.apps.size());
  long long total = 0;
  for (size_t a = 0; a < req.apps.size(); ++a) {
    total += req.apps[a].maxprocs;
    if (total > kMaxSpawnProcs)
      return *error = "more than " + std::to_string(kMaxSpawnProcs) + " processes",
             PMIX_ERR_JOB_INSUFFICIENT_RESOURCES;
    pmix_status_t rc = ResolveApp(req, req.apps[a], ctx, &apps[a], error);
    if (rc != PMIX_SUCCESS) return rc;
  }
  out->apps = std::move(apps);
  return PMIX_SUCCESS;
}

void ApplyEnvEdit(const EnvEdit& edit, std::vector<std::string>* env) {
  const size_t at = FindVar(*env, edit.name);
  const bool present = at < env->size();
  const std::string old = present ? (*env)[at].substr(edit.name.size() + 1) : "";
  std::string value;
  switch (edit.kind) {
    case EnvEdit::Kind::kUnset:
      if (present) env->erase(env->begin() + static_cast<std::ptrdiff_t>(at));
      return;
    case EnvEdit::Kind::kAdd:
      if (present) return;
      value = edit.value;
      break;
    case EnvEdit::Kind::kSet:
      value = edit.value;
      break;
    case EnvEdit::Kind::kPrepend:
      value = old.empty() ? edit.value : edit.value + edit.separator + old;
      break;
    case EnvEdit::Kind::kAppend:
      value = old.empty() ? edit.value : old + edit.separator + edit.value;
      break;
    case EnvEdit::Kind::kFirst: {
      value = edit.value;
      size_t start = 0;
      while (!old.empty() && start <= old.size()) {  // the others, in order, without it
        size_t end = std::min(old.find(edit.separator, start), old.size());
        std::string part = old.substr(start, end - start);
        if (part != edit.value) value += edit.separator + part;
        start = end + 1;
      }
      break;
    }
  }
  std::string entry = edit.name + "=" + value;
  if (present)
    (*env)[at] = std::move(entry);
  else
    env->push_back(std::move(entry));
}

}  // namespace pmixrun
