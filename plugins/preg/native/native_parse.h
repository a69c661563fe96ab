// The parsing half of preg/native (native_parse.cc); the syntax and the
// answers are in native_module.h.
#ifndef PMIXX_PLUGINS_PREG_NATIVE_NATIVE_PARSE_H
#define PMIXX_PLUGINS_PREG_NATIVE_NATIVE_PARSE_H

#include <cstddef>

#include "pmix_common.h"

namespace pmix::preg::native {

pmix_status_t ParseNodes(const char* regex, char*** names);
pmix_status_t ParseProcs(const char* regex, char*** procs);

// The max_entries parameter (native_module.cc).
size_t MaxEntries();

}  // namespace pmix::preg::native

#endif  // PMIXX_PLUGINS_PREG_NATIVE_NATIVE_PARSE_H
