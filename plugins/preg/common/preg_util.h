// Helpers shared by the preg components (header-only: each component is
// its own shared object and may not call libpmix internals, so the same
// few lines are compiled into each; identical inline definitions are fine
// when they are all built into libpmix with --disable-dlopen).
#ifndef PMIXX_PLUGINS_PREG_COMMON_PREG_UTIL_H
#define PMIXX_PLUGINS_PREG_COMMON_PREG_UTIL_H

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"

namespace pmix::preg::util {

// Splits on `sep`, keeping empty fields; an empty string has no fields
// (so "" is the empty list and "," is two empty names).
inline std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> fields;
  if (text.empty()) return fields;
  size_t start = 0;
  while (true) {
    size_t at = text.find(sep, start);
    fields.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return fields;
    start = at + 1;
  }
}

// A malloc'd copy of text in *out.
inline pmix_status_t DupString(std::string_view text, char** out) {
  auto* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr) return PMIX_ERR_NOMEM;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  *out = copy;
  return PMIX_SUCCESS;
}

// A malloc'd NULL-terminated argv holding copies of items, in *out.
template <class Strings>
pmix_status_t ToArgv(const Strings& items, char*** out) {
  auto* argv = static_cast<char**>(std::calloc(items.size() + 1, sizeof(char*)));
  if (argv == nullptr) return PMIX_ERR_NOMEM;
  size_t n = 0;
  for (const auto& item : items) {
    if (DupString(item, &argv[n]) != PMIX_SUCCESS) {
      for (size_t i = 0; i < n; ++i) std::free(argv[i]);
      std::free(argv);
      return PMIX_ERR_NOMEM;
    }
    ++n;
  }
  *out = argv;
  return PMIX_SUCCESS;
}

// Removes prefix from text; false (text unchanged) when it is not there.
inline bool StripPrefix(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// Runs a module body at the C boundary: no exception escapes.
template <class F>
pmix_status_t Guard(F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return PMIX_ERR_NOMEM;
  } catch (...) {
    return PMIX_ERROR;
  }
}

}  // namespace pmix::preg::util

#endif  // PMIXX_PLUGINS_PREG_COMMON_PREG_UTIL_H
