// What the psec components share (header-only: a component links no
// libpmix symbol, so this cannot live in mca/psec/base): the kernel's word
// on a Unix-socket peer, and the identities a host expects in directives.
// All functions are thread-safe and write outputs only on success.
#ifndef PMIXX_PLUGINS_PSEC_COMMON_PSEC_UTIL_H
#define PMIXX_PLUGINS_PSEC_COMMON_PSEC_UTIL_H

#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "pmix/mca/psec.h"

namespace pmix::psec::util {

struct Ids {
  uid_t uid;
  gid_t gid;
};

// The peer's effective uid/gid as the kernel recorded them when it
// connected (SO_PEERCRED). PMIX_ERR_NOT_SUPPORTED when fd < 0, is not a
// socket, or is not an AF_UNIX socket (nothing vouches for the peer);
// PMIX_ERR_BAD_PARAM when fd >= 0 is not open; PMIX_ERROR if the kernel
// refuses otherwise.
inline pmix_status_t PeerIds(int fd, Ids* ids) {
  if (fd < 0) return PMIX_ERR_NOT_SUPPORTED;
  int domain = 0;
  socklen_t len = sizeof domain;
  if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) != 0) {
    return errno == EBADF ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOT_SUPPORTED;
  }
  if (domain != AF_UNIX) return PMIX_ERR_NOT_SUPPORTED;
  struct ucred peer {};
  len = sizeof peer;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) != 0) return PMIX_ERROR;
  // An unconnected socket has no peer: the kernel reports the overflow ids.
  if (peer.pid == 0) return PMIX_ERR_NOT_SUPPORTED;
  *ids = Ids{peer.uid, peer.gid};
  return PMIX_SUCCESS;
}

inline bool KeyIs(const pmix_info_t& info, const char* key) {
  return std::strncmp(info.key, key, PMIX_MAX_KEYLEN) == 0;
}

// What the host expects of the peer (PMIX_USERID / PMIX_GRPID).
struct Expected {
  bool has_uid = false;
  bool has_gid = false;
  uint32_t uid = 0;
  uint32_t gid = 0;

  bool Allows(const Ids& ids) const {
    return (!has_uid || ids.uid == uid) && (!has_gid || ids.gid == gid);
  }
};

// PMIX_ERR_BAD_PARAM for a NULL array with ndirs > 0 or either key with a
// type other than PMIX_UINT32; other directives are ignored.
inline pmix_status_t ReadExpected(const pmix_info_t dirs[], size_t ndirs, Expected* out) {
  if (dirs == nullptr && ndirs > 0) return PMIX_ERR_BAD_PARAM;
  Expected expected;
  for (size_t i = 0; i < ndirs; ++i) {
    bool is_uid = KeyIs(dirs[i], PMIX_USERID);
    if (!is_uid && !KeyIs(dirs[i], PMIX_GRPID)) continue;
    if (dirs[i].value.type != PMIX_UINT32) return PMIX_ERR_BAD_PARAM;
    (is_uid ? expected.has_uid : expected.has_gid) = true;
    (is_uid ? expected.uid : expected.gid) = dirs[i].value.data.uint32;
  }
  *out = expected;
  return PMIX_SUCCESS;
}

// The empty credential of the modules that carry nothing.
inline pmix_status_t EmptyCredential(const pmix_info_t dirs[], size_t ndirs,
                                     pmix_byte_object_t* cred) {
  if (cred == nullptr || (dirs == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
  cred->bytes = nullptr;
  cred->size = 0;
  return PMIX_SUCCESS;
}

}  // namespace pmix::psec::util

#endif  // PMIXX_PLUGINS_PSEC_COMMON_PSEC_UTIL_H
