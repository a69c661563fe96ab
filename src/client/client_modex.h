// Other processes' committed data as the server sent it (fence results,
// get replies): the records (wire/proc_data.h) are kept as received -- the
// reply's bytes, or the region the server shared (mapped read-only), not
// copied. The first Get about a process indexes
// its records (keys and where their values lie, on the caller's thread);
// a Get then decodes the one value it returns, straight from the kept
// bytes, which is the copy a Get hands out anyway. A fence thus costs the
// client one pass over the record headers, a process nobody asks about is
// never looked at, and no value is held twice. When records come for a
// process that has data here already (a later fence), its records are
// indexed as they come, so that the values they replace -- and the bytes
// or mapped region holding them -- go at once: a client holds the latest
// value of each key, whatever the number of fences, Gets or not.
//
// This is the only home of other processes' committed data in the client:
// the gds cache (client_state.h) holds the job description, this process's
// own puts and PMIx_Store_internal data, and a Get looks there first.
// Records of rank PMIX_RANK_WILDCARD (another job's data a host passed on)
// are handed back to the caller for the cache; this process's own records
// and its own job's are skipped.
//
// Records the server placed in shared regions (local processes' commits,
// client_fence.cc) can be deferred (Defer): kept as parts, not even framed,
// until the first lookup, which frames every deferred part at once. A
// fence then costs the client O(1) whatever the number of participants,
// and the pages of a region are first touched by the Gets that read them.
// Parts stay in arrival order with the others (an Add frames the deferred
// parts before its own), so that later data still wins; at most one
// delivery waits unframed (a Defer frames the parts of the one before),
// so that what later data replaces goes without a Get.
//
// The server filtered every record for this client's view, so the data is
// visible whatever PMIX_DATA_SCOPE a Get names. When a process's data
// arrives more than once, a later value of a key replaces an earlier one.
//
// Threads: any; the object locks itself (lookups share a lock, indexing
// takes it exclusively, values are decoded outside it).
#ifndef PMIXX_SRC_CLIENT_CLIENT_MODEX_H
#define PMIXX_SRC_CLIENT_CLIENT_MODEX_H

#include <map>
#include <memory>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "src/common/status.h"
#include "src/wire/proc_data.h"
#include "src/wire/proc_data_region.h"

namespace pmix::client {

class PeerData {
 public:
  // Keeps the records of blob from byte `offset` on (codec: how they are
  // packed). The wildcard records of other namespaces are decoded and
  // appended to *jobs (for the caller's cache). A malformed blob is
  // refused whole: its error, nothing kept, nothing appended.
  Status Add(const pmix_bfrops_module_t* codec, std::shared_ptr<const wire::Bytes> blob,
             size_t offset, const pmix_proc_t& self, std::vector<wire::ProcData>* jobs);
  // The same for records in several parts held elsewhere (a reply's
  // inline records and mapped regions, proc_data_region.h), refused whole
  // when any part is malformed. What is kept shares ownership of its
  // part's data, so that the holder (a mapping) stays while any record or
  // value of it is kept, and goes with the last one (superseded by later
  // data, or Clear()).
  Status Add(const pmix_bfrops_module_t* codec, std::span<const wire::SharedBytes> parts,
             const pmix_proc_t& self, std::vector<wire::ProcData>* jobs);
  // Keeps parts of records of processes with valid ranks (no job records
  // for the cache) without looking at them; the first lookup frames them.
  // A part that then proves malformed is logged and dropped whole, a
  // record of this process or of no valid rank in it is skipped (and the
  // latter logged): as if they had not come (a Get that misses asks the
  // server).
  void Defer(const pmix_bfrops_module_t* codec, std::span<const wire::SharedBytes> parts,
             const pmix_proc_t& self);

  // key's value (decoded for the caller) for proc; rank PMIX_RANK_UNDEF:
  // of the lowest rank of proc's nspace that has it. Indexes the records
  // of proc (of every rank of the nspace for PMIX_RANK_UNDEF) that wait; a
  // record whose framing is corrupt is logged and dropped, as if it had
  // not come (a Get that then misses asks the server). Statuses:
  // PMIX_ERR_NOT_FOUND; a value that does not decode: the codec's error.
  Result<gds::ValuePtr> Fetch(const pmix_proc_t& proc, std::string_view key);
  // Every key/value of proc (a valid rank), decoded; PMIX_ERR_NOT_FOUND
  // when none, or a decode error.
  Result<wire::Infos> FetchAll(const pmix_proc_t& proc);

  // Whether records of proc wait unindexed, or deferred parts that may
  // hold some (for tests).
  bool Waiting(const pmix_proc_t& proc) const;
  // Deferred parts not framed yet (for tests).
  size_t Deferred() const;
  void Clear();

 private:
  // Bytes in a kept blob: a record's kvs, or one value.
  struct Span {
    const pmix_bfrops_module_t* codec = nullptr;
    std::shared_ptr<const uint8_t> blob;  // the records' start; keeps their holder alive
    size_t offset = 0;
    size_t size = 0;
    std::span<const uint8_t> bytes() const { return {blob.get() + offset, size}; }
  };
  // A key's latest value. The key views the record's bytes, which the
  // value's blob keeps alive: indexing copies no key.
  struct Value {
    std::string_view key;
    Span value;
  };
  struct Entry {
    std::vector<Span> pending;  // records' kvs, arrival order
    std::vector<Value> values;  // sorted by key, one per key, latest wins
    bool touched = false;       // within one delivery: it received records there
  };
  // The processes of one nspace that have data here, by rank.
  using Ranks = std::unordered_map<pmix_rank_t, Entry>;
  using NspaceMap = std::map<std::string, Ranks, std::less<>>;
  // One process's entry and the nspace it is filed under (the map's key:
  // stable while the entry exists).
  struct Slot {
    const std::string* nspace;
    pmix_rank_t rank;
    Entry* entry;
  };

  // A part kept by Defer.
  struct Part {
    const pmix_bfrops_module_t* codec = nullptr;
    wire::SharedBytes bytes;
  };

  // A process that received records in one delivery, and whether it had
  // data before.
  struct Touched {
    Slot slot;
    bool held;
  };

  // Under mu_ exclusively: the entry of (nspace, rank), made when new.
  Slot EntryFor(std::string_view nspace, pmix_rank_t rank);
  // Under mu_ exclusively: files one record's kvs under the process of
  // `slot`, noting the process in touched the first time.
  void File(const Slot& slot, Span record, std::vector<Touched>& touched);
  // Under mu_ exclusively: indexes the touched processes that had data
  // before, so that what their new records replace (and the part or
  // region holding it) goes at once; a first arrival stays lazy.
  void IndexReplaced(std::vector<Touched>& touched);
  // Under mu_ exclusively: files the records of the deferred parts under
  // their processes (framing only, values untouched), then as Add does
  // for what they replace.
  void FrameDeferred();
  // Under mu_ exclusively; the first error (each dropped record is logged).
  Status Index(const Slot& slot);
  Status IndexAll(const pmix_proc_t& proc);
  // Under mu_ (either way; SlotsOf and Find only read): the entries proc
  // names (every rank of the nspace for PMIX_RANK_UNDEF, in rank order),
  // with their ranks.
  std::vector<Slot> SlotsOf(const pmix_proc_t& proc);
  bool AnyPending(const pmix_proc_t& proc) const;
  Result<Span> Find(const pmix_proc_t& proc, std::string_view key);
  // key's value in an indexed entry, nullptr when it has none.
  static const Value* Lookup(const Entry& e, std::string_view key);

  // Under mu_ (either way): the entry of proc (a valid rank), nullptr when none.
  const Entry* One(const pmix_proc_t& proc) const;

  mutable std::shared_mutex mu_;
  NspaceMap procs_;
  // Scratch vectors reused by indexing, under mu_ exclusively.
  std::vector<wire::RecordRef> records_;
  std::vector<wire::KvRef> kvs_;
  std::vector<Part> deferred_;  // arrival order
  pmix_proc_t self_{};          // whose records the deferred parts skip
};

}  // namespace pmix::client

#endif  // PMIXX_SRC_CLIENT_CLIENT_MODEX_H
