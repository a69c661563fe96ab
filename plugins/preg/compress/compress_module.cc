// See compress_module.h. The component calls only the public API
// (PMIx_Data_compress/decompress), as plugins must.
#include "plugins/preg/compress/compress_module.h"

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "pmix.h"
#include "plugins/preg/common/preg_util.h"

namespace pmix::preg::compress {
namespace {

constexpr std::string_view kPrefix = "blob:";
constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};
using Bytes = std::unique_ptr<uint8_t, FreeDeleter>;

pmix_status_t Generate(const char* input, char** out) {
  return util::Guard([&] {
    std::string_view text(input);
    uint8_t* block = nullptr;
    size_t len = 0;
    if (!PMIx_Data_compress(reinterpret_cast<const uint8_t*>(text.data()), text.size(),
                            &block, &len)) {
      return PMIX_ERR_NOT_SUPPORTED;
    }
    Bytes owned(block);
    std::string encoded(kPrefix);
    encoded += Base64Encode(std::string_view(reinterpret_cast<char*>(block), len));
    return util::DupString(encoded, out);
  });
}

pmix_status_t Parse(const char* regex, char sep, char*** out) {
  return util::Guard([&] {
    std::string_view text(regex);
    if (!util::StripPrefix(text, kPrefix)) return PMIX_ERR_NOT_SUPPORTED;
    auto block = Base64Decode(text);
    if (!block) return PMIX_ERR_BAD_PARAM;
    uint8_t* data = nullptr;
    size_t len = 0;
    if (!PMIx_Data_decompress(reinterpret_cast<const uint8_t*>(block->data()), block->size(),
                              &data, &len)) {
      return PMIX_ERR_BAD_PARAM;
    }
    Bytes owned(data);
    std::string_view list(reinterpret_cast<char*>(data), len);
    if (list.find('\0') != std::string_view::npos) return PMIX_ERR_BAD_PARAM;
    return util::ToArgv(util::Split(list, sep), out);
  });
}

pmix_status_t ParseNodes(const char* regex, char*** names) { return Parse(regex, ',', names); }
pmix_status_t ParseProcs(const char* regex, char*** procs) { return Parse(regex, ';', procs); }

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    size_t n = bytes.size() - i < 3 ? bytes.size() - i : 3;
    uint32_t group = 0;
    for (size_t j = 0; j < 3; ++j) {
      group = (group << 8) | (j < n ? static_cast<uint8_t>(bytes[i + j]) : 0u);
    }
    for (size_t j = 0; j < 4; ++j) {
      out += j <= n ? kAlphabet[(group >> (18 - 6 * j)) & 63] : '=';
    }
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    size_t pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
    uint32_t group = 0;
    for (size_t j = 0; j < 4; ++j) {
      int value = j < 4 - pad ? Sextet(text[i + j]) : 0;
      if (value < 0) return std::nullopt;
      group = (group << 6) | static_cast<uint32_t>(value);
    }
    // Canonical only: the bits under the padding must be zero.
    if ((pad == 1 && (group & 0xff) != 0) || (pad == 2 && (group & 0xffff) != 0)) {
      return std::nullopt;
    }
    for (size_t j = 0; j < 3 - pad; ++j) out += static_cast<char>((group >> (16 - 8 * j)) & 0xff);
  }
  return out;
}

const pmix_preg_module_t kModule = {"compress", Generate, Generate, ParseNodes, ParseProcs};

}  // namespace pmix::preg::compress
