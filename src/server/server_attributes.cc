// PMIx_Register_attributes and its accessors (server_attributes.h).
#include "src/server/server_attributes.h"

#include <functional>

#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/runtime/context.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

pmix_status_t Register(Server& s, const std::string& function, std::vector<std::string> names) {
  if (s.host_attributes.count(function) != 0) return PMIX_ERR_REPEAT_ATTR_REGISTRATION;
  s.host_attributes.emplace(function, std::move(names));
  return PMIX_SUCCESS;
}

// Runs fn with the server on the progress thread: inline when called
// there (a host registering from inside an upcall), else waiting for it.
pmix_status_t OnServer(const std::function<pmix_status_t(Server&)>& fn) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  if (engine->IsProgressThread()) {
    Server* s = CurrentServer();
    return s == nullptr ? PMIX_ERR_INIT : fn(*s);
  }
  auto rc = runtime::CallBlocking<pmix_status_t>([fn](std::function<void(pmix_status_t)> done) {
    Server* s = CurrentServer();
    done(s == nullptr ? PMIX_ERR_INIT : fn(*s));
  });
  return rc.ok() ? *rc : rc.status().code();
}

}  // namespace

std::optional<std::vector<std::string>> RegisteredAttributes(std::string_view function) {
  Server* s = CurrentServer();
  if (s == nullptr) return std::nullopt;
  auto it = s->host_attributes.find(function);
  if (it == s->host_attributes.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> RegisteredAttributeFunctions() {
  std::vector<std::string> out;
  if (Server* s = CurrentServer(); s != nullptr) {
    for (const auto& [function, names] : s->host_attributes) out.push_back(function);
  }
  return out;
}

}  // namespace pmix::server

namespace server = pmix::server;

extern "C" pmix_status_t PMIx_Register_attributes(char* function, char* attrs[]) {
  return pmix::ApiGuard("PMIx_Register_attributes", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (function == nullptr || function[0] == '\0') return PMIX_ERR_BAD_PARAM;
    std::vector<std::string> names;
    for (size_t i = 0; attrs != nullptr && attrs[i] != nullptr; ++i) names.emplace_back(attrs[i]);
    std::string name(function);
    return server::OnServer([&name, &names](server::Server& s) {
      return server::Register(s, name, std::move(names));
    });
  });
}
