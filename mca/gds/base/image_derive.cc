#include "mca/gds/base/image_derive.h"

#include <cstring>
#include <limits>

namespace pmix::gds::image {

bool DeriveBorrowed(const RankFacts& rank, const NodeFacts* node,
                    std::optional<uint32_t> nproc_offset, Derived kind, pmix_value_t* out) {
  std::memset(out, 0, sizeof *out);
  bool placed = rank.node != kNone && node != nullptr;
  switch (kind) {
    case Derived::kHostname:
      if (!placed || !node->host) return false;
      out->type = PMIX_STRING;
      out->data.string = const_cast<char*>(node->host->data());
      return true;
    case Derived::kNodeId:
      if (!placed || !node->id) return false;
      out->type = PMIX_UINT32;
      out->data.uint32 = *node->id;
      return true;
    case Derived::kLocalRank:
    case Derived::kNodeRank:
      if (rank.node == kNone || rank.local_rank > std::numeric_limits<uint16_t>::max())
        return false;
      out->type = PMIX_UINT16;
      out->data.uint16 = static_cast<uint16_t>(rank.local_rank);
      return true;
    case Derived::kAppNum:
      if (rank.appnum == kNone) return false;
      out->type = PMIX_UINT32;
      out->data.uint32 = rank.appnum;
      return true;
    case Derived::kAppRank:
      if (rank.app_rank == kNone) return false;
      out->type = PMIX_PROC_RANK;
      out->data.rank = rank.app_rank;
      return true;
    case Derived::kGlobalRank:
      // Offset and rank both below PMIX_RANK_VALID, and their sum too (an
      // offset past it, from a host or corrupted bytes, derives nothing).
      if (!nproc_offset || *nproc_offset >= PMIX_RANK_VALID ||
          PMIX_RANK_VALID - *nproc_offset <= rank.rank)
        return false;
      out->type = PMIX_PROC_RANK;
      out->data.rank = *nproc_offset + rank.rank;
      return true;
    default:
      return false;
  }
}

}  // namespace pmix::gds::image
