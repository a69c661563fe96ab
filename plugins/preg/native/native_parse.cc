// Parsing of the native syntax (native_module.h). Every malformed string
// is PMIX_ERR_BAD_PARAM; nothing is allocated for the caller on failure.
#include "plugins/preg/native/native_parse.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/preg/common/preg_util.h"
#include "plugins/preg/native/native_terms.h"

namespace pmix::preg::native {
namespace {

// The text between "pmix[" and the final "]": nullopt when regex is not
// native at all (declined), an error flag when it starts like one but does
// not end like one.
std::optional<std::string_view> Body(std::string_view regex, bool* malformed) {
  *malformed = false;
  if (!util::StripPrefix(regex, "pmix[")) return std::nullopt;
  if (regex.empty() || regex.back() != ']') {
    *malformed = true;
    return std::nullopt;
  }
  regex.remove_suffix(1);
  return regex;
}

// Splits at the commas outside brackets; false on unbalanced or nested
// brackets.
bool SplitItems(std::string_view body, std::vector<std::string_view>& items) {
  if (body.empty()) return true;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '[' && ++depth > 1) return false;
    if (c == ']' && --depth < 0) return false;
    if (c == ',' && depth == 0) {
      items.push_back(body.substr(start, i - start));
      start = i + 1;
    }
  }
  items.push_back(body.substr(start));
  return depth == 0;
}

std::string Padded(uint64_t value, size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// Appends the names of one item ("login" or "node[3:1-100].ib").
bool ExpandItem(std::string_view item, std::vector<std::string>& names, size_t* budget) {
  size_t open = item.find('[');
  if (open == std::string_view::npos) {
    if (*budget == 0) return false;
    --*budget;
    names.emplace_back(item);
    return true;
  }
  size_t close = item.find(']', open);
  size_t colon = item.find(':', open);
  if (close == std::string_view::npos || colon > close) return false;
  std::string_view prefix = item.substr(0, open);
  std::string_view suffix = item.substr(close + 1);
  auto width = ParseDigits(item.substr(open + 1, colon - open - 1));
  std::string_view terms = item.substr(colon + 1, close - colon - 1);
  if (!width || *width == 0 || *width > kMaxDigits || terms.empty()) return false;
  std::vector<uint64_t> values;
  if (!ExpandTerms(terms, values, budget)) return false;
  for (uint64_t value : values) {
    std::string name(prefix);
    name += Padded(value, *width);
    name += suffix;
    names.push_back(std::move(name));
  }
  return true;
}

}  // namespace

pmix_status_t ParseNodes(const char* regex, char*** names) {
  return util::Guard([&] {
    bool malformed = false;
    auto body = Body(regex, &malformed);
    if (!body) return malformed ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOT_SUPPORTED;
    std::vector<std::string_view> items;
    if (!SplitItems(*body, items)) return PMIX_ERR_BAD_PARAM;
    std::vector<std::string> expanded;
    size_t budget = MaxEntries();
    for (std::string_view item : items) {
      if (!ExpandItem(item, expanded, &budget)) return PMIX_ERR_BAD_PARAM;
    }
    return util::ToArgv(expanded, names);
  });
}

pmix_status_t ParseProcs(const char* regex, char*** procs) {
  return util::Guard([&] {
    bool malformed = false;
    auto body = Body(regex, &malformed);
    if (!body) return malformed ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOT_SUPPORTED;
    std::vector<std::string> nodes;
    size_t budget = MaxEntries();
    for (std::string_view node : util::Split(*body, ';')) {
      std::vector<uint64_t> ranks;
      if (!ExpandTerms(node, ranks, &budget)) return PMIX_ERR_BAD_PARAM;
      std::string list;
      for (uint64_t rank : ranks) {
        if (rank > 0xffffffffull) return PMIX_ERR_BAD_PARAM;
        if (!list.empty()) list += ',';
        list += std::to_string(rank);
      }
      nodes.push_back(std::move(list));
    }
    return util::ToArgv(nodes, procs);
  });
}

}  // namespace pmix::preg::native
