// A job-data image: everything a host registered for one namespace
// (PMIx_server_register_nspace, standard §17.2.3) laid out once, compactly,
// in one read-only, position-independent region (region.h), and read in
// place. The server builds it (src/jobinfo builds an ImageInput, WriteImage
// lays it out) in the region medium of its gds module -- with "shmem" a
// sealed memfd every local client maps -- or on the heap, and sends it to
// clients either as a descriptor or inline; a client opens it here and
// answers Gets from it on the caller's thread.
//
// What an image answers, per realm instance (gds.h placement):
//   JOB, APP, NODE, SESSION  the instance's key/values as ingestion made
//                            them (host values and derived keys);
//   PROC                     the host's PMIX_PROC_DATA values of the rank,
//                            then these keys derived on demand from the
//                            rank table when the host did not give them:
//                            PMIX_HOSTNAME string and PMIX_NODEID u32 (its
//                            node), PMIX_LOCAL_RANK u16 and PMIX_NODE_RANK
//                            u16 (position among the node's ranks, when
//                            <= 65535), PMIX_APPNUM u32 and PMIX_APP_RANK
//                            rank (its app), PMIX_GLOBAL_RANK rank
//                            (PMIX_NPROC_OFFSET + rank, when the offset is
//                            known and the sum is a valid rank).
// No per-rank records are expanded: a rank's keys are found through
// per-key columns indexed by rank position.
//
// Every image value has scope PMIX_SCOPE_UNDEF: visible in every view.
//
// Validation: Open checks the header, every section's bounds and the
// tables' internal references; every later read is bounds-checked too, so
// a corrupted or truncated image gives PMIX_ERR_BAD_PARAM (Open) or
// PMIX_ERR_UNPACK_FAILURE (a read), never a crash or an endless loop.
//
// Threads: an Image is immutable; any thread may call any const member.
#ifndef PMIXX_MCA_GDS_BASE_IMAGE_H
#define PMIXX_MCA_GDS_BASE_IMAGE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "mca/gds/base/region.h"
#include "pmix/mca/bfrops.h"
#include "src/common/mapped_vector.h"
#include "src/common/status.h"

namespace pmix::gds {

// What ingestion knows about the job as a whole (kept in the image header).
struct ImageMeta {
  uint64_t generation = 0;                  // 1 for a first registration, +1 per update
  bool nodata = false;                      // PMIX_REGISTER_NODATA
  int32_t nlocalprocs = 0;                  // register_nspace's argument
  std::optional<uint32_t> job_size;         // PMIX_JOB_SIZE, else from the maps
  std::optional<uint32_t> local_nodeid;     // the local node's PMIX_NODEID
  std::optional<uint32_t> session_id;       // the job's session
  std::optional<uint32_t> num_apps;         // PMIX_JOB_NUM_APPS as stored
  std::optional<pmix_rank_t> nproc_offset;  // PMIX_NPROC_OFFSET
};

// The input of WriteImage: borrowed pointers, valid for the call.
struct ImageKv {
  std::string_view key;  // NUL-terminated at key.size()
  const pmix_value_t* value = nullptr;
  bool host = true;  // given by the host here (false: derived or copied from another level)
};
using ImageKvs = std::vector<ImageKv>;

struct ImageInput {
  std::string nspace;
  ImageMeta meta;
  ImageKvs job;
  struct Keyed {
    uint32_t id = 0;  // session id / appnum
    ImageKvs kvs;
  };
  std::vector<Keyed> sessions;  // any order, ids unique
  std::vector<Keyed> apps;      // any order, appnums unique
  struct Node {
    std::optional<std::string> host;
    std::optional<uint32_t> id;
    ImageKvs kvs;
  };
  std::vector<Node> nodes;               // names unique, ids unique
  std::vector<uint32_t> job_nodes;       // indexes into nodes hosting the job, map order
  std::vector<pmix_rank_t> local_ranks;  // ranks on the local node, ascending
  struct Rank {
    pmix_rank_t rank = 0;
    std::optional<uint32_t> node;  // index into nodes
    uint32_t local_rank = 0;       // meaningful with node
    std::optional<uint32_t> appnum;
    std::optional<pmix_rank_t> app_rank;
    std::vector<const pmix_info_t*> kvs;  // the host's proc-data values (no PMIX_RANK)
  };
  MappedVector<Rank> ranks;  // ascending rank, unique
};

// Lays input out in a new region of `medium` (nullptr: heap), sealed.
// codec packs values of types the image does not store natively.
// PMIX_ERR_BAD_PARAM for inconsistent input (duplicate ids/names, a node
// index out of range, unsorted ranks, a value the codec cannot pack) or an
// image over 4 GiB; PMIX_ERR_NOMEM; the medium's status.
Result<Region> WriteImage(const ImageInput& input, const pmix_bfrops_module_t* codec,
                          const pmix_gds_module_t* medium);

class Image {
 public:
  // Validates region as an image (see the file comment). The codec named
  // in the image must be available (PMIX_ERR_NOT_SUPPORTED otherwise).
  static Result<std::shared_ptr<const Image>> Open(Region region);

  const Region& region() const { return region_; }
  std::string_view nspace() const { return nspace_; }
  const ImageMeta& meta() const { return meta_; }
  // The nodes hosting the job (node-map order) and the local node's ranks.
  std::vector<std::string> JobNodes() const;
  std::vector<pmix_rank_t> LocalRanks() const;

  // gds.h fetch() semantics over this image alone (proc->nspace must be
  // the image's; PMIX_ERR_NOT_FOUND otherwise): key empty = every key of
  // the instance; a single key is one lookup (rank PMIX_RANK_UNDEF: the
  // first rank holding it, in rank order). Qualifiers as in Where.
  Result<InfoArray> Fetch(const pmix_proc_t& proc, const Where& where, std::string_view key) const;
  Result<ValuePtr> FetchValue(const pmix_proc_t& proc, const Where& where,
                              std::string_view key) const;
  // Whether the image has a session array or the job's session with that id.
  bool HasSession(uint32_t id) const;
  // gds.h instances() semantics (PROC lists every rank of the rank table).
  Result<InfoArray> Instances(pmix_gds_realm_t realm) const;

  // What the host gave (only host values, as arrays by realm: job infos,
  // PMIX_SESSION_INFO_ARRAY, PMIX_APP_INFO_ARRAY, PMIX_NODE_INFO_ARRAY,
  // PMIX_PROC_DATA with PMIX_RANK), e.g. to register it again with
  // additions. Equivalent to the original registration for ingestion.
  Result<InfoArray> Registration() const;

  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  ~Image();

  struct Layout;  // image.cc: validated section views

 private:
  Image(Region region, std::unique_ptr<Layout> layout);
  bool OwnNspace(const pmix_proc_t& proc) const;

  Region region_;
  std::unique_ptr<Layout> layout_;
  std::string nspace_;
  ImageMeta meta_;
};

}  // namespace pmix::gds

#endif  // PMIXX_MCA_GDS_BASE_IMAGE_H
