// The none psec module (contract in none_module.h).
#include "plugins/psec/none/none_module.h"

#include <unistd.h>

#include "plugins/psec/common/psec_util.h"

namespace pmix::psec::none {
namespace {

pmix_status_t CreateCred(const pmix_info_t directives[], size_t ndirs, pmix_byte_object_t* cred) {
  return util::EmptyCredential(directives, ndirs, cred);
}

pmix_status_t ValidateCred(int fd, const pmix_byte_object_t*, const pmix_info_t[], size_t,
                           uid_t* uid, gid_t* gid) {
  if (uid == nullptr || gid == nullptr) return PMIX_ERR_BAD_PARAM;
  util::Ids ids{};
  // Informational only: with no socket peer to ask, the best guess is us.
  if (util::PeerIds(fd, &ids) != PMIX_SUCCESS) ids = util::Ids{geteuid(), getegid()};
  *uid = ids.uid;
  *gid = ids.gid;
  return PMIX_SUCCESS;
}

}  // namespace

const pmix_psec_module_t kModule = {"none", CreateCred, ValidateCred};

}  // namespace pmix::psec::none
