// The query keys the server library answers itself (standard §7.1.4), from
// what it knows without its host: the registered namespaces and their job
// data, its connected clients, its own listeners, its host's module.
//
//   PMIX_QUERY_NAMESPACES          "ns1,ns2": the registered namespaces
//   PMIX_QUERY_NAMESPACE_INFO      PMIX_DATA_ARRAY of PMIX_INFO, one
//                                  PMIX_QUERY_NAMESPACE_INFO per namespace
//                                  (only PMIX_NSPACE's when given), each a
//                                  PMIX_DATA_ARRAY of PMIX_INFO: PMIX_NSPACE
//                                  [, PMIX_CMD_LINE from the app's argv]
//   PMIX_QUERY_PROC_TABLE          PMIX_DATA_ARRAY of PMIX_PROC_INFO, one per
//                                  rank of PMIX_NSPACE (default: the
//                                  requester's), in rank order
//   PMIX_QUERY_LOCAL_PROC_TABLE    the same for the ranks on this node (or on
//                                  the node PMIX_HOSTNAME names)
//   PMIX_QUERY_AVAIL_SERVERS       PMIX_DATA_ARRAY of PMIX_INFO: this server
//                                  as a PMIX_SERVER_INFO_ARRAY (PMIX_NSPACE,
//                                  PMIX_RANK, PMIX_SERVER_URI, PMIX_HOSTNAME,
//                                  PMIX_SERVER_PIDINFO)
//   PMIX_SERVER_URI                the URI tools reach it by (server_identity.h)
//   PMIX_QUERY_ATTRIBUTE_SUPPORT   PMIX_DATA_ARRAY of PMIX_INFO: with
//                                  PMIX_HOST_FUNCTIONS, PMIX_HOST_FUNCTIONS =
//                                  "PMIx_Fence,PMIx_Spawn,...", the APIs the
//                                  host's module supports; with
//                                  PMIX_HOST_ATTRIBUTES ("all" or "fn1,fn2"),
//                                  one info per function the host registered
//                                  attributes for (server_attributes.h): key
//                                  = the function, value = PMIX_DATA_ARRAY
//                                  of PMIX_REGATTR
//   PMIX_QUERY_SPAWN_SUPPORT       "a,b": the attributes the host registered
//                                  for "PMIx_Spawn" (or "spawn")
//   PMIX_QUERY_DEBUG_SUPPORT       "a,b": the "pmix.dbg.*" attributes it
//                                  registered for any function
//   PMIX_FABRIC_VENDOR, _IDENTIFIER, _NUM_DEVICES, _DEVICES, _PLANE
//                                  the node's fabric as the pnet components
//                                  describe it (server_fabric.h; qualifier
//                                  PMIX_FABRIC_PLANE picks the component)
// An unknown namespace, a missing listener or an unsupported qualifier
// leaves the key unanswered here (the host may know it).
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_QUERY_KEYS_H
#define PMIXX_SRC_SERVER_SERVER_QUERY_KEYS_H

#include <string_view>

#include "mca/gds/base/gds_base.h"
#include "src/server/query_answers.h"
#include "src/server/server_state.h"

namespace pmix::server {

// Whether the library answers `key` from live state: a client looks such
// keys up at its server, never in its cache. Any thread.
bool IsLibraryQueryKey(std::string_view key);

// The library's answer, or nullptr when it has none.
gds::ValuePtr LibraryQueryAnswer(Server& s, const pmix_proc_t& requester, const query::Query& query,
                                 std::string_view key);

// The APIs the host's module supports and the library forwards to it,
// "PMIx_Fence,PMIx_Get,...": an upcall the library never calls (groups,
// fabric, IOF, event registration today) is not listed even when set.
std::string HostFunctions(const pmix_server_module_t& module);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_QUERY_KEYS_H
