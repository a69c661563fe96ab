#include "mca/gds/base/image_layout.h"

namespace pmix::gds::image {
namespace {

constexpr Status kBad = Status(PMIX_ERR_BAD_PARAM);
constexpr Status kCorrupt = Status(PMIX_ERR_UNPACK_FAILURE);

bool PowerOfTwo(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

// A fixed char field holding a NUL-terminated string.
std::optional<std::string> Field(const char* field, size_t capacity) {
  size_t len = ::strnlen(field, capacity);
  if (len == capacity) return std::nullopt;
  return std::string(field, len);
}

template <class T>
bool Whole(std::span<const uint8_t> s) {
  return s.size() % sizeof(T) == 0;
}

// A hash table section: uint32 mask, then mask + 1 slots.
bool ValidTable(std::span<const uint8_t> s) {
  if (s.size() < sizeof(uint32_t)) return false;
  uint32_t mask;
  std::memcpy(&mask, s.data(), sizeof mask);
  uint64_t slots = uint64_t{mask} + 1;
  return PowerOfTwo(slots) && s.size() == (slots + 1) * sizeof(uint32_t);
}

}  // namespace

Status Layout::Init(std::span<const uint8_t> bytes) {
  Header h;
  if (bytes.size() < sizeof h) return kBad;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kVersion ||
      h.byte_order != kByteOrder || h.size != bytes.size())
    return kBad;
  auto ns = Field(h.nspace, sizeof h.nspace);
  auto codec_field = Field(h.codec, sizeof h.codec);
  if (!ns || ns->empty() || !codec_field) return kBad;
  nspace = std::move(*ns);
  codec_name = std::move(*codec_field);
  for (uint32_t s = 0; s < kSectionCount; ++s) {
    const SectionRef& ref = h.sections[s];
    if (ref.offset < sizeof h || uint64_t{ref.offset} + ref.size > bytes.size()) return kBad;
    sections_[s] = bytes.subspan(ref.offset, ref.size);
  }
  values = sections_[kValues];
  if (!Whole<KeyRec>(sections_[kKeys]) || !Whole<IdRec>(sections_[kSessions]) ||
      !Whole<IdRec>(sections_[kApps]) || !Whole<NodeRec>(sections_[kNodes]) ||
      !Whole<IdRec>(sections_[kNodeIds]) || !Whole<RankRun>(sections_[kRankRuns]) ||
      !Whole<uint32_t>(sections_[kJobNodes]) || !Whole<uint32_t>(sections_[kLocalRanks]) ||
      !ValidTable(sections_[kKeyTable]) || !ValidTable(sections_[kNodeNames]))
    return kBad;
  for (uint32_t k = 0; k < Count<KeyRec>(kKeys); ++k) {
    if (!KeyName(k)) return kBad;
  }
  PMIX_RETURN_IF_ERROR(ValidateRuns());
  PMIX_RETURN_IF_ERROR(ValidateColumns());
  job_list = h.job_list;
  auto njob = ListCount(job_list);
  if (!njob.ok()) return kBad;
  job_value_of_key_.assign(Count<KeyRec>(kKeys), kNone);
  for (uint32_t i = 0; i < *njob; ++i) {
    auto e = ListEntry(job_list, i);
    uint32_t key = e ? e->key & ~kNotHost : kNone;
    if (key >= job_value_of_key_.size() || e->value == kNone) return kBad;
    job_value_of_key_[key] = e->value;
  }
  meta.generation = h.generation;
  meta.nodata = (h.flags & kNoData) != 0;
  meta.nlocalprocs = h.nlocalprocs;
  auto opt = [&h](uint32_t flag, uint32_t value) {
    return (h.flags & flag) != 0 ? std::optional<uint32_t>(value) : std::nullopt;
  };
  meta.job_size = opt(kHasJobSize, h.job_size);
  meta.local_nodeid = opt(kHasLocalNodeId, h.local_nodeid);
  meta.session_id = opt(kHasSessionId, h.session_id);
  meta.num_apps = opt(kHasNumApps, h.num_apps);
  meta.nproc_offset = opt(kHasNprocOffset, h.nproc_offset);
  return Status();
}

// Runs: ascending, disjoint ranks; positions counted without gaps; every
// rank's node inside kNodes and its local and app ranks without overflow,
// so that Rank() needs no check beyond finding the run.
Status Layout::ValidateRuns() {
  nruns_ = Count<RankRun>(kRankRuns);
  uint64_t pos = 0, next_rank = 0;
  const uint32_t nnodes = NumNodes();
  for (uint32_t i = 0; i < nruns_; ++i) {
    RankRun r = *Run(i);
    uint64_t last = uint64_t{r.count} - 1;
    if (r.count == 0 || r.pos != pos || r.rank < next_rank || r.rank + last >= PMIX_RANK_VALID)
      return kBad;
    if (r.node_step > 1 || r.local_step > 1) return kBad;
    if (r.node == kNone ? r.node_step != 0 : r.node + last * r.node_step >= nnodes) return kBad;
    if (r.local_rank + last * r.local_step > UINT32_MAX) return kBad;
    if (r.app_rank != kNone && r.app_rank + last >= kNone) return kBad;
    pos += r.count;
    next_rank = r.rank + uint64_t{r.count};
    if (pos > UINT32_MAX) return kBad;
  }
  nranks_ = static_cast<uint32_t>(pos);
  dense_ranks_ = nranks_ > 0 && next_rank == nranks_;  // ascending and disjoint: exactly 0..n-1
  return Status();
}

// Columns: the directory, every column's extent, and derived columns only
// for keys a placement derives.
Status Layout::ValidateColumns() {
  auto n = At<uint32_t>(sections_[kColumns], 0);
  if (!n || (sections_[kColumns].size() - sizeof(uint32_t)) / sizeof(ColumnRec) < *n) return kBad;
  ncolumns_ = *n;
  for (uint32_t c = 0; c < ncolumns_; ++c) {
    auto col = Column(c);
    if (!col || col->key >= Count<KeyRec>(kKeys) || col->kind > kDerived) return kBad;
    if (c > 0 && Column(c - 1)->key >= col->key) return kBad;
    if (col->kind != kSparse && col->count != nranks_) return kBad;
    if (col->kind == kConstant && col->off == kDerivedRef) return kBad;
    if (col->kind == kDerived && DerivedKind(*KeyName(col->key)) == Derived::kNone) return kBad;
    if (col->kind == kDense || col->kind == kSparse) {
      uint64_t width = col->kind == kSparse ? sizeof(SparseRec) : sizeof(uint32_t);
      if (uint64_t{col->off} + width * col->count > sections_[kColumns].size()) return kBad;
    }
  }
  column_of_key_.assign(Count<KeyRec>(kKeys), kNone);
  for (uint32_t c = 0; c < ncolumns_; ++c) column_of_key_[Column(c)->key] = c;
  return Status();
}

std::optional<std::string_view> Layout::Str(const StrRef& ref) const {
  std::span<const uint8_t> s = sections_[kStrings];
  if (ref.off >= s.size() || s.size() - ref.off <= ref.len || s[ref.off + ref.len] != 0)
    return std::nullopt;
  return std::string_view(reinterpret_cast<const char*>(s.data()) + ref.off, ref.len);
}

std::optional<std::string_view> Layout::KeyName(uint32_t index) const {
  auto rec = Record<KeyRec>(kKeys, index);
  if (!rec) return std::nullopt;
  return Str(rec->name);
}

std::optional<uint32_t> Layout::Probe(Section table, std::string_view name, bool nodes) const {
  std::span<const uint8_t> t = sections_[table];
  uint32_t mask = *At<uint32_t>(t, 0);  // validated by Init
  uint32_t slot = KeyHash(name) & mask;
  for (uint64_t tries = 0; tries <= mask; ++tries, slot = (slot + 1) & mask) {
    auto entry = At<uint32_t>(t, sizeof(uint32_t) * (uint64_t{slot} + 1));
    if (!entry || *entry == 0) return std::nullopt;
    uint32_t index = *entry - 1;
    auto stored = nodes ? NodeHost(index) : KeyName(index);
    if (!stored) return std::nullopt;  // corrupt: treat as absent
    if (*stored == name) return index;
  }
  return std::nullopt;
}

std::optional<uint32_t> Layout::FindKey(std::string_view key) const {
  return Probe(kKeyTable, key, false);
}

Result<uint32_t> Layout::ListCount(uint32_t list) const {
  std::span<const uint8_t> s = sections_[kLists];
  auto count = At<uint32_t>(s, list);
  if (!count) return kCorrupt;
  if ((s.size() - list - sizeof(uint32_t)) / sizeof(Entry) < *count) return kCorrupt;
  return *count;
}

std::optional<Entry> Layout::ListEntry(uint32_t list, uint32_t i) const {
  return At<Entry>(sections_[kLists],
                   uint64_t{list} + sizeof(uint32_t) + uint64_t{i} * sizeof(Entry));
}

Result<std::optional<uint32_t>> Layout::ListFind(uint32_t list, uint32_t key) const {
  if (list == job_list) {
    if (key >= job_value_of_key_.size() || job_value_of_key_[key] == kNone)
      return std::optional<uint32_t>();
    return std::optional<uint32_t>(job_value_of_key_[key]);
  }
  auto count = ListCount(list);
  if (!count.ok()) return count.status();
  uint32_t lo = 0, hi = *count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    auto e = ListEntry(list, mid);
    if (!e) return kCorrupt;
    uint32_t k = e->key & ~kNotHost;
    if (k == key) return std::optional<uint32_t>(e->value);
    if (k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::optional<uint32_t>();
}

std::optional<uint32_t> Layout::FindKeyed(Section s, uint32_t id) const {
  uint32_t lo = 0, hi = Count<IdRec>(s);
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    auto rec = Record<IdRec>(s, mid);
    if (!rec) return std::nullopt;
    if (rec->id == id) return rec->ref;
    if (rec->id < id) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

std::optional<std::string_view> Layout::NodeHost(uint32_t i) const {
  auto rec = Node(i);
  if (!rec || rec->host.off == kNone) return std::nullopt;
  return Str(rec->host);
}

std::optional<uint32_t> Layout::NodeById(uint32_t id) const {
  auto node = FindKeyed(kNodeIds, id);
  if (!node || *node >= NumNodes()) return std::nullopt;
  return node;
}

std::optional<uint32_t> Layout::NodeByName(std::string_view host) const {
  return Probe(kNodeNames, host, true);
}

std::optional<RankRun> Layout::RunAt(uint32_t pos) const {
  if (pos >= nranks_) return std::nullopt;
  // Runs of one length (ranks placed by slot, the same number per node)
  // put pos in run pos * nruns / nranks: try that one first.
  uint32_t lo = 0, hi = nruns_;
  uint32_t probe = static_cast<uint32_t>(uint64_t{pos} * nruns_ / nranks_);
  while (lo < hi) {
    auto run = Run(probe);
    if (!run) return std::nullopt;
    if (pos < run->pos) {
      hi = probe;
    } else if (pos - run->pos < run->count) {
      return run;
    } else {
      lo = probe + 1;
    }
    probe = lo + (hi - lo) / 2;
  }
  return std::nullopt;
}

std::optional<RankFacts> Layout::Rank(uint32_t pos) const {
  auto run = RunAt(pos);
  if (!run) return std::nullopt;
  uint32_t i = pos - run->pos;  // the ranges were validated by Init
  RankFacts out;
  out.rank = run->rank + i;
  out.node = run->node == kNone ? kNone : run->node + i * run->node_step;
  out.local_rank = run->local_rank + i * run->local_step;
  out.appnum = run->appnum;
  out.app_rank = run->app_rank == kNone ? kNone : run->app_rank + i;
  return out;
}

std::optional<uint32_t> Layout::RankPosition(pmix_rank_t rank) const {
  if (dense_ranks_) return rank < nranks_ ? std::optional<uint32_t>(rank) : std::nullopt;
  uint32_t lo = 0, hi = nruns_;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    auto run = Run(mid);
    if (!run) return std::nullopt;
    if (rank < run->rank) {
      hi = mid;
    } else if (rank - run->rank < run->count) {
      return run->pos + (rank - run->rank);
    } else {
      lo = mid + 1;
    }
  }
  return std::nullopt;
}

std::optional<NodeFacts> Layout::NodeFactsOf(uint32_t i) const {
  auto rec = Node(i);
  if (!rec) return std::nullopt;
  NodeFacts out;
  out.host = NodeHost(i);
  if (rec->has_id) out.id = rec->id;
  return out;
}

std::optional<ColumnRec> Layout::Column(uint32_t c) const {
  return At<ColumnRec>(sections_[kColumns], sizeof(uint32_t) + uint64_t{c} * sizeof(ColumnRec));
}

Result<std::optional<uint32_t>> Layout::ColumnValue(uint32_t key, uint32_t pos) const {
  if (key >= column_of_key_.size() || column_of_key_[key] == kNone)
    return std::optional<uint32_t>();
  std::optional<ColumnRec> col = Column(column_of_key_[key]);
  if (!col) return kCorrupt;
  switch (col->kind) {
    case kConstant:
      return std::optional<uint32_t>(col->off);
    case kDerived:
      return std::optional<uint32_t>(kDerivedRef);
    default:
      break;
  }
  std::span<const uint8_t> s = sections_[kColumns];
  if (col->kind == kDense) {
    auto slot = At<uint32_t>(s, col->off + uint64_t{pos} * sizeof(uint32_t));
    if (!slot || pos >= col->count) return kCorrupt;
    return *slot == 0 ? std::optional<uint32_t>() : std::optional<uint32_t>(*slot - 1);
  }
  uint32_t lo = 0, hi = col->count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    auto rec = At<SparseRec>(s, col->off + uint64_t{mid} * sizeof(SparseRec));
    if (!rec) return kCorrupt;
    if (rec->pos == pos) return std::optional<uint32_t>(rec->value);
    if (rec->pos < pos) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::optional<uint32_t>();
}

}  // namespace pmix::gds::image
