// The body of wire::Msg::kGroup, the process-group requests a client sends
// its server (PMIx_Group_*, standard ch. 14.2), and of their replies.
//
// Request: u32 op, string group id, procs, info array, u32 opt, i32 code.
//   kConstruct / kInvite: procs = the members in group-rank order,
//     infos = the caller's directives;
//   kDestruct / kLeave: procs empty, infos = directives;
//   kJoin: procs = {the inviting leader}, opt = pmix_group_opt_t;
//   kDecision (one-way, no reply): the outcome of this process's event
//     handlers for a group event that asks for a decision; code = the
//     event, procs = {the process the event was about}, infos = the
//     handlers' results (PMIX_GROUP_LEADER to claim leadership, a
//     PMIX_GROUP_CONSTRUCT_ABORT status to abort).
// Reply: status, info array results (PMIX_GROUP_CONTEXT_ID,
//   PMIX_GROUP_MEMBERSHIP), the job info of the members' namespaces in
//   the connect reply's form (PackConnectReply: a status, then the
//   records), then the members' data records (wire/proc_data.h) to the end.
#ifndef PMIXX_SRC_SERVER_SERVER_GROUP_MSG_H
#define PMIXX_SRC_SERVER_SERVER_GROUP_MSG_H

#include <span>
#include <string>
#include <vector>

#include "src/server/server_connect.h"
#include "src/wire/buffer.h"
#include "src/wire/proc_data.h"

namespace pmix::server::group {

enum class Op : uint32_t {
  kConstruct = 1,
  kDestruct = 2,
  kInvite = 3,
  kJoin = 4,
  kLeave = 5,
  kDecision = 6,
};

struct Request {
  Op op = Op::kConstruct;
  std::string grp;
  std::vector<pmix_proc_t> procs;
  wire::Infos infos;
  uint32_t opt = 0;
  pmix_status_t code = PMIX_SUCCESS;
};

Status PackRequest(wire::Writer& w, const Request& req);
// PMIX_ERR_UNPACK_FAILURE (or the reader's error) for a malformed body;
// PMIX_ERR_BAD_PARAM for an unknown op.
Result<Request> UnpackRequest(wire::Reader& r);

struct Reply {
  pmix_status_t status = PMIX_ERROR;
  wire::Infos results;
  std::vector<JobInfoRecord> jobs;
  std::vector<wire::ProcData> data;
};

Status PackReply(wire::Writer& w, pmix_status_t status, std::span<const pmix_info_t> results,
                 std::span<const JobInfoRecord> jobs, std::span<const wire::ProcData> data);
// A reply that is a status only (an older or failing path) reads as that
// status with nothing else.
Result<Reply> UnpackReply(wire::Reader& r);

}  // namespace pmix::server::group

#endif  // PMIXX_SRC_SERVER_SERVER_GROUP_MSG_H
