// PMIx_Spawn on the server (standard §12.2, §17.3.11): a client's request
// goes to the host's spawn upcall with the requester's identity, the job
// info and the apps; the host's answer (a status and the new namespace)
// goes back to the requester.
//
// What the host gets: the requester's proc; the client's job info plus
// PMIX_USERID and PMIX_GRPID of the requester (§17.3.11, required) and
// PMIX_REQUESTOR_IS_CLIENT or PMIX_REQUESTOR_IS_TOOL (§17.3.11.1); the
// apps as the client gave them. Everything stays valid until the host's
// callback. No spawn upcall: PMIX_ERR_NOT_SUPPORTED. The host decides the
// spawn's own timing (PMIX_TIMEOUT / PMIX_SPAWN_TIMEOUT go to it with the
// job info); a requester that leaves meanwhile gets no answer. A host
// callback arriving after the server finalized is dropped.
//
// Wire (wire::Msg::kSpawn, a request): body = info array job_info, u32
// napps, napps x pmix_app_t (the codec's PMIX_APP). Reply: status, info
// array; on success the array holds PMIX_NSPACE (string) = the new
// namespace, when the host named one.
//
// Threads: the server's functions run on its progress thread; Apps and
// the pack/unpack helpers are plain values, usable on any thread.
#ifndef PMIXX_SRC_SERVER_SERVER_SPAWN_H
#define PMIXX_SRC_SERVER_SERVER_SPAWN_H

#include <sys/types.h>

#include <cstddef>
#include <functional>
#include <span>
#include <string>

#include "pmix_common.h"
#include "src/common/status.h"
#include "src/server/server_state.h"
#include "src/server/server_upcall.h"
#include "src/wire/buffer.h"

namespace pmix::server {

// An owned array of apps (PMIx_App_create / PMIx_App_free).
class Apps {
 public:
  Apps() = default;
  explicit Apps(size_t n);  // n constructed apps (std::bad_alloc when out of memory)
  Apps(Apps&& other) noexcept;
  Apps& operator=(Apps&& other) noexcept;
  Apps(const Apps&) = delete;
  Apps& operator=(const Apps&) = delete;
  ~Apps();
  // A deep copy (PMIX_ERR_NOMEM etc. on failure).
  static Result<Apps> CopyOf(std::span<const pmix_app_t> src);
  pmix_app_t* data() { return apps_; }
  const pmix_app_t* data() const { return apps_; }
  size_t size() const { return n_; }
  std::span<const pmix_app_t> view() const { return {apps_, n_}; }

 private:
  pmix_app_t* apps_ = nullptr;
  size_t n_ = 0;
};

// The most apps one request may carry.
inline constexpr uint32_t kMaxSpawnApps = 4096;

// u32 count + the apps (PMIX_APP); UnpackApps reads that back
// (PMIX_ERR_UNPACK_FAILURE for more than kMaxSpawnApps or a bad body).
void PackApps(wire::Writer& w, std::span<const pmix_app_t> apps);
Result<Apps> UnpackApps(wire::Reader& r);

// Called once, on the progress thread (possibly before Spawn returns),
// with the host's status and the namespace it named ("" when none).
using SpawnDone = std::function<void(pmix_status_t, std::string nspace)>;

// is_tool: the requester is a tool (PMIX_REQUESTOR_IS_TOOL, else
// PMIX_REQUESTOR_IS_CLIENT goes to the host).
void Spawn(Server& s, const Requester& who, bool is_tool, std::span<const pmix_info_t> job_info,
           Apps apps, SpawnDone done);

// The reply's infos: PMIX_NSPACE = nspace when status is PMIX_SUCCESS and
// nspace is not empty, else none. Returns status, or the failure to add.
pmix_status_t SpawnResult(pmix_status_t status, const std::string& nspace, wire::Infos* infos);

// The kSpawn message handler.
void HandleSpawn(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_SPAWN_H
