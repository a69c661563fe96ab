// What this library supports (standard §7.1.4, PMIX_QUERY_ATTRIBUTE_SUPPORT):
// the client, server and tool functions it implements and, for each, the
// attributes it acts on itself. (What the host supports is the host's to
// say: PMIx_Register_attributes, src/server/server_attributes.h.)
//
// A query of PMIX_QUERY_ATTRIBUTE_SUPPORT names what it wants in its
// qualifiers; the answer is a PMIX_DATA_ARRAY of PMIX_INFO holding, in the
// qualifiers' order:
//   PMIX_CLIENT_FUNCTIONS / PMIX_SERVER_FUNCTIONS / PMIX_TOOL_FUNCTIONS
//       (bool)  that key, value "fn1,fn2,..." (the functions of the level)
//   PMIX_CLIENT_ATTRIBUTES / PMIX_SERVER_ATTRIBUTES / PMIX_TOOL_ATTRIBUTES
//       ("all" or "fn1,fn2")  one info per function of the level named:
//       key = the function, value = PMIX_DATA_ARRAY of PMIX_REGATTR (name,
//       string, type, and a description naming where the standard defines
//       it); a function that takes no attribute has one entry named "NONE".
// The host's levels (PMIX_HOST_*) are answered by the server
// (server_query_keys.h), which also answers these.
//
// Threads: no shared state (the tables are constant).
#ifndef PMIXX_SRC_COMMON_ATTRIBUTE_SUPPORT_H
#define PMIXX_SRC_COMMON_ATTRIBUTE_SUPPORT_H

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::attrs {

enum class Level { kClient, kServer, kTool };

// The functions of `level`, in the order the standard lists them.
std::vector<std::string> Functions(Level level);
// The attribute names (macro names, "PMIX_...") `function` of `level`
// acts on; nullopt for a function the level does not have.
std::optional<std::vector<std::string>> Attributes(Level level, std::string_view function);

// Whether the qualifiers ask about one of the library's levels, and whether
// they ask about the host's.
bool AsksLibrary(std::span<const pmix_info_t> qualifiers);
bool AsksHost(std::span<const pmix_info_t> qualifiers);

// The library's part of the answer (see above), appended to *out.
Status AddLibraryAnswer(std::span<const pmix_info_t> qualifiers, std::vector<pmix_info_t>* out);

// A malloc'd PMIX_REGATTR array for `names` (macro names or key strings,
// resolved through the attribute table); caller frees with
// PMIx_Data_array_free when wrapped, or PMIX_REGATTR_FREE.
pmix_data_array_t* RegattrArray(const std::vector<std::string>& names);

}  // namespace pmix::attrs

#endif  // PMIXX_SRC_COMMON_ATTRIBUTE_SUPPORT_H
