// Other processes' records kept as received, decoded on first use
// (client_modex.h).
#include "src/client/client_modex.h"

#include <algorithm>
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

bool IsSelf(const wire::RecordRef& ref, const pmix_proc_t& self) {
  return ref.rank == self.rank && ref.nspace == NspaceOf(self);
}

// Sorts by key, equal keys kept in their order. Most entries hold a few
// keys: an insertion sort then, which allocates nothing.
template <class Value>
void SortStable(std::vector<Value>& values) {
  constexpr size_t kInsertionMax = 32;
  auto less = [](const Value& a, const Value& b) { return a.key < b.key; };
  if (values.size() > kInsertionMax) return std::stable_sort(values.begin(), values.end(), less);
  for (size_t i = 1; i < values.size(); ++i)
    for (size_t j = i; j > 0 && less(values[j], values[j - 1]); --j) std::swap(values[j], values[j - 1]);
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
        if (ref.rank == PMIX_RANK_WILDCARD || IsSelf(ref, self)) continue;
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

PeerData::Slot PeerData::EntryFor(std::string_view nspace, pmix_rank_t rank) {
  auto ns = procs_.find(nspace);
  if (ns == procs_.end()) ns = procs_.try_emplace(std::string(nspace)).first;
  return Slot{&ns->first, rank, &ns->second[rank]};
}

void PeerData::File(const Slot& slot, Span record, std::vector<Touched>& touched) {
  Entry& e = *slot.entry;
  if (!e.touched) {
    e.touched = true;
    touched.push_back({slot, !e.pending.empty() || !e.values.empty()});
  }
  e.pending.push_back(std::move(record));
}

void PeerData::IndexReplaced(std::vector<Touched>& touched) {
  for (const Touched& t : touched) {
    t.slot.entry->touched = false;
    if (t.held) Index(t.slot).ok();  // what is malformed is logged and dropped, as by a Get
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
    Status indexed = wire::IndexRecords(records, records_);
    if (!indexed.ok()) {
      output::Error("client", "shared process data is malformed (%s): %zu bytes dropped",
                    PMIx_Error_string(indexed.code()), records.size());
      continue;
    }
    for (const wire::RecordRef& ref : records_) {
      if (ref.rank >= PMIX_RANK_VALID) {
        output::Error("client", "shared process data of %.*s holds a record of no process rank: dropped",
                      static_cast<int>(ref.nspace.size()), ref.nspace.data());
        continue;
      }
      if (IsSelf(ref, self_)) continue;
      File(EntryFor(ref.nspace, ref.rank), Span{part.codec, part.bytes.data, ref.kvs_offset, ref.kvs_size},
           touched);
    }
  }
  deferred_.clear();
  IndexReplaced(touched);
}

size_t PeerData::Deferred() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return deferred_.size();
}

std::vector<PeerData::Slot> PeerData::SlotsOf(const pmix_proc_t& proc) {
  std::vector<Slot> out;
  auto ns = procs_.find(NspaceOf(proc));
  if (ns == procs_.end()) return out;
  Ranks& ranks = ns->second;
  if (proc.rank != PMIX_RANK_UNDEF) {
    auto it = ranks.find(proc.rank);
    if (it != ranks.end()) out.push_back(Slot{&ns->first, it->first, &it->second});
    return out;
  }
  out.reserve(ranks.size());
  for (auto& [rank, e] : ranks) out.push_back(Slot{&ns->first, rank, &e});
  std::sort(out.begin(), out.end(), [](const Slot& a, const Slot& b) { return a.rank < b.rank; });
  return out;
}

bool PeerData::AnyPending(const pmix_proc_t& proc) const {
  if (proc.rank != PMIX_RANK_UNDEF) {
    const Entry* e = One(proc);
    return e != nullptr && !e->pending.empty();
  }
  auto ns = procs_.find(NspaceOf(proc));
  if (ns == procs_.end()) return false;
  for (const auto& [rank, e] : ns->second)
    if (!e.pending.empty()) return true;
  return false;
}

Status PeerData::Index(const Slot& slot) {
  Entry& e = *slot.entry;
  if (e.pending.empty()) return Status();
  Status first;
  // The values held, then each record's in arrival order: a stable sort by
  // key keeps them in that order among equal keys, and the last one wins.
  std::vector<Value> merged = std::move(e.values);
  e.values.clear();
  for (const Span& record : e.pending) {
    Status framed = wire::IndexKvs(record.bytes(), kvs_);
    if (!framed.ok()) {
      if (first.ok()) first = framed;
      output::Error("client", "the data of %s:%u is malformed (%s): dropped", slot.nspace->c_str(),
                    slot.rank, PMIx_Error_string(framed.code()));
      continue;
    }
    for (const wire::KvRef& kv : kvs_)
      merged.push_back(Value{kv.key, Span{record.codec, record.blob, record.offset + kv.value_offset,
                                          kv.value_size}});
  }
  e.pending.clear();
  SortStable(merged);
  size_t kept = 0;
  for (size_t i = 0; i < merged.size(); ++i)
    if (i + 1 == merged.size() || merged[i + 1].key != merged[i].key) merged[kept++] = std::move(merged[i]);
  merged.resize(kept);
  e.values = std::move(merged);
  return first;
}

Status PeerData::IndexAll(const pmix_proc_t& proc) {
  Status first;
  for (const Slot& slot : SlotsOf(proc)) {
    Status indexed = Index(slot);
    if (first.ok()) first = indexed;
  }
  return first;
}

const PeerData::Value* PeerData::Lookup(const Entry& e, std::string_view key) {
  auto it = std::lower_bound(e.values.begin(), e.values.end(), key,
                             [](const Value& v, std::string_view k) { return v.key < k; });
  return it != e.values.end() && it->key == key ? &*it : nullptr;
}

Result<PeerData::Span> PeerData::Find(const pmix_proc_t& proc, std::string_view key) {
  for (const Slot& slot : SlotsOf(proc))
    if (const Value* v = Lookup(*slot.entry, key)) return v->value;
  return Status(PMIX_ERR_NOT_FOUND);
}

const PeerData::Entry* PeerData::One(const pmix_proc_t& proc) const {
  auto ns = procs_.find(NspaceOf(proc));
  if (ns == procs_.end()) return nullptr;
  auto it = ns->second.find(proc.rank);
  return it == ns->second.end() ? nullptr : &it->second;
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
        const Value* v = Lookup(*e, key);
        if (v == nullptr) return Status(PMIX_ERR_NOT_FOUND);
        where = v->value;
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
  std::vector<Value> found;
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    FrameDeferred();
    IndexAll(proc).ok();  // what is malformed is logged and dropped
    for (const Slot& slot : SlotsOf(proc))
      found.insert(found.end(), slot.entry->values.begin(), slot.entry->values.end());
  }
  if (found.empty()) return Status(PMIX_ERR_NOT_FOUND);
  // Outside the lock: each value's span keeps its key's and value's bytes alive.
  wire::Infos out(found.size());
  for (size_t i = 0; i < found.size(); ++i) {
    auto v = wire::DecodeValue(found[i].value.codec, found[i].value.bytes());
    if (!v.ok()) return v.status();
    pmix_info_t& info = out.data()[i];
    std::memcpy(info.key, found[i].key.data(), found[i].key.size());
    info.key[found[i].key.size()] = '\0';
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
