// Environment-variable directives (standard §12.2.4: PMIX_SET_ENVAR,
// PMIX_ADD_ENVAR, PMIX_UNSET_ENVAR, PMIX_PREPEND_ENVAR, PMIX_APPEND_ENVAR,
// PMIX_FIRST_ENVAR) as values, read from info arrays, applied to an
// environment array, and harvested from a process environment.
//
// An environment array is what PMIx_server_setup_fork grows: a
// NULL-terminated, malloc'd argv of "NAME=value" strings (the pointer may
// start as NULL), or the process's own `environ` (then setenv/unsetenv are
// used, as PMIx_Setenv does).
//
// Threads: pure functions; the caller owns the arrays it passes.
#ifndef PMIXX_SRC_SERVER_ENVAR_DIRECTIVES_H
#define PMIXX_SRC_SERVER_ENVAR_DIRECTIVES_H

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::server::envars {

enum class Kind {
  kSet,      // PMIX_SET_ENVAR: set, replacing any value
  kAdd,      // PMIX_ADD_ENVAR: set only when not already set
  kUnset,    // PMIX_UNSET_ENVAR: remove (the value is the name)
  kPrepend,  // PMIX_PREPEND_ENVAR: value + separator + old value
  kAppend,   // PMIX_APPEND_ENVAR: old value + separator + value
  kFirst,    // PMIX_FIRST_ENVAR: value first in the separated list, once
};

struct Directive {
  Kind kind = Kind::kSet;
  std::string name;
  std::string value;
  char separator = ':';
};

// The envar directives among `info`, in order; other keys are skipped. An
// envar directive whose value has the wrong type or no name is
// PMIX_ERR_BAD_PARAM.
Result<std::vector<Directive>> FromInfos(std::span<const pmix_info_t> info);

// Appends d to `out` as the info it was read from (a PMIX_ENVAR value, or
// the name string for kUnset).
Status AppendInfo(const Directive& d, wire::Infos& out);

// Applies d to *env. PMIX_ERR_BAD_PARAM for a NULL env; PMIX_ERR_NOMEM.
Status Apply(const Directive& d, char*** env);

// kSet directives for every "NAME=value" of `environ_array` (NULL-terminated)
// whose NAME starts with one of `prefixes`.
std::vector<Directive> Harvest(char* const* environ_array, std::span<const std::string_view> prefixes);

}  // namespace pmix::server::envars

#endif  // PMIXX_SRC_SERVER_ENVAR_DIRECTIVES_H
