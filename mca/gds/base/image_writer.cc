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
#include "mca/gds/base/image_format.h"
#include "mca/gds/base/image_values.h"

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
  std::string scratch_;
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

Status Builder::Ranks(const ImageInput& in, std::string sections[]) {
  // key index -> (rank position, value), in position order.
  std::map<uint32_t, std::vector<SparseRec>> columns;
  const uint32_t nranks = static_cast<uint32_t>(in.ranks.size());
  for (uint32_t pos = 0; pos < nranks; ++pos) {
    const ImageInput::Rank& r = in.ranks[pos];
    if (pos > 0 && r.rank <= in.ranks[pos - 1].rank) return PMIX_ERR_BAD_PARAM;
    if (r.node && *r.node >= in.nodes.size()) return PMIX_ERR_BAD_PARAM;
    if (r.appnum == kNone || r.app_rank == kNone) return PMIX_ERR_BAD_PARAM;
    Put(sections[kRanks], RankRec{r.rank, r.node.value_or(kNone), r.local_rank,
                                  r.appnum.value_or(kNone), r.app_rank.value_or(kNone)});
    for (const pmix_info_t* kv : r.kvs) {
      if (kv == nullptr) return PMIX_ERR_BAD_PARAM;
      auto key = Key(kv->key);
      PMIX_RETURN_IF_ERROR(key.status());
      auto value = Value(kv->value);
      PMIX_RETURN_IF_ERROR(value.status());
      std::vector<SparseRec>& column = columns[*key];
      if (!column.empty() && column.back().pos == pos) {
        column.back().value = *value;  // the later value of a key wins
      } else {
        column.push_back({pos, *value});
      }
    }
  }
  std::string& out = sections[kColumns];
  Put(out, static_cast<uint32_t>(columns.size()));
  uint32_t data = static_cast<uint32_t>(sizeof(uint32_t) + columns.size() * sizeof(ColumnRec));
  std::string body;
  for (const auto& [key, column] : columns) {
    bool dense = column.size() * 2 >= nranks;
    Put(out, ColumnRec{key, dense ? 0u : 1u, data + static_cast<uint32_t>(body.size()),
                       dense ? nranks : static_cast<uint32_t>(column.size())});
    if (dense) {
      std::vector<uint32_t> slots(nranks, 0);
      for (const SparseRec& rec : column) slots[rec.pos] = rec.value + 1;
      body.append(reinterpret_cast<const char*>(slots.data()), slots.size() * sizeof(uint32_t));
    } else {
      for (const SparseRec& rec : column) Put(body, rec);
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
    auto region = RegionBuilder::Create(medium, size);
    PMIX_RETURN_IF_ERROR(region.status());
    std::span<uint8_t> bytes = region->bytes();
    std::memcpy(bytes.data(), &header, sizeof header);
    for (uint32_t s = 0; s < kSectionCount; ++s) {
      if (!sections[s].empty())
        std::memcpy(bytes.data() + header.sections[s].offset, sections[s].data(), sections[s].size());
    }
    return std::move(*region).Seal();
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

}  // namespace pmix::gds
