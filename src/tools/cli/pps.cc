// pps: the namespaces a server knows and their processes. As OpenPMIx
// 4.2's pps it says "pps: querying nspaces" and "Active nspaces: <list>"
// on stderr; then, per namespace, a table of its processes on stdout
// (PMIX_QUERY_PROC_TABLE):
//   \tProcess Name | PMIX Name | Local Rank | PID | Node | State |
// with dashes under the header; --nodes adds, per namespace, its nodes and
// how many of its processes each runs. Without connection options it
// tries the system server first, then any server it finds.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/cli/cli.h"

namespace {

struct Row {
  std::string exe, name, local, pid, node, state;
};

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> out;
  for (size_t start = 0; start < list.size();) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) out.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

pmix_status_t QueryOne(const char* key, const std::string& nspace, pmix_info_t** results, size_t* n) {
  pmix_query_t q;
  PMIX_QUERY_CONSTRUCT(&q);
  char* keys[2] = {const_cast<char*>(key), nullptr};
  q.keys = keys;
  pmix_info_t qual;
  PMIx_Info_construct(&qual);
  if (!nspace.empty()) {
    (void)PMIx_Info_load(&qual, PMIX_NSPACE, nspace.c_str(), PMIX_STRING);
    q.qualifiers = &qual;
    q.nqual = 1;
  }
  pmix_status_t rc = PMIx_Query_info(&q, 1, results, n);
  PMIx_Info_destruct(&qual);
  return rc;
}

// From the server (the tool has no job data of its own), bounded.
std::string LocalRank(const pmix_proc_t& p) {
  pmix_value_t* v = nullptr;
  std::string out = "?";
  pmix_info_t opt;
  int seconds = 5;
  PMIx_Info_construct(&opt);
  (void)PMIx_Info_load(&opt, PMIX_TIMEOUT, &seconds, PMIX_INT);
  if (PMIx_Get(&p, PMIX_LOCAL_RANK, &opt, 1, &v) == PMIX_SUCCESS && v != nullptr &&
      v->type == PMIX_UINT16)
    out = std::to_string(v->data.uint16);
  if (v != nullptr) PMIx_Value_free(v, 1);
  PMIx_Info_destruct(&opt);
  return out;
}

void Print(const std::vector<Row>& rows) {
  const char* head[] = {"Process Name", "PMIX Name", "Local Rank", "PID", "Node", "State"};
  size_t w[6];
  for (int i = 0; i < 6; ++i) w[i] = std::strlen(head[i]);
  for (const Row& r : rows) {
    const std::string* f[] = {&r.exe, &r.name, &r.local, &r.pid, &r.node, &r.state};
    for (int i = 0; i < 6; ++i) w[i] = std::max(w[i], f[i]->size());
  }
  std::printf("\t");
  for (int i = 0; i < 6; ++i) std::printf("%*s | ", static_cast<int>(w[i]), head[i]);
  size_t line = 2;
  for (size_t x : w) line += x + 3;
  std::printf("\n\t%s\n", std::string(line, '-').c_str());
  for (const Row& r : rows) {
    const std::string* f[] = {&r.exe, &r.name, &r.local, &r.pid, &r.node, &r.state};
    std::printf("\t");
    for (int i = 0; i < 6; ++i) std::printf("%*s | ", static_cast<int>(w[i]), f[i]->c_str());
    std::printf("\n");
  }
}

void ShowJob(const std::string& nspace, bool nodes) {
  pmix_info_t* results = nullptr;
  size_t n = 0;
  pmix_status_t rc = QueryOne(PMIX_QUERY_PROC_TABLE, nspace, &results, &n);
  std::printf("\nNamespace %s\n", nspace.c_str());
  if (rc != PMIX_SUCCESS || n == 0 || results[0].value.type != PMIX_DATA_ARRAY ||
      results[0].value.data.darray == nullptr) {
    std::printf("\t(no process table: %s)\n", PMIx_Error_string(rc));
    if (results != nullptr) PMIx_Info_free(results, n);
    return;
  }
  const pmix_data_array_t* a = results[0].value.data.darray;
  auto* procs = static_cast<pmix_proc_info_t*>(a->array);
  std::vector<Row> rows;
  std::map<std::string, int> per_node;
  for (size_t i = 0; i < a->size; ++i) {
    const pmix_proc_info_t& p = procs[i];
    Row r;
    r.exe = p.executable_name != nullptr ? p.executable_name : "Unknown";
    r.name = std::string(p.proc.nspace) + ":" + std::to_string(p.proc.rank);
    r.local = LocalRank(p.proc);
    r.pid = std::to_string(p.pid);
    r.node = p.hostname != nullptr ? p.hostname : "Unknown";
    r.state = PMIx_Proc_state_string(p.state);
    per_node[r.node]++;
    rows.push_back(std::move(r));
  }
  Print(rows);
  if (nodes) {
    std::printf("\n\t%-20s | %s\n", "Node Name", "Procs");
    for (const auto& [node, count] : per_node) std::printf("\t%-20s | %d\n", node.c_str(), count);
  }
  PMIx_Info_free(results, n);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<pmixcli::OptionSpec> extra = {
      {"nodes", pmixcli::Arg::kNone, "Display Node Information"},
  };
  pmixcli::Command cmd;
  switch (pmixcli::Parse(argc, argv, "pps", "PMIx Job and Process Status Tool", extra, "", &cmd)) {
    case pmixcli::Parsed::kExit0: return 0;
    case pmixcli::Parsed::kError: return 2;
    case pmixcli::Parsed::kRun: break;
  }
  bool targeted = cmd.Has("pid") || cmd.Has("namespace") || cmd.Has("uri") ||
                  cmd.Has("system-server") || cmd.Has("system-server-first");
  if (!targeted) cmd.given["system-server-first"] = std::nullopt;
  pmix_proc_t me;
  if (!pmixcli::InitTool(cmd, false, false, &me)) return pmixcli::kFailure;
  std::fprintf(stderr, "pps: querying nspaces\n");
  pmix_info_t* results = nullptr;
  size_t n = 0;
  pmix_status_t rc = QueryOne(PMIX_QUERY_NAMESPACES, "", &results, &n);
  int status = 0;
  if (rc != PMIX_SUCCESS || n != 1 || results[0].value.type != PMIX_STRING) {
    std::fprintf(stderr, "PMIx_Query_info failed: %s\n", PMIx_Error_string(rc));
    status = pmixcli::kFailure;
  } else {
    std::string list = results[0].value.data.string != nullptr ? results[0].value.data.string : "";
    std::fprintf(stderr, "Active nspaces: %s\n", list.c_str());
    for (const std::string& ns : Split(list)) ShowJob(ns, cmd.Has("nodes"));
  }
  if (results != nullptr) PMIx_Info_free(results, n);
  PMIx_tool_finalize();
  return status;
}
