// Reading the kernel's TCP socket table (contract in proc_net_tcp.h).
#include "plugins/psec/common/proc_net_tcp.h"

#include <netinet/in.h>

#include <charconv>
#include <cstring>

namespace pmix::psec::util {
namespace {

constexpr size_t kColumns = 10;  // sl .. inode; the kernel prints more
constexpr size_t kLocalColumn = 1;
constexpr size_t kRemoteColumn = 2;
constexpr size_t kStateColumn = 3;
constexpr size_t kUidColumn = 7;
constexpr size_t kInodeColumn = 9;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Up to max whitespace-separated words of line; how many were found.
size_t SplitWords(std::string_view line, std::string_view* words, size_t max) {
  size_t n = 0, i = 0;
  while (n < max) {
    while (i < line.size() && IsSpace(line[i])) ++i;
    if (i == line.size()) break;
    size_t start = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    words[n++] = line.substr(start, i - start);
  }
  return n;
}

// The whole of text as a number in base (no sign, no prefix, not empty).
template <typename T>
bool ParseNumber(std::string_view text, int base, T* out) {
  if (text.empty()) return false;
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) return false;
  *out = value;
  return true;
}

bool ParseHexDigits(std::string_view text, size_t digits, uint32_t* out) {
  return text.size() == digits && ParseNumber(text, 16, out);
}

// "<8 or 32 hex digits>:<4 hex digits>".
bool ParseEndpoint(std::string_view text, TcpEndpoint* out) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view addr = text.substr(0, colon);
  uint32_t port = 0;
  if (!ParseHexDigits(text.substr(colon + 1), 4, &port)) return false;
  TcpEndpoint endpoint;
  endpoint.port = static_cast<uint16_t>(port);
  if (addr.size() == 8) {
    uint32_t word = 0;
    if (!ParseHexDigits(addr, 8, &word)) return false;
    endpoint.addr[10] = endpoint.addr[11] = 0xff;
    std::memcpy(&endpoint.addr[12], &word, sizeof word);
  } else if (addr.size() == 32) {
    for (size_t group = 0; group < 4; ++group) {
      uint32_t word = 0;
      if (!ParseHexDigits(addr.substr(group * 8, 8), 8, &word)) return false;
      std::memcpy(&endpoint.addr[group * 4], &word, sizeof word);
    }
  } else {
    return false;
  }
  *out = endpoint;
  return true;
}

}  // namespace

bool IsV4Mapped(const TcpEndpoint& e) {
  for (size_t i = 0; i < 10; ++i) {
    if (e.addr[i] != 0) return false;
  }
  return e.addr[10] == 0xff && e.addr[11] == 0xff;
}

std::optional<ProcNetTcpEntry> ParseProcNetTcpLine(std::string_view line) {
  std::string_view words[kColumns];
  if (SplitWords(line, words, kColumns) != kColumns) return std::nullopt;
  if (words[0].size() < 2 || words[0].back() != ':') return std::nullopt;
  ProcNetTcpEntry entry;
  uint32_t state = 0;
  uint32_t uid = 0;
  if (!ParseEndpoint(words[kLocalColumn], &entry.local) ||
      !ParseEndpoint(words[kRemoteColumn], &entry.remote) ||
      !ParseHexDigits(words[kStateColumn], 2, &state) ||
      !ParseNumber(words[kUidColumn], 10, &uid) ||
      !ParseNumber(words[kInodeColumn], 10, &entry.inode)) {
    return std::nullopt;
  }
  entry.state = static_cast<int>(state);
  entry.uid = static_cast<uid_t>(uid);
  return entry;
}

std::optional<TcpEndpoint> EndpointOf(const sockaddr* address, socklen_t length) {
  if (address == nullptr) return std::nullopt;
  TcpEndpoint endpoint;
  if (address->sa_family == AF_INET && length >= static_cast<socklen_t>(sizeof(sockaddr_in))) {
    sockaddr_in v4;
    std::memcpy(&v4, address, sizeof v4);
    endpoint.addr[10] = endpoint.addr[11] = 0xff;
    std::memcpy(&endpoint.addr[12], &v4.sin_addr, 4);
    endpoint.port = ntohs(v4.sin_port);
    return endpoint;
  }
  if (address->sa_family == AF_INET6 && length >= static_cast<socklen_t>(sizeof(sockaddr_in6))) {
    sockaddr_in6 v6;
    std::memcpy(&v6, address, sizeof v6);
    std::memcpy(endpoint.addr.data(), &v6.sin6_addr, 16);
    endpoint.port = ntohs(v6.sin6_port);
    return endpoint;
  }
  return std::nullopt;
}

bool IsLoopback(const TcpEndpoint& e) {
  if (IsV4Mapped(e)) return e.addr[12] == 127;
  for (size_t i = 0; i < 15; ++i) {
    if (e.addr[i] != 0) return false;
  }
  return e.addr[15] == 1;
}

std::optional<uid_t> FindSocketOwner(std::string_view table, const TcpEndpoint& local,
                                     const TcpEndpoint& remote) {
  while (!table.empty()) {
    size_t eol = table.find('\n');
    std::string_view line = table.substr(0, eol);
    table = eol == std::string_view::npos ? std::string_view() : table.substr(eol + 1);
    auto entry = ParseProcNetTcpLine(line);
    if (!entry || entry->local != local || entry->remote != remote) continue;
    if (entry->state != kTcpEstablished || entry->inode == 0) continue;
    return entry->uid;
  }
  return std::nullopt;
}

}  // namespace pmix::psec::util
