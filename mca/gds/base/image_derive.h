// The per-rank keys an image derives from its placement (image_format.h's
// rank runs and node records) instead of storing them: one definition for
// the writer, which leaves out a host column that only repeats them, and
// the reader, which answers them.
#ifndef PMIXX_MCA_GDS_BASE_IMAGE_DERIVE_H
#define PMIXX_MCA_GDS_BASE_IMAGE_DERIVE_H

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "mca/gds/base/image_format.h"
#include "pmix_common.h"

namespace pmix::gds::image {

enum class Derived {
  kNone,
  kHostname,
  kNodeId,
  kLocalRank,
  kNodeRank,
  kAppNum,
  kAppRank,
  kGlobalRank
};

inline constexpr std::pair<std::string_view, Derived> kDerivedKeys[] = {
    {PMIX_HOSTNAME, Derived::kHostname},      {PMIX_NODEID, Derived::kNodeId},
    {PMIX_LOCAL_RANK, Derived::kLocalRank},   {PMIX_NODE_RANK, Derived::kNodeRank},
    {PMIX_APPNUM, Derived::kAppNum},          {PMIX_APP_RANK, Derived::kAppRank},
    {PMIX_GLOBAL_RANK, Derived::kGlobalRank},
};

inline Derived DerivedKind(std::string_view key) {
  for (const auto& [name, kind] : kDerivedKeys) {
    if (key == name) return kind;
  }
  return Derived::kNone;
}

// One rank's placement, as its run describes it.
struct RankFacts {
  pmix_rank_t rank = 0;
  uint32_t node = kNone;    // node index, kNone: not placed
  uint32_t local_rank = 0;  // meaningful when placed
  uint32_t appnum = kNone;
  uint32_t app_rank = kNone;
};

// The rank's node, when placed.
struct NodeFacts {
  std::optional<std::string_view> host;  // NUL-terminated at host->size()
  std::optional<uint32_t> id;
};

// Fills *out (zeroed first) with `kind`'s value for the rank; false when
// it has none. A string is borrowed from node->host: copy it before the
// value leaves the caller.
bool DeriveBorrowed(const RankFacts& rank, const NodeFacts* node,
                    std::optional<uint32_t> nproc_offset, Derived kind, pmix_value_t* out);

}  // namespace pmix::gds::image

#endif  // PMIXX_MCA_GDS_BASE_IMAGE_DERIVE_H
