// The preg framework spec and the internal generate/parse API.
#include "mca/preg/base/preg_base.h"

#include <charconv>
#include <span>
#include <cstdlib>
#include <memory>

#include "mca/base/framework.h"
#include "mca/base/framework_registry.h"

namespace pmix::preg {
namespace {

const mca::FrameworkSpec kSpec = {
    "preg",
    PMIX_PREG_INTERFACE_MAJOR,
    PMIX_PREG_INTERFACE_MINOR,
    true,
    "Compact node and process-map representations (regex)",
    {},
};
// Known to pmix_info before first use.
const mca::KnownFramework kKnown(kSpec);

struct ArgvDeleter {
  void operator()(char** argv) const { PMIx_Argv_free(argv); }
};

Result<std::span<const mca::SelectedModule>> Modules() {
  mca::Framework& framework = mca::GetFramework(kSpec);
  PMIX_RETURN_IF_ERROR(framework.Ensure());
  return framework.Selected();
}

}  // namespace

Status Prepare() { return Modules().status(); }

namespace {

using GenerateFn = pmix_status_t (*)(const char*, char**);
using ParseFn = pmix_status_t (*)(const char*, char***);

Result<std::string> Generate(std::string_view input, GenerateFn pmix_preg_module_t::*fn) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  std::string text(input);
  for (const mca::SelectedModule& selected : *modules) {
    const auto* module = static_cast<const pmix_preg_module_t*>(selected.module);
    char* out = nullptr;
    pmix_status_t rc = (module->*fn)(text.c_str(), &out);
    if (rc == PMIX_ERR_NOT_SUPPORTED) continue;
    if (rc != PMIX_SUCCESS) return Status(rc);
    std::unique_ptr<char, decltype(&std::free)> owned(out, &std::free);
    return std::string(out);
  }
  return Status(PMIX_ERR_NOT_SUPPORTED);
}

std::vector<std::string> SplitPlain(std::string_view text, char sep) {
  std::vector<std::string> fields;
  if (text.empty()) return fields;
  size_t start = 0;
  while (true) {
    size_t at = text.find(sep, start);
    fields.emplace_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return fields;
    start = at + 1;
  }
}

// The module's answer, or the plain split when no module recognises text.
Result<std::vector<std::string>> Parse(std::string_view regex, ParseFn pmix_preg_module_t::*fn,
                                       char plain_sep) {
  auto modules = Modules();
  PMIX_RETURN_IF_ERROR(modules.status());
  std::string text(regex);
  for (const mca::SelectedModule& selected : *modules) {
    const auto* module = static_cast<const pmix_preg_module_t*>(selected.module);
    char** argv = nullptr;
    pmix_status_t rc = (module->*fn)(text.c_str(), &argv);
    if (rc == PMIX_ERR_NOT_SUPPORTED) continue;
    if (rc != PMIX_SUCCESS) return Status(rc);
    std::unique_ptr<char*, ArgvDeleter> owned(argv);
    std::vector<std::string> fields;
    for (char** p = argv; p != nullptr && *p != nullptr; ++p) fields.emplace_back(*p);
    return fields;
  }
  return SplitPlain(regex, plain_sep);
}

// A decimal rank up to PMIX_RANK_VALID into *rank.
bool ParseRank(std::string_view text, uint64_t* rank) {
  if (text.empty()) return false;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > PMIX_RANK_VALID) {
    return false;
  }
  *rank = value;
  return true;
}

// "0,1,4-7" -> ranks; *budget bounds how many ranges may expand to.
Status ParseRankList(std::string_view list, std::vector<pmix_rank_t>& ranks, size_t* budget) {
  for (const std::string& term : SplitPlain(list, ',')) {
    std::string_view view(term);
    size_t dash = view.find('-');
    uint64_t first = 0, last = 0;
    if (!ParseRank(view.substr(0, dash), &first)) return PMIX_ERR_BAD_PARAM;
    last = first;
    if (dash != std::string_view::npos && !ParseRank(view.substr(dash + 1), &last)) {
      return PMIX_ERR_BAD_PARAM;
    }
    if (last < first || last - first >= *budget) return PMIX_ERR_BAD_PARAM;
    *budget -= last - first + 1;
    for (uint64_t rank = first; rank <= last; ++rank) {
      ranks.push_back(static_cast<pmix_rank_t>(rank));
    }
  }
  return Status();
}

}  // namespace

Result<std::string> GenerateNodeRegex(std::string_view input) {
  return Generate(input, &pmix_preg_module_t::generate_node_regex);
}

Result<std::string> GeneratePpn(std::string_view input) {
  return Generate(input, &pmix_preg_module_t::generate_ppn);
}

Result<std::vector<std::string>> ParseNodes(std::string_view regex) {
  return Parse(regex, &pmix_preg_module_t::parse_nodes, ',');
}

Result<std::vector<std::vector<pmix_rank_t>>> ParseProcs(std::string_view regex) {
  auto nodes = Parse(regex, &pmix_preg_module_t::parse_procs, ';');
  PMIX_RETURN_IF_ERROR(nodes.status());
  std::vector<std::vector<pmix_rank_t>> procs(nodes->size());
  size_t budget = kMaxPlainRanks;
  for (size_t i = 0; i < procs.size(); ++i) {
    PMIX_RETURN_IF_ERROR(ParseRankList((*nodes)[i], procs[i], &budget));
  }
  return procs;
}

}  // namespace pmix::preg
