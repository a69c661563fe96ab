#include "plugins/preg/native/native_terms.h"

#include "plugins/preg/common/preg_util.h"

namespace pmix::preg::native {

std::optional<uint64_t> ParseDigits(std::string_view digits) {
  if (digits.empty() || digits.size() > kMaxDigits) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

void AppendTerms(const std::vector<uint64_t>& values, std::string& out) {
  size_t i = 0;
  while (i < values.size()) {
    size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    if (i != 0) out += ',';
    out += std::to_string(values[i]);
    if (j > i) out += '-' + std::to_string(values[j]);
    i = j + 1;
  }
}

bool ExpandTerms(std::string_view terms, std::vector<uint64_t>& values, size_t* budget) {
  for (std::string_view term : util::Split(terms, ',')) {
    size_t dash = term.find('-');
    auto parsed = ParseDigits(term.substr(0, dash));
    if (!parsed) return false;
    uint64_t first = *parsed, last = first;
    if (dash != std::string_view::npos) {
      parsed = ParseDigits(term.substr(dash + 1));
      if (!parsed) return false;
      last = *parsed;
    }
    uint64_t count = (first <= last ? last - first : first - last) + 1;
    if (count > *budget) return false;
    *budget -= count;
    for (uint64_t k = 0; k < count; ++k) values.push_back(first <= last ? first + k : first - k);
  }
  return true;
}

}  // namespace pmix::preg::native
