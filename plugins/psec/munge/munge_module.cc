// The munge psec module (contract in munge_module.h).
#include "plugins/psec/munge/munge_module.h"

#include <munge.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "plugins/psec/common/psec_util.h"

namespace pmix::psec::munge {
namespace {

const pmix_mca_services_t* g_services = nullptr;
std::string g_socket;  // empty: libmunge's default

struct CtxDeleter {
  void operator()(munge_ctx_t ctx) const { munge_ctx_destroy(ctx); }
};
using Ctx = std::unique_ptr<std::remove_pointer_t<munge_ctx_t>, CtxDeleter>;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// A context aimed at the configured socket, or nullptr (out of memory).
Ctx NewContext() {
  Ctx ctx(munge_ctx_create());
  if (ctx && !g_socket.empty() &&
      munge_ctx_set(ctx.get(), MUNGE_OPT_SOCKET, g_socket.c_str()) != EMUNGE_SUCCESS) {
    ctx.reset();
  }
  return ctx;
}

template <class... Args>
void Log(int level, const char* fmt, Args... args) {
  if (g_services == nullptr) return;
  // A bare message goes through "%s": clang's -Wformat-security refuses a
  // non-literal format with no arguments.
  if constexpr (sizeof...(args) == 0) {
    g_services->output("psec", level, "%s", fmt);
  } else {
    g_services->output("psec", level, fmt, args...);
  }
}

pmix_status_t FromMunge(munge_err_t err) {
  switch (err) {
    case EMUNGE_SUCCESS:
      return PMIX_SUCCESS;
    case EMUNGE_SOCKET:
      return PMIX_ERR_UNREACH;
    case EMUNGE_NO_MEMORY:
      return PMIX_ERR_NOMEM;
    default:
      return PMIX_ERR_INVALID_CRED;
  }
}

pmix_status_t CreateCred(const pmix_info_t directives[], size_t ndirs, pmix_byte_object_t* cred) {
  if (cred == nullptr || (directives == nullptr && ndirs > 0)) return PMIX_ERR_BAD_PARAM;
  Ctx ctx = NewContext();
  if (!ctx) return PMIX_ERR_NOMEM;
  char* text = nullptr;
  munge_err_t err = munge_encode(&text, ctx.get(), nullptr, 0);
  if (err != EMUNGE_SUCCESS) {
    std::free(text);
    Log(1, "munge: cannot create a credential: %s", munge_ctx_strerror(ctx.get()));
    return err == EMUNGE_SOCKET ? PMIX_ERR_UNREACH : PMIX_ERROR;
  }
  cred->bytes = text;  // malloc'd by libmunge: the caller frees it with free()
  cred->size = std::strlen(text);
  return PMIX_SUCCESS;
}

// The credential as the C string munge_decode wants; false if it cannot
// be one (embedded NUL). One trailing NUL is tolerated.
bool AsText(const pmix_byte_object_t* cred, std::string* text) {
  if (cred == nullptr || cred->size == 0 || cred->bytes == nullptr) return false;
  text->assign(cred->bytes, cred->size);
  if (text->back() == '\0') text->pop_back();
  return !text->empty() && text->find('\0') == std::string::npos;
}

// Decodes text into *ids; the status carries munge's verdict.
pmix_status_t Decode(const std::string& text, util::Ids* ids) {
  Ctx ctx = NewContext();
  if (!ctx) return PMIX_ERR_NOMEM;
  void* payload = nullptr;
  int length = 0;
  uid_t uid = 0;
  gid_t gid = 0;
  munge_err_t err = munge_decode(text.c_str(), ctx.get(), &payload, &length, &uid, &gid);
  std::unique_ptr<void, FreeDeleter> owned(payload);  // allocated even on some errors
  if (err != EMUNGE_SUCCESS) {
    Log(1,
        err == EMUNGE_SOCKET ? "munge: cannot validate a credential: %s"
                             : "munge: credential refused: %s",
        munge_ctx_strerror(ctx.get()));
    return FromMunge(err);
  }
  *ids = util::Ids{uid, gid};
  return PMIX_SUCCESS;
}

pmix_status_t Validate(int fd, const pmix_byte_object_t* cred, const pmix_info_t directives[],
                       size_t ndirs, uid_t* uid, gid_t* gid) {
  if (uid == nullptr || gid == nullptr) return PMIX_ERR_BAD_PARAM;
  util::Expected expected;
  pmix_status_t rc = util::ReadExpected(directives, ndirs, &expected);
  if (rc != PMIX_SUCCESS) return rc;
  std::string text;
  if (!AsText(cred, &text)) {
    Log(1, "munge: credential refused: not a munge credential");
    return PMIX_ERR_INVALID_CRED;
  }
  util::Ids ids{};
  rc = Decode(text, &ids);
  if (rc != PMIX_SUCCESS) return rc;
  util::Ids peer{};
  if (util::PeerIds(fd, &peer) == PMIX_SUCCESS && peer.uid != ids.uid) {
    Log(0, "munge: credential of uid %u presented by a peer of uid %u",
        static_cast<unsigned>(ids.uid), static_cast<unsigned>(peer.uid));
    return PMIX_ERR_NO_PERMISSIONS;
  }
  if (!expected.Allows(ids)) {
    Log(1, "munge: uid %u gid %u is not the expected one", static_cast<unsigned>(ids.uid),
        static_cast<unsigned>(ids.gid));
    return PMIX_ERR_NO_PERMISSIONS;
  }
  *uid = ids.uid;
  *gid = ids.gid;
  return PMIX_SUCCESS;
}

// No exception crosses the module's C interface (the copy may throw).
pmix_status_t ValidateCred(int fd, const pmix_byte_object_t* cred, const pmix_info_t directives[],
                           size_t ndirs, uid_t* uid, gid_t* gid) {
  try {
    return Validate(fd, cred, directives, ndirs, uid, gid);
  } catch (...) {
    return PMIX_ERR_NOMEM;
  }
}

}  // namespace

const pmix_psec_module_t kModule = {"munge", CreateCred, ValidateCred};

void Configure(const pmix_mca_services_t* services, const char* socket) {
  g_services = services;
  g_socket = socket != nullptr ? socket : "";
}

}  // namespace pmix::psec::munge
