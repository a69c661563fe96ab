// Image: opening (validation) and lookups. Every read of the region goes
// through Layout's checked accessors; a reference that leaves its section
// makes the lookup fail with PMIX_ERR_UNPACK_FAILURE.
#include "mca/gds/base/image.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/image_derive.h"
#include "mca/gds/base/image_format.h"
#include "mca/gds/base/image_layout.h"
#include "mca/gds/base/image_values.h"

namespace pmix::gds {
namespace {

using namespace image;  // NOLINT: the format's record names

constexpr Status kCorrupt = Status(PMIX_ERR_UNPACK_FAILURE);

ValuePtr NewValue() {
  ValuePtr v(PMIx_Value_create(1));
  if (v == nullptr) throw std::bad_alloc();
  return v;
}

// Collects key/value pairs into an owned info array.
class InfoBuilder {
 public:
  ~InfoBuilder() {
    for (auto& [key, value] : items_) PMIx_Value_destruct(&value);
  }
  void Add(std::string_view key, pmix_value_t& value) {  // takes value's contents
    items_.emplace_back(std::string(key), value);
    std::memset(&value, 0, sizeof value);
  }
  bool Has(std::string_view key) const {
    for (const auto& item : items_) {
      if (item.first == key) return true;
    }
    return false;
  }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  InfoArray Take() {
    if (items_.empty()) return InfoArray();
    pmix_info_t* infos = PMIx_Info_create(items_.size());
    if (infos == nullptr) throw std::bad_alloc();
    for (size_t i = 0; i < items_.size(); ++i) {
      PMIX_LOAD_KEY(infos[i].key, items_[i].first.c_str());
      infos[i].value = items_[i].second;  // moves the contents
    }
    InfoArray out(infos, items_.size());
    items_.clear();
    return out;
  }

 private:
  std::vector<std::pair<std::string, pmix_value_t>> items_;
};

}  // namespace

struct Image::Layout : image::Layout {};

Image::Image(Region region, std::unique_ptr<Layout> layout)
    : region_(std::move(region)), layout_(std::move(layout)) {}

Image::~Image() = default;

Result<std::shared_ptr<const Image>> Image::Open(Region region) {
  try {
    auto layout = std::make_unique<Layout>();
    PMIX_RETURN_IF_ERROR(layout->Init(region.bytes()));
    auto codec = bfrops::CodecByName(layout->codec_name);
    if (!codec.ok()) return Status(PMIX_ERR_NOT_SUPPORTED);
    layout->codec = *codec;
    std::shared_ptr<Image> image(new Image(std::move(region), std::move(layout)));
    image->nspace_ = image->layout_->nspace;
    image->meta_ = image->layout_->meta;
    return std::shared_ptr<const Image>(std::move(image));
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

std::vector<std::string> Image::JobNodes() const {
  std::vector<std::string> out;
  for (uint32_t i = 0; i < layout_->NumJobNodes(); ++i) {
    auto node = layout_->JobNode(i);
    if (!node) continue;
    auto host = layout_->NodeHost(*node);
    if (host) out.emplace_back(*host);
  }
  return out;
}

std::vector<pmix_rank_t> Image::LocalRanks() const {
  std::vector<pmix_rank_t> out;
  for (uint32_t i = 0; i < layout_->NumLocalRanks(); ++i) {
    auto rank = layout_->LocalRank(i);
    if (rank) out.push_back(*rank);
  }
  return out;
}

bool Image::HasSession(uint32_t id) const {
  if (layout_->FindKeyed(kSessions, id)) return true;
  return false;
}

// --- lookups ------------------------------------------------------------------

namespace {

// One realm instance of an image, resolved.
struct Instance {
  enum Kind { kList, kRank } kind = kList;
  uint32_t list = kNone;  // kList
  uint32_t pos = 0;       // kRank: rank position
};

}  // namespace

// Derives `kind` for the rank at pos into *out (owned); false when it has none.
static bool DeriveRankKey(const image::Layout& l, uint32_t pos, Derived kind, pmix_value_t* out) {
  auto rank = l.Rank(pos);
  if (!rank) return false;
  std::optional<NodeFacts> node;
  if (rank->node != kNone) node = l.NodeFactsOf(rank->node);
  if (!DeriveBorrowed(*rank, node ? &*node : nullptr, l.meta.nproc_offset, kind, out)) return false;
  if (out->type == PMIX_STRING) {
    out->data.string = strndup(node->host->data(), node->host->size());
    if (out->data.string == nullptr) throw std::bad_alloc();
  }
  return true;
}

// The value of key for the rank at pos (host column, else derived):
// PMIX_ERR_NOT_FOUND when it has none.
static Status RankValue(const image::Layout& l, uint32_t pos, std::string_view key,
                        std::optional<uint32_t> key_index, pmix_value_t* out) {
  if (key_index) {
    auto ref = l.ColumnValue(*key_index, pos);
    if (!ref.ok()) return ref.status();
    if (*ref && **ref != l.kDerivedRef) return DecodeValue(l.values, **ref, l.codec, out);
  }
  Derived kind = DerivedKind(key);
  if (kind != Derived::kNone && DeriveRankKey(l, pos, kind, out)) return Status();
  return PMIX_ERR_NOT_FOUND;
}

// Resolves the realm instance a fetch names.
static Result<Instance> Resolve(const image::Layout& l, const pmix_proc_t& proc,
                                const Where& where) {
  Instance inst;
  pmix_gds_realm_t realm = where.realm;
  if (realm == PMIX_GDS_REALM_PROC && proc.rank == PMIX_RANK_WILDCARD) realm = PMIX_GDS_REALM_JOB;
  switch (realm) {
    case PMIX_GDS_REALM_JOB:
      inst.list = l.job_list;
      return inst;
    case PMIX_GDS_REALM_PROC: {
      if (proc.rank >= PMIX_RANK_VALID) return Status(PMIX_ERR_BAD_PARAM);
      auto pos = l.RankPosition(proc.rank);
      if (!pos) return Status(PMIX_ERR_NOT_FOUND);
      inst.kind = Instance::kRank;
      inst.pos = *pos;
      return inst;
    }
    case PMIX_GDS_REALM_APP: {
      std::optional<uint32_t> appnum = where.appnum;
      if (!appnum) {
        if (proc.rank >= PMIX_RANK_VALID) return Status(PMIX_ERR_BAD_PARAM);
        auto pos = l.RankPosition(proc.rank);
        if (!pos) return Status(PMIX_ERR_NOT_FOUND);
        pmix_value_t v;
        Status found = RankValue(l, *pos, PMIX_APPNUM, l.FindKey(PMIX_APPNUM), &v);
        if (!found.ok()) return found;
        if (v.type == PMIX_UINT32) appnum = v.data.uint32;
        PMIx_Value_destruct(&v);
        if (!appnum) return Status(PMIX_ERR_NOT_FOUND);
      }
      auto list = l.FindKeyed(kApps, *appnum);
      if (!list) return Status(PMIX_ERR_NOT_FOUND);
      inst.list = *list;
      return inst;
    }
    case PMIX_GDS_REALM_NODE: {
      if (!where.nodeid && !where.hostname) return Status(PMIX_ERR_BAD_PARAM);
      std::optional<uint32_t> node;
      if (where.nodeid) node = l.NodeById(*where.nodeid);
      if (!node && where.hostname) node = l.NodeByName(*where.hostname);
      if (!node) return Status(PMIX_ERR_NOT_FOUND);
      auto rec = l.Node(*node);
      if (!rec || rec->list == kNone) return Status(PMIX_ERR_NOT_FOUND);
      inst.list = rec->list;
      return inst;
    }
    case PMIX_GDS_REALM_SESSION: {
      std::optional<uint32_t> id = where.session;
      if (!id) {
        auto key = l.FindKey(PMIX_SESSION_ID);
        auto ref =
            key ? l.ListFind(l.job_list, *key) : Result<std::optional<uint32_t>>(std::nullopt);
        if (!ref.ok()) return ref.status();
        if (*ref) {
          pmix_value_t v;
          PMIX_RETURN_IF_ERROR(DecodeValue(l.values, **ref, l.codec, &v));
          if (v.type == PMIX_UINT32) id = v.data.uint32;
          PMIx_Value_destruct(&v);
        }
        if (!id) return Status(PMIX_ERR_NOT_FOUND);
      }
      auto list = l.FindKeyed(kSessions, *id);
      if (!list) return Status(PMIX_ERR_NOT_FOUND);
      inst.list = *list;
      return inst;
    }
    default:
      return Status(PMIX_ERR_BAD_PARAM);
  }
}

// Every key of the rank at pos: its host columns, then the derived keys it lacks.
static Status RankHost(const image::Layout& l, uint32_t pos, InfoBuilder& out);

static Status RankAll(const image::Layout& l, uint32_t pos, InfoBuilder& out) {
  PMIX_RETURN_IF_ERROR(RankHost(l, pos, out));
  for (const auto& [name, kind] : kDerivedKeys) {
    if (out.Has(name)) continue;
    pmix_value_t v;
    if (DeriveRankKey(l, pos, kind, &v)) out.Add(name, v);
  }
  return Status();
}

// The rank's host columns only.
static Status RankHost(const image::Layout& l, uint32_t pos, InfoBuilder& out) {
  for (uint32_t c = 0; c < l.NumColumns(); ++c) {
    auto column = l.Column(c);
    if (!column) return kCorrupt;
    auto ref = l.ColumnValue(column->key, pos);
    if (!ref.ok()) return ref.status();
    if (!*ref) continue;
    auto name = l.KeyName(column->key);
    if (!name) return kCorrupt;
    pmix_value_t v;
    if (**ref == l.kDerivedRef) {
      // The host gave the value its placement derives.
      if (!DeriveRankKey(l, pos, DerivedKind(*name), &v)) return kCorrupt;
    } else {
      PMIX_RETURN_IF_ERROR(DecodeValue(l.values, **ref, l.codec, &v));
    }
    out.Add(*name, v);
  }
  return Status();
}

static Status ListAll(const image::Layout& l, uint32_t list, bool host_only, InfoBuilder& out) {
  auto count = l.ListCount(list);
  if (!count.ok()) return count.status();
  for (uint32_t i = 0; i < *count; ++i) {
    auto entry = l.ListEntry(list, i);
    if (!entry) return kCorrupt;
    if (host_only && (entry->key & kNotHost) != 0) continue;
    auto name = l.KeyName(entry->key & ~kNotHost);
    if (!name) return kCorrupt;
    pmix_value_t v;
    PMIX_RETURN_IF_ERROR(DecodeValue(l.values, entry->value, l.codec, &v));
    out.Add(*name, v);
  }
  return Status();
}

bool Image::OwnNspace(const pmix_proc_t& proc) const {
  // nspace_ is at most PMIX_MAX_NSLEN long (Layout::Init): no need to
  // measure proc's first.
  return std::memcmp(proc.nspace, nspace_.data(), nspace_.size()) == 0 &&
         proc.nspace[nspace_.size()] == '\0';
}

Result<ValuePtr> Image::FetchValue(const pmix_proc_t& proc, const Where& where,
                                   std::string_view key) const {
  if (key.empty() || key.size() > PMIX_MAX_KEYLEN) return Status(PMIX_ERR_BAD_PARAM);
  if (!OwnNspace(proc) && where.realm != PMIX_GDS_REALM_SESSION) return Status(PMIX_ERR_NOT_FOUND);
  try {
    const image::Layout& l = *layout_;
    std::optional<uint32_t> key_index = l.FindKey(key);
    ValuePtr value = NewValue();
    if (where.realm == PMIX_GDS_REALM_PROC && proc.rank == PMIX_RANK_UNDEF) {
      for (uint32_t pos = 0; pos < l.NumRanks(); ++pos) {
        Status found = RankValue(l, pos, key, key_index, value.get());
        if (found.ok()) return value;
        if (found.code() != PMIX_ERR_NOT_FOUND) return found;
      }
      return Status(PMIX_ERR_NOT_FOUND);
    }
    auto inst = Resolve(l, proc, where);
    if (!inst.ok()) return inst.status();
    if (inst->kind == Instance::kRank) {
      PMIX_RETURN_IF_ERROR(RankValue(l, inst->pos, key, key_index, value.get()));
      return value;
    }
    if (!key_index) return Status(PMIX_ERR_NOT_FOUND);
    auto ref = l.ListFind(inst->list, *key_index);
    if (!ref.ok()) return ref.status();
    if (!*ref) return Status(PMIX_ERR_NOT_FOUND);
    PMIX_RETURN_IF_ERROR(DecodeValue(l.values, **ref, l.codec, value.get()));
    return value;
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

Result<InfoArray> Image::Fetch(const pmix_proc_t& proc, const Where& where,
                               std::string_view key) const {
  try {
    if (!key.empty()) {
      auto value = FetchValue(proc, where, key);
      if (!value.ok()) return value.status();
      InfoBuilder one;
      one.Add(key, **value);
      return one.Take();
    }
    if (!OwnNspace(proc) && where.realm != PMIX_GDS_REALM_SESSION)
      return Status(PMIX_ERR_NOT_FOUND);
    if (where.realm == PMIX_GDS_REALM_PROC && proc.rank == PMIX_RANK_UNDEF)
      return Status(PMIX_ERR_BAD_PARAM);
    auto inst = Resolve(*layout_, proc, where);
    if (!inst.ok()) return inst.status();
    InfoBuilder all;
    if (inst->kind == Instance::kRank) {
      PMIX_RETURN_IF_ERROR(RankAll(*layout_, inst->pos, all));
    } else {
      PMIX_RETURN_IF_ERROR(ListAll(*layout_, inst->list, false, all));
    }
    if (all.empty()) return Status(PMIX_ERR_NOT_FOUND);
    return all.Take();
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

Result<InfoArray> Image::Instances(pmix_gds_realm_t realm) const {
  try {
    const image::Layout& l = *layout_;
    InfoBuilder out;
    pmix_value_t v;
    std::memset(&v, 0, sizeof v);
    switch (realm) {
      case PMIX_GDS_REALM_PROC:
        for (uint32_t pos = 0; pos < l.NumRanks(); ++pos) {
          auto rec = l.Rank(pos);
          if (!rec) return Status(kCorrupt);
          v.type = PMIX_PROC_RANK;
          v.data.rank = rec->rank;
          out.Add(PMIX_RANK, v);
        }
        break;
      case PMIX_GDS_REALM_APP:
      case PMIX_GDS_REALM_SESSION: {
        Section s = realm == PMIX_GDS_REALM_APP ? kApps : kSessions;
        for (uint32_t i = 0; i < l.NumKeyed(s); ++i) {
          auto rec = l.Keyed(s, i);
          if (!rec) return Status(kCorrupt);
          v.type = PMIX_UINT32;
          v.data.uint32 = rec->id;
          out.Add(realm == PMIX_GDS_REALM_APP ? PMIX_APPNUM : PMIX_SESSION_ID, v);
        }
        break;
      }
      case PMIX_GDS_REALM_NODE:
        for (uint32_t i = 0; i < l.NumNodes(); ++i) {
          auto rec = l.Node(i);
          if (!rec) return Status(kCorrupt);
          if (rec->list == kNone) continue;
          if (rec->has_id) {
            v.type = PMIX_UINT32;
            v.data.uint32 = rec->id;
            out.Add(PMIX_NODEID, v);
          } else if (auto host = l.NodeHost(i)) {
            v.type = PMIX_STRING;
            v.data.string = strndup(host->data(), host->size());
            if (v.data.string == nullptr) throw std::bad_alloc();
            out.Add(PMIX_HOSTNAME, v);
          }
        }
        break;
      default:
        return Status(PMIX_ERR_BAD_PARAM);
    }
    if (out.empty()) return Status(PMIX_ERR_NOT_FOUND);
    return out.Take();
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

// --- the host's registration ---------------------------------------------------

namespace {

// An info `key` holding `items` as a PMIX_DATA_ARRAY of PMIX_INFO.
void AddArray(InfoBuilder& out, const char* key, InfoBuilder& items) {
  InfoArray infos = items.Take();
  auto* array = static_cast<pmix_data_array_t*>(std::calloc(1, sizeof(pmix_data_array_t)));
  if (array == nullptr) throw std::bad_alloc();
  array->type = PMIX_INFO;
  array->size = infos.size();
  array->array = infos.release();
  pmix_value_t v;
  std::memset(&v, 0, sizeof v);
  v.type = PMIX_DATA_ARRAY;
  v.data.darray = array;
  out.Add(key, v);
}

Status AddLists(const image::Layout& l, Section s, const char* key, InfoBuilder& out) {
  for (uint32_t i = 0; i < l.NumKeyed(s); ++i) {
    auto rec = l.Keyed(s, i);
    if (!rec) return kCorrupt;
    InfoBuilder items;
    PMIX_RETURN_IF_ERROR(ListAll(l, rec->ref, true, items));
    if (!items.empty()) AddArray(out, key, items);
  }
  return Status();
}

}  // namespace

Result<InfoArray> Image::Registration() const {
  try {
    const image::Layout& l = *layout_;
    InfoBuilder out;
    PMIX_RETURN_IF_ERROR(ListAll(l, l.job_list, true, out));
    PMIX_RETURN_IF_ERROR(AddLists(l, kSessions, PMIX_SESSION_INFO_ARRAY, out));
    PMIX_RETURN_IF_ERROR(AddLists(l, kApps, PMIX_APP_INFO_ARRAY, out));
    for (uint32_t i = 0; i < l.NumNodes(); ++i) {
      auto rec = l.Node(i);
      if (!rec) return Status(kCorrupt);
      if (rec->list == kNone) continue;
      InfoBuilder items;
      PMIX_RETURN_IF_ERROR(ListAll(l, rec->list, true, items));
      if (!items.empty()) AddArray(out, PMIX_NODE_INFO_ARRAY, items);
    }
    for (uint32_t pos = 0; pos < l.NumRanks(); ++pos) {
      auto rec = l.Rank(pos);
      if (!rec) return Status(kCorrupt);
      InfoBuilder items;
      pmix_value_t rank;
      std::memset(&rank, 0, sizeof rank);
      rank.type = PMIX_PROC_RANK;
      rank.data.rank = rec->rank;
      items.Add(PMIX_RANK, rank);
      PMIX_RETURN_IF_ERROR(RankHost(l, pos, items));
      if (items.size() > 1) AddArray(out, PMIX_PROC_DATA, items);
    }
    if (meta_.nodata) {
      pmix_value_t flag;
      std::memset(&flag, 0, sizeof flag);
      flag.type = PMIX_BOOL;
      flag.data.flag = true;
      out.Add(PMIX_REGISTER_NODATA, flag);
    }
    return out.Take();
  } catch (const std::bad_alloc&) {
    return Status(PMIX_ERR_NOMEM);
  }
}

}  // namespace pmix::gds
