// Process sets on the server (server_pset.h).
#include "src/server/server_pset.h"

#include <cstring>
#include <memory>

#include "pmix.h"
#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/event/event.h"
#include "src/groups/group_table.h"
#include "src/groups/pset_table.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

// Progress thread only; never destroyed.
groups::PsetTable& Psets() {
  static auto* table = new groups::PsetTable();
  return *table;
}

void Announce(Server& s, pmix_status_t code, const std::string& name,
              const std::vector<pmix_proc_t>* members) {
  wire::Infos info;
  Status st = info.Add(PMIX_PSET_NAME, name.c_str(), PMIX_STRING);
  if (st.ok() && members != nullptr) st = groups::AddProcArray(info, PMIX_PSET_MEMBERS, *members);
  auto made = st.ok() ? event::MakeEvent(code, s.myproc, PMIX_RANGE_LOCAL, info.data(), info.size())
                      : Result<event::Event>(st);
  if (!made.ok()) {
    output::Error("server", "process set %s: event not raised: %s", name.c_str(),
                  PMIx_Error_string(made.status().code()));
    return;
  }
  EventsRaise(s, std::make_shared<const event::Event>(std::move(made).value()), false);
}

gds::ValuePtr Owned(Result<pmix_value_t*> v) { return v.ok() ? gds::ValuePtr(*v) : nullptr; }

}  // namespace

std::vector<std::string> PsetNamesOf(const pmix_proc_t& proc) { return Psets().NamesOf(proc); }

bool IsPsetQueryKey(std::string_view key) {
  return key == PMIX_QUERY_NUM_PSETS || key == PMIX_QUERY_PSET_NAMES ||
         key == PMIX_QUERY_PSET_MEMBERSHIP;
}

gds::ValuePtr PsetQueryAnswer(const query::Query& q, std::string_view key) {
  const groups::PsetTable& table = Psets();
  if (key == PMIX_QUERY_NUM_PSETS) {
    gds::ValuePtr v(PMIx_Value_create(1));
    size_t n = table.size();
    if (v != nullptr && PMIx_Value_load(v.get(), &n, PMIX_SIZE) == PMIX_SUCCESS) return v;
    return nullptr;
  }
  if (key == PMIX_QUERY_PSET_NAMES) return Owned(groups::StringArrayValue(table.Names()));
  if (key != PMIX_QUERY_PSET_MEMBERSHIP) return nullptr;
  std::optional<std::string> name = InfoString(q.qualifiers.view(), PMIX_PSET_NAME);
  const std::vector<pmix_proc_t>* members = name ? table.Find(*name) : nullptr;
  return members == nullptr ? nullptr : Owned(groups::ProcArrayValue(*members));
}

void PsetShutdown(Server&) { Psets().Clear(); }

}  // namespace pmix::server

namespace server = pmix::server;

extern "C" pmix_status_t PMIx_server_define_process_set(const pmix_proc_t* members,
                                                        size_t nmembers, const char* pset_name) {
  return pmix::ApiGuard("PMIx_server_define_process_set", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (members == nullptr || nmembers == 0 || pset_name == nullptr) return PMIX_ERR_BAD_PARAM;
    auto procs = std::make_shared<std::vector<pmix_proc_t>>(members, members + nmembers);
    std::string name(pset_name, ::strnlen(pset_name, PMIX_MAX_NSLEN + 1));
    return server::RunOp(
        [procs, name](server::Server& s) -> pmix::Status {
          PMIX_RETURN_IF_ERROR(server::Psets().Define(name, *procs));
          server::Announce(s, PMIX_PROCESS_SET_DEFINE, name, server::Psets().Find(name));
          return pmix::Status();
        },
        nullptr, nullptr);
  });
}

extern "C" pmix_status_t PMIx_server_delete_process_set(char* pset_name) {
  return pmix::ApiGuard("PMIx_server_delete_process_set", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (pset_name == nullptr) return PMIX_ERR_BAD_PARAM;
    std::string name(pset_name, ::strnlen(pset_name, PMIX_MAX_NSLEN + 1));
    return server::RunOp(
        [name](server::Server& s) -> pmix::Status {
          PMIX_RETURN_IF_ERROR(server::Psets().Delete(name));
          server::Announce(s, PMIX_PROCESS_SET_DELETE, name, nullptr);
          return pmix::Status();
        },
        nullptr, nullptr);
  });
}
