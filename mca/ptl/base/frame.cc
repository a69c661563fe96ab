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
                                      size_t payload_size, size_t nfds) {
  if (payload_size > std::numeric_limits<uint32_t>::max()) return Status(PMIX_ERR_BAD_PARAM);
  if (nfds > kMaxFrameFds) return Status(PMIX_ERR_BAD_PARAM);
  FrameHeader header{};
  header[0] = kFrameMagic0;
  header[1] = kFrameMagic1;
  header[2] = kFrameVersion;
  header[3] = flags;
  PutLe16(&header[4], type);
  header[6] = static_cast<uint8_t>(nfds);
  header[7] = 0;
  PutLe32(&header[8], tag);
  PutLe32(&header[12], static_cast<uint32_t>(payload_size));
  return header;
}

Result<std::vector<uint8_t>> EncodeFrame(const Frame& frame) {
  auto header = EncodeFrameHeader(frame.flags, frame.type, frame.tag, frame.payload.size(),
                                  frame.fds.size());
  PMIX_RETURN_IF_ERROR(header.status());
  std::vector<uint8_t> bytes;
  bytes.reserve(kFrameHeaderSize + frame.payload.size());
  bytes.insert(bytes.end(), header->begin(), header->end());
  bytes.insert(bytes.end(), frame.payload.begin(), frame.payload.end());
  return bytes;
}

Status FrameReader::Feed(std::span<const uint8_t> chunk, std::vector<Fd> fds) {
  if (!status_.ok()) return status_;
  if (fds.size() > max_fds_) {
    Fail(PMIX_ERR_BAD_PARAM);
    return status_;
  }
  // The descriptors of one recvmsg belong to one sendmsg, which started a
  // frame header somewhere in this chunk (frame.h): the header that claims
  // them is one that starts here.
  fresh_ = std::move(fds);
  started_here_ = false;
  size_t completed_before = ready_.size();
  while (status_.ok() && !chunk.empty()) {
    if (!in_payload_ && header_used_ == 0) started_here_ = true;
    size_t used = in_payload_ ? TakePayloadBytes(chunk) : TakeHeaderBytes(chunk);
    chunk = chunk.subspan(used);
  }
  if (status_.ok() && !fresh_.empty()) {
    if (!in_payload_ && header_used_ > 0 && started_here_) {
      carried_ = std::move(fresh_);  // for the header under way
    } else {
      // No header that starts here wants them: the frame they came with is
      // refused (the one under way is dropped by Fail, a completed one here).
      if (!in_payload_ && header_used_ == 0 && ready_.size() > completed_before) ready_.pop_back();
      Fail(PMIX_ERR_BAD_PARAM);
    }
  }
  fresh_.clear();
  return status_;
}

void FrameReader::Fail(Status why) {
  if (status_.ok()) status_ = why.ok() ? Status(PMIX_ERROR) : why;
  fresh_.clear();
  carried_.clear();
  current_ = Frame{};
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
  if (header_used_ == kFrameHeaderSize) {
    if (Status parsed = ParseHeader(); !parsed.ok()) Fail(parsed);
  }
  return n;
}

Status FrameReader::ParseHeader() {
  // Magic first, so that a stream of garbage is told apart from a peer
  // speaking another version.
  if (header_[0] != kFrameMagic0 || header_[1] != kFrameMagic1) return PMIX_ERR_UNPACK_FAILURE;
  if (header_[2] != kFrameVersion || header_[7] != 0) return PMIX_ERR_UNPACK_FAILURE;
  payload_length_ = GetLe32(&header_[12]);
  if (payload_length_ > max_payload_) return PMIX_ERR_BAD_PARAM;
  size_t nfds = header_[6];
  if (nfds > max_fds_) return PMIX_ERR_BAD_PARAM;
  current_ = Frame{};
  // A header begun in an earlier chunk takes exactly what came with that
  // chunk; one begun here, what came with this chunk, if it wants any.
  std::vector<Fd>& offered = started_here_ ? fresh_ : carried_;
  if (nfds > 0 || !started_here_) {
    if (offered.size() != nfds) return PMIX_ERR_BAD_PARAM;
    current_.fds = std::move(offered);
    offered.clear();
  }
  current_.flags = header_[3];
  current_.type = GetLe16(&header_[4]);
  current_.tag = GetLe32(&header_[8]);
  header_used_ = 0;
  in_payload_ = true;
  if (reserve_declared_) current_.payload.reserve(payload_length_);
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
