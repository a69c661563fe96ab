// A completed fence's data for its local participants (server_fence.cc):
// the job records the host returned (as they came), and the records of
// the processes whose data comes along (the local participants', and
// other nodes' processes' the host returned, which the store holds by
// then) as local readers see them (modex_store.h), put together once per
// form a reply needs, at first need:
//   - for a contributor on a Unix socket speaking the default codec: the
//     arena chunks (modex_arena.h) the records lie in, each sent as one
//     descriptor with the places of the records in it (adjacent ones
//     merged), and the other records inline; when there are more chunks
//     than a frame carries, one region made here holding every local
//     record (when they are large; else all inline). The host's job
//     records (for the clients' caches) always go inline
//     (wire/proc_data_region.h);
//   - for any other contributor (TCP, another codec), or when no module
//     with shared regions is selected: every record inline, one buffer
//     that every such reply's tail shares (transcoded once per codec).
// See wire/proc_data_region.h for the encoding.
//
// Threads: progress thread only (reads the server's modex store).
#ifndef PMIXX_SRC_SERVER_FENCE_RESULT_H
#define PMIXX_SRC_SERVER_FENCE_RESULT_H

#include <memory>
#include <span>
#include <vector>

#include "mca/gds/base/region.h"
#include "src/server/modex_store.h"
#include "src/server/server_collective.h"
#include "src/wire/buffer.h"
#include "src/wire/proc_data_region.h"

namespace pmix::server::fence {

// Below this, copying a whole result to each client costs less than
// making a region for it.
inline constexpr size_t kRegionMinBytes = size_t{64} << 10;

class FenceResult {
 public:
  // jobs: records that go inline as they are (the host's job records;
  // default codec); procs: the processes whose records in store come with
  // them. store must outlive this.
  FenceResult(const modex::Store& store, wire::Bytes jobs, std::vector<pmix_proc_t> procs);

  // The success answer for a contributor (fence::AnswerFor): the status,
  // then the records. A failure to make it gives an answer with that
  // failure's status.
  Answer For(const pmix_bfrops_module_t* codec, bool fds_ok);

  size_t size() const { return size_; }
  // The chunks an answer to a Unix-socket peer carries, and the extents
  // in them (for tests).
  size_t shared_regions() const { return regions_.size(); }
  size_t shared_extents() const;

 private:
  // Every record, inline.
  Result<std::shared_ptr<const wire::Bytes>> All();
  // The records not in a region of their own, inline.
  std::shared_ptr<const wire::Bytes> Rest();
  // One region of every process record (nullptr when it cannot be had).
  const gds::Region* Combined();
  Answer Shared(const pmix_bfrops_module_t* codec);
  std::vector<wire::RegionRecords> NamedBySerial() const;
  static std::shared_ptr<const wire::Bytes> Pack(const pmix_bfrops_module_t* codec,
                                                 std::span<const wire::RegionRecords> named);

  wire::Bytes jobs_;
  // The processes' records, in order, and whether each lies in a chunk.
  std::vector<std::span<const uint8_t>> records_;
  std::vector<bool> in_chunk_;
  // The chunks, kept alive while this lives, and their records' extents.
  std::vector<std::shared_ptr<const modex::Arena::Chunk>> chunks_;
  std::vector<wire::RegionRecords> regions_;
  size_t size_ = 0;
  std::shared_ptr<const wire::Bytes> all_;
  std::shared_ptr<const wire::Bytes> rest_;
  std::unique_ptr<gds::Region> combined_;
  bool combined_tried_ = false;
};

}  // namespace pmix::server::fence

#endif  // PMIXX_SRC_SERVER_FENCE_RESULT_H
