// The server's copy of process data: what its local clients committed
// (PMIx_Commit) and what other servers sent for their processes (fence
// results, direct modex), kept as the records they arrived in
// (wire/proc_data.h, default codec). A fence result, a get reply and the
// blob handed to the host are concatenations of these bytes, never a
// re-encoding.
//
// Per process: its records in arrival order, each with the scope its
// key/values were put with (PMIX_LOCAL, PMIX_REMOTE or PMIX_GLOBAL;
// PMIX_SCOPE_UNDEF counts as GLOBAL; data from other servers is GLOBAL,
// their owner's server having filtered it already), and an index of its
// keys. A view (gds.h) sees LOCAL and GLOBAL records (PMIX_GDS_VIEW_LOCAL:
// a requester on the owner's node), REMOTE and GLOBAL ones
// (PMIX_GDS_VIEW_REMOTE) or all (PMIX_GDS_VIEW_ALL).
//
// No key is held twice in one scope class, and a view never sees a key in
// two records, so a reader may apply a process's records in any order. A
// record that repeats a key (one already held, or twice within itself) is
// merged: the process's records are decoded, the gds scope rules applied
// in arrival order (GLOBAL replaces every class of the key; LOCAL or
// REMOTE replace their own class and GLOBAL) and re-encoded as one record
// per scope. A record equal to one already held in the same scope is
// dropped (the same data sent again). Otherwise adding copies the record
// once and reads copy bytes only.
//
// Sharing: a PMIX_LOCAL or PMIX_GLOBAL record of at least share_min()
// bytes (by default every one) is copied, when it is added, into its
// namespace's arena (modex_arena.h: published regions of the selected gds
// module with regions, a memfd for shmem), so that a fence result can hand
// local clients the arena's descriptors and the records' places (ForEach)
// instead of copying the records to each; without such a module, or when
// the arena declines, it is kept as it came. A client handed a chunk can
// read all of it: hence one arena per namespace, so that a chunk holds
// only its own job's data, and only the scopes a local reader may see
// (PMIX_GDS_VIEW_LOCAL). PMIX_REMOTE records, and merged ones, are kept on
// the heap. The arenas share one limit on live chunks (descriptors); a
// namespace's arena goes with its last record.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_MODEX_STORE_H
#define PMIXX_SRC_SERVER_MODEX_STORE_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "mca/gds/base/region.h"
#include "src/common/status.h"
#include "src/server/modex_arena.h"
#include "src/wire/buffer.h"

namespace pmix::server::modex {

// Records smaller than this stay on the heap. Every record is placed: a
// fence whose records all lie in the arena is answered to a doorbell
// client by mail (server_collective.h), which one small record kept
// aside would turn back into a frame for every later fence; the commits
// of one fence usually make one extent, however small they are.
inline constexpr size_t kShareMinBytes = 0;

class Store {
 public:
  // max_chunks 0: a quarter of the descriptor limit (RLIMIT_NOFILE), at
  // most 1024 (modex_arena.h).
  explicit Store(size_t share_min = kShareMinBytes, size_t max_chunks = 0,
                 size_t chunk_bytes = kChunkBytes);
  // The arenas point to the store's budget.
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  size_t share_min() const { return share_min_; }
  // The chunks alive now, of all the namespaces' arenas.
  size_t chunks() { return budget_.live(); }
  // Adds `record`, the bytes of one record of proc in the default codec,
  // whose decoded key/values are `kvs` (the caller decoded it, which
  // validated it). PMIX_ERR_BAD_PARAM for an invalid proc or a scope other
  // than UNDEF, LOCAL, REMOTE or GLOBAL; on any error nothing changes.
  Status Add(const pmix_proc_t& proc, pmix_scope_t scope, std::span<const uint8_t> record,
             std::span<const pmix_info_t> kvs);
  // The same for the record at buffer[offset, offset + size), which is
  // kept by sharing the buffer instead of copying the record.
  Status Add(const pmix_proc_t& proc, pmix_scope_t scope, std::shared_ptr<const wire::Bytes> buffer,
             size_t offset, size_t size, std::span<const pmix_info_t> kvs);
  // Encodes kvs as a record of proc and adds it.
  Status AddKvs(const pmix_proc_t& proc, pmix_scope_t scope, std::span<const pmix_info_t> kvs);

  // Numbers that change with proc's records, never the same twice in this
  // store's life (0 while proc has none): Generation() whenever they
  // change, Lineage() only when they are rewritten (merged) or dropped.
  // While the lineage stays, records were only appended: what any view
  // saw before is still the start of what it sees.
  uint64_t Generation(const pmix_proc_t& proc) const;
  uint64_t Lineage(const pmix_proc_t& proc) const;

  // The size of proc's records that view sees (0: none).
  size_t Size(const pmix_proc_t& proc, pmix_gds_view_t view) const;
  // Appends those records to out; returns how many.
  size_t Append(const pmix_proc_t& proc, pmix_gds_view_t view, wire::Bytes& out) const;
  // Copies them to out (Size() - skip bytes of room), leaving out their
  // first `skip` bytes; returns the bytes copied.
  size_t CopyTo(const pmix_proc_t& proc, pmix_gds_view_t view, uint8_t* out, size_t skip = 0) const;
  // Calls fn with each of those records and, when the record lies in the
  // arena (see Sharing above), its chunk and offset there (else nullptr
  // and 0), in the order Append writes them.
  using RecordFn = std::function<void(std::span<const uint8_t> record,
                                      const std::shared_ptr<const Arena::Chunk>& chunk, size_t offset)>;
  void ForEach(const pmix_proc_t& proc, pmix_gds_view_t view, const RecordFn& fn) const;

  // Whether key (empty: any key) of proc is visible in view: PMIX_SUCCESS,
  // PMIX_ERR_NOT_FOUND, or PMIX_ERR_EXISTS_OUTSIDE_SCOPE when it is held
  // only in scopes the view does not see.
  Status Find(const pmix_proc_t& proc, pmix_gds_view_t view, std::string_view key) const;
  // key's value as view sees it (decoded; VIEW_ALL: the LOCAL value first,
  // then GLOBAL, then REMOTE). Statuses as Find.
  Result<gds::ValuePtr> Fetch(const pmix_proc_t& proc, pmix_gds_view_t view,
                              std::string_view key) const;
  // Every key/value view sees (decoded); PMIX_ERR_NOT_FOUND when none.
  Result<wire::Infos> FetchAll(const pmix_proc_t& proc, pmix_gds_view_t view) const;
  // The keys of proc held only in scopes view does not see, in order (the
  // names only: what a direct-modex answer tells the asking node).
  std::vector<std::string> HiddenKeys(const pmix_proc_t& proc, pmix_gds_view_t view) const;

  // The ranks of nspace that hold data, ascending.
  std::vector<pmix_rank_t> Ranks(std::string_view nspace) const;
  // Drops proc's data; rank PMIX_RANK_WILDCARD: every rank of its nspace.
  // Once no data of the nspace is left, its arena goes too, and with it
  // the chunk being filled (its descriptor once no answer holds it).
  void Remove(const pmix_proc_t& proc);
  void Clear() {
    procs_.clear();
    arenas_.clear();
  }

 private:
  struct Segment {
    uint8_t scope = 0;  // one scope bit
    std::shared_ptr<const uint8_t> data;  // the record's first byte; keeps its holder alive
    size_t size = 0;
    std::shared_ptr<const Arena::Chunk> chunk;  // where the record lies, or nullptr
    size_t chunk_offset = 0;
    std::span<const uint8_t> record() const { return {data.get(), size}; }
  };
  struct Entry {
    std::vector<Segment> segments;
    std::map<std::string, uint8_t, std::less<>> keys;  // key -> scope bits holding it
    uint64_t generation = 0;  // Generation()
    uint64_t lineage = 0;     // Lineage()
  };
  using Key = std::pair<std::string, pmix_rank_t>;

  const Entry* Lookup(const pmix_proc_t& proc) const;
  static Result<Entry> Merged(const Entry& old, const pmix_proc_t& proc, uint8_t scope,
                              std::span<const pmix_info_t> kvs);

  size_t share_min_;
  size_t chunk_bytes_;
  Arena::Budget budget_;
  std::map<std::string, Arena, std::less<>> arenas_;  // by nspace, made by its first placed record
  std::map<Key, Entry, std::less<>> procs_;
  uint64_t changes_ = 0;  // the last generation given
};

}  // namespace pmix::server::modex

#endif  // PMIXX_SRC_SERVER_MODEX_STORE_H
