// PMIx_Group_construct / destruct / invite / join / leave and their _nb
// forms (standard §14.2, RFC0033): the client side.
//
// Each call is validated and copied on the caller's thread, then sent from
// the progress thread as a kGroup request (src/server/server_group_msg.h);
// the server gathers the members (src/server/server_group.h). Before a
// construct, invite or join the puts not yet committed are committed, so
// that the members' data travels with the group (§14.2.6: every member
// can then get what the others put). A successful reply's job info enters
// the cache as a connect's does, the members' data follows, and the group
// is remembered (client_group_events.cc translates group ids in gets).
//
// Decisions:
// - grp must be 1..PMIX_MAX_NSLEN characters; construct and invite need a
//   non-empty procs array; join needs a leader; otherwise
//   PMIX_ERR_BAD_PARAM. A process without a server (singleton) gets
//   PMIX_ERR_UNREACH; a process that is itself a server (no host group
//   support from the client side) PMIX_ERR_NOT_SUPPORTED.
// - PMIX_TIMEOUT: the server times the operation; the client guards the
//   same bound plus kGuardSlack in case that answer cannot come.
// - The process's own PMIX_GROUP_INFO / PMIX_GROUP_ENDPT_DATA
//   contributions are kept in its cache (a get of its own key finds them).
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_group_msg.h"
#include "src/server/server_internal.h"
#include "src/wire/proc_data.h"

namespace pmix::client {
namespace {

using server::group::Op;

constexpr std::chrono::seconds kGuardSlack{2};

struct GroupRequest {
  Op op = Op::kConstruct;
  std::string grp;
  std::vector<pmix_proc_t> procs;
  wire::Infos infos;
  uint32_t opt = 0;
  int64_t timeout_sec = 0;
};
using RequestPtr = std::shared_ptr<const GroupRequest>;

bool ValidProc(const pmix_proc_t& p) {
  size_t len = ::strnlen(p.nspace, PMIX_MAX_NSLEN + 1);
  return len > 0 && len <= PMIX_MAX_NSLEN &&
         (p.rank < PMIX_RANK_VALID || p.rank == PMIX_RANK_WILDCARD);
}

Result<RequestPtr> Build(Op op, const char grp[], const pmix_proc_t procs[], size_t nprocs,
                         const pmix_info_t info[], size_t ninfo, uint32_t opt = 0) {
  if (!ClientInitialized()) {
    return Status(server::ServerInitialized() ? PMIX_ERR_NOT_SUPPORTED : PMIX_ERR_INIT);
  }
  if (!groups::ValidName(grp) || (procs == nullptr && nprocs > 0) ||
      (info == nullptr && ninfo > 0))
    return Status(PMIX_ERR_BAD_PARAM);
  if ((op == Op::kConstruct || op == Op::kInvite || op == Op::kJoin) && nprocs == 0)
    return Status(PMIX_ERR_BAD_PARAM);
  auto req = std::make_shared<GroupRequest>();
  req->op = op;
  req->opt = opt;
  req->grp = std::string(grp, ::strnlen(grp, PMIX_MAX_NSLEN));
  for (size_t i = 0; i < nprocs; ++i) {
    if (!ValidProc(procs[i])) return Status(PMIX_ERR_BAD_PARAM);
    pmix_proc_t p{};
    PMIx_Load_procid(&p, procs[i].nspace, procs[i].rank);
    req->procs.push_back(p);
  }
  auto infos = wire::Infos::CopyOf(InfoSpan(info, ninfo));
  if (!infos.ok()) return infos.status();
  req->infos = std::move(*infos);
  req->timeout_sec = InfoInt(req->infos.view(), PMIX_TIMEOUT).value_or(0);
  return RequestPtr(std::move(req));
}

// One request in flight, finished once: by the reply, the loss of the
// server or the guard timer.
struct GroupOp {
  InfoDone done;
  std::unique_ptr<runtime::ProgressEngine::Timer> guard;
  bool finished = false;

  void Finish(InfoReply&& reply) {
    if (finished) return;
    finished = true;
    guard.reset();
    done(std::move(reply));
  }
};

// The contributions this process makes to a group, kept where its own
// gets look (its cache, under its own name).
void KeepOwnContribution(Client& c, std::span<const pmix_info_t> dirs) {
  wire::Infos kvs;
  for (const pmix_info_t& d : dirs) {
    if (PMIX_CHECK_KEY(&d, PMIX_GROUP_ENDPT_DATA)) kvs.Append(d).ok();
    if (!PMIX_CHECK_KEY(&d, PMIX_GROUP_INFO) || d.value.type != PMIX_DATA_ARRAY ||
        d.value.data.darray == nullptr || d.value.data.darray->type != PMIX_INFO)
      continue;
    const auto* inner = static_cast<const pmix_info_t*>(d.value.data.darray->array);
    for (size_t i = 0; inner != nullptr && i < d.value.data.darray->size; ++i)
      kvs.Append(inner[i]).ok();
  }
  if (kvs.size() == 0) return;
  std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
  c.cache.Put(c.myproc, gds::Where::Proc(), PMIX_INTERNAL, kvs.view()).ok();
}

// A completed group: job info, the members' data, the group itself.
void Adopt(Client& c, const GroupRequest& req, server::group::Reply& reply) {
  IngestJobRecords(c, reply.jobs);
  {
    std::unique_lock<runtime::ReadMostly> lock(c.cache_mu);
    for (const auto& rec : reply.data) {
      if (PMIx_Check_procid(&rec.proc, &c.myproc)) continue;  // ours lives in the cache already
      wire::StoreProcData(c.cache, rec, PMIX_GLOBAL).ok();
    }
  }
  auto members = groups::InfoProcs(reply.results.view(), PMIX_GROUP_MEMBERSHIP);
  if (!members) return;
  groups::Group g = groups::Group::Of(req.grp, std::move(*members));
  const pmix_info_t* ctx = FindInfo(reply.results.view(), PMIX_GROUP_CONTEXT_ID);
  size_t id = 0;
  if (ctx != nullptr && PMIx_Value_get_number(&ctx->value, &id, PMIX_SIZE) == PMIX_SUCCESS)
    g.context_id = id;
  c.groups.Erase(req.grp);
  c.groups.Add(std::move(g)).ok();
}

InfoReply Absorb(Client& c, const GroupRequest& req, wire::Reader& r) {
  auto reply = server::group::UnpackReply(r);
  if (!reply.ok()) return InfoReply{reply.status().code(), {}};
  pmix_status_t status = reply->status;
  bool built = req.op == Op::kConstruct || req.op == Op::kInvite || req.op == Op::kJoin;
  if (built && (status == PMIX_SUCCESS || status == PMIX_ERR_PARTIAL_SUCCESS))
    Adopt(c, req, *reply);
  if ((req.op == Op::kDestruct && (status == PMIX_SUCCESS || status == PMIX_ERR_PROC_TERM_WO_SYNC)) ||
      (req.op == Op::kLeave && status == PMIX_SUCCESS))
    c.groups.Erase(req.grp);
  return InfoReply{status, std::move(reply->results)};
}

// Progress thread: the whole operation; `done` gets its outcome once.
void Run(const RequestPtr& req, InfoDone done) {
  Client* c = CurrentClient();
  if (c == nullptr) return done(InfoReply{PMIX_ERR_INIT, {}});
  if (c->singleton || c->codec() == nullptr) return done(InfoReply{PMIX_ERR_UNREACH, {}});
  if (req->op == Op::kConstruct || req->op == Op::kInvite || req->op == Op::kJoin) {
    KeepOwnContribution(*c, req->infos.view());
    CommitPending(*c);  // the members' data travels with the group
  }
  server::group::Request body{req->op, req->grp, req->procs, {}, req->opt, PMIX_SUCCESS};
  auto infos = wire::Infos::CopyOf(req->infos.view());
  if (!infos.ok()) return done(InfoReply{infos.status().code(), {}});
  body.infos = std::move(*infos);
  wire::Writer w(c->codec());
  Status packed = server::group::PackRequest(w, body);
  auto bytes = packed.ok() ? w.Take() : Result<wire::Bytes>(packed);
  if (!bytes.ok()) return done(InfoReply{bytes.status().code(), {}});
  auto op = std::make_shared<GroupOp>();
  op->done = std::move(done);
  runtime::ProgressEngine* engine = runtime::Engine();
  if (req->timeout_sec > 0 && engine != nullptr) {
    std::weak_ptr<GroupOp> weak = op;
    op->guard = engine->AddTimer(std::chrono::seconds(req->timeout_sec) + kGuardSlack, [weak] {
      if (auto o = weak.lock()) o->Finish(InfoReply{PMIX_ERR_TIMEOUT, {}});
    });
  }
  c->Request(wire::Msg::kGroup, *bytes, [op, req](Status status, wire::Reader& r) {
    if (op->finished) return;
    Client* current = CurrentClient();
    if (!status.ok() || current == nullptr)
      return op->Finish(InfoReply{status.ok() ? PMIX_ERR_INIT : status.code(), {}});
    op->Finish(Absorb(*current, *req, r));
  });
}

pmix_status_t Start(const RequestPtr& req, InfoDone done) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  return engine->Post([req, done = std::move(done)] { Run(req, done); }).code();
}

// The blocking forms: the outcome, results copied out when asked for.
pmix_status_t Blocking(Result<RequestPtr> req, pmix_info_t** results, size_t* nresults) {
  if (results != nullptr) *results = nullptr;
  if (nresults != nullptr) *nresults = 0;
  if (!req.ok()) return req.status().code();
  auto reply = WaitInfoReply([&](InfoDone done) { return Start(*req, std::move(done)); });
  if (!reply.ok()) return reply.status().code();
  return CopyInfoReplyOut(*reply, results, nresults);
}

pmix_status_t WithInfoCallback(Result<RequestPtr> req, pmix_info_cbfunc_t cbfunc, void* cbdata) {
  if (!req.ok()) return req.status().code();
  return Start(*req, [cbfunc, cbdata](InfoReply&& r) {
    DeliverInfoReply(cbfunc, cbdata, std::move(r));
  });
}

pmix_status_t WithOpCallback(Result<RequestPtr> req, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  if (!req.ok()) return req.status().code();
  return Start(*req, [cbfunc, cbdata](InfoReply&& r) {
    if (cbfunc != nullptr) cbfunc(r.status, cbdata);
  });
}

Result<RequestPtr> BuildJoin(const char grp[], const pmix_proc_t* leader, pmix_group_opt_t opt,
                             const pmix_info_t info[], size_t ninfo) {
  if (leader == nullptr || (opt != PMIX_GROUP_ACCEPT && opt != PMIX_GROUP_DECLINE))
    return Status(PMIX_ERR_BAD_PARAM);
  return Build(Op::kJoin, grp, leader, 1, info, ninfo, opt);
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;
using pmix::server::group::Op;

extern "C" pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[],
                                              size_t nprocs, const pmix_info_t directives[],
                                              size_t ndirs, pmix_info_t** results,
                                              size_t* nresults) {
  return pmix::ApiGuard("PMIx_Group_construct", [&] {
    return client::Blocking(client::Build(Op::kConstruct, grp, procs, nprocs, directives, ndirs),
                            results, nresults);
  });
}

extern "C" pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[],
                                                 size_t nprocs, const pmix_info_t info[],
                                                 size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                                 void* cbdata) {
  return pmix::ApiGuard("PMIx_Group_construct_nb", [&] {
    return client::WithInfoCallback(
        client::Build(Op::kConstruct, grp, procs, nprocs, info, ninfo), cbfunc, cbdata);
  });
}

extern "C" pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[],
                                             size_t ninfo) {
  return pmix::ApiGuard("PMIx_Group_destruct", [&] {
    return client::Blocking(client::Build(Op::kDestruct, grp, nullptr, 0, info, ninfo), nullptr,
                            nullptr);
  });
}

extern "C" pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[],
                                                size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                void* cbdata) {
  return pmix::ApiGuard("PMIx_Group_destruct_nb", [&] {
    return client::WithOpCallback(client::Build(Op::kDestruct, grp, nullptr, 0, info, ninfo),
                                  cbfunc, cbdata);
  });
}

extern "C" pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[],
                                           size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                           pmix_info_t** results, size_t* nresult) {
  return pmix::ApiGuard("PMIx_Group_invite", [&] {
    return client::Blocking(client::Build(Op::kInvite, grp, procs, nprocs, info, ninfo), results,
                            nresult);
  });
}

extern "C" pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[],
                                              size_t nprocs, const pmix_info_t info[],
                                              size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                              void* cbdata) {
  return pmix::ApiGuard("PMIx_Group_invite_nb", [&] {
    return client::WithInfoCallback(client::Build(Op::kInvite, grp, procs, nprocs, info, ninfo),
                                    cbfunc, cbdata);
  });
}

extern "C" pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t* leader,
                                         pmix_group_opt_t opt, const pmix_info_t info[],
                                         size_t ninfo, pmix_info_t** results, size_t* nresult) {
  return pmix::ApiGuard("PMIx_Group_join", [&] {
    return client::Blocking(client::BuildJoin(grp, leader, opt, info, ninfo), results, nresult);
  });
}

extern "C" pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t* leader,
                                            pmix_group_opt_t opt, const pmix_info_t info[],
                                            size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                            void* cbdata) {
  return pmix::ApiGuard("PMIx_Group_join_nb", [&] {
    return client::WithInfoCallback(client::BuildJoin(grp, leader, opt, info, ninfo), cbfunc,
                                    cbdata);
  });
}

extern "C" pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[],
                                          size_t ninfo) {
  return pmix::ApiGuard("PMIx_Group_leave", [&] {
    return client::Blocking(client::Build(Op::kLeave, grp, nullptr, 0, info, ninfo), nullptr,
                            nullptr);
  });
}

extern "C" pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[],
                                             size_t ninfo, pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Group_leave_nb", [&] {
    return client::WithOpCallback(client::Build(Op::kLeave, grp, nullptr, 0, info, ninfo), cbfunc,
                                  cbdata);
  });
}
