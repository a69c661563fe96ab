// The registration array sorted by realm (parse.h builds it): borrowed
// pointers into the caller's infos plus the few values derivation needs,
// already validated.
#ifndef PMIXX_SRC_JOBINFO_MODEL_H
#define PMIXX_SRC_JOBINFO_MODEL_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmix_common.h"
#include "src/common/mapped_vector.h"
#include "src/jobinfo/info_read.h"

namespace pmix::jobinfo {

struct SessionEntry {
  uint32_t id = 0;
  InfoRefs kvs;  // includes PMIX_SESSION_ID
};

struct AppEntry {
  uint32_t appnum = 0;
  std::optional<pmix_rank_t> leader;  // PMIX_APPLDR, when an integer
  std::optional<uint32_t> size;       // PMIX_APP_SIZE, when an integer
  InfoRefs kvs;                       // includes PMIX_APPNUM
};

struct NodeEntry {
  std::optional<std::string> host;
  std::optional<uint32_t> id;
  std::vector<std::string> aliases;  // PMIX_HOSTNAME_ALIASES
  InfoRefs kvs;                      // includes the identifying keys
};

struct ProcEntry {
  pmix_rank_t rank = 0;
  std::optional<uint32_t> appnum;   // PMIX_APPNUM, when an integer
  std::optional<std::string> host;  // PMIX_HOSTNAME, when a string
  std::optional<uint32_t> nodeid;   // PMIX_NODEID, when an integer
  InfoRefs kvs;                     // without PMIX_RANK / PMIX_PROCID
};

struct Model {
  bool nodata = false;                 // PMIX_REGISTER_NODATA was true
  InfoRefs job;                        // job realm, in order (a later key wins)
  std::vector<SessionEntry> sessions;  // in order
  std::vector<AppEntry> apps;
  std::vector<NodeEntry> nodes;
  MappedVector<ProcEntry> procs;
  std::optional<uint32_t> session_id;        // PMIX_SESSION_ID at job level
  std::optional<uint32_t> job_size;          // PMIX_JOB_SIZE
  std::optional<uint32_t> local_nodeid;      // PMIX_NODEID at job level
  std::optional<pmix_rank_t> offset;         // PMIX_NPROC_OFFSET
  std::optional<uint32_t> num_apps;          // PMIX_JOB_NUM_APPS
  std::optional<std::string> local_peers;    // PMIX_LOCAL_PEERS at job level
  std::optional<std::string_view> node_map;  // text of PMIX_NODE_MAP
  std::optional<std::string_view> proc_map;  // text of PMIX_PROC_MAP
};

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_MODEL_H
