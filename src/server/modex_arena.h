// Where the server's modex store (modex_store.h) keeps committed records
// its local clients may read in place: a few large published regions of
// the selected gds module with regions (gds.h region_publish: a memfd the
// server appends to through its own mapping, which nobody else can write,
// grow or shrink), each record copied in once when it is added.
//
// A fence result then hands a local client one descriptor per chunk and
// the places of the records in it (wire/proc_data_region.h), not one
// descriptor per record, and a client maps a chunk once for all the
// records and fences that use it (the mapping is found again by the
// memory file's identity). Bytes once placed never change; space is not
// reused: a chunk goes when its last record goes and it is no longer the
// one being filled.
//
// A client that is handed a chunk can read all of it, not only the
// records it was sent: so the store keeps one arena per namespace and
// places in it only the records a local reader of that namespace may see
// (PMIX_LOCAL and PMIX_GLOBAL scope). A chunk never holds another job's
// records nor any PMIX_REMOTE-scoped data.
//
// Chunks are kChunkBytes (a record larger than that gets a chunk of its
// own size); a memfd costs memory only for the pages written, and a
// reader's mapping only address space until read. At most max_chunks
// chunks live at a time over all the arenas of a store (each holds a
// descriptor: the Budget they share counts them); past that, and where
// no module publishes regions (gds=hash, kernels without
// F_SEAL_FUTURE_WRITE), Place() declines and the store keeps the record
// on the heap.
//
// Threads: progress thread only (the store's).
#ifndef PMIXX_SRC_SERVER_MODEX_ARENA_H
#define PMIXX_SRC_SERVER_MODEX_ARENA_H

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mca/gds/base/region.h"

namespace pmix::server::modex {

inline constexpr size_t kChunkBytes = size_t{32} << 20;

class Arena {
 public:
  // A published region records are appended to.
  class Chunk {
   public:
    Chunk(gds::RegionBuilder region, uint64_t serial) : region_(std::move(region)), serial_(serial) {}
    // The descriptor readers attach, the chunk's number (never reused in
    // this process: a reader that keeps the chunk is sent this instead of
    // the descriptor, wire/proc_data_region.h), the region's size and its
    // module.
    int fd() const { return region_.fd(); }
    uint64_t serial() const { return serial_; }
    size_t size() const { return region_.size(); }
    const pmix_gds_module_t* module() const { return region_.module(); }
    const uint8_t* data() const { return region_.bytes().data(); }

   private:
    friend class Arena;
    mutable gds::RegionBuilder region_;
    uint64_t serial_;
    size_t used_ = 0;
  };
  // A record's place.
  struct Placed {
    std::shared_ptr<const Chunk> chunk;
    size_t offset = 0;
  };

  // The limit on live chunks shared by several arenas (one store's), and
  // whether regions can be published at all, learnt once for all of them.
  class Budget {
   public:
    explicit Budget(size_t max_chunks) : max_chunks_(max_chunks) {}
    // Chunks alive now, whichever arena made them (held by records, by
    // answers being sent, or being filled).
    size_t live();

   private:
    friend class Arena;
    size_t max_chunks_;
    std::vector<std::weak_ptr<const Chunk>> made_;
    bool unavailable_ = false;  // no module publishes regions
  };

  // budget (not owned) outlives the arena.
  explicit Arena(Budget& budget, size_t chunk_bytes = kChunkBytes)
      : budget_(&budget), chunk_bytes_(chunk_bytes) {}

  // Copies record (non-empty) into a chunk; nullopt when it cannot be
  // placed (see above).
  std::optional<Placed> Place(std::span<const uint8_t> record);
  // Stops filling the current chunk (it goes with its last record).
  void Retire() { current_.reset(); }

 private:
  std::shared_ptr<Chunk> NewChunk(size_t size);

  Budget* budget_;
  size_t chunk_bytes_;
  std::shared_ptr<Chunk> current_;
};

}  // namespace pmix::server::modex

#endif  // PMIXX_SRC_SERVER_MODEX_ARENA_H
