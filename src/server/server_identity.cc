#include "src/server/server_identity.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/server/server_rendezvous.h"
#include "src/wire/rendezvous.h"

namespace pmix::server {

std::string DefaultServerNspace() {
  const char* env = std::getenv("PMIX_SERVER_NAMESPACE");
  return env != nullptr && *env != '\0' ? env : "pmix-server";
}

pmix_rank_t DefaultServerRank() { return static_cast<pmix_rank_t>(::getpid()); }

std::string ServerUriValue(const Server& s) {
  const std::string uri = ToolUri(s);
  return uri.empty() ? uri : wire::FormatServerUri(s.myproc, uri);
}

Result<wire::Infos> ServerKeys(const Server& s) {
  wire::Infos keys;
  PMIX_RETURN_IF_ERROR(keys.Add(PMIX_SERVER_NSPACE, s.myproc.nspace, PMIX_STRING));
  PMIX_RETURN_IF_ERROR(keys.Add(PMIX_SERVER_RANK, &s.myproc.rank, PMIX_PROC_RANK));
  PMIX_RETURN_IF_ERROR(keys.Add(PMIX_SERVER_HOSTNAME, s.hostname.c_str(), PMIX_STRING));
  const std::string uri = ServerUriValue(s);
  if (!uri.empty()) PMIX_RETURN_IF_ERROR(keys.Add(PMIX_SERVER_URI, uri.c_str(), PMIX_STRING));
  return keys;
}

std::optional<Result<pmix_value_t*>> SelfValue(const Server& s, const std::string& key) {
  wire::Infos one;
  Status added;
  auto is = [&key](const char* name) { return key == name; };
  if (is(PMIX_PROCID)) {
    added = one.Add(key.c_str(), &s.myproc, PMIX_PROC);
  } else if (is(PMIX_NSPACE)) {
    added = one.Add(key.c_str(), s.myproc.nspace, PMIX_STRING);
  } else if (is(PMIX_RANK)) {
    added = one.Add(key.c_str(), &s.myproc.rank, PMIX_PROC_RANK);
  } else if (is(PMIX_HOSTNAME)) {
    added = one.Add(key.c_str(), s.hostname.c_str(), PMIX_STRING);
  } else if (is(PMIX_SERVER_TMPDIR)) {
    added = one.Add(key.c_str(), s.tmpdir.c_str(), PMIX_STRING);
  } else if (is(PMIX_SYSTEM_TMPDIR)) {
    added = one.Add(key.c_str(), s.system_tmpdir.c_str(), PMIX_STRING);
  } else if (is(PMIX_MYSERVER_URI)) {
    const std::string uri = ServerUriValue(s);
    if (uri.empty()) return std::nullopt;
    added = one.Add(key.c_str(), uri.c_str(), PMIX_STRING);
  } else {
    auto keys = ServerKeys(s);
    if (!keys.ok()) return Result<pmix_value_t*>(keys.status());
    for (const pmix_info_t& i : keys->view()) {
      if (PMIX_CHECK_KEY(&i, key.c_str())) added = one.Append(i);
    }
    if (one.size() == 0) return std::nullopt;
  }
  if (!added.ok()) return Result<pmix_value_t*>(added);
  pmix_value_t* v = PMIx_Value_create(1);
  if (v == nullptr) return Result<pmix_value_t*>(Status(PMIX_ERR_NOMEM));
  pmix_status_t rc = PMIx_Value_xfer(v, &one.view()[0].value);
  if (rc != PMIX_SUCCESS) {
    PMIx_Value_free(v, 1);
    return Result<pmix_value_t*>(Status(rc));
  }
  return Result<pmix_value_t*>(v);
}

}  // namespace pmix::server
