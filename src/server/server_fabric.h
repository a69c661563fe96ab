// Fabric descriptions on the server (standard §15 PMIx_Fabric_register /
// _update; upcall `fabric`).
//
// The host's fabric upcall answers first (with the requester, the
// operation and the directives); when the host has none, or answers
// PMIX_ERR_NOT_SUPPORTED, the pnet components describe the node's fabric
// (mca/pnet/base/pnet_base.h: the first that gives a description, or the
// one PMIX_FABRIC_PLANE names). The answer is the fabric's info array
// (PMIX_FABRIC_* infos).
//
// Wire (request): kFabric: u32 operation (pmix_fabric_operation_t),
// info array directives; reply: status, info array.
//
// Progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_FABRIC_H
#define PMIXX_SRC_SERVER_SERVER_FABRIC_H

#include <span>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"

namespace pmix::server {

// `done` runs once on the progress thread.
void Fabric(Server& s, const Requester& who, pmix_fabric_operation_t op,
            std::span<const pmix_info_t> directives, InfosDone done);

void HandleFabric(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_FABRIC_H
