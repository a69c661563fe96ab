// Forwarded output on the server (standard §17.2.14 PMIx_server_IOF_deliver).
//
// The host hands the server the output of a process; the server delivers
// it to whoever registered for that source and channel (tools and clients
// that called PMIx_IOF_pull). IofRegistry holds those registrations: a
// registration names its sources (rank PMIX_RANK_WILDCARD: every rank of
// the namespace) and a channel mask, and a sink, the function that takes a
// chunk (the pull handler's sink sends it to its peer). Delivering
// something nobody registered for is a success that delivers nothing; the
// library keeps no output for later registrants.
//
// PMIx_server_IOF_deliver checks its arguments (PMIX_ERR_BAD_PARAM: NULL
// source or byte object, bytes NULL with a nonzero size, an info array
// NULL with a nonzero count, a channel mask of none or outside
// PMIX_FWD_ALL_CHANNELS), copies the data, hands it to the matching sinks
// on the progress thread and then calls cbfunc there (after the call
// returned); a NULL cbfunc makes the call blocking.
//
// Threads: an IofRegistry belongs to the server (Server::iof) and is used
// on the progress thread only. Sinks run there and must copy what they
// keep: the chunk is valid for the call only.
#ifndef PMIXX_SRC_SERVER_SERVER_IOF_H
#define PMIXX_SRC_SERVER_SERVER_IOF_H

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "pmix_common.h"

namespace pmix::server {

struct IofChunk {
  pmix_proc_t source{};
  pmix_iof_channel_t channel = PMIX_FWD_NO_CHANNELS;
  std::span<const char> data;
  std::span<const pmix_info_t> info;  // the host's metadata
};
using IofSink = std::function<void(const IofChunk&)>;

class IofRegistry {
 public:
  // Registers `sink` for output of `sources` on any channel in `channels`.
  // Returns the registration's id (never 0).
  uint64_t Add(std::vector<pmix_proc_t> sources, pmix_iof_channel_t channels, IofSink sink);
  // False when no registration has that id.
  bool Remove(uint64_t id);
  // Hands `chunk` to every sink registered for its source and channel, in
  // registration order; returns how many got it.
  size_t Deliver(const IofChunk& chunk) const;
  size_t size() const { return registrations_.size(); }

 private:
  struct Registration {
    std::vector<pmix_proc_t> sources;
    pmix_iof_channel_t channels = PMIX_FWD_NO_CHANNELS;
    IofSink sink;
  };
  uint64_t next_id_ = 1;
  std::map<uint64_t, Registration> registrations_;
};

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_IOF_H
