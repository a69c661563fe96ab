// Job-info ingestion: the info array a host passes to
// PMIx_server_register_nspace (standard §17.2.3), validated and laid out as
// one compact job-data image (mca/gds/base/image.h) that answers fetches by
// realm (RFC0009 placement, gds.h) once attached to a gds store.
//
// The server ingests the host's array into its store; a client ingests the
// same array, received during its handshake, into its cache. Both call
// Ingest with the same inputs, so the result depends only on the
// arguments: no environment, clock or host lookup is read here (the
// caller puts the server's node name in Context).
//
// What the image holds (scope PMIX_SCOPE_UNDEF, values copied in):
//   JOB      every plain info of the array and of PMIX_JOB_INFO_ARRAYs,
//            unknown keys included; PMIX_NODE_MAP / PMIX_PROC_MAP as given.
//   SESSION  each PMIX_SESSION_INFO_ARRAY under its PMIX_SESSION_ID.
//   APP      each PMIX_APP_INFO_ARRAY under its PMIX_APPNUM.
//   NODE     each PMIX_NODE_INFO_ARRAY under its PMIX_NODEID and/or
//            PMIX_HOSTNAME (both given: linked).
//   PROC     each PMIX_PROC_DATA (PMIX_PROC_INFO_ARRAY) under its PMIX_RANK
//            (or PMIX_PROCID); the rank key itself is not stored.
// plus the keys derived from the maps and arrays (derive.h lists them;
// per-process keys are derived by the image on demand, image.h), each only
// where the host did not give that key for that instance.
//
// All or nothing: on any error (validation, memory, a value the codec
// cannot pack) the store is unchanged. On success the new image replaces
// the namespace's previous one (its generation + 1): a host's
// re-registration is ingested as the whole accumulated array (an image's
// Registration() gives back what the host gave).
//
// Threads: no shared state; the store's own rule applies (one thread at a
// time per store).
#ifndef PMIXX_SRC_JOBINFO_JOBINFO_H
#define PMIXX_SRC_JOBINFO_JOBINFO_H

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::jobinfo {

// Where the ingestion runs.
struct Context {
  // The server's node: PMIX_HOSTNAME given to PMIx_server_init, else
  // gethostname(). Matched against the job's node names exactly, then
  // against PMIX_HOSTNAME_ALIASES of node arrays, then by the part before
  // the first '.' when exactly one node matches that way.
  std::string local_hostname;
  // Where the image is laid out: a gds module with regions (the server's
  // gds::RegionModule(), e.g. shmem), or nullptr for the private heap.
  const pmix_gds_module_t* medium = nullptr;
};

// What the server or client needs to run the job afterwards.
struct Summary {
  bool nodata = false;                   // PMIX_REGISTER_NODATA: nothing stored
  int nlocalprocs = 0;                   // as passed to register_nspace
  uint32_t job_size = 0;                 // PMIX_JOB_SIZE, else from the maps; 0: unknown
  std::vector<pmix_rank_t> local_ranks;  // ranks on the local node, ascending
  uint32_t num_nodes = 0;                // nodes.size()
  std::vector<std::string> nodes;        // the job's nodes, in node-map order
  std::optional<uint32_t> local_nodeid;  // the local node's PMIX_NODEID, if known
  std::optional<uint32_t> session_id;    // the job's session, if known
  uint32_t num_apps = 0;                 // PMIX_JOB_NUM_APPS as stored; 0: unknown
};

// Validates `info` and stores it (and what derives from it) in `store` for
// namespace `nspace`. nlocalprocs is register_nspace's argument (reported
// in the Summary, not checked against the maps: hosts may register before
// the layout is final).
//
// PMIX_ERR_BAD_PARAM (nothing stored) for: an empty or overlong nspace, a
// negative nlocalprocs, a NULL info array with a nonzero count, an empty or
// unterminated key, a value of unknown type; a registration array that is
// not a PMIX_DATA_ARRAY of PMIX_INFO or is NULL; a session array without a
// uint32 PMIX_SESSION_ID, an app array without PMIX_APPNUM, a node array
// without PMIX_NODEID or PMIX_HOSTNAME, a proc array without a valid rank;
// a job array naming another namespace; node arrays that link one id to
// two hosts (or the reverse); a map that is not a string/regex or does not
// parse, maps of different lengths, a node or rank listed twice; arrays
// nested deeper than kMaxDepth. PMIX_ERR_NOMEM, or the store's status.
inline constexpr int kMaxDepth = 8;

Result<Summary> Ingest(gds::Store& store, std::string_view nspace, int nlocalprocs,
                       std::span<const pmix_info_t> info, const Context& ctx);

// The same for an array given in parts (read in order, as one array):
// the server assembles a registration from several sources this way
// without copying them (src/server/registration_input.h).
using InfoParts = std::span<const std::span<const pmix_info_t>>;
Result<Summary> Ingest(gds::Store& store, std::string_view nspace, int nlocalprocs,
                       InfoParts parts, const Context& ctx);

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_JOBINFO_H
