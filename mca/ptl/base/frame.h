// Framing: how messages are delimited on a ptl byte stream. Pure code, no
// I/O (frame_io.h reads and writes frames on a descriptor).
//
// A frame is a 16-byte header followed by `length` payload bytes. Every
// multi-byte field is little-endian:
//
//   offset size field
//        0    2 magic    'P' 'X' (0x50 0x58)
//        2    1 version  kFrameVersion (1)
//        3    1 flags    opaque to framing; for the protocol layer
//        4    2 type     message type (u16)
//        6    1 nfds     descriptors travelling with the frame (0..kMaxFrameFds)
//        7    1 reserved must be 0 (room for a later version)
//        8    4 tag      matches a reply to its request (u32)
//       12    4 length   payload length in bytes (u32)
//
// Descriptors (Unix sockets only, SCM_RIGHTS; fd_passing.h) ride with the
// frame's first bytes: the sender attaches all of a frame's descriptors to
// the one sendmsg() that starts its header (and holds no other frame's
// start). A Unix stream socket hands them out with the recvmsg() that reads
// that sendmsg's first byte and ends its read after that sendmsg's bytes,
// so the descriptors fed with a chunk belong to a header that starts in it.
//
// A reader rejects a header whose magic, version or reserved field is wrong
// (PMIX_ERR_UNPACK_FAILURE) or whose length exceeds its maximum
// (PMIX_ERR_BAD_PARAM, the ptl_base_max_msg_size parameter in production),
// and descriptors it did not agree to (PMIX_ERR_BAD_PARAM): more than its
// max_fds, a header announcing other than the descriptors that came with
// its first bytes, or descriptors with bytes where no header starts (the
// frame they came with is dropped). Every error is sticky: the stream
// cannot be resynchronised, so the connection it came from is closed, and
// only that one; descriptors not handed out in a frame are closed.
#ifndef PMIXX_MCA_PTL_BASE_FRAME_H
#define PMIXX_MCA_PTL_BASE_FRAME_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "mca/ptl/base/fd.h"
#include "src/common/status.h"

namespace pmix::ptl {

inline constexpr size_t kFrameHeaderSize = 16;
// The most descriptors one frame may carry (job-data regions; a fence
// result's shared records, one region each: src/wire/proc_data_region.h).
// The kernel passes at most 253 in one message.
inline constexpr size_t kMaxFrameFds = 64;
inline constexpr uint8_t kFrameMagic0 = 0x50;  // 'P'
inline constexpr uint8_t kFrameMagic1 = 0x58;  // 'X'
inline constexpr uint8_t kFrameVersion = 1;

// Move-only (it may own descriptors).
struct Frame {
  uint8_t flags = 0;
  uint16_t type = 0;
  uint32_t tag = 0;
  std::vector<uint8_t> payload;
  // Received: owned (close-on-exec). Sent: borrowed by SendFrame, owned by
  // Connection::Send until they are on the socket.
  std::vector<Fd> fds = {};

  // Same header fields and payload (descriptors are not compared).
  bool operator==(const Frame& other) const {
    return flags == other.flags && type == other.type && tag == other.tag &&
           payload == other.payload;
  }
};

using FrameHeader = std::array<uint8_t, kFrameHeaderSize>;

// The header of a frame with these fields, a payload of payload_size bytes
// and nfds descriptors; PMIX_ERR_BAD_PARAM when payload_size does not fit
// in 32 bits or nfds exceeds kMaxFrameFds. With the payload, it forms an
// iovec pair for a gathering write.
Result<FrameHeader> EncodeFrameHeader(uint8_t flags, uint16_t type, uint32_t tag,
                                      size_t payload_size, size_t nfds = 0);

// Header (announcing frame.fds.size() descriptors) and payload in one
// buffer (FrameWriter in the design notes); the descriptors go separately.
Result<std::vector<uint8_t>> EncodeFrame(const Frame& frame);

// An incremental parser: Feed() it the bytes of a stream in chunks of any
// size (one byte at a time works), Pop() the complete frames in order.
//
// Memory: a payload buffer is grown as its bytes arrive (never beyond the
// declared length, and only after that length passed the maximum check), so
// a header announcing a large frame costs nothing until the data comes.
// Not thread-safe (one reader per connection, used by one thread).
class FrameReader {
 public:
  // max_fds: the descriptors a frame may bring (0: none; at most
  // kMaxFrameFds).
  explicit FrameReader(size_t max_payload, size_t max_fds = 0)
      : max_payload_(max_payload), max_fds_(max_fds < kMaxFrameFds ? max_fds : kMaxFrameFds) {}

  // Consumes chunk and the descriptors that arrived with it (one recvmsg).
  // Returns the sticky error once the stream is bad (then frames completed
  // before the bad header can still be popped).
  Status Feed(std::span<const uint8_t> chunk, std::vector<Fd> fds = {});
  // Makes the stream bad (e.g. the transport cut descriptors short).
  void Fail(Status why);

  // The next complete frame, in stream order, or nullopt.
  std::optional<Frame> Pop();

  Status status() const { return status_; }
  // True when bytes of an incomplete frame are held.
  bool Partial() const { return header_used_ > 0 || in_payload_; }
  // The capacity of the incomplete frame's payload buffer (for tests of
  // the allocation bound).
  size_t PartialCapacity() const { return current_.payload.capacity(); }
  size_t max_payload() const { return max_payload_; }
  size_t max_fds() const { return max_fds_; }
  // Changes the bound for headers parsed from now on (a server raises it
  // once a peer has authenticated).
  void set_max_payload(size_t max_payload) { max_payload_ = max_payload; }
  // Whether a payload's declared length is reserved as soon as its header
  // is read (one allocation, no regrowth: no copies, fewer page faults)
  // instead of being grown as its bytes arrive. For a peer that has
  // authenticated, whose large frames are real; off by default, so that
  // before that a header announcing a large frame costs nothing until the
  // data comes.
  void set_reserve_declared(bool on) { reserve_declared_ = on; }

 private:
  size_t TakeHeaderBytes(std::span<const uint8_t> chunk);
  Status ParseHeader();
  size_t TakePayloadBytes(std::span<const uint8_t> chunk);
  void Complete();

  size_t max_payload_;
  size_t max_fds_;
  bool reserve_declared_ = false;
  std::vector<Fd> carried_;  // came with the start of the header under way
  std::vector<Fd> fresh_;    // came with the chunk being fed
  bool started_here_ = false;  // a header started in the chunk being fed
  Status status_;
  FrameHeader header_{};
  size_t header_used_ = 0;
  bool in_payload_ = false;
  uint32_t payload_length_ = 0;
  Frame current_;
  std::deque<Frame> ready_;
};

}  // namespace pmix::ptl

#endif  // PMIXX_MCA_PTL_BASE_FRAME_H
