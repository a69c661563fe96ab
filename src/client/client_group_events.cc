// Process groups on the client beyond the API calls (client_group.cc): the
// group events the server delivers (the process's group records follow
// departures; the events that ask for a verdict report their handlers'
// results back), group ids in gets, and the live keys the server answers.
//
// Decisions:
// - A verdict (kDecision) goes back for PMIX_GROUP_INVITE_ACCEPTED,
//   _DECLINED, _FAILED, PMIX_GROUP_MEMBER_FAILED and
//   PMIX_GROUP_LEADER_FAILED once the handler chain ended, also when no
//   handler ran (the server then goes on with the default at once).
// - A PMIX_GROUP_INVITE_DECLINED no handler took is delivered again as
//   PMIX_GROUP_INVITE_FAILED (same infos): a leader that only watches for
//   failed invitations still learns that a process will not join.
// - {grp, r} in a get names the member of group rank r; {grp,
//   PMIX_RANK_WILDCARD} answers PMIX_GROUP_CONTEXT_ID and
//   PMIX_GROUP_MEMBERSHIP from the group's record (other keys:
//   PMIX_ERR_NOT_FOUND). Only the groups this process is in are known.
// - PMIX_GROUP_NAMES and PMIX_PSET_NAMES are asked of the server at every
//   get (they change while the job runs) and never cached.
#include <memory>

#include "pmix.h"
#include "src/client/client_state.h"
#include "src/common/info_lookup.h"
#include "src/common/output.h"
#include "src/server/server_group_msg.h"
#include "src/wire/proc_data.h"

namespace pmix::client {
namespace {

bool WantsVerdict(pmix_status_t code) {
  return code == PMIX_GROUP_INVITE_ACCEPTED || code == PMIX_GROUP_INVITE_DECLINED ||
         code == PMIX_GROUP_INVITE_FAILED || code == PMIX_GROUP_MEMBER_FAILED ||
         code == PMIX_GROUP_LEADER_FAILED;
}

pmix_proc_t Subject(const event::Event& ev) {
  auto affected = groups::InfoProcs(ev.info.view(), PMIX_EVENT_AFFECTED_PROC);
  return affected && affected->size() == 1 ? (*affected)[0] : ev.source;
}

void SendVerdict(const std::string& grp, pmix_status_t code, const pmix_proc_t& about,
                 const wire::Infos& results) {
  Client* c = CurrentClient();
  if (c == nullptr || c->codec() == nullptr) return;
  server::group::Request req;
  req.op = server::group::Op::kDecision;
  req.grp = grp;
  req.procs.push_back(about);
  req.code = code;
  auto copy = wire::Infos::CopyOf(results.view());
  if (copy.ok()) req.infos = std::move(*copy);
  wire::Writer w(c->codec());
  Status packed = server::group::PackRequest(w, req);
  auto body = packed.ok() ? w.Take() : Result<wire::Bytes>(packed);
  if (body.ok()) c->Send(wire::Msg::kGroup, *body).ok();
}

event::Dispatcher::ChainDone Verdict(const std::string& grp, const event::EventPtr& ev) {
  pmix_status_t code = ev->status;
  pmix_proc_t about = Subject(*ev);
  return [grp, code, about, ev](const wire::Infos& results, bool handled) {
    Client* c = CurrentClient();
    if (code != PMIX_GROUP_INVITE_DECLINED || handled || c == nullptr)
      return SendVerdict(grp, code, about, results);
    auto again = event::MakeEvent(PMIX_GROUP_INVITE_FAILED, ev->source, ev->range,
                                  ev->info.view().data(), ev->info.size());
    if (!again.ok()) return SendVerdict(grp, code, about, results);
    event::LocalDispatcher().Deliver(
        std::make_shared<const event::Event>(std::move(again).value()), c->myproc,
        [grp, code, about](const wire::Infos& r, bool) { SendVerdict(grp, code, about, r); });
  };
}

// A get of a live key: the server's answer, not kept.
void AskLive(Client& c, const pmix_proc_t& target, const std::string& key,
             std::function<void(Status, gds::ValuePtr)> done) {
  if (c.codec() == nullptr) return done(PMIX_ERR_NOT_FOUND, nullptr);
  wire::Writer w(c.codec());
  w.Proc(target).Str(key).InfoArray({}).Bool(false);
  auto body = w.Take();
  if (!body.ok()) return done(body.status(), nullptr);
  c.Request(wire::Msg::kGet, *body, [key, done](Status st, wire::Reader& r) {
    if (!st.ok()) return done(st.code() == PMIX_ERR_UNREACH ? PMIX_ERR_NOT_FOUND : st, nullptr);
    pmix_status_t answer = r.Status();
    if (r.Bool()) {  // job info (not sent for these keys): skip it
      r.I32();
      r.InfoArray();
    }
    auto records = wire::UnpackProcData(r);
    if (!r.status().ok() || !records.ok()) return done(PMIX_ERR_UNPACK_FAILURE, nullptr);
    if (answer != PMIX_SUCCESS) return done(answer, nullptr);
    for (const auto& rec : *records) {
      const pmix_info_t* kv = FindInfo(rec.kvs.view(), key.c_str());
      if (kv == nullptr) continue;
      gds::ValuePtr v(PMIx_Value_create(1));
      if (v == nullptr || PMIx_Value_xfer(v.get(), &kv->value) != PMIX_SUCCESS)
        return done(PMIX_ERR_NOMEM, nullptr);
      return done(Status(), std::move(v));
    }
    done(PMIX_ERR_NOT_FOUND, nullptr);
  });
}

// {grp, PMIX_RANK_WILDCARD}: the group's own keys.
Result<gds::ValuePtr> GroupKey(const groups::Group& g, const std::string& key) {
  gds::ValuePtr v(PMIx_Value_create(1));
  if (v == nullptr) return Status(PMIX_ERR_NOMEM);
  if (key == PMIX_GROUP_CONTEXT_ID && g.context_id) {
    size_t id = *g.context_id;
    PMIX_RETURN_IF_ERROR(PMIx_Value_load(v.get(), &id, PMIX_SIZE));
    return v;
  }
  if (key == PMIX_GROUP_MEMBERSHIP) {
    auto array = groups::ProcArrayValue(g.Current());
    if (!array.ok()) return array.status();
    return gds::ValuePtr(*array);
  }
  return Status(PMIX_ERR_NOT_FOUND);
}

}  // namespace

event::Dispatcher::ChainDone GroupOnEvent(Client& c, const event::EventPtr& ev) {
  std::optional<std::string> grp = InfoString(ev->info.view(), PMIX_GROUP_ID);
  if (!grp) return nullptr;
  if (ev->status == PMIX_GROUP_LEFT || ev->status == PMIX_GROUP_MEMBER_FAILED) {
    if (groups::Group* g = c.groups.Find(*grp); g != nullptr) g->Remove(Subject(*ev));
  }
  if (!WantsVerdict(ev->status)) return nullptr;
  return Verdict(*grp, ev);
}

bool GroupGet(Client& c, pmix_proc_t* target, const std::string& key,
              std::function<void(Status, gds::ValuePtr)> done) {
  std::string nspace(target->nspace, ::strnlen(target->nspace, PMIX_MAX_NSLEN));
  if (const groups::Group* g = c.groups.Find(nspace); g != nullptr) {
    if (target->rank == PMIX_RANK_WILDCARD) {
      auto v = GroupKey(*g, key);
      done(v.ok() ? Status() : v.status(), v.ok() ? std::move(*v) : nullptr);
      return true;
    }
    if (target->rank >= g->members.size() || !g->present[target->rank]) {
      done(PMIX_ERR_NOT_FOUND, nullptr);
      return true;
    }
    *target = g->members[target->rank];
  }
  if (key != PMIX_GROUP_NAMES && key != PMIX_PSET_NAMES) return false;
  AskLive(c, *target, key, std::move(done));
  return true;
}

bool InGroupRange(const Client& c, const event::Event& ev) {
  if (ev.range != PMIX_RANGE_CUSTOM) return false;
  for (const pmix_proc_t& p : ev.custom_range) {
    std::string nspace(p.nspace, ::strnlen(p.nspace, PMIX_MAX_NSLEN));
    const groups::Group* g = c.groups.Find(nspace);
    if (g == nullptr) continue;
    auto rank = g->RankOf(c.myproc);
    if (rank && g->present[*rank] && (p.rank == PMIX_RANK_WILDCARD || p.rank == *rank))
      return true;
  }
  return false;
}

}  // namespace pmix::client
