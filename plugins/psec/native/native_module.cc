// The native psec module (contract in native_module.h).
#include "plugins/psec/native/native_module.h"

#include "plugins/psec/common/psec_util.h"
#include "plugins/psec/common/tcp_peer.h"

namespace pmix::psec::native {
namespace {

const pmix_mca_services_t* g_services = nullptr;

pmix_status_t CreateCred(const pmix_info_t directives[], size_t ndirs, pmix_byte_object_t* cred) {
  return util::EmptyCredential(directives, ndirs, cred);
}

// The peer's ids: the kernel's record on a Unix socket, the socket table's
// on a loopback TCP connection (NO_PERMISSIONS already when its uid is
// not the expected one).
pmix_status_t PeerOf(int fd, const util::Expected& expected, util::Ids* peer) {
  pmix_status_t rc = util::PeerIds(fd, peer);
  if (rc != PMIX_ERR_NOT_SUPPORTED || fd < 0) return rc;
  return util::LoopbackTcpPeerIds(fd, expected, peer);
}

pmix_status_t ValidateCred(int fd, const pmix_byte_object_t* cred, const pmix_info_t directives[],
                           size_t ndirs, uid_t* uid, gid_t* gid) {
  if (uid == nullptr || gid == nullptr) return PMIX_ERR_BAD_PARAM;
  util::Expected expected;
  pmix_status_t rc = util::ReadExpected(directives, ndirs, &expected);
  if (rc != PMIX_SUCCESS) return rc;
  // Without a peer the kernel can name native cannot judge, whatever the
  // bytes: that must stay NOT_SUPPORTED so that another module gets to.
  util::Ids peer{};
  rc = PeerOf(fd, expected, &peer);
  if (rc != PMIX_SUCCESS && rc != PMIX_ERR_NO_PERMISSIONS) return rc;
  if (cred != nullptr && cred->size != 0) return PMIX_ERR_INVALID_CRED;
  if (rc == PMIX_ERR_NO_PERMISSIONS || !expected.Allows(peer)) {
    if (g_services != nullptr) {
      g_services->output("psec", 1, "native: the peer is not uid %u gid %u as expected",
                         static_cast<unsigned>(expected.uid), static_cast<unsigned>(expected.gid));
    }
    return PMIX_ERR_NO_PERMISSIONS;
  }
  *uid = peer.uid;
  *gid = peer.gid;
  return PMIX_SUCCESS;
}

}  // namespace

const pmix_psec_module_t kModule = {"native", CreateCred, ValidateCred};

void Configure(const pmix_mca_services_t* services) { g_services = services; }

}  // namespace pmix::psec::native
