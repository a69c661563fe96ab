// Process data records (proc_data.h) at the end of a reply -- a fence's
// result -- inline, in shared regions the reply's frame carries as
// descriptors, or both. The server keeps committed records in a few large
// published regions (server/modex_arena.h: memfds it appends to and
// nobody else can change) and hands every local client on a Unix socket
// descriptors of the regions and the places of the records in them,
// instead of copying the bytes through every client's socket; the client
// maps each region read-only once (RegionCache finds a mapping it holds
// again by the memory file's identity) and reads the records where they
// lie (client_modex.h keeps a mapping while any of its values are referred
// to). Other peers (TCP, another codec, no module with regions) get all
// the bytes inline.
//
// In the body, after the reply's own fields (nothing when there are no
// records):
//   U32 n          regions (at most kMaxFrameFds), each
//     String medium  the gds module of the region ("shmem")
//     U32 index      of its descriptor among the frame's descriptors, or
//                    kKept: no descriptor, the receiver keeps the region
//                    under its serial (RegionCache::Keep)
//     U64 serial     the sender's number for the region, never reused
//                    (0: none; the receiver may keep it under it)
//     U64 size       of the region
//     U32 m          extents (at least one), each
//       U64 offset, U64 length   bytes of the region that are records
//   then the rest of the body: more records (inline; maybe none).
// The records are the inline ones and every extent's, in any order (a
// concatenation of records is records). The regions hold records of
// processes (valid ranks) only; job records (rank PMIX_RANK_WILDCARD, for
// the receiver's cache) come inline, so that a receiver may leave the
// regions' records unread until it needs them.
//
// Unpacking checks everything it can before the records are used: a
// medium this process has not selected, a missing or reused descriptor, a
// descriptor that is not a sealed or published region of the announced
// size (gds module rules), an extent outside its region or of no bytes,
// more regions than a frame carries, or an announcement of no records at
// all give an error status, never a crash; the records' own framing is
// checked by their reader (IndexRecords), which reads only the extent it
// was given.
#ifndef PMIXX_SRC_WIRE_PROC_DATA_REGION_H
#define PMIXX_SRC_WIRE_PROC_DATA_REGION_H

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <utility>
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

// The descriptor index of a region the receiver keeps (no descriptor).
inline constexpr uint32_t kKept = UINT32_MAX;

// Records in one shared region: its descriptor (the sender's; -1 for a
// region named by its serial alone, which the receiver keeps), serial
// (0: none), module and size, and where the records lie in it, (offset,
// length) each.
struct RegionRecords {
  int fd = -1;
  uint64_t serial = 0;
  const pmix_gds_module_t* module = nullptr;
  size_t size = 0;
  std::vector<std::pair<size_t, size_t>> extents;
};

// The fields announcing regions (none: the records are all inline), the
// frame's descriptor first_fd + i being a duplicate of regions[i].fd (the
// sender's to attach; regions without one, named by serial, take no
// number); inline records follow as the rest of the body (e.g. a
// wire::Body's tail). PMIX_ERR_NOT_SUPPORTED when a region cannot be
// shared (neither descriptor nor serial, no module, size 0),
// PMIX_ERR_BAD_PARAM for
// descriptor numbers beyond kMaxFrameFds or an extent that is empty or
// outside its region (or none); nothing is written on error.
Status PackRecords(Writer& w, std::span<const RegionRecords> regions, uint32_t first_fd = 0);
// The same for regions that are records from end to end (sealed ones).
Status PackRecords(Writer& w, std::span<const gds::Region* const> regions, uint32_t first_fd = 0);

// A process's mappings of the regions it was sent, found again by the
// memory file's identity, so that a region sent with every reply is
// mapped once. It holds them weakly: a mapping goes with the last bytes
// referring to it; except the regions it keeps under the sender's serial
// (Keep), which a later answer may name without a descriptor, until the
// sender says to forget them. Threads: any (it locks itself).
class RegionCache {
 public:
  // Keeps region under serial (non-zero) until Forget(serial); a serial
  // forgotten once is never kept again (serials are not reused: a late
  // answer naming it must not bring it back). True when it is kept.
  bool Keep(uint64_t serial, std::shared_ptr<const gds::Region> region);
  // The region kept under serial, of that module and size; nullptr when none.
  std::shared_ptr<const gds::Region> Kept(uint64_t serial, const pmix_gds_module_t* module, size_t size);
  void Forget(uint64_t serial);
  // Regions kept by serial now (for tests).
  size_t kept();

  // The mapping of fd (taken, closed in every case but a new attachment's)
  // as a region of module of `size` bytes: the one held already when fd
  // names the same memory file of that module (PMIX_ERR_BAD_PARAM when
  // its size differs), else a new read-only attachment (module's
  // region_attach_published where it has one, else region_attach).
  Result<std::shared_ptr<const gds::Region>> Attach(const pmix_gds_module_t* module, ptl::Fd fd, size_t size);
  // Mappings held now (for tests).
  size_t size();

 private:
  struct Id {
    const pmix_gds_module_t* module;
    uint64_t dev;
    uint64_t ino;
    auto operator<=>(const Id&) const = default;
  };
  std::mutex mu_;
  std::map<Id, std::weak_ptr<const gds::Region>> held_;
  std::map<uint64_t, std::shared_ptr<const gds::Region>> kept_;
  std::set<uint64_t> forgotten_;
};

// Reads the records announced at r's position. r reads `payload` (the
// whole received body); fds are the frame's (those used are taken out);
// cache (optional) keeps the mappings for later replies, and with `keep`
// keeps each region that has a serial under it (RegionCache::Keep); a
// region named by serial alone must be kept there. Returns the
// inline records (when there are any: *inline_parts, when given, says 1,
// else 0) and then each extent's bytes; nothing when r is at its end (no
// records). Errors: the reader's status;
// PMIX_ERR_BAD_PARAM for a bad descriptor reference, too many regions, an
// extent that is empty or outside its region, a region named by a serial
// the cache does not keep (of that medium and size), or an announcement
// of no records; the attach statuses (PMIX_ERR_NOT_SUPPORTED for a medium this
// process has not selected, PMIX_ERR_BAD_PARAM for a descriptor that is
// not a sealed or published region of the announced size). Nothing is
// kept on error.
Result<std::vector<SharedBytes>> UnpackRecords(Reader& r, const std::shared_ptr<const Bytes>& payload,
                                               std::vector<ptl::Fd>& fds, RegionCache* cache = nullptr,
                                               size_t* inline_parts = nullptr, bool keep = false);

}  // namespace pmix::wire

#endif  // PMIXX_SRC_WIRE_PROC_DATA_REGION_H
