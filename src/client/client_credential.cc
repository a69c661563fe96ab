// PMIx_Get_credential(_nb) and PMIx_Validate_credential(_nb) (ch. 16).
//
// A client asks its server, whose host may provide the service
// (get_credential / validate_credential upcalls). When the host does not
// (PMIX_ERR_NOT_SUPPORTED), or the process has no server (a singleton, or
// a process that is only a server), the library's own psec modules answer
// (mca/psec/base/psec_base.h: GetCredentialFallback and its sibling).
// Callbacks run on the progress thread; the credential and infos handed to
// a callback are valid only during it.
#include <cstdlib>
#include <cstring>

#include "mca/psec/base/psec_base.h"
#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/runtime/state.h"

namespace pmix::client {
namespace {

struct CredResult {
  pmix_status_t status = PMIX_ERROR;
  wire::Bytes cred;
  wire::Infos info;
};
using CredDone = std::function<void(CredResult&&)>;

CredResult LocalCredential(std::span<const pmix_info_t> directives) {
  CredResult out;
  auto cred = psec::GetCredentialFallback(directives);
  out.status = cred.status().code();
  if (!cred.ok()) return out;
  out.cred.assign(cred->bytes.begin(), cred->bytes.end());
  out.status = out.info.Add(PMIX_CRED_TYPE, cred->type.c_str(), PMIX_STRING).code();
  return out;
}

CredResult LocalValidation(std::span<const uint8_t> cred, std::span<const pmix_info_t> directives) {
  CredResult out;
  auto ids = psec::ValidateCredentialFallback(
      std::span<const char>(reinterpret_cast<const char*>(cred.data()), cred.size()), directives);
  out.status = ids.status().code();
  if (!ids.ok()) return out;
  uint32_t uid = ids->uid, gid = ids->gid;
  Status added = out.info.Add(PMIX_USERID, &uid, PMIX_UINT32);
  if (added.ok()) added = out.info.Add(PMIX_GRPID, &gid, PMIX_UINT32);
  out.status = added.code();
  return out;
}

// Asks the server (type kGetCredential or kValidateCredential; body
// already packed) and falls back to `local` when it cannot help.
void AskServer(wire::Msg type, std::function<Result<wire::Bytes>(const pmix_bfrops_module_t*)> pack,
               std::function<CredResult()> local, CredDone done) {
  PostToClient(
      [=](Client& c) {
        if (c.codec() == nullptr || c.conn == nullptr || c.conn->closed()) return done(local());
        auto body = pack(c.codec());
        if (!body.ok()) return done(CredResult{body.status().code(), {}, {}});
        c.Request(type, *body, [=](Status st, wire::Reader& r) {
          CredResult out;
          out.status = st.ok() ? r.Status() : st.code();
          if (out.status == PMIX_ERR_NOT_SUPPORTED) return done(local());
          if (type == wire::Msg::kGetCredential) out.cred = r.Blob();
          out.info = r.InfoArray();
          if (!r.status().ok() && out.status == PMIX_SUCCESS) out.status = r.status().code();
          done(std::move(out));
        });
      },
      [=](Status) {
        // Not a client (a server process): answer on the progress thread.
        done(local());
      });
}

bool AnyRole() { return runtime::AnyRoleInitialized() && runtime::Engine() != nullptr; }

pmix_status_t GetCredential(std::span<const pmix_info_t> info, CredDone done) {
  if (!AnyRole()) return PMIX_ERR_INIT;
  auto directives = wire::Infos::CopyOf(info);
  if (!directives.ok()) return directives.status().code();
  auto dirs = std::make_shared<wire::Infos>(std::move(*directives));
  AskServer(
      wire::Msg::kGetCredential,
      [dirs](const pmix_bfrops_module_t* codec) {
        wire::Writer w(codec);
        w.InfoArray(dirs->view());
        return w.Take();
      },
      [dirs] { return LocalCredential(dirs->view()); }, std::move(done));
  return PMIX_SUCCESS;
}

pmix_status_t Validate(const pmix_byte_object_t* cred, std::span<const pmix_info_t> info,
                       CredDone done) {
  if (!AnyRole()) return PMIX_ERR_INIT;
  if (cred == nullptr || (cred->bytes == nullptr && cred->size > 0)) return PMIX_ERR_BAD_PARAM;
  auto bytes = std::make_shared<wire::Bytes>(cred->bytes, cred->bytes + cred->size);
  auto directives = wire::Infos::CopyOf(info);
  if (!directives.ok()) return directives.status().code();
  auto dirs = std::make_shared<wire::Infos>(std::move(*directives));
  AskServer(
      wire::Msg::kValidateCredential,
      [bytes, dirs](const pmix_bfrops_module_t* codec) {
        wire::Writer w(codec);
        w.Blob(std::span<const uint8_t>(*bytes)).InfoArray(dirs->view());
        return w.Take();
      },
      [bytes, dirs] { return LocalValidation(*bytes, dirs->view()); }, std::move(done));
  return PMIX_SUCCESS;
}

// Runs an _nb form and waits for its callback.
Result<CredResult> Blocking(const std::function<pmix_status_t(CredDone)>& start) {
  return runtime::WaitForCallback<CredResult>(start);
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Get_credential_nb(const pmix_info_t info[], size_t ninfo,
                                                pmix_credential_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Get_credential_nb", [&]() -> pmix_status_t {
    if (cbfunc == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    return client::GetCredential(pmix::InfoSpan(info, ninfo), [cbfunc, cbdata](client::CredResult&& r) {
      pmix_byte_object_t bo{reinterpret_cast<char*>(r.cred.data()), r.cred.size()};
      cbfunc(r.status, r.status == PMIX_SUCCESS ? &bo : nullptr, r.info.data(), r.info.size(), cbdata);
    });
  });
}

extern "C" pmix_status_t PMIx_Get_credential(const pmix_info_t info[], size_t ninfo,
                                             pmix_byte_object_t* credential) {
  return pmix::ApiGuard("PMIx_Get_credential", [&]() -> pmix_status_t {
    if (credential == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    auto span = pmix::InfoSpan(info, ninfo);
    auto r = client::Blocking([span](client::CredDone done) { return client::GetCredential(span, done); });
    if (!r.ok()) return r.status().code();
    if (r->status != PMIX_SUCCESS) return r->status;
    credential->bytes = static_cast<char*>(std::malloc(r->cred.empty() ? 1 : r->cred.size()));
    if (credential->bytes == nullptr) return PMIX_ERR_NOMEM;
    if (!r->cred.empty()) std::memcpy(credential->bytes, r->cred.data(), r->cred.size());
    credential->size = r->cred.size();
    return PMIX_SUCCESS;
  });
}

extern "C" pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t* cred,
                                                     const pmix_info_t info[], size_t ninfo,
                                                     pmix_validation_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Validate_credential_nb", [&]() -> pmix_status_t {
    if (cbfunc == nullptr || (info == nullptr && ninfo > 0)) return PMIX_ERR_BAD_PARAM;
    return client::Validate(cred, pmix::InfoSpan(info, ninfo), [cbfunc, cbdata](client::CredResult&& r) {
      cbfunc(r.status, r.info.data(), r.info.size(), cbdata);
    });
  });
}

extern "C" pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t* cred,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_info_t** results, size_t* nresults) {
  return pmix::ApiGuard("PMIx_Validate_credential", [&]() -> pmix_status_t {
    if (info == nullptr && ninfo > 0) return PMIX_ERR_BAD_PARAM;
    auto span = pmix::InfoSpan(info, ninfo);
    auto r = client::Blocking([cred, span](client::CredDone done) { return client::Validate(cred, span, done); });
    if (!r.ok()) return r.status().code();
    if (results != nullptr && nresults != nullptr) {
      auto out = r->info.ToMalloced();
      if (!out.ok()) return out.status().code();
      *results = *out;
      *nresults = r->info.size();
    }
    return r->status;
  });
}
