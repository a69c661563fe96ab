// The kGroup message bodies (server_group_msg.h).
#include "src/server/server_group_msg.h"

namespace pmix::server::group {

Status PackRequest(wire::Writer& w, const Request& req) {
  w.U32(static_cast<uint32_t>(req.op)).Str(req.grp).Procs(req.procs).InfoArray(req.infos.view());
  w.U32(req.opt).I32(req.code);
  return w.status();
}

Result<Request> UnpackRequest(wire::Reader& r) {
  Request req;
  uint32_t op = r.U32();
  req.grp = r.String();
  req.procs = r.Procs();
  req.infos = r.InfoArray();
  req.opt = r.U32();
  req.code = r.I32();
  if (!r.status().ok()) return r.status();
  if (op < static_cast<uint32_t>(Op::kConstruct) || op > static_cast<uint32_t>(Op::kDecision))
    return Status(PMIX_ERR_BAD_PARAM);
  req.op = static_cast<Op>(op);
  return req;
}

Status PackReply(wire::Writer& w, pmix_status_t status, std::span<const pmix_info_t> results,
                 std::span<const JobInfoRecord> jobs, std::span<const wire::ProcData> data) {
  w.Status(status).InfoArray(results);
  // The members' job images go inline (no descriptors on group replies).
  PMIX_RETURN_IF_ERROR(PackConnectReply(w, PMIX_SUCCESS, jobs, nullptr));
  wire::PackProcData(w, data);
  return w.status();
}

Result<Reply> UnpackReply(wire::Reader& r) {
  Reply reply;
  reply.status = r.Status();
  if (!r.status().ok()) return r.status();
  if (r.AtEnd()) return reply;
  reply.results = r.InfoArray();
  if (!r.status().ok()) return r.status();
  std::vector<ptl::Fd> no_fds;
  pmix_status_t rc = UnpackConnectReply(r, no_fds, &reply.jobs);
  if (rc != PMIX_SUCCESS) return Status(rc);
  auto data = wire::UnpackProcData(r);
  if (!data.ok()) return data.status();
  reply.data = std::move(*data);
  return reply;
}

}  // namespace pmix::server::group
