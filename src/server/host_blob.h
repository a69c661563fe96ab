// The buffer a collecting fence hands the host (fence_nb's data: the local
// participants' records as remote readers see them, which the host owns
// and frees), filled ahead: each local commit of a namespace whose job
// spans other nodes appends the committer's records as they then are,
// so that when the fence's last participant arrives the buffer is ready
// and the fence goes to the host at once. Filling megabytes of fresh
// memory is most of what handing them to the host costs (bench/README.md,
// "Fresh memory and the first fence with the host"); done ahead, it is
// paid while the other participants are still on their way.
//
// The buffer is used only when it holds exactly the fence's local
// participants' records as the store holds them now (their Generation()
// then and now); else the fence copies as it would without it. A process
// that commits again adds the records its commit appended (a process's
// records need not lie together: each is whole, and a reader may apply
// them in any order); one whose records were rewritten (a key put again:
// merged, modex_store.h) makes the buffer stale, dropped then and filled
// again after the next fence. Memory: at most one copy of what the local
// processes committed since the last fence, which that fence would copy
// anyway; a namespace whose data is fetched by direct modex instead
// (Disable) fills none.
//
// Threads: progress thread only (reads the server's modex store).
#ifndef PMIXX_SRC_SERVER_HOST_BLOB_H
#define PMIXX_SRC_SERVER_HOST_BLOB_H

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "pmix_common.h"
#include "src/server/modex_store.h"

namespace pmix::server::fence {

class HostBlob {
 public:
  // Appends proc's records (PMIX_GDS_VIEW_REMOTE) from store that it does
  // not hold yet; when they were rewritten since, the buffer is stale
  // (dropped until the next Take or Clear). Out of memory drops it too:
  // the fence then copies.
  void Add(const modex::Store& store, const pmix_proc_t& proc);
  // The buffer (malloc'd, the caller owns it) when it holds exactly the
  // records of `local` as store holds them now, and its size; else
  // {nullptr, 0}. Either way this starts empty again.
  std::pair<char*, size_t> Take(const modex::Store& store, std::span<const pmix_proc_t> local);
  // Empties it (a fence of the namespace went without it).
  void Clear();
  // No more filling: the namespace's data goes by direct modex.
  void Disable() {
    Clear();
    disabled_ = true;
  }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::string nspace_;  // whose records it holds
  // What it holds of each rank: the store's numbers then, and how many
  // bytes of the rank's records.
  struct Held {
    uint64_t generation = 0;
    uint64_t lineage = 0;
    size_t bytes = 0;
  };
  std::map<pmix_rank_t, Held> held_;
  bool stale_ = false;
  bool disabled_ = false;
};

}  // namespace pmix::server::fence

#endif  // PMIXX_SRC_SERVER_HOST_BLOB_H
