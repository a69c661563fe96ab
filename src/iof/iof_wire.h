// IO forwarding on the wire (wire::Msg::kIof): the bodies a client or tool
// and its server exchange. Every body starts with a u32 operation:
//
//   kPull        request   procs, u32 channels, info directives, u64 tag
//                          (the requester's handle, which deliveries carry)
//                reply     status, u64 registration id (the server's, for kDeregister)
//   kDeregister  request   u64 registration id, info directives
//                reply     status
//   kPush        request   procs targets, info directives, blob data, bool eof
//                reply     status (after the host took the data)
//   kDeliver     one-way, server -> peer:
//                          u64 tag, proc source, u32 channel,
//                          blob data, info array (the host's metadata, e.g.
//                          PMIX_IOF_COMPLETE at the end of a stream)
//
// Threads: no shared state.
#ifndef PMIXX_SRC_IOF_IOF_WIRE_H
#define PMIXX_SRC_IOF_IOF_WIRE_H

#include <cstdint>
#include <string>
#include <vector>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::iof {

enum class Op : uint32_t { kPull = 1, kDeregister = 2, kPush = 3, kDeliver = 4 };

// Bounds for bodies read from a socket.
inline constexpr uint32_t kMaxProcs = 1u << 20;

struct Pull {
  std::vector<pmix_proc_t> procs;
  pmix_iof_channel_t channels = PMIX_FWD_NO_CHANNELS;
  wire::Infos directives;
  uint64_t tag = 0;
};

struct Deregister {
  uint64_t id = 0;
  wire::Infos directives;
};

struct Push {
  std::vector<pmix_proc_t> targets;
  wire::Infos directives;
  wire::Bytes data;
  bool eof = false;
};

struct Delivery {
  uint64_t tag = 0;
  pmix_proc_t source{};
  pmix_iof_channel_t channel = PMIX_FWD_NO_CHANNELS;
  wire::Bytes data;
  wire::Infos info;
};

void Write(wire::Writer& w, const Pull& p);
void Write(wire::Writer& w, const Deregister& d);
void Write(wire::Writer& w, const Push& p);
// A delivery straight from borrowed pieces (no copy into a Delivery).
void WriteDelivery(wire::Writer& w, uint64_t tag, const pmix_proc_t& source,
                   pmix_iof_channel_t channel, std::span<const char> data,
                   std::span<const pmix_info_t> info);

// The operation, first; then the matching reader. Errors stay in the reader.
Op ReadOp(wire::Reader& r);
Pull ReadPull(wire::Reader& r);
Deregister ReadDeregister(wire::Reader& r);
Push ReadPush(wire::Reader& r);
Delivery ReadDelivery(wire::Reader& r);

// A channel mask a peer may ask for: some of PMIX_FWD_ALL_CHANNELS.
bool ValidChannels(pmix_iof_channel_t channels);

}  // namespace pmix::iof

#endif  // PMIXX_SRC_IOF_IOF_WIRE_H
