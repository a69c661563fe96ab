// The query keys the server library answers itself (server_query_keys.h).
#include "src/server/server_query_keys.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mca/pnet/base/pnet_base.h"
#include "pmix.h"
#include "src/common/attribute_support.h"
#include "src/common/info_lookup.h"
#include "src/server/server_attributes.h"
#include "src/server/server_group.h"
#include "src/server/server_pset.h"
#include "src/server/server_identity.h"

namespace pmix::server {
namespace {

gds::ValuePtr NewValue() { return gds::ValuePtr(PMIx_Value_create(1)); }

gds::ValuePtr StringValue(const std::string& s) {
  gds::ValuePtr v = NewValue();
  if (v == nullptr || PMIx_Value_load(v.get(), s.c_str(), PMIX_STRING) != PMIX_SUCCESS)
    return nullptr;
  return v;
}

// Takes the array (nullptr when it is null).
gds::ValuePtr ArrayValue(pmix_data_array_t* array) {
  if (array == nullptr) return nullptr;
  gds::ValuePtr v = NewValue();
  if (v == nullptr) {
    PMIx_Data_array_free(array);
    return nullptr;
  }
  v->type = PMIX_DATA_ARRAY;
  v->data.darray = array;
  return v;
}

pmix_data_array_t* InfoArray(const wire::Infos& infos) {
  auto copy = infos.ToMalloced();
  if (!copy.ok()) return nullptr;
  auto* array = static_cast<pmix_data_array_t*>(std::calloc(1, sizeof(pmix_data_array_t)));
  if (array == nullptr) {
    PMIx_Info_free(*copy, infos.size());
    return nullptr;
  }
  array->type = PMIX_INFO;
  array->size = infos.size();
  array->array = *copy;
  return array;
}

// Adds key = a PMIX_DATA_ARRAY of `inner` (copied).
Status AddArray(wire::Infos& out, const char* key, const wire::Infos& inner) {
  pmix_data_array_t* array = InfoArray(inner);
  if (array == nullptr) return Status(PMIX_ERR_NOMEM);
  Status st = out.Add(key, array, PMIX_DATA_ARRAY);
  PMIx_Data_array_free(array);
  return st;
}

std::optional<std::string> StoreString(const Server& s, const pmix_proc_t& proc,
                                       const gds::Where& where, const char* key) {
  auto v = s.store.FetchValue(proc, where, PMIX_GDS_VIEW_ALL, key);
  if (!v.ok() || (*v)->type != PMIX_STRING || (*v)->data.string == nullptr) return std::nullopt;
  return std::string((*v)->data.string);
}

// The command line of a namespace's app (app 0 unless given).
std::optional<std::string> AppArgv(const Server& s, const char* nspace, uint32_t appnum) {
  pmix_proc_t job;
  PMIx_Load_procid(&job, nspace, PMIX_RANK_WILDCARD);
  auto argv = StoreString(s, job, gds::Where::App(appnum), PMIX_APP_ARGV);
  return argv ? argv : StoreString(s, job, gds::Where::Job(), PMIX_APP_ARGV);
}

std::string FirstWord(const std::string& line) { return line.substr(0, line.find(' ')); }

// --- the keys -----------------------------------------------------------------

gds::ValuePtr Namespaces(Server& s, const pmix_proc_t&, const query::Query&) {
  std::string list;
  for (const auto& [name, ns] : s.nspaces) list += (list.empty() ? "" : ",") + name;
  return list.empty() ? nullptr : StringValue(list);
}

gds::ValuePtr NamespaceInfo(Server& s, const pmix_proc_t&, const query::Query& q) {
  auto only = InfoString(q.qualifiers.view(), PMIX_NSPACE);
  wire::Infos all;
  for (const auto& [name, ns] : s.nspaces) {
    if (only && *only != name) continue;
    wire::Infos one;
    if (!one.Add(PMIX_NSPACE, name.c_str(), PMIX_STRING).ok()) return nullptr;
    if (auto argv = AppArgv(s, name.c_str(), 0))
      if (!one.Add(PMIX_CMD_LINE, argv->c_str(), PMIX_STRING).ok()) return nullptr;
    if (!AddArray(all, PMIX_QUERY_NAMESPACE_INFO, one).ok()) return nullptr;
  }
  return all.size() == 0 ? nullptr : ArrayValue(InfoArray(all));
}

// Connected; gone after PMIx_Finalize (terminated) or without it, also
// once the host deregistered it; else registered and not (yet) connected.
pmix_proc_state_t StateOf(const Namespace& ns, pmix_rank_t rank) {
  const ClientRecord* record = ns.Record(rank);
  if (record == nullptr) return PMIX_PROC_STATE_UNDEF;
  if (record->peer != nullptr) return PMIX_PROC_STATE_CONNECTED;
  if (record->departed == PMIX_ERR_PROC_TERM_WO_SYNC) return PMIX_PROC_STATE_TERM_WO_SYNC;
  if (record->departed != PMIX_SUCCESS) return PMIX_PROC_STATE_TERMINATED;
  return PMIX_PROC_STATE_PREPPED;
}

// The pid of the connected process, or the one it had, or the one the host
// registered (PMIX_PROC_PID); 0 when none is known.
pid_t PidOf(const Server& s, const Namespace& ns, const pmix_proc_t& proc) {
  if (const ClientRecord* record = ns.Record(proc.rank)) {
    if (record->peer != nullptr) return record->peer->pid;
    if (record->pid != 0) return record->pid;
  }
  auto v = s.store.FetchValue(proc, gds::Where::Proc(), PMIX_GDS_VIEW_ALL, PMIX_PROC_PID);
  return v.ok() && (*v)->type == PMIX_PID ? (*v)->data.pid : 0;
}

void FillProcInfo(const Server& s, const Namespace& ns, pmix_rank_t rank, pmix_proc_info_t& out) {
  PMIx_Load_procid(&out.proc, ns.name.c_str(), rank);
  auto host = StoreString(s, out.proc, gds::Where::Proc(), PMIX_HOSTNAME);
  out.hostname = host ? ::strdup(host->c_str()) : nullptr;
  uint32_t appnum = 0;
  auto app = s.store.FetchValue(out.proc, gds::Where::Proc(), PMIX_GDS_VIEW_ALL, PMIX_APPNUM);
  if (app.ok() && (*app)->type == PMIX_UINT32) appnum = (*app)->data.uint32;
  auto argv = AppArgv(s, ns.name.c_str(), appnum);
  out.executable_name = argv ? ::strdup(FirstWord(*argv).c_str()) : nullptr;
  out.pid = PidOf(s, ns, out.proc);
  // The exit code the host reported in an event about it.
  const ClientRecord* record = ns.Record(rank);
  out.exit_code = record != nullptr ? record->exit_code.value_or(0) : 0;
  out.state = StateOf(ns, rank);
}

gds::ValuePtr ProcTable(Server& s, const Namespace& ns, const std::vector<pmix_rank_t>& ranks) {
  if (ranks.empty()) return nullptr;
  pmix_data_array_t* array = PMIx_Data_array_create(ranks.size(), PMIX_PROC_INFO);
  if (array == nullptr) return nullptr;
  auto* infos = static_cast<pmix_proc_info_t*>(array->array);
  for (size_t i = 0; i < ranks.size(); ++i) FillProcInfo(s, ns, ranks[i], infos[i]);
  return ArrayValue(array);
}

Namespace* TargetNamespace(Server& s, const pmix_proc_t& requester, const query::Query& q) {
  auto nspace = query::QueryNspace(q);
  return s.FindNamespace(nspace ? *nspace : std::string(requester.nspace));
}

std::vector<pmix_rank_t> AllRanks(const Namespace& ns) {
  std::vector<pmix_rank_t> ranks;
  if (ns.summary.job_size > 0) {
    for (pmix_rank_t r = 0; r < ns.summary.job_size; ++r) ranks.push_back(r);
    return ranks;
  }
  for (const auto& [rank, record] : ns.clients) ranks.push_back(rank);
  return ranks;
}

gds::ValuePtr FullTable(Server& s, const pmix_proc_t& requester, const query::Query& q) {
  Namespace* ns = TargetNamespace(s, requester, q);
  return ns == nullptr ? nullptr : ProcTable(s, *ns, AllRanks(*ns));
}

gds::ValuePtr LocalTable(Server& s, const pmix_proc_t& requester, const query::Query& q) {
  Namespace* ns = TargetNamespace(s, requester, q);
  if (ns == nullptr) return nullptr;
  auto host = InfoString(q.qualifiers.view(), PMIX_HOSTNAME);
  if (!host || *host == s.hostname) return ProcTable(s, *ns, ns->summary.local_ranks);
  std::vector<pmix_rank_t> ranks;
  for (pmix_rank_t r : AllRanks(*ns)) {
    pmix_proc_t p;
    PMIx_Load_procid(&p, ns->name.c_str(), r);
    if (StoreString(s, p, gds::Where::Proc(), PMIX_HOSTNAME) == host) ranks.push_back(r);
  }
  return ProcTable(s, *ns, ranks);
}

gds::ValuePtr AvailServers(Server& s, const pmix_proc_t&, const query::Query&) {
  wire::Infos me;
  pid_t pid = ::getpid();
  Status st = me.Add(PMIX_NSPACE, s.myproc.nspace, PMIX_STRING);
  if (st.ok()) st = me.Add(PMIX_RANK, &s.myproc.rank, PMIX_PROC_RANK);
  const std::string uri = ServerUriValue(s);
  if (st.ok() && !uri.empty()) st = me.Add(PMIX_SERVER_URI, uri.c_str(), PMIX_STRING);
  if (st.ok()) st = me.Add(PMIX_HOSTNAME, s.hostname.c_str(), PMIX_STRING);
  if (st.ok()) st = me.Add(PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
  wire::Infos list;
  if (st.ok()) st = AddArray(list, PMIX_SERVER_INFO_ARRAY, me);
  return st.ok() ? ArrayValue(InfoArray(list)) : nullptr;
}

gds::ValuePtr ServerUri(Server& s, const pmix_proc_t&, const query::Query&) {
  const std::string uri = ServerUriValue(s);
  return uri.empty() ? nullptr : StringValue(uri);
}

// A PMIX_DATA_ARRAY of PMIX_REGATTR for the attribute strings (names from
// the attribute table where known).
pmix_data_array_t* Regattrs(const std::vector<std::string>& attrs) {
  pmix_data_array_t* array = PMIx_Data_array_create(attrs.size(), PMIX_REGATTR);
  if (array == nullptr) return nullptr;
  auto* regs = static_cast<pmix_regattr_t*>(array->array);
  for (size_t i = 0; i < attrs.size(); ++i) {
    const char* name = PMIx_Get_attribute_name(attrs[i].c_str());
    PMIx_Regattr_load(&regs[i], name != nullptr ? name : attrs[i].c_str(), attrs[i].c_str(),
                      PMIX_UNDEF, nullptr);
  }
  return array;
}

// PMIX_HOST_ATTRIBUTES: "all" or a comma list of functions.
std::vector<std::string> RequestedFunctions(const pmix_info_t& info) {
  std::string list = info.value.type == PMIX_STRING && info.value.data.string != nullptr
                         ? info.value.data.string
                         : "all";
  if (list == "all") return RegisteredAttributeFunctions();
  std::vector<std::string> out;
  for (size_t start = 0; start <= list.size();) {
    size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

Status AddHostAttributes(wire::Infos& out, const pmix_info_t& request) {
  for (const std::string& fn : RequestedFunctions(request)) {
    auto attrs = RegisteredAttributes(fn);
    if (!attrs || fn.size() > PMIX_MAX_KEYLEN) continue;
    pmix_data_array_t* array = Regattrs(*attrs);
    if (array == nullptr) return Status(PMIX_ERR_NOMEM);
    Status st = out.Add(fn.c_str(), array, PMIX_DATA_ARRAY);
    PMIx_Data_array_free(array);
    PMIX_RETURN_IF_ERROR(st);
  }
  return Status();
}

gds::ValuePtr AttributeSupport(Server& s, const pmix_proc_t&, const query::Query& q) {
  wire::Infos out;
  if (InfoFlag(q.qualifiers.view(), PMIX_HOST_FUNCTIONS) &&
      !out.Add(PMIX_HOST_FUNCTIONS, HostFunctions(s.module).c_str(), PMIX_STRING).ok())
    return nullptr;
  const pmix_info_t* attrs = FindInfo(q.qualifiers.view(), PMIX_HOST_ATTRIBUTES);
  if (attrs != nullptr && !AddHostAttributes(out, *attrs).ok()) return nullptr;
  std::vector<pmix_info_t> library;  // the library's own levels (attribute_support.h)
  Status lib = attrs::AddLibraryAnswer(q.qualifiers.view(), &library);
  for (const pmix_info_t& i : library) {
    if (lib.ok()) lib = out.Append(i);
  }
  for (pmix_info_t& i : library) PMIx_Info_destruct(&i);
  if (!lib.ok()) return nullptr;
  return out.size() == 0 ? nullptr : ArrayValue(InfoArray(out));
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

// The attributes the host registered for PMIx_Spawn (under the API's name
// or its upcall's).
std::optional<std::vector<std::string>> SpawnAttributes() {
  auto attrs = RegisteredAttributes("PMIx_Spawn");
  return attrs ? attrs : RegisteredAttributes("spawn");
}

gds::ValuePtr SpawnSupport(Server&, const pmix_proc_t&, const query::Query&) {
  auto attrs = SpawnAttributes();
  return attrs && !attrs->empty() ? StringValue(Join(*attrs)) : nullptr;
}

// The debugger attributes ("pmix.dbg.*") the host registered for any function.
gds::ValuePtr DebugSupport(Server&, const pmix_proc_t&, const query::Query&) {
  std::vector<std::string> found;
  for (const std::string& fn : RegisteredAttributeFunctions()) {
    for (const std::string& a : RegisteredAttributes(fn).value_or(std::vector<std::string>{}))
      if (a.rfind("pmix.dbg.", 0) == 0 && std::find(found.begin(), found.end(), a) == found.end())
        found.push_back(a);
  }
  return found.empty() ? nullptr : StringValue(Join(found));
}

// A PMIX_FABRIC_* key of the node's fabric as the pnet components describe
// it (the qualifiers may name the plane with PMIX_FABRIC_PLANE).
template <const char* const* Key>
gds::ValuePtr FabricKey(Server&, const pmix_proc_t&, const query::Query& q) {
  auto fabric = pnet::FabricInfo(q.qualifiers.view());
  if (!fabric.ok()) return nullptr;
  const pmix_info_t* found = FindInfo(fabric->view(), *Key);
  if (found == nullptr) return nullptr;
  gds::ValuePtr v = NewValue();
  if (v == nullptr || PMIx_Value_xfer(v.get(), &found->value) != PMIX_SUCCESS) return nullptr;
  return v;
}
constexpr const char* kFabricVendor = PMIX_FABRIC_VENDOR;
constexpr const char* kFabricIdentifier = PMIX_FABRIC_IDENTIFIER;
constexpr const char* kFabricNumDevices = PMIX_FABRIC_NUM_DEVICES;
constexpr const char* kFabricDevices = PMIX_FABRIC_DEVICES;
constexpr const char* kFabricPlane = PMIX_FABRIC_PLANE;

using KeyFn = gds::ValuePtr (*)(Server&, const pmix_proc_t&, const query::Query&);
struct LibraryKey {
  const char* key;
  KeyFn fn;
};
constexpr LibraryKey kLibraryKeys[] = {
    {PMIX_QUERY_NAMESPACES, Namespaces},
    {PMIX_QUERY_NAMESPACE_INFO, NamespaceInfo},
    {PMIX_QUERY_PROC_TABLE, FullTable},
    {PMIX_QUERY_LOCAL_PROC_TABLE, LocalTable},
    {PMIX_QUERY_AVAIL_SERVERS, AvailServers},
    {PMIX_SERVER_URI, ServerUri},
    {PMIX_FABRIC_VENDOR, FabricKey<&kFabricVendor>},
    {PMIX_FABRIC_IDENTIFIER, FabricKey<&kFabricIdentifier>},
    {PMIX_FABRIC_NUM_DEVICES, FabricKey<&kFabricNumDevices>},
    {PMIX_FABRIC_DEVICES, FabricKey<&kFabricDevices>},
    {PMIX_FABRIC_PLANE, FabricKey<&kFabricPlane>},
    {PMIX_QUERY_ATTRIBUTE_SUPPORT, AttributeSupport},
    {PMIX_QUERY_SPAWN_SUPPORT, SpawnSupport},
    {PMIX_QUERY_DEBUG_SUPPORT, DebugSupport},
};

// The module's upcalls and the APIs that reach them.
struct HostFunction {
  bool (*present)(const pmix_server_module_t&);
  const char* api;
};
#define PMIXX_UPCALL(field, api)                                          \
  {                                                                       \
    [](const pmix_server_module_t& m) { return m.field != nullptr; }, api \
  }
constexpr HostFunction kHostFunctions[] = {
    PMIXX_UPCALL(abort, "PMIx_Abort"),
    PMIXX_UPCALL(fence_nb, "PMIx_Fence"),
    PMIXX_UPCALL(direct_modex, "PMIx_Get"),
    PMIXX_UPCALL(publish, "PMIx_Publish"),
    PMIXX_UPCALL(lookup, "PMIx_Lookup"),
    PMIXX_UPCALL(unpublish, "PMIx_Unpublish"),
    PMIXX_UPCALL(spawn, "PMIx_Spawn"),
    PMIXX_UPCALL(connect, "PMIx_Connect"),
    PMIXX_UPCALL(disconnect, "PMIx_Disconnect"),
    PMIXX_UPCALL(notify_event, "PMIx_Notify_event"),
    PMIXX_UPCALL(query, "PMIx_Query_info"),
    PMIXX_UPCALL(log, "PMIx_Log"),
    PMIXX_UPCALL(allocate, "PMIx_Allocation_request"),
    PMIXX_UPCALL(job_control, "PMIx_Job_control"),
    PMIXX_UPCALL(monitor, "PMIx_Process_monitor"),
    PMIXX_UPCALL(get_credential, "PMIx_Get_credential"),
    PMIXX_UPCALL(validate_credential, "PMIx_Validate_credential"),
    // Only upcalls the library calls: register_events / deregister_events,
    // iof_pull / push_stdin, group and fabric join this list when the
    // library forwards those APIs to the host (issues 11, 12, 13).
};
#undef PMIXX_UPCALL

}  // namespace

bool IsLibraryQueryKey(std::string_view key) {
  for (const LibraryKey& k : kLibraryKeys)
    if (key == k.key) return true;
  return key == PMIX_QUERY_NUM_GROUPS || key == PMIX_QUERY_GROUP_NAMES ||
         key == PMIX_QUERY_GROUP_MEMBERSHIP || IsPsetQueryKey(key);
}

gds::ValuePtr LibraryQueryAnswer(Server& s, const pmix_proc_t& requester, const query::Query& query,
                                 std::string_view key) {
  for (const LibraryKey& k : kLibraryKeys)
    if (key == k.key) return k.fn(s, requester, query);
  return GroupQueryAnswer(s, query, key);  // groups and process sets (server_group.h)
}

std::string HostFunctions(const pmix_server_module_t& module) {
  std::string list;
  for (const HostFunction& f : kHostFunctions)
    if (f.present(module)) list += std::string(list.empty() ? "" : ",") + f.api;
  return list;
}

}  // namespace pmix::server
