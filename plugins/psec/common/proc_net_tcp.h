// The kernel's table of TCP sockets as Linux shows it in /proc/net/tcp and
// /proc/net/tcp6: enough of it to learn which user owns the socket at the
// other end of a connection made on this host (what identd answers).
//
// A line of those files (after the header) reads
//   "<sl>: <local addr>:<port> <remote addr>:<port> <state> <tx>:<rx>
//    <tr>:<when> <retrnsmt> <uid> <timeout> <inode> ..."
// where an address is the kernel's in-memory IPv4 address (8 hex digits)
// or IPv6 address (4 groups of 8), each 32-bit group printed as a native
// integer, and a port is 4 hex digits in host order. IPv4 addresses are
// kept here as IPv4-mapped IPv6 (::ffff:a.b.c.d), so a socket of either
// family compares with the same bytes.
//
// Pure functions: thread-safe, no allocation beyond the returned values'.
#ifndef PMIXX_PLUGINS_PSEC_COMMON_PROC_NET_TCP_H
#define PMIXX_PLUGINS_PSEC_COMMON_PROC_NET_TCP_H

#include <sys/socket.h>
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace pmix::psec::util {

// An address (always 16 bytes, IPv4 mapped) and a port (host order).
struct TcpEndpoint {
  std::array<uint8_t, 16> addr{};
  uint16_t port = 0;
  bool operator==(const TcpEndpoint&) const = default;
};

// tcp_states.h: the only state whose owner we trust (see FindSocketOwner).
inline constexpr int kTcpEstablished = 1;

struct ProcNetTcpEntry {
  TcpEndpoint local;
  TcpEndpoint remote;
  int state = 0;
  uid_t uid = 0;
  uint64_t inode = 0;
};

// One line of the table; nullopt for the header, blank or malformed lines
// (bad hex, an address of another length, missing columns).
std::optional<ProcNetTcpEntry> ParseProcNetTcpLine(std::string_view line);

// The endpoint of an AF_INET / AF_INET6 socket address; nullopt for any
// other family or a length too short for it.
std::optional<TcpEndpoint> EndpointOf(const sockaddr* address, socklen_t length);

// ::ffff:a.b.c.d, i.e. an IPv4 address.
bool IsV4Mapped(const TcpEndpoint& endpoint);

// 127.0.0.0/8 (plain or IPv4-mapped) or ::1.
bool IsLoopback(const TcpEndpoint& endpoint);

// The owner of the socket whose local and remote endpoints are the given
// ones, among the lines of `table` (a whole file's text). Only an
// ESTABLISHED socket that still has an inode counts: a socket in
// TIME_WAIT shows uid 0 (it would pass for root) and an orphan belongs to
// no process any more. nullopt when there is no such line.
std::optional<uid_t> FindSocketOwner(std::string_view table, const TcpEndpoint& local,
                                     const TcpEndpoint& remote);

}  // namespace pmix::psec::util

#endif  // PMIXX_PLUGINS_PSEC_COMMON_PROC_NET_TCP_H
