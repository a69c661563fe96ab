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
//        6    2 reserved must be 0 (room for a later version)
//        8    4 tag      matches a reply to its request (u32)
//       12    4 length   payload length in bytes (u32)
//
// A reader rejects a header whose magic, version or reserved field is wrong
// (PMIX_ERR_UNPACK_FAILURE) or whose length exceeds its maximum
// (PMIX_ERR_BAD_PARAM, the ptl_base_max_msg_size parameter in production);
// either error is sticky: the stream cannot be resynchronised, so the
// connection it came from is closed, and only that one.
#ifndef PMIXX_MCA_PTL_BASE_FRAME_H
#define PMIXX_MCA_PTL_BASE_FRAME_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <vector>

#include "src/common/status.h"

namespace pmix::ptl {

inline constexpr size_t kFrameHeaderSize = 16;
inline constexpr uint8_t kFrameMagic0 = 0x50;  // 'P'
inline constexpr uint8_t kFrameMagic1 = 0x58;  // 'X'
inline constexpr uint8_t kFrameVersion = 1;

struct Frame {
  uint8_t flags = 0;
  uint16_t type = 0;
  uint32_t tag = 0;
  std::vector<uint8_t> payload;

  bool operator==(const Frame&) const = default;
};

using FrameHeader = std::array<uint8_t, kFrameHeaderSize>;

// The header of a frame with these fields and a payload of payload_size
// bytes; PMIX_ERR_BAD_PARAM when payload_size does not fit in 32 bits.
// With the payload, it forms an iovec pair for a gathering write.
Result<FrameHeader> EncodeFrameHeader(uint8_t flags, uint16_t type, uint32_t tag,
                                      size_t payload_size);

// Header and payload in one buffer (FrameWriter in the design notes).
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
  explicit FrameReader(size_t max_payload) : max_payload_(max_payload) {}

  // Consumes chunk. Returns the sticky error once the stream is bad (then
  // frames completed before the bad header can still be popped).
  Status Feed(std::span<const uint8_t> chunk);

  // The next complete frame, in stream order, or nullopt.
  std::optional<Frame> Pop();

  Status status() const { return status_; }
  // True when bytes of an incomplete frame are held.
  bool Partial() const { return header_used_ > 0 || in_payload_; }
  // The capacity of the incomplete frame's payload buffer (for tests of
  // the allocation bound).
  size_t PartialCapacity() const { return current_.payload.capacity(); }
  size_t max_payload() const { return max_payload_; }

 private:
  size_t TakeHeaderBytes(std::span<const uint8_t> chunk);
  Status ParseHeader();
  size_t TakePayloadBytes(std::span<const uint8_t> chunk);
  void Complete();

  size_t max_payload_;
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
