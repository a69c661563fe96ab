// The host's fence buffer, filled as the commits come (host_blob.h).
#include "src/server/host_blob.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace pmix::server::fence {
namespace {

std::string_view NspaceOf(const pmix_proc_t& proc) {
  return std::string_view(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN));
}

}  // namespace

void HostBlob::Add(const modex::Store& store, const pmix_proc_t& proc) {
  if (disabled_ || stale_) return;
  if (held_.empty()) nspace_ = NspaceOf(proc);
  auto it = held_.find(proc.rank);
  size_t have = 0;
  if (NspaceOf(proc) != nspace_ || (it != held_.end() && it->second.lineage != store.Lineage(proc))) {
    // Another namespace's process, or records rewritten: what is held no
    // longer matches the store.
    Clear();
    stale_ = true;
    return;
  }
  if (it != held_.end()) have = it->second.bytes;
  size_t total = store.Size(proc, PMIX_GDS_VIEW_REMOTE);
  size_t n = total > have ? total - have : 0;
  if (n > 0 && size_ + n > capacity_) {
    // Doubling: the pages past what is written are never touched, and a
    // large block grows in place (mremap) rather than by a copy.
    size_t want = std::max(size_ + n, 2 * capacity_);
    char* grown = static_cast<char*>(std::realloc(data_.get(), want));
    if (grown == nullptr) {
      Clear();
      stale_ = true;
      return;
    }
    (void)data_.release();
    data_.reset(grown);
    capacity_ = want;
  }
  if (n > 0)
    size_ += store.CopyTo(proc, PMIX_GDS_VIEW_REMOTE, reinterpret_cast<uint8_t*>(data_.get()) + size_, have);
  held_[proc.rank] = Held{store.Generation(proc), store.Lineage(proc), total};
}

std::pair<char*, size_t> HostBlob::Take(const modex::Store& store, std::span<const pmix_proc_t> local) {
  bool exact = !stale_ && !disabled_ && size_ > 0 && local.size() == held_.size();
  for (size_t i = 0; exact && i < local.size(); ++i) {
    auto it = held_.find(local[i].rank);
    exact = it != held_.end() && NspaceOf(local[i]) == nspace_ &&
            it->second.generation == store.Generation(local[i]);
  }
  std::pair<char*, size_t> out{nullptr, 0};
  if (exact) out = {data_.release(), size_};
  Clear();
  return out;
}

void HostBlob::Clear() {
  data_.reset();
  size_ = 0;
  capacity_ = 0;
  held_.clear();
  nspace_.clear();
  stale_ = false;
}

}  // namespace pmix::server::fence
