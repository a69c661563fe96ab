// What each realm instance holds: the host's values for it, job-level host
// values that describe it, then derived keys for whatever is still absent.
//
// Derived keys (types as OpenPMIx 4.2 stores them):
//   JOB      PMIX_JOB_SIZE u32, PMIX_MAX_PROCS u32 (the job size, as
//            OpenPMIx 4.2.2 derives it), PMIX_UNIV_SIZE u32 only from the
//            job's session (never the job size: the universe is the
//            session's allocation, which only the host knows; OpenPMIx
//            4.2.2 does not derive it either),
//            PMIX_NUM_NODES u32, PMIX_NODE_LIST string ("a,b"),
//            PMIX_LOCAL_PEERS string ("0,1"), PMIX_LOCAL_SIZE u32,
//            PMIX_LOCALLDR rank (the local node's ranks), PMIX_NSPACE
//            string, PMIX_JOBID string (the nspace), PMIX_JOB_NUM_APPS u32,
//            PMIX_SESSION_ID u32 (the job's session).
//   PROC     PMIX_HOSTNAME string, PMIX_NODEID u32, PMIX_LOCAL_RANK u16,
//            PMIX_NODE_RANK u16 (the rank among every job's processes on
//            the node: on the local node, the local rank plus the value of
//            kNodeRankOffsetKey, which the server adds to a namespace's
//            registration: the local processes of the namespaces
//            registered before; elsewhere the local rank),
//            PMIX_APPNUM u32, PMIX_APP_RANK rank, PMIX_GLOBAL_RANK rank
//            (PMIX_NPROC_OFFSET + rank, when the offset is given): not
//            stored, the job-data image derives them on demand from its
//            rank table (mca/gds/base/image.h).
//   NODE     PMIX_HOSTNAME, PMIX_NODEID, PMIX_LOCAL_PEERS, PMIX_LOCAL_SIZE,
//            PMIX_LOCALLDR of that node; the local node also takes the
//            job-level node keys (kLocalNodeKeys).
//   APP      PMIX_APPNUM u32, PMIX_APP_SIZE u32, PMIX_APPLDR rank,
//            PMIX_NUM_NODES u32; a single app also takes the job-level app
//            keys (kSingleAppKeys).
//   SESSION  PMIX_SESSION_ID u32; the job's session also takes the
//            job-level session keys (kSessionKeys).
#ifndef PMIXX_SRC_JOBINFO_DERIVE_H
#define PMIXX_SRC_JOBINFO_DERIVE_H

#include <cstdint>
#include <string_view>

#include "src/jobinfo/kv_set.h"
#include "src/jobinfo/layout.h"
#include "src/jobinfo/model.h"

namespace pmix::jobinfo {

// A job-level key of the server's registration (never a host's): how many
// processes of other jobs are on the local node before this job's
// (PMIX_NODE_RANK above). Server and clients ingest it alike.
inline constexpr const char* kNodeRankOffsetKey = "pmixx.nrank.offset";

// kNodeRankOffsetKey's value in the registration, 0 without it. The proc
// keys are derived by the image on demand (mca/gds/base/image.h), except
// PMIX_NODE_RANK of the local node's ranks when this is not 0: ingestion
// stores those explicitly.
uint32_t NodeRankOffset(const Model& model);

// The job-level values the host gave (a later key wins).
void HostJobKvs(const Model& model, KvSet& out);

// Each fills `out` (expected empty) for one instance; host_job is
// HostJobKvs' result.
void JobKvs(const Model& model, const Layout& layout, std::string_view nspace,
            const KvSet& host_job, KvSet& out);
void NodeKvs(const Layout& layout, size_t node, const KvSet& host_job, KvSet& out);
void AppKvs(const Layout& layout, const AppInfo& app, const KvSet& host_job, KvSet& out);
// Session `id`: its arrays' contents (in order).
void SessionKvs(const Model& model, uint32_t id, const KvSet& host_job, KvSet& out);

}  // namespace pmix::jobinfo

#endif  // PMIXX_SRC_JOBINFO_DERIVE_H
