// kJobUpdate from the server (src/server/server_job_update.h): a newer
// generation of a namespace's image replaces the cached one.
#include <mutex>
#include <string>

#include "src/client/client_state.h"
#include "pmix.h"
#include "src/common/output.h"
#include "src/wire/job_image.h"

namespace pmix::client {

void HandleJobUpdate(Client& c, const pmix_bfrops_module_t* codec, ptl::Frame&& frame) {
  wire::Reader r(codec, frame.payload);
  std::string nspace = r.String();
  if (!r.status().ok()) {
    output::Error("client", "malformed job update from the server");
    return;
  }
  auto image = wire::UnpackImage(r, frame.fds, nspace);
  if (!image.ok() || *image == nullptr) {
    output::Error("client", "job update of %s: not usable (%s)", nspace.c_str(),
                  PMIx_Error_string(image.ok() ? PMIX_ERR_BAD_PARAM : image.status().code()));
    return;
  }
  // Progress thread: the only writer, so the read needs no lock.
  auto current = c.cache.FindImage(nspace);
  if (current != nullptr && current->meta().generation >= (*image)->meta().generation) return;
  std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
  c.cache.AttachImage(std::move(*image));
  // The previous image goes with the lock held: no reader is inside it, and
  // a reader that sees the new generation finds the old one unmapped.
  current.reset();
}

}  // namespace pmix::client
