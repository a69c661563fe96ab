// Frame header encoding and the incremental frame parser.
#include "mca/ptl/base/frame.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace pmix::ptl {
namespace {

// The first reservation for a payload; large payloads then grow
// geometrically, capped by their declared length.
constexpr size_t kInitialPayloadReserve = 64 * 1024;

void PutLe16(uint8_t* out, uint16_t value) {
  out[0] = static_cast<uint8_t>(value);
  out[1] = static_cast<uint8_t>(value >> 8);
}

void PutLe32(uint8_t* out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint16_t GetLe16(const uint8_t* in) { return static_cast<uint16_t>(in[0] | (in[1] << 8)); }

uint32_t GetLe32(const uint8_t* in) {
  uint32_t value = 0;
  for (int i = 3; i >= 0; --i) value = (value << 8) | in[i];
  return value;
}

}  // namespace

Result<FrameHeader> EncodeFrameHeader(uint8_t flags, uint16_t type, uint32_t tag,
                                      size_t payload_size) {
  if (payload_size > std::numeric_limits<uint32_t>::max()) return Status(PMIX_ERR_BAD_PARAM);
  FrameHeader header{};
  header[0] = kFrameMagic0;
  header[1] = kFrameMagic1;
  header[2] = kFrameVersion;
  header[3] = flags;
  PutLe16(&header[4], type);
  PutLe16(&header[6], 0);
  PutLe32(&header[8], tag);
  PutLe32(&header[12], static_cast<uint32_t>(payload_size));
  return header;
}

Result<std::vector<uint8_t>> EncodeFrame(const Frame& frame) {
  auto header = EncodeFrameHeader(frame.flags, frame.type, frame.tag, frame.payload.size());
  PMIX_RETURN_IF_ERROR(header.status());
  std::vector<uint8_t> bytes;
  bytes.reserve(kFrameHeaderSize + frame.payload.size());
  bytes.insert(bytes.end(), header->begin(), header->end());
  bytes.insert(bytes.end(), frame.payload.begin(), frame.payload.end());
  return bytes;
}

Status FrameReader::Feed(std::span<const uint8_t> chunk) {
  while (status_.ok() && !chunk.empty()) {
    size_t used = in_payload_ ? TakePayloadBytes(chunk) : TakeHeaderBytes(chunk);
    chunk = chunk.subspan(used);
  }
  return status_;
}

std::optional<Frame> FrameReader::Pop() {
  if (ready_.empty()) return std::nullopt;
  Frame frame = std::move(ready_.front());
  ready_.pop_front();
  return frame;
}

size_t FrameReader::TakeHeaderBytes(std::span<const uint8_t> chunk) {
  size_t n = std::min(chunk.size(), kFrameHeaderSize - header_used_);
  std::memcpy(header_.data() + header_used_, chunk.data(), n);
  header_used_ += n;
  if (header_used_ == kFrameHeaderSize) status_ = ParseHeader();
  return n;
}

Status FrameReader::ParseHeader() {
  // Magic first, so that a stream of garbage is told apart from a peer
  // speaking another version.
  if (header_[0] != kFrameMagic0 || header_[1] != kFrameMagic1) return PMIX_ERR_UNPACK_FAILURE;
  if (header_[2] != kFrameVersion || GetLe16(&header_[6]) != 0) return PMIX_ERR_UNPACK_FAILURE;
  payload_length_ = GetLe32(&header_[12]);
  if (payload_length_ > max_payload_) return PMIX_ERR_BAD_PARAM;
  current_ = Frame{};
  current_.flags = header_[3];
  current_.type = GetLe16(&header_[4]);
  current_.tag = GetLe32(&header_[8]);
  header_used_ = 0;
  in_payload_ = true;
  if (payload_length_ == 0) Complete();
  return Status();
}

size_t FrameReader::TakePayloadBytes(std::span<const uint8_t> chunk) {
  std::vector<uint8_t>& payload = current_.payload;
  size_t n = std::min<size_t>(chunk.size(), payload_length_ - payload.size());
  size_t needed = payload.size() + n;
  if (needed > payload.capacity()) {
    // Grow by doubling from a modest start, never past the declared length.
    size_t grown = std::max({needed, payload.capacity() * 2, kInitialPayloadReserve});
    payload.reserve(std::min<size_t>(grown, payload_length_));
  }
  payload.insert(payload.end(), chunk.begin(), chunk.begin() + static_cast<ptrdiff_t>(n));
  if (payload.size() == payload_length_) Complete();
  return n;
}

void FrameReader::Complete() {
  ready_.push_back(std::move(current_));
  current_ = Frame{};
  in_payload_ = false;
  payload_length_ = 0;
}

}  // namespace pmix::ptl
