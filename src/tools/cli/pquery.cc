// pquery KEY[QUAL=VALUE;QUAL=VALUE]...: asks the server for any query key
// (PMIx_Query_info) and prints the answers in OpenPMIx 4.2's shape: per
// answer "<NAME>: " on a line of its own, then a string answer's
// comma-separated items one per line after four spaces (attribute strings
// shown by their names), any other value as the library prints it, after
// two spaces, on stderr (as OpenPMIx does). Keys and qualifiers may be
// given by name (PMIX_QUERY_NAMESPACES) or by string (pmix.qry.ns);
// qualifier values are strings, except the ranks, node ids and app numbers.
// Without connection options it uses a server if it finds one (queries the
// library answers itself, e.g. PMIX_QUERY_ATTRIBUTE_SUPPORT about the
// client, need none).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/cli/cli.h"

namespace {

// A name (PMIX_...) or a key string as the key string.
std::string KeyOf(const std::string& text) {
  const char* s = PMIx_Get_attribute_string(text.c_str());
  return s != nullptr ? s : text;
}

// A key string as its attribute name, when it has one.
std::string NameOf(const char* key) {
  const char* n = PMIx_Get_attribute_name(key);
  return n != nullptr ? n : key;
}

bool Numeric(const std::string& key) {
  return key == PMIX_RANK || key == PMIX_NODEID || key == PMIX_APPNUM;
}

struct Query {
  std::vector<std::string> keys;
  std::vector<std::pair<std::string, std::string>> quals;
};

bool ParseWord(const std::string& word, Query* q) {
  size_t open = word.find('[');
  q->keys.push_back(KeyOf(word.substr(0, open)));
  if (open == std::string::npos) return true;
  size_t close = word.rfind(']');
  if (close == std::string::npos || close < open) return false;
  std::string list = word.substr(open + 1, close - open - 1);
  for (size_t start = 0; start <= list.size();) {
    size_t semi = list.find(';', start);
    if (semi == std::string::npos) semi = list.size();
    std::string pair = list.substr(start, semi - start);
    start = semi + 1;
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    if (eq == std::string::npos) return false;
    q->quals.emplace_back(KeyOf(pair.substr(0, eq)), pair.substr(eq + 1));
  }
  return true;
}

void Print(const pmix_info_t& info) {
  std::printf("%s: \n", NameOf(info.key).c_str());
  if (info.value.type == PMIX_STRING) {
    std::string list = info.value.data.string != nullptr ? info.value.data.string : "";
    for (size_t start = 0; start < list.size();) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      std::string item = list.substr(start, comma - start);
      std::printf("    %s\n", NameOf(item.c_str()).c_str());
      start = comma + 1;
    }
    return;
  }
  char* text = PMIx_Value_string(&info.value);
  std::fflush(stdout);
  std::fprintf(stderr, "  %s\n", text != nullptr ? text : "NULL");
  std::free(text);
}

}  // namespace

int main(int argc, char** argv) {
  pmixcli::Command cmd;
  switch (pmixcli::Parse(argc, argv, "pquery", "PMIx Query tool", {},
                         "Keys passed to pquery may optionally include one or more qualifiers, with the\n"
                         "individual qualifiers delimited by semi-colons. For example:\n\n"
                         "PMIX_QUERY_PROC_TABLE[PMIX_NSPACE=myjob]",
                         &cmd)) {
    case pmixcli::Parsed::kExit0: return 0;
    case pmixcli::Parsed::kError: return 2;
    case pmixcli::Parsed::kRun: break;
  }
  if (cmd.rest.empty()) {
    std::fprintf(stderr, "pquery: give at least one key to query (see pquery --help)\n");
    return pmixcli::kFailure;
  }
  std::vector<Query> parsed(cmd.rest.size());
  for (size_t i = 0; i < cmd.rest.size(); ++i) {
    if (!ParseWord(cmd.rest[i], &parsed[i])) {
      std::fprintf(stderr, "pquery: bad qualifiers in '%s' (KEY[QUAL=VALUE;...])\n",
                   cmd.rest[i].c_str());
      return pmixcli::kFailure;
    }
  }
  pmix_proc_t me;
  if (!pmixcli::InitTool(cmd, true, false, &me)) return pmixcli::kFailure;
  std::vector<pmix_query_t> queries(parsed.size());
  std::vector<std::vector<char*>> keys(parsed.size());
  for (size_t i = 0; i < parsed.size(); ++i) {
    PMIX_QUERY_CONSTRUCT(&queries[i]);
    for (std::string& k : parsed[i].keys) keys[i].push_back(k.data());
    keys[i].push_back(nullptr);
    queries[i].keys = keys[i].data();
    if (parsed[i].quals.empty()) continue;
    queries[i].nqual = parsed[i].quals.size();
    queries[i].qualifiers = PMIx_Info_create(queries[i].nqual);
    for (size_t q = 0; q < queries[i].nqual; ++q) {
      const auto& [key, value] = parsed[i].quals[q];
      uint32_t number = static_cast<uint32_t>(std::strtoul(value.c_str(), nullptr, 10));
      if (Numeric(key))
        (void)PMIx_Info_load(&queries[i].qualifiers[q], key.c_str(), &number,
                             key == PMIX_RANK ? PMIX_PROC_RANK : PMIX_UINT32);
      else
        (void)PMIx_Info_load(&queries[i].qualifiers[q], key.c_str(), value.c_str(), PMIX_STRING);
    }
  }
  pmix_info_t* results = nullptr;
  size_t n = 0;
  pmix_status_t rc = PMIx_Query_info(queries.data(), queries.size(), &results, &n);
  for (pmix_query_t& q : queries)
    if (q.qualifiers != nullptr) PMIx_Info_free(q.qualifiers, q.nqual);
  int status = 0;
  if (rc != PMIX_SUCCESS && rc != PMIX_ERR_PARTIAL_SUCCESS) {
    std::fprintf(stderr, "PMIx_Query_info returned: %s\n", PMIx_Error_string(rc));
    status = pmixcli::kFailure;
  } else if (n == 0) {
    std::fprintf(stderr, "Query returned zero results\n");
  }
  for (size_t i = 0; i < n; ++i) Print(results[i]);
  if (results != nullptr) PMIx_Info_free(results, n);
  PMIx_tool_finalize();
  return status;
}
