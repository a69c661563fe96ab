// Checked access to an image's sections (image_format.h): Init validates
// the header, the sections' bounds and the small tables (keys, columns,
// the job list); every accessor bounds-checks what it reads, so a corrupt
// image yields nullopt / PMIX_ERR_UNPACK_FAILURE, never a wild read. No
// accessor loops more than the size of the table it searches.
//
// Internal to mca/gds/base (image.cc and image_registration.cc).
#ifndef PMIXX_MCA_GDS_BASE_IMAGE_LAYOUT_H
#define PMIXX_MCA_GDS_BASE_IMAGE_LAYOUT_H

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/image.h"
#include "mca/gds/base/image_derive.h"
#include "mca/gds/base/image_format.h"
#include "pmix/mca/bfrops.h"
#include "src/common/status.h"

namespace pmix::gds::image {

struct Layout {
  Status Init(std::span<const uint8_t> bytes);

  // Header facts.
  std::string nspace;
  std::string codec_name;
  const pmix_bfrops_module_t* codec = nullptr;  // set by the opener
  ImageMeta meta;
  uint32_t job_list = kNone;
  std::span<const uint8_t> values;  // kValues

  // Keys.
  std::optional<uint32_t> FindKey(std::string_view key) const;
  std::optional<std::string_view> KeyName(uint32_t index) const;

  // Lists: PMIX_ERR_UNPACK_FAILURE for a list outside kLists.
  Result<uint32_t> ListCount(uint32_t list) const;
  std::optional<Entry> ListEntry(uint32_t list, uint32_t i) const;
  // The value reference of key (an index) in list, nullopt when absent.
  Result<std::optional<uint32_t>> ListFind(uint32_t list, uint32_t key) const;

  // Sessions / apps (sorted IdRec sections).
  uint32_t NumKeyed(Section s) const { return Count<IdRec>(s); }
  std::optional<IdRec> Keyed(Section s, uint32_t i) const { return Record<IdRec>(s, i); }
  std::optional<uint32_t> FindKeyed(Section s, uint32_t id) const;

  // Nodes.
  uint32_t NumNodes() const { return Count<NodeRec>(kNodes); }
  std::optional<NodeRec> Node(uint32_t i) const { return Record<NodeRec>(kNodes, i); }
  std::optional<std::string_view> NodeHost(uint32_t i) const;
  std::optional<uint32_t> NodeById(uint32_t id) const;
  std::optional<uint32_t> NodeByName(std::string_view host) const;
  uint32_t NumJobNodes() const { return Count<uint32_t>(kJobNodes); }
  std::optional<uint32_t> JobNode(uint32_t i) const { return Record<uint32_t>(kJobNodes, i); }
  uint32_t NumLocalRanks() const { return Count<uint32_t>(kLocalRanks); }
  std::optional<uint32_t> LocalRank(uint32_t i) const { return Record<uint32_t>(kLocalRanks, i); }

  // Ranks (by position: their index in rank order) and their columns.
  uint32_t NumRanks() const { return nranks_; }
  std::optional<RankFacts> Rank(uint32_t pos) const;
  std::optional<uint32_t> RankPosition(pmix_rank_t rank) const;
  uint32_t NumColumns() const { return ncolumns_; }
  std::optional<ColumnRec> Column(uint32_t c) const;
  // The value reference of key (an index) for the rank at pos: nullopt
  // when the rank has no host value, kDerivedRef when the host's value is
  // the one the rank's placement derives.
  static constexpr uint32_t kDerivedRef = kNone;
  Result<std::optional<uint32_t>> ColumnValue(uint32_t key, uint32_t pos) const;
  // The node facts of node index i (nullopt: no such node).
  std::optional<NodeFacts> NodeFactsOf(uint32_t i) const;

  // A string of kStrings (bounds and NUL checked).
  std::optional<std::string_view> Str(const StrRef& ref) const;

 private:
  template <class T>
  std::optional<T> At(std::span<const uint8_t> s, uint64_t off) const {
    if (off > s.size() || s.size() - off < sizeof(T)) return std::nullopt;
    T out;
    std::memcpy(&out, s.data() + off, sizeof(T));
    return out;
  }
  template <class T>
  uint32_t Count(Section s) const {
    return static_cast<uint32_t>(sections_[s].size() / sizeof(T));
  }
  template <class T>
  std::optional<T> Record(Section s, uint32_t i) const {
    return At<T>(sections_[s], uint64_t{i} * sizeof(T));
  }
  std::optional<uint32_t> Probe(Section table, std::string_view name, bool nodes) const;
  Status ValidateRuns();
  Status ValidateColumns();
  std::optional<RankRun> Run(uint32_t i) const { return Record<RankRun>(kRankRuns, i); }
  // The run holding position pos.
  std::optional<RankRun> RunAt(uint32_t pos) const;

  std::span<const uint8_t> sections_[kSectionCount];
  uint32_t nranks_ = 0;
  uint32_t nruns_ = 0;
  uint32_t ncolumns_ = 0;
  // Key index -> its column (kNone: none), so that a rank's key is one
  // read of its column slot.
  std::vector<uint32_t> column_of_key_;
  // Key index -> its value reference in the job realm's list (kNone:
  // absent): job keys, the most asked, without a search.
  std::vector<uint32_t> job_value_of_key_;
  // The ranks are 0 .. n-1 (validated): a rank is its own position.
  bool dense_ranks_ = false;
};

}  // namespace pmix::gds::image

#endif  // PMIXX_MCA_GDS_BASE_IMAGE_LAYOUT_H
