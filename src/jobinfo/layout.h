// Where the job's processes are: nodes (with ids), ranks (with their node,
// local rank, app) and apps, worked out from a Model before anything is
// stored. Pure: depends only on its arguments.
//
// Sources, strongest first:
//   node ids   node arrays (host + id), PMIX_PROC_DATA host/id pairs when
//              they are consistent (Slurm sends every proc the local
//              node's id: then they are ignored), the job-level
//              PMIX_NODEID for the local node, the node's index in the
//              node map (when no other node holds that id);
//   placement  PMIX_NODE_MAP + PMIX_PROC_MAP, else the PMIX_HOSTNAME of
//              each PMIX_PROC_DATA;
//   app of a   its PMIX_PROC_DATA PMIX_APPNUM, else the only app, else the
//   rank       app whose [PMIX_APPLDR, +PMIX_APP_SIZE) holds it.
#ifndef PMIXX_SRC_JOBINFO_LAYOUT_H
#define PMIXX_SRC_JOBINFO_LAYOUT_H

#include <cstdint>
#include <optional>
#include <vector>

#include "pmix_common.h"
#include "src/common/mapped_vector.h"
#include "src/common/status.h"
#include "src/jobinfo/jobinfo.h"
#include "src/jobinfo/model.h"
#include "src/jobinfo/node_table.h"

namespace pmix::jobinfo {

inline constexpr size_t kNoNode = SIZE_MAX;

struct RankInfo {
  pmix_rank_t rank = 0;
  size_t node = kNoNode;    // index into Layout::table.nodes()
  uint32_t local_rank = 0;  // position among the node's ranks
  std::optional<uint32_t> appnum;
  std::optional<pmix_rank_t> app_rank;  // position among the app's ranks
  size_t data_begin = 0, data_end = 0;  // its arrays: Layout::proc_data[begin, end)
};

struct AppInfo {
  uint32_t appnum = 0;
  InfoRefs kvs;                       // its app arrays' contents, in order
  std::optional<uint32_t> size;       // derived (every rank's app known)
  std::optional<pmix_rank_t> leader;  // derived
  std::optional<uint32_t> num_nodes;  // derived (and every rank placed)
};

struct Layout {
  NodeTable table;
  std::vector<size_t> job_nodes;             // nodes hosting the job, map order
  std::optional<size_t> local;               // the local node, if it has a name
  MappedVector<RankInfo> ranks;              // ascending, unique
  MappedVector<const ProcEntry*> proc_data;  // by rank, then input order
  std::vector<AppInfo> apps;                 // ascending appnum
  std::optional<uint32_t> job_size;          // given, else the number of ranks
  std::optional<uint32_t> num_apps;          // given, else the number of apps
};

// PMIX_ERR_BAD_PARAM for maps that do not parse or disagree in length, a
// node or rank listed twice, conflicting node arrays; a preg error as is.
Result<Layout> BuildLayout(const Model& model, const Context& ctx);

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_LAYOUT_H
