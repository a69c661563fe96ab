// See native_module.h for the syntax.
#include "plugins/preg/native/native_module.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "plugins/preg/common/preg_util.h"
#include "plugins/preg/native/native_parse.h"
#include "plugins/preg/native/native_terms.h"

namespace pmix::preg::native {
namespace {

constexpr std::string_view kOpen = "pmix[";
std::atomic<size_t> g_max_entries{size_t{1} << 24};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A run of consecutive names sharing prefix and suffix; W may be any value
// in [min_width, max_width].
struct Group {
  std::string_view first_name, prefix, suffix;
  size_t min_width = 0, max_width = 0;
  std::vector<uint64_t> values;
};

// Splits name at its last digit run; false when it has none or it is too
// long to be a number (the name then stays literal).
bool SplitName(std::string_view name, Group& part) {
  size_t end = name.size();
  while (end > 0 && !IsDigit(name[end - 1])) --end;
  size_t begin = end;
  while (begin > 0 && IsDigit(name[begin - 1])) --begin;
  std::string_view digits = name.substr(begin, end - begin);
  auto value = ParseDigits(digits);
  if (!value) return false;
  part.first_name = name;
  part.prefix = name.substr(0, begin);
  part.suffix = name.substr(end);
  // "007" prints only with W == 3; "100" prints with any W <= 3.
  bool padded = digits.size() > 1 && digits[0] == '0';
  part.min_width = padded ? digits.size() : 1;
  part.max_width = digits.size();
  part.values = {*value};
  return true;
}

bool TryJoin(Group& group, const Group& part) {
  if (group.values.empty() || group.prefix != part.prefix || group.suffix != part.suffix) {
    return false;
  }
  size_t lo = std::max(group.min_width, part.min_width);
  size_t hi = std::min(group.max_width, part.max_width);
  if (lo > hi) return false;
  group.min_width = lo;
  group.max_width = hi;
  group.values.push_back(part.values.front());
  return true;
}

void AppendGroup(const Group& group, std::string& out) {
  if (group.values.size() == 1) {
    out += group.first_name;
    return;
  }
  out += group.prefix;
  out += '[' + std::to_string(group.min_width) + ':';
  AppendTerms(group.values, out);
  out += ']';
  out += group.suffix;
}

pmix_status_t GenerateNodes(const char* input, char** regex) {
  return util::Guard([&] {
    std::string_view text(input);
    if (text.find_first_of("[]*") != std::string_view::npos) return PMIX_ERR_NOT_SUPPORTED;
    std::string out(kOpen);
    Group group;
    bool first = true;
    auto flush = [&] {
      if (group.values.empty()) return;
      if (!first) out += ',';
      first = false;
      AppendGroup(group, out);
      group.values.clear();
    };
    for (std::string_view name : util::Split(text, ',')) {
      Group part;
      if (SplitName(name, part) && TryJoin(group, part)) continue;
      flush();
      if (!part.values.empty()) {
        group = part;
        continue;
      }
      if (!first) out += ',';
      first = false;
      out += name;
    }
    flush();
    out += ']';
    return util::DupString(out, regex);
  });
}

// Canonical decimal rank: "0" or no leading zero, at most 4294967295.
bool CanonicalRank(std::string_view token, uint64_t* value) {
  if (token.empty() || token.size() > 10 || (token.size() > 1 && token[0] == '0')) return false;
  auto parsed = ParseDigits(token);
  if (!parsed || *parsed > 0xffffffffull) return false;
  *value = *parsed;
  return true;
}

pmix_status_t GeneratePpn(const char* input, char** ppn) {
  return util::Guard([&] {
    std::string out(kOpen);
    bool first = true;
    for (std::string_view node : util::Split(input, ';')) {
      std::vector<uint64_t> ranks;
      for (std::string_view token : util::Split(node, ',')) {
        uint64_t rank = 0;
        if (!CanonicalRank(token, &rank)) return PMIX_ERR_NOT_SUPPORTED;
        ranks.push_back(rank);
      }
      if (!first) out += ';';
      first = false;
      AppendTerms(ranks, out);
    }
    out += ']';
    return util::DupString(out, ppn);
  });
}

}  // namespace

size_t MaxEntries() { return g_max_entries.load(); }

const pmix_preg_module_t kModule = {"native", GenerateNodes, GeneratePpn, ParseNodes,
                                    ParseProcs};

void Configure(size_t max_entries) { g_max_entries.store(max_entries); }

}  // namespace pmix::preg::native
