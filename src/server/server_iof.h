// Forwarded output on the server (standard §17.2.14 PMIx_server_IOF_deliver).
//
// The host hands the server the output of a process; the server delivers
// it to whoever registered for that source and channel (tools and clients
// that called PMIx_IOF_pull, server_iof_peer.cc). IofRegistry holds those
// registrations: a registration names its sources (rank
// PMIX_RANK_WILDCARD: every rank of the namespace), a channel mask, and a
// sink, the function that takes a chunk (a peer's sink sends it on the
// peer's connection, which the registration names for back-pressure).
// Delivering something nobody registered for is a success that delivers
// nothing; the library keeps no output for later registrants.
//
// PMIx_server_IOF_deliver checks its arguments (PMIX_ERR_BAD_PARAM: NULL
// source or byte object, bytes NULL with a nonzero size, an info array
// NULL with a nonzero count, a channel mask of none or outside
// PMIX_FWD_ALL_CHANNELS), copies the data, hands it to every matching
// sink on the progress thread, in registration order, and completes --
// calls cbfunc there, after the call returned; a NULL cbfunc makes the
// call blocking -- once every connection it went to has at most
// kIofHighWater bytes queued (waiting, when one has more, until it is down
// to kIofLowWater); the end of a stream (PMIX_IOF_COMPLETE among the
// info) completes only once every byte queued before it was written, so a
// host that waits for those completions before PMIx_server_finalize loses
// no output to a slow reader. Nothing is dropped: a slow reader holds the host's
// deliveries back instead, so a host that waits for each delivery's
// completion before it reads more output (pmixrun does) keeps the server's
// memory bounded by about kIofHighWater per reader.
//
// Threads: an IofRegistry belongs to the server (Server::iof) and is used
// on the progress thread only. Sinks run there and must copy what they
// keep: the chunk is valid for the call only.
#ifndef PMIXX_SRC_SERVER_SERVER_IOF_H
#define PMIXX_SRC_SERVER_SERVER_IOF_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "pmix_common.h"
#include "src/wire/connection.h"

namespace pmix::server {

inline constexpr size_t kIofHighWater = size_t{4} << 20;
inline constexpr size_t kIofLowWater = size_t{1} << 20;

struct IofChunk {
  pmix_proc_t source{};
  pmix_iof_channel_t channel = PMIX_FWD_NO_CHANNELS;
  std::span<const char> data;
  std::span<const pmix_info_t> info;  // the host's metadata
};
using IofSink = std::function<void(const IofChunk&)>;

class IofRegistry {
 public:
  // Registers `sink` for output of `sources` on any channel in `channels`,
  // on behalf of `owner` (a peer; nullptr: the process itself) whose
  // connection `conn` the sink writes to (empty: none). Returns the
  // registration's id (never 0).
  uint64_t Add(std::vector<pmix_proc_t> sources, pmix_iof_channel_t channels, IofSink sink,
               const void* owner = nullptr, std::weak_ptr<wire::Connection> conn = {});
  // What a registration was for (to tell the host it ended).
  struct Removed {
    std::vector<pmix_proc_t> sources;
    pmix_iof_channel_t channels = PMIX_FWD_NO_CHANNELS;
  };
  // nullopt when no registration has that id (or, given an owner, not its).
  std::optional<Removed> Remove(uint64_t id, const void* owner = nullptr);
  // Drops every registration of `owner`.
  std::vector<Removed> RemoveOwner(const void* owner);
  // Hands `chunk` to every sink registered for its source and channel, in
  // registration order; returns how many got it. `conns` (optional) gets
  // the live connections those sinks wrote to.
  size_t Deliver(const IofChunk& chunk,
                 std::vector<std::shared_ptr<wire::Connection>>* conns = nullptr) const;
  size_t size() const { return registrations_.size(); }

 private:
  struct Registration {
    std::vector<pmix_proc_t> sources;
    pmix_iof_channel_t channels = PMIX_FWD_NO_CHANNELS;
    IofSink sink;
    const void* owner = nullptr;
    std::weak_ptr<wire::Connection> conn;
  };
  uint64_t next_id_ = 1;
  std::map<uint64_t, Registration> registrations_;
};

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_IOF_H
