// The server's process data as records (modex_store.h).
#include "src/server/modex_store.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <set>

#include "mca/bfrops/base/bfrops_base.h"
#include "src/wire/proc_data.h"

namespace pmix::server::modex {
namespace {

constexpr uint8_t kLocal = 1;
constexpr uint8_t kRemote = 2;
constexpr uint8_t kGlobal = 4;

// The scope bit of a committed scope; 0 when it cannot be committed.
uint8_t ScopeBit(pmix_scope_t scope) {
  switch (scope) {
    case PMIX_LOCAL: return kLocal;
    case PMIX_REMOTE: return kRemote;
    case PMIX_GLOBAL:
    case PMIX_SCOPE_UNDEF: return kGlobal;
    default: return 0;
  }
}

uint8_t Visible(pmix_gds_view_t view) {
  switch (view) {
    case PMIX_GDS_VIEW_LOCAL: return kLocal | kGlobal;
    case PMIX_GDS_VIEW_REMOTE: return kRemote | kGlobal;
    default: return kLocal | kRemote | kGlobal;
  }
}

std::string_view KeyOf(const pmix_info_t& info) {
  return std::string_view(info.key, ::strnlen(info.key, PMIX_MAX_KEYLEN + 1));
}

bool ValidProc(const pmix_proc_t& proc) {
  size_t n = ::strnlen(proc.nspace, PMIX_MAX_NSLEN + 1);
  return n > 0 && n <= PMIX_MAX_NSLEN && proc.rank < PMIX_RANK_VALID;
}

Result<const pmix_bfrops_module_t*> Codec() { return bfrops::DefaultCodec(); }

// A record's key/values, decoded.
Result<wire::Infos> Decode(std::span<const uint8_t> record) {
  auto codec = Codec();
  if (!codec.ok()) return codec.status();
  auto refs = wire::IndexRecords(record);
  if (!refs.ok()) return refs.status();
  if (refs->size() != 1) return Status(PMIX_ERR_UNPACK_FAILURE);
  return wire::DecodeKvs(*codec, (*refs)[0].Kvs(record));
}

}  // namespace

namespace {

size_t MaxChunks(size_t asked) {
  if (asked != 0) return asked;
  rlimit limit{};
  rlim_t soft = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 ? limit.rlim_cur : 1024;
  return soft == RLIM_INFINITY ? 1024 : std::min<size_t>(1024, std::max<size_t>(1, soft / 4));
}

}  // namespace

Store::Store(size_t share_min, size_t max_chunks, size_t chunk_bytes)
    : share_min_(share_min), chunk_bytes_(chunk_bytes), budget_(MaxChunks(max_chunks)) {}

Status Store::AddKvs(const pmix_proc_t& proc, pmix_scope_t scope, std::span<const pmix_info_t> kvs) {
  auto codec = Codec();
  if (!codec.ok()) return codec.status();
  wire::Bytes record;
  PMIX_RETURN_IF_ERROR(wire::AppendRecord(*codec, proc, kvs, record));
  return Add(proc, scope, record, kvs);
}

Status Store::Add(const pmix_proc_t& proc, pmix_scope_t scope, std::span<const uint8_t> record,
                  std::span<const pmix_info_t> kvs) {
  auto copy = std::make_shared<const wire::Bytes>(record.begin(), record.end());
  return Add(proc, scope, std::move(copy), 0, record.size(), kvs);
}

Status Store::Add(const pmix_proc_t& proc, pmix_scope_t scope, std::shared_ptr<const wire::Bytes> buffer,
                  size_t offset, size_t size, std::span<const pmix_info_t> kvs) {
  if (buffer == nullptr || offset > buffer->size() || size > buffer->size() - offset)
    return PMIX_ERR_BAD_PARAM;
  std::span<const uint8_t> record(buffer->data() + offset, size);
  uint8_t bit = ScopeBit(scope);
  if (bit == 0 || !ValidProc(proc)) return PMIX_ERR_BAD_PARAM;
  if (kvs.empty()) return Status();
  Key key{std::string(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN)), proc.rank};
  auto it = procs_.find(key);
  if (it == procs_.end()) {
    it = procs_.emplace(std::move(key), Entry{}).first;
    it->second.lineage = ++changes_;
  }
  Entry& e = it->second;
  for (const Segment& seg : e.segments) {
    std::span<const uint8_t> held = seg.record();
    if (seg.scope == bit && std::equal(held.begin(), held.end(), record.begin(), record.end()))
      return Status();  // the same data again
  }
  bool repeats = false;
  std::set<std::string_view> seen;
  for (const pmix_info_t& kv : kvs) {
    std::string_view k = KeyOf(kv);
    repeats = repeats || e.keys.count(k) != 0 || !seen.insert(k).second;
  }
  if (repeats) {
    auto merged = Merged(e, proc, bit, kvs);
    if (!merged.ok()) {
      if (e.segments.empty()) procs_.erase(it);
      return merged.status();
    }
    e = std::move(*merged);  // merged records are on the heap
    e.lineage = ++changes_;
    e.generation = ++changes_;
    return Status();
  }
  Segment seg{bit, std::shared_ptr<const uint8_t>(std::move(buffer), record.data()), size, nullptr, 0};
  // A local client handed a chunk reads all of it: REMOTE records, which
  // no local reader may see, never go there (modex_store.h, Sharing).
  if (bit != kRemote && size >= share_min_) {
    std::string_view nspace = it->first.first;
    auto arena = arenas_.find(nspace);
    if (arena == arenas_.end())
      arena = arenas_.try_emplace(std::string(nspace), budget_, chunk_bytes_).first;
    if (auto placed = arena->second.Place(record)) {
      seg.data = std::shared_ptr<const uint8_t>(placed->chunk, placed->chunk->data() + placed->offset);
      seg.chunk = std::move(placed->chunk);
      seg.chunk_offset = placed->offset;
    }
  }
  e.segments.push_back(std::move(seg));
  for (const pmix_info_t& kv : kvs) e.keys[std::string(KeyOf(kv))] |= bit;
  e.generation = ++changes_;
  return Status();
}

// The rare path: old's records and kvs (scope `bit`) folded by the gds
// scope rules into one record per scope.
Result<Store::Entry> Store::Merged(const Entry& old, const pmix_proc_t& proc, uint8_t bit,
                                   std::span<const pmix_info_t> kvs) {
  auto codec = Codec();
  if (!codec.ok()) return codec.status();
  // Per key, its value in each class (LOCAL, REMOTE, GLOBAL), pointing
  // into `decoded` or kvs.
  std::map<std::string_view, std::array<const pmix_info_t*, 3>> slots;
  auto apply = [&slots](uint8_t scope, const pmix_info_t& kv) {
    auto& s = slots[KeyOf(kv)];
    if (scope == kGlobal) s = {nullptr, nullptr, &kv};
    if (scope == kLocal) s = {&kv, s[1], nullptr};
    if (scope == kRemote) s = {s[0], &kv, nullptr};
  };
  std::vector<wire::Infos> decoded;
  decoded.reserve(old.segments.size());
  for (const Segment& seg : old.segments) {
    auto infos = Decode(seg.record());
    if (!infos.ok()) return infos.status();
    decoded.push_back(std::move(*infos));
    for (const pmix_info_t& kv : decoded.back().view()) apply(seg.scope, kv);
  }
  for (const pmix_info_t& kv : kvs) apply(bit, kv);
  Entry out;
  const uint8_t bits[3] = {kLocal, kRemote, kGlobal};
  for (size_t c = 0; c < 3; ++c) {
    std::vector<pmix_info_t> shallow;  // packing only reads them
    for (const auto& [k, s] : slots) {
      if (s[c] == nullptr) continue;
      shallow.push_back(*s[c]);
      out.keys[std::string(k)] |= bits[c];
    }
    if (shallow.empty()) continue;
    wire::Bytes record;
    PMIX_RETURN_IF_ERROR(wire::AppendRecord(*codec, proc, shallow, record));
    size_t n = record.size();
    auto held = std::make_shared<const wire::Bytes>(std::move(record));
    const uint8_t* first = held->data();
    out.segments.push_back(Segment{bits[c], std::shared_ptr<const uint8_t>(std::move(held), first), n, nullptr, 0});
  }
  return out;
}

const Store::Entry* Store::Lookup(const pmix_proc_t& proc) const {
  auto it = procs_.find(Key{std::string(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN)), proc.rank});
  return it == procs_.end() ? nullptr : &it->second;
}

uint64_t Store::Generation(const pmix_proc_t& proc) const {
  const Entry* e = Lookup(proc);
  return e == nullptr ? 0 : e->generation;
}

uint64_t Store::Lineage(const pmix_proc_t& proc) const {
  const Entry* e = Lookup(proc);
  return e == nullptr ? 0 : e->lineage;
}

size_t Store::Size(const pmix_proc_t& proc, pmix_gds_view_t view) const {
  const Entry* e = Lookup(proc);
  size_t n = 0;
  if (e == nullptr) return n;
  for (const Segment& seg : e->segments)
    if (seg.scope & Visible(view)) n += seg.size;
  return n;
}

size_t Store::Append(const pmix_proc_t& proc, pmix_gds_view_t view, wire::Bytes& out) const {
  const Entry* e = Lookup(proc);
  size_t n = 0;
  if (e == nullptr) return n;
  for (const Segment& seg : e->segments) {
    if ((seg.scope & Visible(view)) == 0) continue;
    std::span<const uint8_t> record = seg.record();
    out.insert(out.end(), record.begin(), record.end());
    ++n;
  }
  return n;
}

size_t Store::CopyTo(const pmix_proc_t& proc, pmix_gds_view_t view, uint8_t* out, size_t skip) const {
  const Entry* e = Lookup(proc);
  size_t n = 0;
  if (e == nullptr) return n;
  for (const Segment& seg : e->segments) {
    if ((seg.scope & Visible(view)) == 0 || seg.size == 0) continue;
    size_t from = std::min(skip, seg.size);
    skip -= from;
    std::memcpy(out + n, seg.record().data() + from, seg.size - from);
    n += seg.size - from;
  }
  return n;
}

void Store::ForEach(const pmix_proc_t& proc, pmix_gds_view_t view, const RecordFn& fn) const {
  const Entry* e = Lookup(proc);
  if (e == nullptr) return;
  for (const Segment& seg : e->segments)
    if (seg.scope & Visible(view)) fn(seg.record(), seg.chunk, seg.chunk_offset);
}

Status Store::Find(const pmix_proc_t& proc, pmix_gds_view_t view, std::string_view key) const {
  const Entry* e = Lookup(proc);
  if (e == nullptr) return PMIX_ERR_NOT_FOUND;
  if (key.empty()) {
    for (const Segment& seg : e->segments)
      if (seg.scope & Visible(view)) return Status();
    return PMIX_ERR_NOT_FOUND;
  }
  auto it = e->keys.find(key);
  if (it == e->keys.end()) return PMIX_ERR_NOT_FOUND;
  return (it->second & Visible(view)) != 0 ? Status() : Status(PMIX_ERR_EXISTS_OUTSIDE_SCOPE);
}

Result<gds::ValuePtr> Store::Fetch(const pmix_proc_t& proc, pmix_gds_view_t view,
                                   std::string_view key) const {
  PMIX_RETURN_IF_ERROR(Find(proc, view, key));
  if (key.empty()) return Status(PMIX_ERR_BAD_PARAM);
  const Entry* e = Lookup(proc);
  uint8_t held = e->keys.find(key)->second & Visible(view);
  uint8_t bit = (held & kLocal) ? kLocal : (held & kGlobal) ? kGlobal : kRemote;
  for (const Segment& seg : e->segments) {
    if (seg.scope != bit) continue;
    auto infos = Decode(seg.record());
    if (!infos.ok()) return infos.status();
    for (const pmix_info_t& kv : infos->view()) {
      if (KeyOf(kv) != key) continue;
      gds::ValuePtr v(PMIx_Value_create(1));
      if (v == nullptr) return Status(PMIX_ERR_NOMEM);
      PMIX_RETURN_IF_ERROR(PMIx_Value_xfer(v.get(), &kv.value));
      return v;
    }
  }
  return Status(PMIX_ERR_NOT_FOUND);
}

Result<wire::Infos> Store::FetchAll(const pmix_proc_t& proc, pmix_gds_view_t view) const {
  const Entry* e = Lookup(proc);
  if (e == nullptr) return Status(PMIX_ERR_NOT_FOUND);
  wire::Infos out;
  for (const Segment& seg : e->segments) {
    if ((seg.scope & Visible(view)) == 0) continue;
    auto infos = Decode(seg.record());
    if (!infos.ok()) return infos.status();
    for (const pmix_info_t& kv : infos->view()) PMIX_RETURN_IF_ERROR(out.Append(kv));
  }
  if (out.size() == 0) return Status(PMIX_ERR_NOT_FOUND);
  return out;
}

std::vector<std::string> Store::HiddenKeys(const pmix_proc_t& proc, pmix_gds_view_t view) const {
  std::vector<std::string> out;
  const Entry* e = Lookup(proc);
  if (e == nullptr) return out;
  for (const auto& [key, bits] : e->keys)
    if ((bits & Visible(view)) == 0) out.push_back(key);
  return out;
}

std::vector<pmix_rank_t> Store::Ranks(std::string_view nspace) const {
  std::vector<pmix_rank_t> out;
  for (auto it = procs_.lower_bound(Key{std::string(nspace), 0});
       it != procs_.end() && it->first.first == nspace; ++it)
    out.push_back(it->first.second);
  return out;
}

void Store::Remove(const pmix_proc_t& proc) {
  std::string nspace(proc.nspace, ::strnlen(proc.nspace, PMIX_MAX_NSLEN));
  if (proc.rank != PMIX_RANK_WILDCARD) {
    auto it = procs_.find(Key{nspace, proc.rank});
    if (it != procs_.end()) procs_.erase(it);
  } else {
    auto first = procs_.lower_bound(Key{nspace, 0});
    auto last = first;
    while (last != procs_.end() && last->first.first == nspace) ++last;
    procs_.erase(first, last);
  }
  // The nspace's last data gone, its arena goes: its chunk is no longer
  // filled (a later record starts a new one) and lives on only as long as
  // a fence answer holds it.
  auto next = procs_.lower_bound(Key{nspace, 0});
  if (next == procs_.end() || next->first.first != nspace) arenas_.erase(nspace);
}

}  // namespace pmix::server::modex
