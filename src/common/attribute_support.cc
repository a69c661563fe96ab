// What this library supports (attribute_support.h). The tables list, per
// function, the attributes the library's own code acts on (the client's,
// server's and tool's files read them); attributes a function only passes
// on to the host are the host's to declare.
#include "src/common/attribute_support.h"

#include <cstdlib>
#include <cstring>

#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/common/tables.h"
#include "src/common/text.h"

namespace pmix::attrs {
namespace {

struct Function {
  const char* name;
  std::vector<const char*> attrs;
};

const std::vector<Function>& ClientTable() {
  static const std::vector<Function> table = {
      {"PMIx_Init", {"PMIX_EXTERNAL_PROGRESS", "PMIX_DEBUG_STOP_IN_INIT"}},
      {"PMIx_Finalize", {}},
      {"PMIx_Initialized", {}},
      {"PMIx_Abort", {}},
      {"PMIx_Store_internal", {}},
      {"PMIx_Put", {}},
      {"PMIx_Commit", {}},
      {"PMIx_Fence", {"PMIX_COLLECT_DATA", "PMIX_TIMEOUT"}},
      {"PMIx_Fence_nb", {"PMIX_COLLECT_DATA", "PMIX_TIMEOUT"}},
      {"PMIx_Get",
       {"PMIX_TIMEOUT", "PMIX_OPTIONAL", "PMIX_IMMEDIATE", "PMIX_GET_REFRESH_CACHE",
        "PMIX_DATA_SCOPE", "PMIX_GET_POINTER_VALUES", "PMIX_GET_STATIC_VALUES",
        "PMIX_SESSION_INFO", "PMIX_JOB_INFO", "PMIX_APP_INFO", "PMIX_NODE_INFO", "PMIX_HOSTNAME",
        "PMIX_NODEID", "PMIX_APPNUM", "PMIX_SESSION_ID"}},
      {"PMIx_Get_nb",
       {"PMIX_TIMEOUT", "PMIX_OPTIONAL", "PMIX_IMMEDIATE", "PMIX_GET_REFRESH_CACHE",
        "PMIX_DATA_SCOPE", "PMIX_GET_POINTER_VALUES", "PMIX_SESSION_INFO", "PMIX_JOB_INFO",
        "PMIX_APP_INFO", "PMIX_NODE_INFO", "PMIX_HOSTNAME", "PMIX_NODEID", "PMIX_APPNUM",
        "PMIX_SESSION_ID"}},
      {"PMIx_Publish", {"PMIX_RANGE", "PMIX_PERSISTENCE", "PMIX_TIMEOUT"}},
      {"PMIx_Publish_nb", {"PMIX_RANGE", "PMIX_PERSISTENCE", "PMIX_TIMEOUT"}},
      {"PMIx_Lookup", {"PMIX_RANGE", "PMIX_WAIT", "PMIX_TIMEOUT"}},
      {"PMIx_Lookup_nb", {"PMIX_RANGE", "PMIX_WAIT", "PMIX_TIMEOUT"}},
      {"PMIx_Unpublish", {"PMIX_RANGE", "PMIX_TIMEOUT"}},
      {"PMIx_Unpublish_nb", {"PMIX_RANGE", "PMIX_TIMEOUT"}},
      {"PMIx_Spawn", {}},
      {"PMIx_Spawn_nb", {}},
      {"PMIx_Connect", {"PMIX_TIMEOUT"}},
      {"PMIx_Connect_nb", {"PMIX_TIMEOUT"}},
      {"PMIx_Disconnect", {"PMIX_TIMEOUT"}},
      {"PMIx_Disconnect_nb", {"PMIX_TIMEOUT"}},
      {"PMIx_Resolve_peers", {"PMIX_TIMEOUT"}},
      {"PMIx_Resolve_nodes", {"PMIX_TIMEOUT"}},
      {"PMIx_Query_info",
       {"PMIX_QUERY_REFRESH_CACHE", "PMIX_PROCID", "PMIX_NSPACE", "PMIX_RANK", "PMIX_HOSTNAME",
        "PMIX_CLIENT_FUNCTIONS", "PMIX_SERVER_FUNCTIONS", "PMIX_TOOL_FUNCTIONS",
        "PMIX_HOST_FUNCTIONS", "PMIX_CLIENT_ATTRIBUTES", "PMIX_SERVER_ATTRIBUTES",
        "PMIX_TOOL_ATTRIBUTES", "PMIX_HOST_ATTRIBUTES"}},
      {"PMIx_Query_info_nb",
       {"PMIX_QUERY_REFRESH_CACHE", "PMIX_PROCID", "PMIX_NSPACE", "PMIX_RANK", "PMIX_HOSTNAME",
        "PMIX_CLIENT_FUNCTIONS", "PMIX_SERVER_FUNCTIONS", "PMIX_TOOL_FUNCTIONS",
        "PMIX_HOST_FUNCTIONS", "PMIX_CLIENT_ATTRIBUTES", "PMIX_SERVER_ATTRIBUTES",
        "PMIX_TOOL_ATTRIBUTES", "PMIX_HOST_ATTRIBUTES"}},
      {"PMIx_Log", {"PMIX_LOG_STDERR", "PMIX_LOG_STDOUT", "PMIX_LOG_SYSLOG", "PMIX_LOG_LOCAL_SYSLOG",
                    "PMIX_LOG_SYSLOG_PRI", "PMIX_LOG_ONCE", "PMIX_LOG_TIMESTAMP",
                    "PMIX_LOG_GENERATE_TIMESTAMP", "PMIX_LOG_TAG_OUTPUT",
                    "PMIX_LOG_TIMESTAMP_OUTPUT", "PMIX_LOG_XML_OUTPUT", "PMIX_LOG_SOURCE"}},
      {"PMIx_Log_nb", {"PMIX_LOG_STDERR", "PMIX_LOG_STDOUT", "PMIX_LOG_SYSLOG",
                       "PMIX_LOG_LOCAL_SYSLOG", "PMIX_LOG_SYSLOG_PRI", "PMIX_LOG_ONCE",
                       "PMIX_LOG_TIMESTAMP", "PMIX_LOG_GENERATE_TIMESTAMP", "PMIX_LOG_TAG_OUTPUT",
                       "PMIX_LOG_TIMESTAMP_OUTPUT", "PMIX_LOG_XML_OUTPUT", "PMIX_LOG_SOURCE"}},
      {"PMIx_Allocation_request", {}},
      {"PMIx_Allocation_request_nb", {}},
      {"PMIx_Job_control", {"PMIX_REGISTER_CLEANUP", "PMIX_REGISTER_CLEANUP_DIR",
                            "PMIX_CLEANUP_RECURSIVE", "PMIX_CLEANUP_EMPTY",
                            "PMIX_CLEANUP_IGNORE", "PMIX_CLEANUP_LEAVE_TOPDIR"}},
      {"PMIx_Job_control_nb", {"PMIX_REGISTER_CLEANUP", "PMIX_REGISTER_CLEANUP_DIR",
                               "PMIX_CLEANUP_RECURSIVE", "PMIX_CLEANUP_EMPTY",
                               "PMIX_CLEANUP_IGNORE", "PMIX_CLEANUP_LEAVE_TOPDIR"}},
      {"PMIx_Process_monitor", {"PMIX_SEND_HEARTBEAT", "PMIX_MONITOR_HEARTBEAT"}},
      {"PMIx_Process_monitor_nb", {"PMIX_SEND_HEARTBEAT", "PMIX_MONITOR_HEARTBEAT"}},
      {"PMIx_Get_credential", {"PMIX_CRED_TYPE"}},
      {"PMIx_Get_credential_nb", {"PMIX_CRED_TYPE"}},
      {"PMIx_Validate_credential", {"PMIX_CRED_TYPE"}},
      {"PMIx_Validate_credential_nb", {"PMIX_CRED_TYPE"}},
      {"PMIx_Register_event_handler",
       {"PMIX_EVENT_HDLR_NAME", "PMIX_EVENT_HDLR_FIRST", "PMIX_EVENT_HDLR_LAST",
        "PMIX_EVENT_HDLR_FIRST_IN_CATEGORY", "PMIX_EVENT_HDLR_LAST_IN_CATEGORY",
        "PMIX_EVENT_HDLR_BEFORE", "PMIX_EVENT_HDLR_AFTER", "PMIX_EVENT_HDLR_PREPEND",
        "PMIX_EVENT_HDLR_APPEND", "PMIX_EVENT_CUSTOM_RANGE", "PMIX_RANGE",
        "PMIX_EVENT_AFFECTED_PROC", "PMIX_EVENT_AFFECTED_PROCS", "PMIX_EVENT_RETURN_OBJECT"}},
      {"PMIx_Deregister_event_handler", {}},
      {"PMIx_Notify_event",
       {"PMIX_EVENT_NON_DEFAULT", "PMIX_EVENT_CUSTOM_RANGE", "PMIX_EVENT_AFFECTED_PROC",
        "PMIX_EVENT_AFFECTED_PROCS", "PMIX_EVENT_DO_NOT_CACHE"}},
  };
  return table;
}

const std::vector<Function>& ServerTable() {
  static const std::vector<Function> table = {
      {"PMIx_server_init",
       {"PMIX_SERVER_TMPDIR", "PMIX_SYSTEM_TMPDIR", "PMIX_SERVER_NSPACE", "PMIX_SERVER_RANK",
        "PMIX_HOSTNAME", "PMIX_EXTERNAL_PROGRESS", "PMIX_SERVER_TOOL_SUPPORT",
        "PMIX_SERVER_SYSTEM_SUPPORT", "PMIX_SERVER_SESSION_SUPPORT",
        "PMIX_LAUNCHER_RENDEZVOUS_FILE", "PMIX_TCP_REPORT_URI", "PMIX_TCP_IF_INCLUDE",
        "PMIX_TCP_IPV4_PORT", "PMIX_TCP_IPV6_PORT", "PMIX_TCP_DISABLE_IPV4",
        "PMIX_TCP_DISABLE_IPV6"}},
      {"PMIx_server_finalize", {}},
      {"PMIx_generate_regex", {}},
      {"PMIx_generate_ppn", {}},
      {"PMIx_server_register_nspace",
       {"PMIX_REGISTER_NODATA", "PMIX_SESSION_INFO_ARRAY", "PMIX_SESSION_ID",
        "PMIX_JOB_INFO_ARRAY", "PMIX_APP_INFO_ARRAY", "PMIX_NODE_INFO_ARRAY",
        "PMIX_PROC_INFO_ARRAY", "PMIX_NODE_MAP", "PMIX_PROC_MAP", "PMIX_JOB_SIZE",
        "PMIX_JOB_NUM_APPS", "PMIX_APPNUM", "PMIX_APP_SIZE", "PMIX_APPLDR", "PMIX_NPROC_OFFSET",
        "PMIX_LOCAL_PEERS", "PMIX_HOSTNAME", "PMIX_HOSTNAME_ALIASES", "PMIX_NODEID",
        "PMIX_RANK"}},
      {"PMIx_server_deregister_nspace", {}},
      {"PMIx_server_register_client", {}},
      {"PMIx_server_deregister_client", {}},
      {"PMIx_server_setup_fork", {}},
      {"PMIx_server_dmodex_request", {"PMIX_TIMEOUT"}},
      {"PMIx_server_setup_application",
       {"PMIX_SETUP_APP_ENVARS", "PMIX_SETUP_APP_NONENVARS", "PMIX_SETUP_APP_ALL",
        "PMIX_SET_ENVAR", "PMIX_ADD_ENVAR", "PMIX_UNSET_ENVAR", "PMIX_PREPEND_ENVAR",
        "PMIX_APPEND_ENVAR", "PMIX_FIRST_ENVAR"}},
      {"PMIx_server_setup_local_support", {}},
      {"PMIx_server_IOF_deliver", {"PMIX_IOF_COMPLETE"}},
      {"PMIx_server_collect_inventory", {}},
      {"PMIx_server_deliver_inventory", {"PMIX_HOSTNAME", "PMIX_AVAIL_PHYS_MEMORY"}},
      {"PMIx_server_register_resources", {}},
      {"PMIx_server_deregister_resources", {}},
      {"PMIx_Register_attributes", {}},
  };
  return table;
}

#define PMIXX_CONNECT_ATTRS                                                                      \
  "PMIX_TOOL_ATTACHMENT_FILE", "PMIX_SERVER_URI", "PMIX_TCP_URI", "PMIX_SERVER_PIDINFO",         \
      "PMIX_SERVER_NSPACE", "PMIX_CONNECT_TO_SYSTEM", "PMIX_CONNECT_SYSTEM_FIRST",               \
      "PMIX_CONNECT_MAX_RETRIES", "PMIX_CONNECT_RETRY_DELAY", "PMIX_WAIT_FOR_CONNECTION",        \
      "PMIX_TIMEOUT", "PMIX_SERVER_TMPDIR", "PMIX_SYSTEM_TMPDIR", "PMIX_HOSTNAME"

const std::vector<Function>& ToolTable() {
  static const std::vector<Function> table = {
      {"PMIx_tool_init",
       {"PMIX_TOOL_NSPACE", "PMIX_TOOL_RANK", "PMIX_TOOL_DO_NOT_CONNECT",
        "PMIX_TOOL_CONNECT_OPTIONAL", "PMIX_LAUNCHER", "PMIX_EXTERNAL_PROGRESS",
        "PMIX_LAUNCHER_RENDEZVOUS_FILE", "PMIX_TCP_REPORT_URI", PMIXX_CONNECT_ATTRS}},
      {"PMIx_tool_finalize", {}},
      {"PMIx_tool_disconnect", {}},
      {"PMIx_tool_attach_to_server", {"PMIX_PRIMARY_SERVER", PMIXX_CONNECT_ATTRS}},
      {"PMIx_tool_get_servers", {}},
      {"PMIx_tool_set_server", {"PMIX_WAIT_FOR_CONNECTION", "PMIX_TIMEOUT"}},
      {"PMIx_IOF_pull",
       {"PMIX_IOF_TAG_OUTPUT", "PMIX_IOF_RANK_OUTPUT", "PMIX_IOF_TIMESTAMP_OUTPUT",
        "PMIX_IOF_XML_OUTPUT", "PMIX_IOF_OUTPUT_RAW", "PMIX_IOF_LOCAL_OUTPUT",
        "PMIX_IOF_MERGE_STDERR_STDOUT", "PMIX_IOF_OUTPUT_TO_FILE", "PMIX_IOF_OUTPUT_TO_DIRECTORY",
        "PMIX_IOF_FILE_PATTERN", "PMIX_IOF_FILE_ONLY", "PMIX_IOF_BUFFERING_SIZE",
        "PMIX_IOF_BUFFERING_TIME"}},
      {"PMIx_IOF_deregister", {}},
      {"PMIx_IOF_push", {"PMIX_IOF_PUSH_STDIN", "PMIX_IOF_COMPLETE"}},
  };
  return table;
}
#undef PMIXX_CONNECT_ATTRS

const std::vector<Function>& TableOf(Level level) {
  switch (level) {
    case Level::kClient: return ClientTable();
    case Level::kServer: return ServerTable();
    default: return ToolTable();
  }
}

struct Qualifier {
  const char* key;
  Level level;
  bool functions;  // a list of functions, else their attributes
};
constexpr Qualifier kQualifiers[] = {
    {PMIX_CLIENT_FUNCTIONS, Level::kClient, true}, {PMIX_SERVER_FUNCTIONS, Level::kServer, true},
    {PMIX_TOOL_FUNCTIONS, Level::kTool, true},     {PMIX_CLIENT_ATTRIBUTES, Level::kClient, false},
    {PMIX_SERVER_ATTRIBUTES, Level::kServer, false}, {PMIX_TOOL_ATTRIBUTES, Level::kTool, false},
};

bool KeyIs(const pmix_info_t& i, const char* key) {
  return std::strncmp(i.key, key, PMIX_MAX_KEYLEN) == 0;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ",") + s;
  return out;
}

// Where the standard defines an attribute, as its description.
std::string Describe(const tables::AttributeRow* row) {
  if (row == nullptr) return "";
  std::string origin = row->origin;
  if (origin.rfind("std:", 0) == 0) return "Standard section " + origin.substr(4);
  return "OpenPMIx extension";
}

// Appends {function: PMIX_DATA_ARRAY of PMIX_REGATTR} for the functions of
// `level` the list ("all" or "a,b") names.
bool AddAttributes(Level level, const std::string& list, std::vector<pmix_info_t>* out) {
  std::vector<std::string> wanted = list == "all" ? Functions(level) : SplitCommas(list);
  for (const std::string& fn : wanted) {
    auto names = Attributes(level, fn);
    if (!names || fn.size() > PMIX_MAX_KEYLEN) continue;
    pmix_data_array_t* array = RegattrArray(*names);
    if (array == nullptr) return false;
    out->emplace_back();
    PMIx_Info_construct(&out->back());
    PMIx_Info_load(&out->back(), fn.c_str(), array, PMIX_DATA_ARRAY);
    PMIx_Data_array_free(array);
  }
  return true;
}

}  // namespace

std::vector<std::string> Functions(Level level) {
  std::vector<std::string> out;
  for (const Function& f : TableOf(level)) out.emplace_back(f.name);
  return out;
}

std::optional<std::vector<std::string>> Attributes(Level level, std::string_view function) {
  for (const Function& f : TableOf(level)) {
    if (function != f.name) continue;
    return std::vector<std::string>(f.attrs.begin(), f.attrs.end());
  }
  return std::nullopt;
}

bool AsksLibrary(std::span<const pmix_info_t> qualifiers) {
  for (const pmix_info_t& i : qualifiers)
    for (const Qualifier& q : kQualifiers)
      if (KeyIs(i, q.key)) return true;
  return false;
}

bool AsksHost(std::span<const pmix_info_t> qualifiers) {
  return FindInfo(qualifiers, PMIX_HOST_FUNCTIONS) != nullptr ||
         FindInfo(qualifiers, PMIX_HOST_ATTRIBUTES) != nullptr;
}

pmix_data_array_t* RegattrArray(const std::vector<std::string>& names) {
  size_t n = names.empty() ? 1 : names.size();
  pmix_data_array_t* array = PMIx_Data_array_create(n, PMIX_REGATTR);
  if (array == nullptr) return nullptr;
  auto* regs = static_cast<pmix_regattr_t*>(array->array);
  if (names.empty()) {
    PMIx_Regattr_load(&regs[0], "NONE", nullptr, PMIX_UNDEF, nullptr);
    return array;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const tables::AttributeRow* row = tables::FindAttributeByName(names[i]);
    if (row == nullptr) row = tables::FindAttributeByString(names[i]);
    std::string description = Describe(row);
    PMIx_Regattr_load(&regs[i], row != nullptr ? row->name : names[i].c_str(),
                      row != nullptr ? row->string : names[i].c_str(),
                      row != nullptr ? row->type : PMIX_UNDEF,
                      description.empty() ? nullptr : description.c_str());
  }
  return array;
}

Status AddLibraryAnswer(std::span<const pmix_info_t> qualifiers, std::vector<pmix_info_t>* out) {
  for (const pmix_info_t& i : qualifiers) {
    for (const Qualifier& q : kQualifiers) {
      if (!KeyIs(i, q.key)) continue;
      if (q.functions) {
        if (!PMIX_INFO_TRUE(&i)) continue;
        std::string list = Join(Functions(q.level));
        out->emplace_back();
        PMIx_Info_construct(&out->back());
        PMIx_Info_load(&out->back(), q.key, list.c_str(), PMIX_STRING);
        continue;
      }
      std::string list = i.value.type == PMIX_STRING && i.value.data.string != nullptr
                             ? i.value.data.string
                             : "all";
      if (!AddAttributes(q.level, list, out)) return Status(PMIX_ERR_NOMEM);
    }
  }
  return Status();
}

}  // namespace pmix::attrs
