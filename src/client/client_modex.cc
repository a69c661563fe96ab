// Other processes' records kept as received, decoded on first use
// (client_modex.h).
#include "src/client/client_modex.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "pmix.h"
#include "src/common/output.h"

namespace pmix::client {
namespace {

std::string_view NspaceOf(const pmix_proc_t& proc) {
  return std::string_view(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN));
}

}  // namespace

Status PeerData::Add(const pmix_bfrops_module_t* codec, std::shared_ptr<const wire::Bytes> blob,
                     size_t offset, const pmix_proc_t& self, std::vector<wire::ProcData>* jobs) {
  if (blob == nullptr || offset >= blob->size()) return Status();
  const uint8_t* start = blob->data() + offset;
  size_t size = blob->size() - offset;
  wire::SharedBytes part{std::shared_ptr<const uint8_t>(std::move(blob), start), size};
  return Add(codec, std::span<const wire::SharedBytes>(&part, 1), self, jobs);
}

Status PeerData::Add(const pmix_bfrops_module_t* codec, std::span<const wire::SharedBytes> parts,
                     const pmix_proc_t& self, std::vector<wire::ProcData>* jobs) {
  if (parts.empty()) return Status();
  // Everything is checked before anything is kept.
  std::vector<std::vector<wire::RecordRef>> indexed;
  std::vector<wire::ProcData> found;
  for (const wire::SharedBytes& part : parts) {
    std::span<const uint8_t> records = part.bytes();
    auto refs = wire::IndexRecords(records);
    if (!refs.ok()) return refs.status();
    for (const wire::RecordRef& ref : *refs) {
      if (ref.rank == PMIX_RANK_WILDCARD) {
        if (ref.nspace == NspaceOf(self)) continue;
        auto kvs = wire::DecodeKvs(codec, ref.Kvs(records));
        if (!kvs.ok()) return kvs.status();
        found.push_back(wire::ProcData{ref.Proc(), std::move(*kvs)});
      } else if (ref.rank >= PMIX_RANK_VALID) {
        return PMIX_ERR_BAD_PARAM;
      }
    }
    indexed.push_back(std::move(*refs));
  }
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    FrameDeferred();  // earlier data first
    // Processes that had data already: indexed now, so that what the new
    // records replace (and the part or region holding it) goes at once
    // instead of staying until a Get about them (bounded memory and
    // mappings over any number of fences). A first arrival stays lazy.
    std::vector<Touched> touched;
    for (size_t i = 0; i < parts.size(); ++i) {
      for (const wire::RecordRef& ref : indexed[i]) {
        if (ref.rank == PMIX_RANK_WILDCARD || (ref.rank == self.rank && ref.nspace == NspaceOf(self))) continue;
        File(EntryFor(ref.nspace, ref.rank), Span{codec, parts[i].data, ref.kvs_offset, ref.kvs_size},
             touched);
      }
    }
    IndexReplaced(touched);
  }
  if (jobs != nullptr)
    for (auto& job : found) jobs->push_back(std::move(job));
  return Status();
}

PeerData::ProcMap::iterator PeerData::EntryFor(std::string_view nspace, pmix_rank_t rank) {
  auto it = procs_.find(std::pair(nspace, rank));
  if (it == procs_.end()) it = procs_.try_emplace(Key{std::string(nspace), rank}).first;
  return it;
}

void PeerData::File(ProcMap::iterator it, Span record, std::vector<Touched>& touched) {
  Entry& e = it->second;
  if (!e.touched) {
    e.touched = true;
    touched.push_back({&it->first, &e, !e.pending.empty() || !e.values.empty()});
  }
  e.pending.push_back(std::move(record));
}

void PeerData::IndexReplaced(std::vector<Touched>& touched) {
  for (const Touched& t : touched) {
    t.entry->touched = false;
    if (t.held) Index(*t.who, *t.entry).ok();  // what is malformed is logged and dropped, as by a Get
  }
  touched.clear();
}

void PeerData::Defer(const pmix_bfrops_module_t* codec, std::span<const wire::SharedBytes> parts,
                     const pmix_proc_t& self) {
  std::unique_lock<std::shared_mutex> lock(mu_);
  // Parts of an earlier delivery nobody read are framed now: at most one
  // delivery waits unframed, so what later data replaces still goes.
  FrameDeferred();
  self_ = self;
  for (const wire::SharedBytes& part : parts)
    if (!part.empty()) deferred_.push_back(Part{codec, part});
}

void PeerData::FrameDeferred() {
  if (deferred_.empty()) return;
  std::vector<Touched> touched;
  for (const Part& part : deferred_) {
    std::span<const uint8_t> records = part.bytes.bytes();
    Status indexed = wire::IndexRecords(records, scratch_);
    if (!indexed.ok()) {
      output::Error("client", "shared process data is malformed (%s): %zu bytes dropped",
                    PMIx_Error_string(indexed.code()), records.size());
      continue;
    }
    for (const wire::RecordRef& ref : scratch_) {
      if (ref.rank >= PMIX_RANK_VALID) {
        output::Error("client", "shared process data of %.*s holds a record of no process rank: dropped",
                      static_cast<int>(ref.nspace.size()), ref.nspace.data());
        continue;
      }
      if (ref.rank == self_.rank && ref.nspace == NspaceOf(self_)) continue;
      File(EntryFor(ref.nspace, ref.rank),
           Span{part.codec, part.bytes.data, ref.kvs_offset, ref.kvs_size}, touched);
    }
  }
  deferred_.clear();
  IndexReplaced(touched);
}

size_t PeerData::Deferred() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return deferred_.size();
}

namespace {

// The entries of procs (a PeerData map) that proc names, in rank order:
// (key, entry) pointers of the map's constness.
template <class Map>
auto Select(Map& procs, const pmix_proc_t& proc) {
  using KeyPtr = const typename Map::key_type*;
  using EntryPtr = decltype(&procs.begin()->second);
  std::vector<std::pair<KeyPtr, EntryPtr>> out;
  std::string_view nspace = NspaceOf(proc);
  if (proc.rank != PMIX_RANK_UNDEF) {
    auto it = procs.find(std::pair(nspace, proc.rank));
    if (it != procs.end()) out.emplace_back(&it->first, &it->second);
    return out;
  }
  for (auto it = procs.lower_bound(std::pair(nspace, pmix_rank_t{0})); it != procs.end() && it->first.first == nspace;
       ++it)
    out.emplace_back(&it->first, &it->second);
  return out;
}

}  // namespace

std::vector<const PeerData::Entry*> PeerData::EntriesOf(const pmix_proc_t& proc) const {
  std::vector<const Entry*> out;
  for (const auto& [who, e] : Select(procs_, proc)) out.push_back(e);
  return out;
}

bool PeerData::AnyPending(const pmix_proc_t& proc) const {
  for (const Entry* e : EntriesOf(proc))
    if (!e->pending.empty()) return true;
  return false;
}

Status PeerData::Index(const Key& who, Entry& e) {
  Status first;
  for (const Span& record : e.pending) {
    auto kvs = wire::IndexKvs(record.bytes());
    if (!kvs.ok()) {
      if (first.ok()) first = kvs.status();
      output::Error("client", "the data of %s:%u is malformed (%s): dropped", who.first.c_str(),
                    who.second, PMIx_Error_string(kvs.status().code()));
      continue;
    }
    for (wire::KvRef& kv : *kvs)
      e.values[std::string(kv.key)] =
          Span{record.codec, record.blob, record.offset + kv.value_offset, kv.value_size};
  }
  e.pending.clear();
  return first;
}

Status PeerData::IndexAll(const pmix_proc_t& proc) {
  Status first;
  for (auto& [who, e] : Select(procs_, proc)) {
    Status indexed = Index(*who, *e);
    if (first.ok()) first = indexed;
  }
  return first;
}

Result<PeerData::Span> PeerData::Find(const pmix_proc_t& proc, std::string_view key) const {
  for (const Entry* e : EntriesOf(proc)) {
    auto it = e->values.find(key);
    if (it != e->values.end()) return it->second;
  }
  return Status(PMIX_ERR_NOT_FOUND);
}

const PeerData::Entry* PeerData::One(const pmix_proc_t& proc) const {
  auto it = procs_.find(std::pair(NspaceOf(proc), proc.rank));
  return it == procs_.end() ? nullptr : &it->second;
}

Result<gds::ValuePtr> PeerData::Fetch(const pmix_proc_t& proc, std::string_view key) {
  Result<Span> where = Status(PMIX_ERR_NOT_FOUND);
  {
    std::shared_lock<std::shared_mutex> lock(mu_);
    if (procs_.empty() && deferred_.empty()) return Status(PMIX_ERR_NOT_FOUND);
    if (deferred_.empty() && proc.rank != PMIX_RANK_UNDEF) {
      // One process, nothing to frame: indexing is needed only when its
      // records wait.
      const Entry* e = One(proc);
      if (e == nullptr) return Status(PMIX_ERR_NOT_FOUND);
      if (e->pending.empty()) {
        auto it = e->values.find(key);
        if (it == e->values.end()) return Status(PMIX_ERR_NOT_FOUND);
        where = it->second;
      }
    } else if (deferred_.empty() && !AnyPending(proc)) {
      where = Find(proc, key);
    }
  }
  if (!where.ok() && where.status().code() == PMIX_ERR_NOT_FOUND) {
    std::unique_lock<std::shared_mutex> lock(mu_);
    FrameDeferred();
    IndexAll(proc).ok();  // what is malformed is logged and dropped
    where = Find(proc, key);
  }
  if (!where.ok()) return where.status();
  // Outside the lock: the span keeps its bytes alive.
  return wire::DecodeValue(where->codec, where->bytes());
}

Result<wire::Infos> PeerData::FetchAll(const pmix_proc_t& proc) {
  if (proc.rank >= PMIX_RANK_VALID) return Status(PMIX_ERR_NOT_FOUND);
  std::vector<std::pair<std::string, Span>> found;
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    FrameDeferred();
    IndexAll(proc).ok();  // what is malformed is logged and dropped
    for (const Entry* e : EntriesOf(proc))
      for (const auto& [key, span] : e->values) found.emplace_back(key, span);
  }
  if (found.empty()) return Status(PMIX_ERR_NOT_FOUND);
  wire::Infos out(found.size());
  for (size_t i = 0; i < found.size(); ++i) {
    auto v = wire::DecodeValue(found[i].second.codec, found[i].second.bytes());
    if (!v.ok()) return v.status();
    pmix_info_t& info = out.data()[i];
    PMIX_LOAD_KEY(info.key, found[i].first.c_str());
    info.value = *v->get();  // the decoded contents move into the info
    std::free(v->release());
  }
  return out;
}

bool PeerData::Waiting(const pmix_proc_t& proc) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return !deferred_.empty() || AnyPending(proc);
}

void PeerData::Clear() {
  std::unique_lock<std::shared_mutex> lock(mu_);
  procs_.clear();
  deferred_.clear();
}

}  // namespace pmix::client
