// plookup KEY...: looks up published data (PMIx_Lookup) through a server
// and prints, per key found, "Key: <key>" and its value (as the library
// prints it, after two spaces); a key not found is said on stderr and
// makes the exit status 1. --wait waits for the data to be published,
// --timeout S for at most S seconds.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/cli/cli.h"

int main(int argc, char** argv) {
  const std::vector<pmixcli::OptionSpec> extra = {
      {"wait", pmixcli::Arg::kNone, "Wait for data to be available"},
  };
  pmixcli::Command cmd;
  switch (pmixcli::Parse(argc, argv, "plookup", "PMIx Lookup tool", extra, "", &cmd)) {
    case pmixcli::Parsed::kExit0: return 0;
    case pmixcli::Parsed::kError: return 2;
    case pmixcli::Parsed::kRun: break;
  }
  if (cmd.rest.empty()) {
    std::fprintf(stderr, "plookup: Must provide at least one key to lookup\n");
    return pmixcli::kFailure;
  }
  for (const std::string& k : cmd.rest) {
    if (k.empty() || k.size() > PMIX_MAX_KEYLEN) {
      std::fprintf(stderr, "plookup: bad key '%s'\n", k.c_str());
      return pmixcli::kFailure;
    }
  }
  // --timeout bounds the wait for data here, not the connection.
  std::optional<std::string> timeout = cmd.Value("timeout");
  if (!cmd.Has("wait-for-server")) cmd.given.erase("timeout");
  pmix_proc_t me;
  if (!pmixcli::InitTool(cmd, false, false, &me)) return pmixcli::kFailure;
  std::vector<pmix_pdata_t> pdata(cmd.rest.size());
  for (size_t i = 0; i < pdata.size(); ++i) {
    PMIx_Pdata_construct(&pdata[i]);
    PMIX_LOAD_KEY(pdata[i].key, cmd.rest[i].c_str());
  }
  std::vector<pmix_info_t> info;
  bool yes = true;
  int seconds = timeout ? std::atoi(timeout->c_str()) : 0;
  if (cmd.Has("wait")) {
    info.emplace_back();
    PMIx_Info_construct(&info.back());
    (void)PMIx_Info_load(&info.back(), PMIX_WAIT, &yes, PMIX_BOOL);
  }
  if (seconds > 0) {
    info.emplace_back();
    PMIx_Info_construct(&info.back());
    (void)PMIx_Info_load(&info.back(), PMIX_TIMEOUT, &seconds, PMIX_INT);
  }
  pmix_status_t rc = PMIx_Lookup(pdata.data(), pdata.size(), info.empty() ? nullptr : info.data(),
                                 info.size());
  int status = 0;
  if (rc != PMIX_SUCCESS && rc != PMIX_ERR_PARTIAL_SUCCESS) {
    std::fprintf(stderr, "PMIx_Lookup failed: %s\n", PMIx_Error_string(rc));
    status = pmixcli::kFailure;
  }
  for (pmix_pdata_t& d : pdata) {
    if (d.value.type == PMIX_UNDEF) {
      if (status == 0) std::fprintf(stderr, "plookup: %s not found\n", d.key);
      status = pmixcli::kFailure;
      continue;
    }
    char* text = PMIx_Value_string(&d.value);
    std::printf("Key: %s\n  %s\n", d.key, text != nullptr ? text : "NULL");
    std::free(text);
  }
  for (pmix_pdata_t& d : pdata) PMIx_Pdata_destruct(&d);
  for (pmix_info_t& i : info) PMIx_Info_destruct(&i);
  PMIx_tool_finalize();
  return status;
}
