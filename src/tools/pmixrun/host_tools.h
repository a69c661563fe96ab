// Tools and pmixrun (standard ch. 18): the tool_connected upcall and what
// pmixrun tells tools it supports.
//
// Admission: tools of pmixrun's own user only (PMIX_USERID, as the server
// authenticated it); one that brings no identity is named
// "prun-<host>-<pid>@tool.<n>", rank 0. RegisterAttributes (after
// PMIx_server_init) registers, with PMIx_Register_attributes, the
// attributes pmixrun honours for PMIx_Spawn (spawn_request.h), which the
// library reports for PMIX_QUERY_SPAWN_SUPPORT and, the "pmix.dbg.*" ones,
// PMIX_QUERY_DEBUG_SUPPORT.
//
// Threads: the upcall runs on the server's progress thread.
#ifndef PMIXX_TOOLS_PMIXRUN_HOST_TOOLS_H
#define PMIXX_TOOLS_PMIXRUN_HOST_TOOLS_H

#include <string>

#include "pmix_server.h"

namespace pmixrun {

void FillToolModule(pmix_server_module_t* module, const std::string& nspace, int verbose);
void RegisterAttributes();

}  // namespace pmixrun

#endif  // PMIXX_TOOLS_PMIXRUN_HOST_TOOLS_H
