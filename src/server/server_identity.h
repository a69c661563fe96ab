// What a server says about itself: the server keys its clients find in
// their job info, and the answers to a PMIx_Get about the server's own
// process in a process that is only a server (server_self.h).
//
// Threads: progress thread only (they read the Server).
#ifndef PMIXX_SRC_SERVER_SERVER_IDENTITY_H
#define PMIXX_SRC_SERVER_SERVER_IDENTITY_H

#include <optional>
#include <string>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/server/server_state.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// The server's own identity when the host gives no PMIX_SERVER_NSPACE /
// PMIX_SERVER_RANK to PMIx_server_init, as OpenPMIx 4.2.2 names it
// (measured): namespace "pmix-server" (or $PMIX_SERVER_NAMESPACE), rank the
// process's pid. ($PMIX_SERVER_RANK, which OpenPMIx also reads, is not: a
// pmixx server exports it to the processes it starts, so a server started
// by another, e.g. a scheduler run as a job, would take its parent's rank.)
std::string DefaultServerNspace();
pmix_rank_t DefaultServerRank();

// The server's URI as OpenPMIx gives it: "<nspace>.<rank>;<uri>", where
// uri is the one tools reach it by (server_rendezvous.h ToolUri: its TCP
// listener when it has one, as in the rendezvous files and the
// PMIX_TCP_REPORT_URI file); empty when the server does not listen.
std::string ServerUriValue(const Server& s);

// The server keys every namespace's job info gets (unless the host gave
// the key itself), stored with the registration so that every client reads
// them with PMIx_Get(&{nspace, PMIX_RANK_WILDCARD}, key): PMIX_SERVER_NSPACE,
// PMIX_SERVER_RANK, PMIX_SERVER_HOSTNAME and, when the server listens,
// PMIX_SERVER_URI (ServerUriValue). OpenPMIx 4.2.2 gives its clients PMIX_SERVER_URI
// only, under their own rank (not done here: a Get of it with the client's
// own rank finds nothing).
Result<wire::Infos> ServerKeys(const Server& s);

// A key about the server's own process: PMIX_PROCID, PMIX_NSPACE,
// PMIX_RANK, PMIX_HOSTNAME, the server keys above, PMIX_MYSERVER_URI (the
// same URI as PMIX_SERVER_URI, as OpenPMIx keeps both), PMIX_SERVER_TMPDIR
// and PMIX_SYSTEM_TMPDIR. nullopt for any other key. The value is malloc'd
// (PMIX_VALUE_RELEASE).
std::optional<Result<pmix_value_t*>> SelfValue(const Server& s, const std::string& key);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_IDENTITY_H
