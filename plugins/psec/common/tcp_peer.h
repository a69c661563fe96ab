// Who is at the other end of a TCP connection made over loopback, the way
// identd tells: the kernel lists both ends of such a connection in
// /proc/net/tcp (or tcp6) with the uid that owns each socket, so the
// peer's socket is the entry whose local endpoint is our remote one and
// whose remote endpoint is our local one.
//
// Only loopback peers (127.0.0.0/8, ::1, IPv4-mapped 127/8): a packet
// from another host cannot carry a loopback source address, so such a
// peer is on this host and in our network namespace, where its socket is
// in the table we read. A remote peer's table is on another machine:
// native cannot judge it (munge can).
//
// The group: the table has no gid. The peer is reported with
//  - the gid the host expects (PMIX_GRPID), when the peer's uid is a
//    member of it: the uid is ours and the gid is our effective or a
//    supplementary group of ours (the same user is the same principal),
//    or the gid is the primary group of the uid's passwd entry or one of
//    the groups getgrouplist(3) gives that user;
//  - otherwise the primary group of the uid (our egid when the uid is
//    ours, else its passwd entry's), so an expected gid that the user is
//    not a member of fails the host's check.
// Group lookups go through NSS (may be slow with a remote directory; only
// made when the expectation is not settled by our own ids).
#ifndef PMIXX_PLUGINS_PSEC_COMMON_TCP_PEER_H
#define PMIXX_PLUGINS_PSEC_COMMON_TCP_PEER_H

#include <sys/types.h>

#include <optional>

#include "plugins/psec/common/psec_util.h"
#include "pmix/mca/psec.h"

namespace pmix::psec::util {

// The ids of the loopback TCP peer of fd, as described above; `expected`
// only picks the gid to report (the caller still checks it with
// expected.Allows). Writes *ids only on success. PMIX_ERR_NOT_SUPPORTED
// when fd is not a connected TCP socket, the peer is not on loopback, the
// table has no ESTABLISHED entry for the peer's socket (or /proc/net is
// unreadable), or no group can be named for a uid without passwd entry
// and nothing is expected; PMIX_ERR_NO_PERMISSIONS when the uid is not
// the expected one (no group lookup then), or a gid is expected and the
// uid's groups cannot be known; PMIX_ERR_NOMEM. Thread-safe.
pmix_status_t LoopbackTcpPeerIds(int fd, const Expected& expected, Ids* ids);

// The group to report for uid (see above); nullopt when none can be
// named. Exposed for tests.
std::optional<gid_t> GroupFor(uid_t uid, std::optional<gid_t> wanted);

}  // namespace pmix::psec::util

#endif  // PMIXX_PLUGINS_PSEC_COMMON_TCP_PEER_H
