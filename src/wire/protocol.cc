#include "src/wire/protocol.h"

#include <charconv>
#include <cstring>

#include "src/common/text.h"

namespace pmix::wire {
namespace {

void PutU32(Bytes& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

bool GetU32(std::span<const uint8_t>& in, uint32_t* v) {
  if (in.size() < 4) return false;
  *v = 0;
  for (int i = 0; i < 4; ++i) *v |= static_cast<uint32_t>(in[i]) << (8 * i);
  in = in.subspan(4);
  return true;
}

bool ParseU32(const std::string& text, uint32_t* v) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *v);
  return ec == std::errc() && ptr == end;
}

}  // namespace

Bytes EncodeFields(const std::vector<std::string>& fields) {
  Bytes out;
  PutU32(out, static_cast<uint32_t>(fields.size()));
  for (const auto& f : fields) {
    PutU32(out, static_cast<uint32_t>(f.size()));
    out.insert(out.end(), f.begin(), f.end());
  }
  return out;
}

Result<std::vector<std::string>> DecodeFields(std::span<const uint8_t> bytes) {
  uint32_t n = 0;
  if (!GetU32(bytes, &n) || n > kMaxHelloFields) return Status(PMIX_ERR_UNPACK_FAILURE);
  std::vector<std::string> fields;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t len = 0;
    if (!GetU32(bytes, &len) || len > bytes.size()) return Status(PMIX_ERR_UNPACK_FAILURE);
    fields.emplace_back(reinterpret_cast<const char*>(bytes.data()), len);
    bytes = bytes.subspan(len);
  }
  if (!bytes.empty()) return Status(PMIX_ERR_UNPACK_FAILURE);
  return fields;
}

bool Hello::CanAttach(std::string_view module) const {
  if (!regions.has_value()) return true;
  for (const std::string& name : SplitCommas(*regions)) {
    if (name == module) return true;
  }
  return false;
}

Bytes Hello::Encode() const {
  std::vector<std::string> fields = {protocol, version, role, codec, psec, credential, nspace,
                                     std::to_string(rank), std::to_string(pid), info};
  if (regions.has_value()) fields.push_back(*regions);
  return EncodeFields(fields);
}

Result<Hello> Hello::Decode(std::span<const uint8_t> bytes) {
  auto fields = DecodeFields(bytes);
  if (!fields.ok()) return fields.status();
  const auto& f = *fields;
  if (f.size() < 9) return Status(PMIX_ERR_UNPACK_FAILURE);
  Hello h;
  h.protocol = f[0];
  h.version = f[1];
  h.role = f[2];
  h.codec = f[3];
  h.psec = f[4];
  h.credential = f[5];
  h.nspace = f[6];
  if (!ParseU32(f[7], &h.rank) || !ParseU32(f[8], &h.pid)) return Status(PMIX_ERR_UNPACK_FAILURE);
  if (f.size() > 9) h.info = f[9];
  if (f.size() > 10) h.regions = f[10];
  if (h.nspace.size() > PMIX_MAX_NSLEN || std::memchr(h.nspace.data(), 0, h.nspace.size()))
    return Status(PMIX_ERR_BAD_PARAM);
  return h;
}

}  // namespace pmix::wire
