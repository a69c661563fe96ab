// How a namespace's job-data image (mca/gds/base/image.h) travels from a
// server to a client: in the welcome, and for other namespaces in get and
// connect replies. The server builds the image once per namespace; a local
// client on a Unix socket receives a descriptor of the sealed region and
// maps the same pages (no copy per client), any other peer (TCP, or a
// server whose images live on the heap, PMIX_MCA_gds=hash) receives the
// image's bytes inline and keeps a private copy.
//
// In a message body, one image is:
//   String medium   "" when there is no image (a PMIX_REGISTER_NODATA
//                   namespace), "inline", or the gds module whose region
//                   the descriptor is ("shmem")
//   "inline":       Blob  the image bytes
//   a module:       U32   index of the descriptor among the frame's fds
//                   U64   the region's size in bytes
// Each descriptor of a frame is used by at most one image.
//
// Unpacking validates everything before the image is used: an unknown
// medium, a missing or reused descriptor, a region that is not a sealed
// region of the announced size (gds module rules), bytes that are not a
// valid image (image.h), or an image of another namespace than expected
// give an error status (never a crash); nothing is attached on error.
#ifndef PMIXX_SRC_WIRE_JOB_IMAGE_H
#define PMIXX_SRC_WIRE_JOB_IMAGE_H

#include <memory>
#include <string_view>
#include <vector>

#include "mca/gds/base/image.h"
#include "mca/ptl/base/fd.h"
#include "mca/ptl/base/frame.h"
#include "src/wire/buffer.h"

namespace pmix::wire {

inline constexpr const char* kInlineImage = "inline";

// Packs image (nullptr: none). fds: the descriptors the frame will carry,
// nullptr when the connection cannot carry any; the image goes as a
// descriptor (a dup appended to *fds) when its region is shareable and
// *fds has room for it (kMaxFrameFds), else inline. PMIX_ERR_NOMEM, or the
// writer's status.
Status PackImage(Writer& w, const gds::Image* image, std::vector<ptl::Fd>* fds);

// Reads one image packed by PackImage from r, taking its descriptor out
// of fds (the received frame's). expected_nspace: the namespace it must
// describe. Returns nullptr for "no image". Errors: the reader's status;
// PMIX_ERR_BAD_PARAM for a bad descriptor reference or an image of another
// namespace; Region::Attach's and Image::Open's statuses
// (PMIX_ERR_NOT_SUPPORTED for a medium this process has not selected).
Result<std::shared_ptr<const gds::Image>> UnpackImage(Reader& r, std::vector<ptl::Fd>& fds,
                                                      std::string_view expected_nspace);

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_JOB_IMAGE_H
