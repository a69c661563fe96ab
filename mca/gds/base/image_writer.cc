// WriteImage: an ImageInput laid out as image_format.h describes. Keys,
// strings and values are interned (one copy of "node00042" however many
// ranks name it); a rank's proc data goes into per-key columns.
#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "mca/gds/base/image.h"
#include "mca/gds/base/image_derive.h"
#include "mca/gds/base/image_format.h"
#include "mca/gds/base/image_values.h"
#include "src/common/mapped_vector.h"
#include "src/common/output.h"

namespace pmix::gds {
namespace {

using namespace image;  // NOLINT: the format's record names

template <class T>
void Put(std::string& out, const T& record) {
  out.append(reinterpret_cast<const char*>(&record), sizeof record);
}

uint32_t TableSize(size_t n) {
  uint32_t size = 4;
  while (size < 2 * n) size *= 2;
  return size;
}

// A key's host values, by rank position (ascending): the value is
// in.ranks[pos].kvs[kv]'s.
struct HostValue {
  uint32_t pos;
  uint32_t kv;
};
using HostColumn = MappedVector<HostValue>;

class Builder {
 public:
  explicit Builder(const pmix_bfrops_module_t* codec) : codec_(codec) {}

  Status Build(const ImageInput& in, std::string sections[kSectionCount], Header& header);

 private:
  Result<uint32_t> Key(std::string_view name);
  Result<uint32_t> Key(const char* key) { return Key({key, ::strnlen(key, PMIX_MAX_KEYLEN + 1)}); }
  StrRef String(std::string_view s);
  Result<uint32_t> Value(const pmix_value_t& value);
  Result<uint32_t> List(const ImageKvs& kvs);
  Status Keyed(const std::vector<ImageInput::Keyed>& in, std::string& out);
  Status Nodes(const ImageInput& in, std::string sections[]);
  Status Ranks(const ImageInput& in, std::string sections[]);
  Result<ColumnKind> KindOf(const ImageInput& in, uint32_t key, const HostColumn& column);
  Result<bool> Same(const pmix_value_t& a, const pmix_value_t& b);
  void KeyTables(std::string sections[]);

  const pmix_bfrops_module_t* codec_;
  std::string strings_, values_, lists_;
  std::vector<KeyRec> keys_;
  // Heterogeneous lookup: interning looks up a view, copies only new entries.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> key_index_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> value_index_;
  std::string scratch_, other_;

 public:
  uint32_t column_kinds[kDerived + 1] = {};  // how many columns of each kind
};

Result<uint32_t> Builder::Key(std::string_view name) {
  if (name.empty() || name.size() > PMIX_MAX_KEYLEN) return Status(PMIX_ERR_BAD_PARAM);
  if (auto it = key_index_.find(name); it != key_index_.end()) return it->second;
  uint32_t index = static_cast<uint32_t>(keys_.size());
  key_index_.emplace(std::string(name), index);
  keys_.push_back({String(name)});
  return index;
}

StrRef Builder::String(std::string_view s) {
  StrRef ref{static_cast<uint32_t>(strings_.size()), static_cast<uint32_t>(s.size())};
  strings_.append(s);
  strings_.push_back('\0');
  return ref;
}

Result<uint32_t> Builder::Value(const pmix_value_t& value) {
  scratch_.clear();
  PMIX_RETURN_IF_ERROR(EncodeValue(value, codec_, scratch_));
  if (auto it = value_index_.find(std::string_view(scratch_)); it != value_index_.end())
    return it->second;
  uint32_t ref = static_cast<uint32_t>(values_.size());
  value_index_.emplace(scratch_, ref);
  values_.append(scratch_);
  return ref;
}

Result<uint32_t> Builder::List(const ImageKvs& kvs) {
  std::vector<Entry> entries;
  entries.reserve(kvs.size());
  for (const ImageKv& kv : kvs) {
    if (kv.value == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    auto key = Key(kv.key);
    PMIX_RETURN_IF_ERROR(key.status());
    auto value = Value(*kv.value);
    PMIX_RETURN_IF_ERROR(value.status());
    entries.push_back({*key | (kv.host ? 0 : kNotHost), *value});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return (a.key & ~kNotHost) < (b.key & ~kNotHost);
  });
  for (size_t i = 1; i < entries.size(); ++i) {
    if ((entries[i].key & ~kNotHost) == (entries[i - 1].key & ~kNotHost))
      return Status(PMIX_ERR_BAD_PARAM);  // a key twice in one instance
  }
  uint32_t ref = static_cast<uint32_t>(lists_.size());
  Put(lists_, static_cast<uint32_t>(entries.size()));
  for (const Entry& e : entries) Put(lists_, e);
  return ref;
}

Status Builder::Keyed(const std::vector<ImageInput::Keyed>& in, std::string& out) {
  std::vector<IdRec> recs;
  for (const auto& one : in) {
    auto list = List(one.kvs);
    PMIX_RETURN_IF_ERROR(list.status());
    recs.push_back({one.id, *list});
  }
  std::sort(recs.begin(), recs.end(), [](const IdRec& a, const IdRec& b) { return a.id < b.id; });
  for (size_t i = 0; i < recs.size(); ++i) {
    if (i > 0 && recs[i].id == recs[i - 1].id) return PMIX_ERR_BAD_PARAM;
    Put(out, recs[i]);
  }
  return Status();
}

Status Builder::Nodes(const ImageInput& in, std::string sections[]) {
  std::vector<IdRec> ids;
  uint32_t size = TableSize(in.nodes.size());
  std::vector<uint32_t> names(size, 0);
  for (size_t i = 0; i < in.nodes.size(); ++i) {
    const ImageInput::Node& node = in.nodes[i];
    NodeRec rec{{kNone, 0}, node.id.value_or(0), node.id ? 1u : 0u, kNone};
    if (!node.kvs.empty()) {
      auto list = List(node.kvs);
      PMIX_RETURN_IF_ERROR(list.status());
      rec.list = *list;
    }
    if (node.host) {
      rec.host = String(*node.host);
      uint32_t slot = KeyHash(*node.host) & (size - 1);
      while (names[slot] != 0) {
        if (in.nodes[names[slot] - 1].host == node.host) return PMIX_ERR_BAD_PARAM;
        slot = (slot + 1) & (size - 1);
      }
      names[slot] = static_cast<uint32_t>(i + 1);
    }
    if (node.id) ids.push_back({*node.id, static_cast<uint32_t>(i)});
    Put(sections[kNodes], rec);
  }
  std::sort(ids.begin(), ids.end(), [](const IdRec& a, const IdRec& b) { return a.id < b.id; });
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0 && ids[i].id == ids[i - 1].id) return PMIX_ERR_BAD_PARAM;
    Put(sections[kNodeIds], ids[i]);
  }
  Put(sections[kNodeNames], size - 1);
  for (uint32_t slot : names) Put(sections[kNodeNames], slot);
  for (uint32_t node : in.job_nodes) {
    if (node >= in.nodes.size()) return PMIX_ERR_BAD_PARAM;
    Put(sections[kJobNodes], node);
  }
  for (pmix_rank_t rank : in.local_ranks) Put(sections[kLocalRanks], rank);
  return Status();
}

const pmix_value_t& ValueOf(const ImageInput& in, const HostValue& v) {
  return in.ranks[v.pos].kvs[v.kv]->value;
}

RankFacts FactsOf(const ImageInput::Rank& r) {
  RankFacts f;
  f.rank = r.rank;
  f.node = r.node.value_or(kNone);
  f.local_rank = r.node ? r.local_rank : 0;
  f.appnum = r.appnum.value_or(kNone);
  f.app_rank = r.app_rank.value_or(kNone);
  return f;
}

// Whether `facts` (rank i + 1 of the run) continues `run`; the second rank
// of a run fixes its steps.
bool Continues(RankRun& run, const RankFacts& facts) {
  const uint64_t i = run.count;
  if (facts.rank != run.rank + i || facts.appnum != run.appnum) return false;
  if (run.app_rank == kNone ? facts.app_rank != kNone : facts.app_rank != run.app_rank + i)
    return false;
  uint32_t node_step = run.node_step, local_step = run.local_step;
  if (i == 1) {
    if (run.node != kNone && facts.node != kNone) node_step = facts.node - run.node;
    local_step = facts.local_rank - run.local_rank;
    if (node_step > 1 || local_step > 1) return false;
  }
  if (run.node == kNone ? facts.node != kNone : facts.node != run.node + i * node_step)
    return false;
  if (facts.local_rank != run.local_rank + i * local_step) return false;
  run.node_step = node_step;
  run.local_step = local_step;
  return true;
}

// Whether a and b encode alike (values are stored by their encoding).
Result<bool> Builder::Same(const pmix_value_t& a, const pmix_value_t& b) {
  scratch_.clear();
  PMIX_RETURN_IF_ERROR(EncodeValue(a, codec_, scratch_));
  other_.clear();
  PMIX_RETURN_IF_ERROR(EncodeValue(b, codec_, other_));
  return scratch_ == other_;
}

// A column every rank has is stored without a body when its values are
// all one value, or all the values the ranks' placement derives (the
// per-rank keys a host such as PRRTE sends for every rank).
Result<ColumnKind> Builder::KindOf(const ImageInput& in, uint32_t key, const HostColumn& column) {
  const size_t nranks = in.ranks.size();
  if (column.size() != nranks) return column.size() * 2 >= nranks ? kDense : kSparse;
  Derived derived = DerivedKind({strings_.data() + keys_[key].name.off, keys_[key].name.len});
  bool derives = derived != Derived::kNone;
  bool constant = true;
  const pmix_value_t& first = ValueOf(in, column.front());
  for (const HostValue& hv : column) {
    const pmix_value_t& value = ValueOf(in, hv);
    if (constant && &value != &first) {
      auto same = Same(value, first);
      PMIX_RETURN_IF_ERROR(same.status());
      constant = *same;
    }
    if (derives) {
      RankFacts f = FactsOf(in.ranks[hv.pos]);
      NodeFacts node;
      if (f.node != kNone) {
        const ImageInput::Node& n = in.nodes[f.node];
        if (n.host) node.host = *n.host;
        node.id = n.id;
      }
      pmix_value_t v;
      derives = DeriveBorrowed(f, &node, in.meta.nproc_offset, derived, &v);
      if (derives) {
        auto same = Same(value, v);
        PMIX_RETURN_IF_ERROR(same.status());
        derives = *same;
      }
    }
    if (!derives && !constant) return kDense;
  }
  return derives ? kDerived : kConstant;
}

Status Builder::Ranks(const ImageInput& in, std::string sections[]) {
  // key index -> the host's values, in position order.
  std::map<uint32_t, HostColumn> columns;
  const uint32_t nranks = static_cast<uint32_t>(in.ranks.size());
  RankRun run{};
  for (uint32_t pos = 0; pos < nranks; ++pos) {
    const ImageInput::Rank& r = in.ranks[pos];
    if (pos > 0 && r.rank <= in.ranks[pos - 1].rank) return PMIX_ERR_BAD_PARAM;
    if (r.rank >= PMIX_RANK_VALID) return PMIX_ERR_BAD_PARAM;
    if (r.node && *r.node >= in.nodes.size()) return PMIX_ERR_BAD_PARAM;
    if (r.appnum == kNone || r.app_rank == kNone) return PMIX_ERR_BAD_PARAM;
    RankFacts f = FactsOf(r);
    if (pos == 0 || !Continues(run, f)) {
      if (pos > 0) Put(sections[kRankRuns], run);
      run = RankRun{f.rank, 1, pos, f.node, 0, f.local_rank, 0, f.appnum, f.app_rank};
    } else {
      ++run.count;
    }
    for (uint32_t i = 0; i < r.kvs.size(); ++i) {
      if (r.kvs[i] == nullptr) return PMIX_ERR_BAD_PARAM;
      auto key = Key(r.kvs[i]->key);
      PMIX_RETURN_IF_ERROR(key.status());
      HostColumn& column = columns[*key];
      if (!column.empty() && column.back().pos == pos) {
        column.back().kv = i;  // the later value of a key wins
      } else {
        column.push_back({pos, i});
      }
    }
  }
  if (nranks > 0) Put(sections[kRankRuns], run);
  std::string& out = sections[kColumns];
  Put(out, static_cast<uint32_t>(columns.size()));
  uint32_t data = static_cast<uint32_t>(sizeof(uint32_t) + columns.size() * sizeof(ColumnRec));
  std::string body;
  for (const auto& [key, column] : columns) {
    auto kind = KindOf(in, key, column);
    PMIX_RETURN_IF_ERROR(kind.status());
    uint32_t off = data + static_cast<uint32_t>(body.size());
    uint32_t count = *kind == kSparse ? static_cast<uint32_t>(column.size()) : nranks;
    if (*kind == kConstant) {
      auto value = Value(ValueOf(in, column.front()));
      PMIX_RETURN_IF_ERROR(value.status());
      off = *value;
    }
    if (*kind == kDerived) off = 0;
    Put(out, ColumnRec{key, *kind, off, count});
    ++column_kinds[*kind];
    if (*kind == kDense) {
      MappedVector<uint32_t> slots(nranks, 0);
      for (const HostValue& hv : column) {
        auto value = Value(ValueOf(in, hv));
        PMIX_RETURN_IF_ERROR(value.status());
        slots[hv.pos] = *value + 1;
      }
      body.append(reinterpret_cast<const char*>(slots.data()), slots.size() * sizeof(uint32_t));
    } else if (*kind == kSparse) {
      for (const HostValue& hv : column) {
        auto value = Value(ValueOf(in, hv));
        PMIX_RETURN_IF_ERROR(value.status());
        Put(body, SparseRec{hv.pos, *value});
      }
    }
  }
  out += body;
  return Status();
}

void Builder::KeyTables(std::string sections[]) {
  uint32_t size = TableSize(keys_.size());
  std::vector<uint32_t> slots(size, 0);
  for (uint32_t i = 0; i < keys_.size(); ++i) {
    std::string_view name(strings_.data() + keys_[i].name.off, keys_[i].name.len);
    uint32_t slot = KeyHash(name) & (size - 1);
    while (slots[slot] != 0) slot = (slot + 1) & (size - 1);
    slots[slot] = i + 1;
  }
  for (const KeyRec& rec : keys_) Put(sections[kKeys], rec);
  Put(sections[kKeyTable], size - 1);
  for (uint32_t slot : slots) Put(sections[kKeyTable], slot);
}

Status Builder::Build(const ImageInput& in, std::string sections[kSectionCount], Header& header) {
  auto job = List(in.job);
  PMIX_RETURN_IF_ERROR(job.status());
  header.job_list = *job;
  PMIX_RETURN_IF_ERROR(Keyed(in.sessions, sections[kSessions]));
  PMIX_RETURN_IF_ERROR(Keyed(in.apps, sections[kApps]));
  PMIX_RETURN_IF_ERROR(Nodes(in, sections));
  PMIX_RETURN_IF_ERROR(Ranks(in, sections));
  KeyTables(sections);
  sections[kStrings] = std::move(strings_);
  sections[kValues] = std::move(values_);
  sections[kLists] = std::move(lists_);
  return Status();
}

Status FillHeader(const ImageInput& in, const pmix_bfrops_module_t* codec, Header& h) {
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.byte_order = kByteOrder;
  if (in.nspace.empty() || in.nspace.size() > PMIX_MAX_NSLEN) return PMIX_ERR_BAD_PARAM;
  std::memcpy(h.nspace, in.nspace.data(), in.nspace.size());
  const char* name = codec != nullptr ? codec->codec : "";
  if (std::strlen(name) > kCodecNameMax) return PMIX_ERR_BAD_PARAM;
  std::memcpy(h.codec, name, std::strlen(name));
  const ImageMeta& m = in.meta;
  h.generation = m.generation;
  h.nlocalprocs = m.nlocalprocs;
  auto set = [&h](const auto& opt, uint32_t flag, uint32_t& field) {
    if (opt) {
      h.flags |= flag;
      field = *opt;
    }
  };
  set(m.job_size, kHasJobSize, h.job_size);
  set(m.local_nodeid, kHasLocalNodeId, h.local_nodeid);
  set(m.session_id, kHasSessionId, h.session_id);
  set(m.num_apps, kHasNumApps, h.num_apps);
  set(m.nproc_offset, kHasNprocOffset, h.nproc_offset);
  if (m.nodata) h.flags |= kNoData;
  return Status();
}

}  // namespace

Result<Region> WriteImage(const ImageInput& input, const pmix_bfrops_module_t* codec,
                          const pmix_gds_module_t* medium) {
  try {
    Header header;
    std::memset(&header, 0, sizeof header);
    PMIX_RETURN_IF_ERROR(FillHeader(input, codec, header));
    std::string sections[kSectionCount];
    Builder builder(codec);
    PMIX_RETURN_IF_ERROR(builder.Build(input, sections, header));
    uint64_t size = sizeof header;
    for (uint32_t s = 0; s < kSectionCount; ++s) {
      size = (size + 7) & ~uint64_t{7};
      header.sections[s] = {static_cast<uint32_t>(size), static_cast<uint32_t>(sections[s].size())};
      size += sections[s].size();
      if (size > UINT32_MAX || sections[s].size() > UINT32_MAX) return Status(PMIX_ERR_BAD_PARAM);
    }
    header.size = size;
    const uint32_t* kinds = builder.column_kinds;
    output::Verbose("gds", 5,
                    "image of %s (generation %llu): %llu bytes; %zu ranks in %zu runs; columns: "
                    "%u dense, %u sparse, %u constant, %u derived; values %zu bytes",
                    input.nspace.c_str(), static_cast<unsigned long long>(header.generation),
                    static_cast<unsigned long long>(size), input.ranks.size(),
                    sections[kRankRuns].size() / sizeof(RankRun), kinds[kDense], kinds[kSparse],
                    kinds[kConstant], kinds[kDerived], sections[kValues].size());
    auto region = RegionBuilder::Create(medium, size);
    PMIX_RETURN_IF_ERROR(region.status());
    std::span<uint8_t> bytes = region->bytes();
    std::memcpy(bytes.data(), &header, sizeof header);
    for (uint32_t s = 0; s < kSectionCount; ++s) {
      if (!sections[s].empty())
        std::memcpy(bytes.data() + header.sections[s].offset, sections[s].data(),
                    sections[s].size());
    }
    return std::move(*region).Seal();
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

}  // namespace pmix::gds
