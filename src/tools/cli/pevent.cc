// pevent --event CODE [--range RANGE] [--target NSPACE[:RANK]]...: injects
// an event through a server (PMIx_Notify_event, source: this tool). CODE:
// a status number, or a name (PMIX_ERR_..., as PMIx_Error_string prints
// it); RANGE: a number or a name (rm, local, namespace, session, global,
// custom, proc_local; "PMIX_RANGE_" may precede it; default session);
// --target (custom range, implied by it): the processes to receive it
// (RANK: a number, default every rank).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/tools/cli/cli.h"

namespace {

bool ParseCode(const std::string& text, pmix_status_t* code) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (!text.empty() && *end == '\0') return *code = static_cast<pmix_status_t>(v), true;
  for (int c = 1; c > -4000; --c) {  // the names the library prints
    if (text == PMIx_Error_string(c)) return *code = c, true;
  }
  return false;
}

bool ParseRange(std::string text, pmix_data_range_t* range) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (!text.empty() && *end == '\0' && v >= 0 && v <= 255)
    return *range = static_cast<pmix_data_range_t>(v), true;
  if (strncasecmp(text.c_str(), "PMIX_RANGE_", 11) == 0) text = text.substr(11);
  const struct {
    const char* name;
    pmix_data_range_t range;
  } names[] = {{"rm", PMIX_RANGE_RM},           {"local", PMIX_RANGE_LOCAL},
               {"namespace", PMIX_RANGE_NAMESPACE}, {"session", PMIX_RANGE_SESSION},
               {"global", PMIX_RANGE_GLOBAL},   {"custom", PMIX_RANGE_CUSTOM},
               {"proc_local", PMIX_RANGE_PROC_LOCAL}};
  for (const auto& n : names)
    if (strcasecmp(text.c_str(), n.name) == 0) return *range = n.range, true;
  return false;
}

bool ParseTarget(const std::string& text, pmix_proc_t* proc) {
  size_t colon = text.rfind(':');
  std::string ns = text.substr(0, colon);
  pmix_rank_t rank = PMIX_RANK_WILDCARD;
  if (colon != std::string::npos) {
    char* end = nullptr;
    unsigned long r = std::strtoul(text.c_str() + colon + 1, &end, 10);
    if (*end != '\0') return false;
    rank = static_cast<pmix_rank_t>(r);
  }
  if (ns.empty() || ns.size() > PMIX_MAX_NSLEN) return false;
  PMIx_Load_procid(proc, ns.c_str(), rank);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<pmixcli::OptionSpec> extra = {
      {"event", pmixcli::Arg::kRequired, "Status code (a number or a name) of the event to send"},
      {"range", pmixcli::Arg::kRequired, "Range of the event (default: session)"},
      {"target", pmixcli::Arg::kRequired, "NSPACE[:RANK] to receive it (a custom range)"},
  };
  pmixcli::Command cmd;
  switch (pmixcli::Parse(argc, argv, "pevent", "Inject PMIx events", extra, "", &cmd)) {
    case pmixcli::Parsed::kExit0: return 0;
    case pmixcli::Parsed::kError: return 2;
    case pmixcli::Parsed::kRun: break;
  }
  pmix_status_t code = 0;
  auto event = cmd.Value("event");
  if (!event || !ParseCode(*event, &code)) {
    std::fprintf(stderr, "pevent: --event wants a status code (see pevent --help)\n");
    return pmixcli::kFailure;
  }
  pmix_data_range_t range = PMIX_RANGE_SESSION;
  if (auto r = cmd.Value("range"); r && !ParseRange(*r, &range)) {
    std::fprintf(stderr, "pevent: unknown range '%s'\n", r->c_str());
    return pmixcli::kFailure;
  }
  std::vector<pmix_proc_t> targets;
  if (auto t = cmd.Value("target")) {
    pmix_proc_t p;
    if (!ParseTarget(*t, &p)) {
      std::fprintf(stderr, "pevent: --target wants NSPACE[:RANK], not '%s'\n", t->c_str());
      return pmixcli::kFailure;
    }
    targets.push_back(p);
    range = PMIX_RANGE_CUSTOM;
  }
  if (range == PMIX_RANGE_CUSTOM && targets.empty()) {
    std::fprintf(stderr, "pevent: a custom range needs --target\n");
    return pmixcli::kFailure;
  }
  pmix_proc_t me;
  if (!pmixcli::InitTool(cmd, false, false, &me)) return pmixcli::kFailure;
  pmix_info_t info;
  PMIx_Info_construct(&info);
  size_t ninfo = 0;
  if (!targets.empty()) {
    pmix_data_array_t array{PMIX_PROC, targets.size(), targets.data()};
    (void)PMIx_Info_load(&info, PMIX_EVENT_CUSTOM_RANGE, &array, PMIX_DATA_ARRAY);
    ninfo = 1;
  }
  pmix_status_t rc = PMIx_Notify_event(code, &me, range, ninfo ? &info : nullptr, ninfo, nullptr, nullptr);
  PMIx_Info_destruct(&info);
  int status = 0;
  if (rc != PMIX_SUCCESS && rc != PMIX_OPERATION_SUCCEEDED) {
    std::fprintf(stderr, "PMIx_Notify_event failed: %s\n", PMIx_Error_string(rc));
    status = pmixcli::kFailure;
  } else if (cmd.verbose > 0) {
    std::fprintf(stderr, "pevent: event %d (%s) sent\n", code, PMIx_Error_string(code));
  }
  PMIx_tool_finalize();
  return status;
}
