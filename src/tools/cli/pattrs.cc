// pattrs: which functions this PMIx library (client, server, tool level)
// and the host environment support, and which attributes each supports,
// from PMIx_Query_info(PMIX_QUERY_ATTRIBUTE_SUPPORT) -- the library's
// levels answered without a server, the host's by the server found as the
// connection options say. The output has OpenPMIx 4.2's shape (on stderr,
// as there): a function list is a title line and one function per line
// ("\t" before each of the host's); an attribute table has a title, column
// headers (NAME, STRING, TYPE, DESCRIPTION) and dashes, then per function
// "<function>:" and one line per attribute in 35/25/20-wide columns, with
// a line of '=' between functions.
//
// --client [FNS], --server [FNS], --tool [FNS], --host [FNS]: without FNS
// the level's functions (also --client-fns, ...), with FNS ("all" or
// "a,b") their attributes.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/cli/cli.h"

namespace {

constexpr size_t kName = 35, kString = 25, kType = 20, kWidth = 141;

struct Level {
  const char* option;       // "client"
  const char* functions;    // PMIX_CLIENT_FUNCTIONS
  const char* attributes;   // PMIX_CLIENT_ATTRIBUTES
  const char* upper;        // "CLIENT"
};
constexpr Level kLevels[] = {
    {"client", PMIX_CLIENT_FUNCTIONS, PMIX_CLIENT_ATTRIBUTES, "CLIENT"},
    {"server", PMIX_SERVER_FUNCTIONS, PMIX_SERVER_ATTRIBUTES, "SERVER"},
    {"tool", PMIX_TOOL_FUNCTIONS, PMIX_TOOL_ATTRIBUTES, "TOOL"},
    {"host", PMIX_HOST_FUNCTIONS, PMIX_HOST_ATTRIBUTES, "HOST"},
};

void Put(std::string& line, size_t at, const std::string& text, size_t width) {
  std::string part = text.substr(0, width);
  if (line.size() < at + part.size()) line.resize(at + part.size(), ' ');
  line.replace(at, part.size(), part);
}

std::string Trimmed(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void Headers(const Level& l) {
  std::fprintf(stderr, "%s SUPPORTED ATTRIBUTES: \n", l.upper);
  std::string line(kWidth - 1, ' ');
  Put(line, kName / 2 - 1, "NAME", 4);
  Put(line, 3 + kName + kString / 2 - 2, "STRING", 6);
  Put(line, 3 + kName + kString + kType / 2 - 2, "TYPE", 4);
  size_t left = kName + kString + kType + (kWidth - kName - kString - kType) / 2 - 3 - 5;
  Put(line, left, "DESCRIPTION", 11);
  std::fprintf(stderr, "%s\n", Trimmed(line).c_str());
  std::string dashes(kWidth - 1, ' ');
  Put(dashes, 0, std::string(kName, '-'), kName);
  Put(dashes, kName + 2, std::string(kString, '-'), kString);
  Put(dashes, kName + kString + 4, std::string(kType, '-'), kType);
  Put(dashes, kName + kString + kType + 6, std::string(kWidth - 1 - (kName + kString + kType + 6), '-'),
      kWidth);
  std::fprintf(stderr, "%s\n", dashes.c_str());
}

void Attributes(const char* function, const pmix_regattr_t* regs, size_t n) {
  std::fprintf(stderr, "%s:\n", function);
  for (size_t i = 0; i < n; ++i) {
    std::string line;
    Put(line, 0, regs[i].name != nullptr ? regs[i].name : "", kName);
    if (regs[i].string[0] != '\0') {
      Put(line, kName + 2, regs[i].string, kString);
      Put(line, kName + kString + 4, PMIx_Data_type_string(regs[i].type), kString);
    }
    size_t at = kName + kString + kType + 6;
    bool any = false;
    for (char** d = regs[i].description; d != nullptr && *d != nullptr; ++d) {
      std::string row = any ? std::string() : line;
      Put(row, at, *d, kWidth - at - 1);
      std::fprintf(stderr, "%s\n", Trimmed(row).c_str());
      any = true;
    }
    if (!any) std::fprintf(stderr, "%s\n", Trimmed(line).c_str());
  }
}

// Prints one query answer (the data array PMIX_QUERY_ATTRIBUTE_SUPPORT
// holds, or its entries directly).
void Show(const Level& l, const pmix_info_t& info, bool* headed, bool* first) {
  if (info.value.type == PMIX_DATA_ARRAY && info.value.data.darray != nullptr &&
      info.value.data.darray->type == PMIX_INFO &&
      PMIX_CHECK_KEY(&info, PMIX_QUERY_ATTRIBUTE_SUPPORT)) {
    auto* inner = static_cast<pmix_info_t*>(info.value.data.darray->array);
    for (size_t i = 0; i < info.value.data.darray->size; ++i) Show(l, inner[i], headed, first);
    return;
  }
  if (PMIX_CHECK_KEY(&info, l.functions) && info.value.type == PMIX_STRING) {
    std::fprintf(stderr, "%s SUPPORTED FUNCTIONS: \n", l.upper);
    std::string list = info.value.data.string != nullptr ? info.value.data.string : "";
    bool host = std::strcmp(l.option, "host") == 0;
    for (size_t start = 0; start < list.size();) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      std::fprintf(stderr, "%s%s\n", host ? "\t" : "", list.substr(start, comma - start).c_str());
      start = comma + 1;
    }
    return;
  }
  if (info.value.type != PMIX_DATA_ARRAY || info.value.data.darray == nullptr ||
      info.value.data.darray->type != PMIX_REGATTR)
    return;
  if (!*headed) Headers(l);
  *headed = true;
  if (!*first) {
    std::fprintf(stderr, "   \n%s\n   \n", std::string(kWidth - 1, '=').c_str());
  }
  *first = false;
  Attributes(info.key, static_cast<pmix_regattr_t*>(info.value.data.darray->array),
             info.value.data.darray->size);
}

int Query(const Level& l, const std::optional<std::string>& fns) {
  pmix_query_t q;
  PMIX_QUERY_CONSTRUCT(&q);
  char* keys[2] = {const_cast<char*>(PMIX_QUERY_ATTRIBUTE_SUPPORT), nullptr};
  q.keys = keys;
  pmix_info_t qual;
  bool yes = true;
  PMIx_Info_construct(&qual);
  if (fns) (void)PMIx_Info_load(&qual, l.attributes, fns->c_str(), PMIX_STRING);
  else (void)PMIx_Info_load(&qual, l.functions, &yes, PMIX_BOOL);
  q.qualifiers = &qual;
  q.nqual = 1;
  pmix_info_t* results = nullptr;
  size_t n = 0;
  pmix_status_t rc = PMIx_Query_info(&q, 1, &results, &n);
  PMIx_Info_destruct(&qual);
  if (rc != PMIX_SUCCESS) {
    std::fprintf(stderr, "PMIx_Query_info returned: %s\n", PMIx_Error_string(rc));
    return pmixcli::kFailure;
  }
  bool headed = false, first = true;
  for (size_t i = 0; i < n; ++i) Show(l, results[i], &headed, &first);
  PMIx_Info_free(results, n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<pmixcli::OptionSpec> extra = {
      {"do-not-connect", pmixcli::Arg::kNone, "Do not connect to a server"},
      {"client", pmixcli::Arg::kOptional,
       "Without a value: the client functions this library supports; with\n"
       "                                      \"all\" or \"fn1,fn2\": their attributes"},
      {"server", pmixcli::Arg::kOptional, "The same for the server functions"},
      {"tool", pmixcli::Arg::kOptional, "The same for the tool functions"},
      {"host", pmixcli::Arg::kOptional, "The same for what the host environment supports"},
      {"client-fns", pmixcli::Arg::kNone, "List the client functions (as --client)"},
      {"server-fns", pmixcli::Arg::kNone, "List the server functions"},
      {"tool-fns", pmixcli::Arg::kNone, "List the tool functions"},
      {"host-fns", pmixcli::Arg::kNone, "List the host's functions"},
  };
  pmixcli::Command cmd;
  switch (pmixcli::Parse(argc, argv, "pattrs", "PMIx Supported Attributes and Functions tool", extra,
                         "", &cmd)) {
    case pmixcli::Parsed::kExit0: return 0;
    case pmixcli::Parsed::kError: return 2;
    case pmixcli::Parsed::kRun: break;
  }
  const Level* level = nullptr;
  std::optional<std::string> fns;
  for (const Level& l : kLevels) {
    if (cmd.Has(l.option)) level = &l, fns = cmd.Value(l.option);
    if (cmd.Has(std::string(l.option) + "-fns")) level = &l, fns.reset();
  }
  if (level == nullptr) {
    std::fprintf(stderr, "pattrs: say what to list: --client, --server, --tool or --host "
                         "(see pattrs --help)\n");
    return pmixcli::kFailure;
  }
  bool host = std::strcmp(level->option, "host") == 0;
  pmix_proc_t me;
  if (!pmixcli::InitTool(cmd, false, !host || cmd.Has("do-not-connect"), &me)) return pmixcli::kFailure;
  int rc = Query(*level, fns);
  PMIx_tool_finalize();
  return rc;
}
