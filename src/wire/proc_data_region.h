// Process data records (proc_data.h) at the end of a reply -- a fence's
// result -- inline, in sealed regions the reply's frame carries as
// descriptors, or both. The server keeps large records in sealed regions
// (gds module with shared regions: a sealed memfd; server/modex_store.h)
// and hands every local client on a Unix socket descriptors of them,
// instead of copying the bytes through every client's socket; the client
// maps them read-only and reads the records where they lie
// (client_modex.h keeps a mapping while any of its values are referred
// to). Other peers (TCP, another codec, no module with regions) get all
// the bytes inline.
//
// In the body, after the reply's own fields (nothing when there are no
// records):
//   U32 n          regions (at most kMaxFrameFds), each
//     String medium  the gds module of the region ("shmem")
//     U32 index      of its descriptor among the frame's descriptors
//     U64 size       of the region: its bytes are records
//   then the rest of the body: more records (inline; maybe none).
// The records are the inline ones and every region's, in any order (a
// concatenation of records is records).
//
// Unpacking checks everything it can before the records are used: a
// medium this process has not selected, a missing or reused descriptor, a
// descriptor that is not a sealed region of the announced size (gds
// module rules), more regions than a frame carries, or an announcement of
// no records at all give an error status, never a crash; the records' own
// framing is checked by their reader (IndexRecords). Because a region is
// sealed against writing, growing and shrinking, what was checked stays so.
#ifndef PMIXX_SRC_WIRE_PROC_DATA_REGION_H
#define PMIXX_SRC_WIRE_PROC_DATA_REGION_H

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "mca/gds/base/region.h"
#include "mca/ptl/base/fd.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::wire {

// Bytes kept alive by what holds them (a received payload, a mapped
// region): `data` shares ownership of that holder.
struct SharedBytes {
  std::shared_ptr<const uint8_t> data;
  size_t size = 0;
  std::span<const uint8_t> bytes() const { return {data.get(), size}; }
  bool empty() const { return size == 0; }
};

// The whole of a payload, shared.
SharedBytes Share(std::shared_ptr<const Bytes> payload);
// The bytes of a region, shared (the region lives while they are referred to).
SharedBytes Share(std::shared_ptr<const gds::Region> region);

// The fields announcing regions (none: the records are all inline), the
// frame's descriptor first_fd + i being a duplicate of regions[i]->fd()
// (the sender's to attach); inline records follow as the rest of the
// body (e.g. a wire::Body's tail). PMIX_ERR_NOT_SUPPORTED when a region
// cannot be shared (no descriptor or module), PMIX_ERR_BAD_PARAM for
// descriptor numbers beyond kMaxFrameFds; nothing is written on error.
Status PackRecords(Writer& w, std::span<const gds::Region* const> regions, uint32_t first_fd = 0);

// Reads the records announced at r's position. r reads `payload` (the
// whole received body); fds are the frame's (those used are taken out).
// Returns the inline records (when there are any) and each region's bytes;
// nothing when r is at its end (no records). Errors: the reader's status;
// PMIX_ERR_BAD_PARAM for a bad descriptor reference, too many regions, or
// an announcement of no records; Region::Attach's statuses
// (PMIX_ERR_NOT_SUPPORTED for a medium this process has not selected,
// PMIX_ERR_BAD_PARAM for a descriptor that is not a sealed region of the
// announced size). Nothing is kept on error.
Result<std::vector<SharedBytes>> UnpackRecords(Reader& r, const std::shared_ptr<const Bytes>& payload,
                                               std::vector<ptl::Fd>& fds);

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_PROC_DATA_REGION_H
