// The native psec module (contract in native_module.h).
#include "plugins/psec/native/native_module.h"

#include "plugins/psec/common/psec_util.h"

namespace pmix::psec::native {
namespace {

const pmix_mca_services_t* g_services = nullptr;

pmix_status_t CreateCred(const pmix_info_t directives[], size_t ndirs, pmix_byte_object_t* cred) {
  return util::EmptyCredential(directives, ndirs, cred);
}

pmix_status_t ValidateCred(int fd, const pmix_byte_object_t* cred, const pmix_info_t directives[],
                           size_t ndirs, uid_t* uid, gid_t* gid) {
  if (uid == nullptr || gid == nullptr) return PMIX_ERR_BAD_PARAM;
  util::Expected expected;
  pmix_status_t rc = util::ReadExpected(directives, ndirs, &expected);
  if (rc != PMIX_SUCCESS) return rc;
  // Without a Unix-socket peer native cannot judge, whatever the bytes:
  // that must stay NOT_SUPPORTED so that another module gets to judge.
  util::Ids peer{};
  rc = util::PeerIds(fd, &peer);
  if (rc != PMIX_SUCCESS) return rc;
  if (cred != nullptr && cred->size != 0) return PMIX_ERR_INVALID_CRED;
  if (!expected.Allows(peer)) {
    if (g_services != nullptr) {
      g_services->output("psec", 1, "native: peer uid %u gid %u is not the expected one",
                         static_cast<unsigned>(peer.uid), static_cast<unsigned>(peer.gid));
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
