// Environment-variable directives (envar_directives.h).
#include "src/server/envar_directives.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <optional>

#include "pmix.h"

namespace pmix::server::envars {
namespace {

struct KindKey {
  Kind kind;
  const char* key;
};
// kUnset carries a name string; every other kind a pmix_envar_t.
constexpr KindKey kKinds[] = {
    {Kind::kSet, PMIX_SET_ENVAR},         {Kind::kAdd, PMIX_ADD_ENVAR},
    {Kind::kUnset, PMIX_UNSET_ENVAR},     {Kind::kPrepend, PMIX_PREPEND_ENVAR},
    {Kind::kAppend, PMIX_APPEND_ENVAR},   {Kind::kFirst, PMIX_FIRST_ENVAR},
};

const KindKey* KindOf(const pmix_info_t& info) {
  for (const KindKey& k : kKinds) {
    if (PMIX_CHECK_KEY(&info, k.key)) return &k;
  }
  return nullptr;
}

Result<Directive> Read(Kind kind, const pmix_value_t& v) {
  Directive d;
  d.kind = kind;
  if (kind == Kind::kUnset) {
    if (v.type != PMIX_STRING || v.data.string == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    d.name = v.data.string;
  } else {
    if (v.type != PMIX_ENVAR || v.data.envar.envar == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    d.name = v.data.envar.envar;
    d.value = v.data.envar.value != nullptr ? v.data.envar.value : "";
    d.separator = v.data.envar.separator != '\0' ? v.data.envar.separator : ':';
  }
  if (d.name.empty() || d.name.find('=') != std::string::npos) return Status(PMIX_ERR_BAD_PARAM);
  return d;
}

bool IsEnviron(char** env) { return env == environ; }

// The index of NAME in a (non-environ) array, or -1.
long IndexOf(char** env, const std::string& name) {
  for (long i = 0; env != nullptr && env[i] != nullptr; ++i) {
    if (std::strncmp(env[i], name.c_str(), name.size()) == 0 && env[i][name.size()] == '=') return i;
  }
  return -1;
}

std::optional<std::string> Lookup(char** env, const std::string& name) {
  if (IsEnviron(env)) {
    const char* v = ::getenv(name.c_str());
    return v != nullptr ? std::optional<std::string>(v) : std::nullopt;
  }
  long i = IndexOf(env, name);
  if (i < 0) return std::nullopt;
  return std::string(env[i] + name.size() + 1);
}

Status Unset(const std::string& name, char*** env) {
  if (IsEnviron(*env)) return ::unsetenv(name.c_str()) == 0 ? Status() : Status(PMIX_ERR_BAD_PARAM);
  long i = IndexOf(*env, name);
  if (i < 0) return Status();
  std::free((*env)[i]);
  for (long j = i; (*env)[j] != nullptr; ++j) (*env)[j] = (*env)[j + 1];
  return Status();
}

// `value` first in the `sep`-separated list `old`, without its other copies.
std::string PutFirst(const std::string& old, const std::string& value, char sep) {
  std::string out = value;
  size_t start = 0;
  while (start <= old.size()) {
    size_t end = old.find(sep, start);
    if (end == std::string::npos) end = old.size();
    std::string item = old.substr(start, end - start);
    if (item != value) out += sep + item;
    start = end + 1;
  }
  return out;
}

// The value d gives the variable, given its current value.
std::string Combined(const Directive& d, const std::optional<std::string>& old) {
  if (!old.has_value()) return d.value;
  switch (d.kind) {
    case Kind::kPrepend: return d.value + d.separator + *old;
    case Kind::kAppend: return *old + d.separator + d.value;
    case Kind::kFirst: return PutFirst(*old, d.value, d.separator);
    default: return d.value;
  }
}

}  // namespace

Result<std::vector<Directive>> FromInfos(std::span<const pmix_info_t> info) {
  std::vector<Directive> out;
  for (const pmix_info_t& i : info) {
    const KindKey* k = KindOf(i);
    if (k == nullptr) continue;
    auto d = Read(k->kind, i.value);
    if (!d.ok()) return d.status();
    out.push_back(std::move(*d));
  }
  return out;
}

Status AppendInfo(const Directive& d, wire::Infos& out) {
  const char* key = nullptr;
  for (const KindKey& k : kKinds) {
    if (k.kind == d.kind) key = k.key;
  }
  if (d.kind == Kind::kUnset) return out.Add(key, d.name.c_str(), PMIX_STRING);
  pmix_envar_t envar{const_cast<char*>(d.name.c_str()), const_cast<char*>(d.value.c_str()),
                     d.separator};
  return out.Add(key, &envar, PMIX_ENVAR);
}

Status Apply(const Directive& d, char*** env) {
  if (env == nullptr) return Status(PMIX_ERR_BAD_PARAM);
  if (d.kind == Kind::kUnset) return Unset(d.name, env);
  std::optional<std::string> old = Lookup(*env, d.name);
  if (d.kind == Kind::kAdd && old.has_value()) return Status();
  std::string value = Combined(d, old);
  pmix_status_t rc = PMIx_Setenv(d.name.c_str(), value.c_str(), true, env);
  return rc == PMIX_ERR_OUT_OF_RESOURCE ? Status(PMIX_ERR_NOMEM) : Status(rc);
}

std::vector<Directive> Harvest(char* const* environ_array,
                               std::span<const std::string_view> prefixes) {
  std::vector<Directive> out;
  for (size_t i = 0; environ_array != nullptr && environ_array[i] != nullptr; ++i) {
    std::string_view entry(environ_array[i]);
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    for (std::string_view prefix : prefixes) {
      if (entry.substr(0, eq).starts_with(prefix)) {
        out.push_back(Directive{Kind::kSet, std::string(entry.substr(0, eq)),
                                std::string(entry.substr(eq + 1)), ':'});
        break;
      }
    }
  }
  return out;
}

}  // namespace pmix::server::envars
