// See zlib_module.h for the block format and the refusal rules.
#include "plugins/pcompress/zlib/zlib_module.h"

#include <zlib.h>

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace pmix::pcompress::zlib {
namespace {

std::atomic<size_t> g_max_size{size_t{1} << 30};
std::atomic<int> g_level{Z_DEFAULT_COMPRESSION};

// deflate's best case is 1032:1 (zlib FAQ); add slack for the stream header.
constexpr uint64_t kMaxRatio = 1032;

void PutSize(uint8_t* at, uint64_t size) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<uint8_t>(size >> (8 * i));
}

uint64_t GetSize(const uint8_t* at) {
  uint64_t size = 0;
  for (int i = 0; i < 8; ++i) size |= static_cast<uint64_t>(at[i]) << (8 * i);
  return size;
}

bool Compress(const uint8_t* in, size_t len, uint8_t** out, size_t* outlen) {
  if (out == nullptr || outlen == nullptr || (in == nullptr && len != 0)) return false;
  if (len > g_max_size.load() || len > ULONG_MAX) return false;
  static const uint8_t kEmpty = 0;
  if (in == nullptr) in = &kEmpty;
  uLongf bound = compressBound(static_cast<uLong>(len));
  auto* block = static_cast<uint8_t*>(std::malloc(kHeaderSize + bound));
  if (block == nullptr) return false;
  std::memcpy(block, kMagic, sizeof kMagic);
  PutSize(block + 4, len);
  if (compress2(block + kHeaderSize, &bound, in, static_cast<uLong>(len), g_level.load()) !=
      Z_OK) {
    std::free(block);
    return false;
  }
  size_t total = kHeaderSize + bound;
  // Shrinking cannot fail in practice; keep the larger block if it does.
  if (auto* shrunk = static_cast<uint8_t*>(std::realloc(block, total))) block = shrunk;
  *out = block;
  *outlen = total;
  return true;
}

// Inflates exactly `size` bytes from the stream; false unless the stream
// ends there, checksum verified, with no input left over.
bool InflateExactly(const uint8_t* in, size_t len, uint8_t* dst, size_t size) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return false;
  zs.next_in = const_cast<Bytef*>(in);
  zs.avail_in = 0;
  zs.next_out = dst;
  int rc = Z_OK;
  // avail_in/avail_out are 32-bit: feed in chunks so blocks above 4 GiB work.
  constexpr size_t kChunk = 1u << 30;
  size_t in_left = len, out_left = size;
  while (rc == Z_OK) {
    if (zs.avail_in == 0 && in_left > 0) {
      zs.avail_in = static_cast<uInt>(in_left < kChunk ? in_left : kChunk);
      in_left -= zs.avail_in;
    }
    if (zs.avail_out == 0 && out_left > 0) {
      zs.avail_out = static_cast<uInt>(out_left < kChunk ? out_left : kChunk);
      out_left -= zs.avail_out;
    }
    rc = inflate(&zs, Z_FINISH);
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left > 0) rc = Z_OK;
    if (rc == Z_BUF_ERROR && zs.avail_out == 0 && out_left > 0) rc = Z_OK;
  }
  bool exact = rc == Z_STREAM_END && zs.total_out == size && zs.avail_in == 0 &&
               in_left == 0;
  inflateEnd(&zs);
  return exact;
}

bool Decompress(const uint8_t* in, size_t len, uint8_t** out, size_t* outlen) {
  if (in == nullptr || out == nullptr || outlen == nullptr) return false;
  if (len < kHeaderSize || std::memcmp(in, kMagic, sizeof kMagic) != 0) return false;
  uint64_t size = GetSize(in + 4);
  uint64_t payload = len - kHeaderSize;
  if (size > g_max_size.load() || size > SIZE_MAX - 1) return false;
  if (payload < UINT64_MAX / kMaxRatio && size > payload * kMaxRatio) return false;
  auto* data = static_cast<uint8_t*>(std::malloc(size + 1));
  if (data == nullptr) return false;
  if (!InflateExactly(in + kHeaderSize, payload, data, size)) {
    std::free(data);
    return false;
  }
  *out = data;
  *outlen = size;
  return true;
}

bool CompressString(const char* str, uint8_t** out, size_t* outlen) {
  if (str == nullptr) return false;
  return Compress(reinterpret_cast<const uint8_t*>(str), std::strlen(str) + 1, out, outlen);
}

bool DecompressString(const uint8_t* in, size_t len, char** str) {
  if (str == nullptr) return false;
  uint8_t* data = nullptr;
  size_t size = 0;
  if (!Decompress(in, len, &data, &size)) return false;
  // A string block holds exactly one NUL, at its end.
  if (size == 0 || std::memchr(data, '\0', size) != data + size - 1) {
    std::free(data);
    return false;
  }
  *str = reinterpret_cast<char*>(data);
  return true;
}

}  // namespace

const pmix_pcompress_module_t kModule = {Compress, Decompress, CompressString,
                                         DecompressString};

void Configure(size_t max_size, int level) {
  g_max_size.store(max_size);
  g_level.store(level);
}

}  // namespace pmix::pcompress::zlib
