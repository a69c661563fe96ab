// Publish / lookup / unpublish on the server (standard ch. 9).
//
// The datastore is the host's: each request goes to the host's publish,
// lookup or unpublish upcall with the requester's name and its directives,
// where any PMIX_USERID / PMIX_GRPID the requester sent are replaced by
// the effective ids the server knows for it (§9.1, AddRequesterIds: the library adds them;
// a client must not be able to pose as another user). A NULL upcall fails
// the request with PMIX_ERR_NOT_SUPPORTED. The library keeps no state of
// its own here: a requester that leaves while the host holds its request
// only loses the reply.
//
// Wire (requests; reply = status, info array):
//   kPublish    body = info array (the data and the directives)
//   kLookup     body = u32 n, n strings (keys), info array (directives);
//               the reply's infos are the found data, see EncodeFound
//   kUnpublish  body = u32 n, n strings (keys; none = all the requester's),
//               info array (directives)
//
// Threads: everything here runs on the server's progress thread.
#ifndef PMIXX_SRC_SERVER_SERVER_PUBLISH_H
#define PMIXX_SRC_SERVER_SERVER_PUBLISH_H

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "src/server/server_state.h"
#include "src/server/server_upcall.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// The most keys one lookup or unpublish may name (a bound on what a peer
// can make the server allocate).
inline constexpr uint32_t kMaxPubsubKeys = 1u << 16;

// Each calls `done` exactly once on the progress thread (possibly before
// returning), unless the server finalizes while the host holds the request.
void Publish(Server& s, const Requester& who, std::span<const pmix_info_t> info,
             StatusDone done);
void Lookup(Server& s, const Requester& who, const std::vector<std::string>& keys,
            std::span<const pmix_info_t> directives, LookupDone done);
void Unpublish(Server& s, const Requester& who, const std::vector<std::string>& keys,
               std::span<const pmix_info_t> directives, StatusDone done);

// A lookup's results as an info array, two infos per datum: the datum
// itself (its key and value), then PMIX_PROCID = its publisher. Decode
// fails with PMIX_ERR_UNPACK_FAILURE on an array not of that shape.
Result<wire::Infos> EncodeFound(const LookupFound& found);
Result<LookupFound> DecodeFound(std::span<const pmix_info_t> infos);

// Key checks shared with the client: non-empty and at most
// PMIX_MAX_KEYLEN characters.
bool ValidPubsubKey(const char* key);

// The message handlers (server_peers.cc Dispatch).
void HandlePublish(Server& s, const PeerPtr& peer, ptl::Frame&& frame);
void HandleLookup(Server& s, const PeerPtr& peer, ptl::Frame&& frame);
void HandleUnpublish(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_PUBLISH_H
