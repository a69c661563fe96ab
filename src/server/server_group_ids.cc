// Groups seen from the rest of the server (server_group.h): group ids in
// other operations' proc lists and events, the events that drive group
// bookkeeping, live get keys and the group queries.
#include <utility>

#include "pmix.h"
#include "src/common/info_lookup.h"
#include "src/server/server_group.h"
#include "src/server/server_group_state.h"
#include "src/server/server_pset.h"

namespace pmix::server {
namespace {

using group::GetState;

bool IsProcListKey(const pmix_info_t& info) {
  return PMIX_CHECK_KEY(&info, PMIX_EVENT_CUSTOM_RANGE) ||
         PMIX_CHECK_KEY(&info, PMIX_EVENT_AFFECTED_PROC) ||
         PMIX_CHECK_KEY(&info, PMIX_EVENT_AFFECTED_PROCS);
}

const groups::Lookup& RegistryLookup() {
  static const groups::Lookup lookup = [](std::string_view name) {
    return GetState().registry.Find(name);
  };
  return lookup;
}

std::optional<std::string> GroupIdOf(const event::Event& ev) {
  return InfoString(ev.info.view(), PMIX_GROUP_ID);
}

// The process an answer or departure event is about.
pmix_proc_t Subject(const event::Event& ev) {
  auto affected = groups::InfoProcs(ev.info.view(), PMIX_EVENT_AFFECTED_PROC);
  return affected && affected->size() == 1 ? (*affected)[0] : ev.source;
}

// A group completed by another node's leader: known here from the event.
void AdoptGroup(const event::Event& ev, const std::string& grp) {
  group::State& st = GetState();
  if (st.registry.Find(grp) != nullptr) return;
  auto members = groups::InfoProcs(ev.info.view(), PMIX_GROUP_MEMBERSHIP);
  if (!members) return;
  groups::Group g = groups::Group::Of(grp, std::move(*members));
  const pmix_info_t* ctx = FindInfo(ev.info.view(), PMIX_GROUP_CONTEXT_ID);
  size_t id = 0;
  if (ctx != nullptr && PMIx_Value_get_number(&ctx->value, &id, PMIX_SIZE) == PMIX_SUCCESS)
    g.context_id = id;
  st.registry.Add(std::move(g)).ok();
}

}  // namespace

Result<std::vector<pmix_proc_t>> TranslateGroupProcs(Server& s, std::span<const pmix_proc_t> procs) {
  (void)s;
  if (!groups::RefersToGroup(procs, RegistryLookup()))
    return std::vector<pmix_proc_t>(procs.begin(), procs.end());
  return groups::Translate(procs, RegistryLookup());
}

Status TranslateEventInfos(Server& s, wire::Infos* infos) {
  bool any = false;
  for (const pmix_info_t& i : infos->view()) {
    auto procs = IsProcListKey(i) ? groups::ProcsOf(i.value) : std::nullopt;
    any = any || (procs && groups::RefersToGroup(*procs, RegistryLookup()));
  }
  if (!any) return Status();
  wire::Infos out;
  for (const pmix_info_t& i : infos->view()) {
    auto procs = IsProcListKey(i) ? groups::ProcsOf(i.value) : std::nullopt;
    if (!procs || !groups::RefersToGroup(*procs, RegistryLookup())) {
      PMIX_RETURN_IF_ERROR(out.Append(i));
      continue;
    }
    auto translated = TranslateGroupProcs(s, *procs);
    if (!translated.ok()) return translated.status();
    // One proc stays a single PMIX_PROC under the singular key; more become a list.
    const char* key = PMIX_CHECK_KEY(&i, PMIX_EVENT_AFFECTED_PROC) && translated->size() != 1
                          ? PMIX_EVENT_AFFECTED_PROCS
                          : i.key;
    if (PMIX_CHECK_KEY(&i, PMIX_EVENT_AFFECTED_PROC) && translated->size() == 1) {
      PMIX_RETURN_IF_ERROR(out.Add(key, translated->data(), PMIX_PROC));
    } else {
      PMIX_RETURN_IF_ERROR(groups::AddProcArray(out, key, *translated));
    }
  }
  *infos = std::move(out);
  return Status();
}

bool GroupOnClientEvent(Server& s, const PeerPtr& peer, const event::Event& ev) {
  if (ev.status != PMIX_GROUP_CONSTRUCT_ABORT && ev.status != PMIX_GROUP_CONSTRUCT_COMPLETE)
    return false;
  std::optional<std::string> grp = GroupIdOf(ev);
  if (!grp) return false;
  group::State& st = GetState();
  if (auto inv = st.invites.find(*grp); inv != st.invites.end()) {
    group::InviteOp& op = inv->second;
    bool leader = op.has_leader && groups::SameProc(op.leader, peer->proc);
    if (ev.status == PMIX_GROUP_CONSTRUCT_ABORT) {
      if (op.answers.count(fence::NameOf(peer->proc)) == 0) return false;
      group::AbortInvite(s, *grp, PMIX_GROUP_CONSTRUCT_ABORT);
      return true;
    }
    if (!leader) return false;
    // The leader settles for whoever accepted so far.
    for (auto& [who, answer] : op.answers)
      if (answer == group::Answer::kPending) answer = group::Answer::kDropped;
    op.decisions.awaiting.clear();
    group::MaybeCompleteInvite(s, *grp);
    return true;
  }
  auto built = st.constructing.find(*grp);
  if (ev.status != PMIX_GROUP_CONSTRUCT_ABORT || built == st.constructing.end()) return false;
  uint64_t id = built->second;
  group::CollectiveOp& op = st.ops[id];
  bool member = false;
  for (const auto& m : op.members) member = member || groups::SameProc(m, peer->proc);
  if (!member) return false;
  std::vector<pmix_proc_t> targets;
  for (const auto& m : op.members)
    if (op.dropped.count(fence::NameOf(m)) == 0) targets.push_back(m);
  group::Raise(s, PMIX_GROUP_CONSTRUCT_ABORT, peer->proc, targets, *grp, nullptr);
  group::FailCollective(s, id, PMIX_GROUP_CONSTRUCT_ABORT);
  return true;
}

void GroupOnHostEvent(Server& s, const event::Event& ev) {
  std::optional<std::string> grp = GroupIdOf(ev);
  if (!grp) return;
  group::State& st = GetState();
  switch (ev.status) {
    case PMIX_GROUP_CONSTRUCT_COMPLETE:
      AdoptGroup(ev, *grp);
      return group::AnswerJoins(s, *grp, PMIX_SUCCESS);
    case PMIX_GROUP_CONSTRUCT_ABORT:
      return group::AnswerJoins(s, *grp, PMIX_GROUP_CONSTRUCT_ABORT);
    case PMIX_GROUP_LEFT:
    case PMIX_GROUP_MEMBER_FAILED:
      if (groups::Group* g = st.registry.Find(*grp); g != nullptr) g->Remove(Subject(ev));
      return;
    case PMIX_GROUP_INVITE_ACCEPTED:
    case PMIX_GROUP_INVITE_DECLINED:
    case PMIX_GROUP_INVITE_FAILED: {
      auto inv = st.invites.find(*grp);
      if (inv == st.invites.end()) return;
      group::Answer answer = ev.status == PMIX_GROUP_INVITE_ACCEPTED ? group::Answer::kAccepted
                                                                      : group::Answer::kDropped;
      // The host delivers the event to the leader itself: no second one.
      return group::OnInviteAnswer(s, inv->second, Subject(ev), answer, ev.status, false);
    }
    default:
      return;
  }
}

bool IsLiveKey(std::string_view key) { return key == PMIX_GROUP_NAMES || key == PMIX_PSET_NAMES; }

gds::ValuePtr LiveKeyValue(Server& s, const pmix_proc_t& proc, std::string_view key) {
  (void)s;
  std::vector<std::string> names = key == PMIX_GROUP_NAMES ? GetState().registry.NamesOf(proc)
                                                            : PsetNamesOf(proc);
  if (names.empty()) return nullptr;
  auto v = groups::StringArrayValue(names);
  return v.ok() ? gds::ValuePtr(*v) : nullptr;
}

gds::ValuePtr GroupQueryAnswer(Server& s, const query::Query& q, std::string_view key) {
  (void)s;
  const groups::Table& registry = GetState().registry;
  if (key == PMIX_QUERY_NUM_GROUPS) {
    gds::ValuePtr v(PMIx_Value_create(1));
    size_t n = registry.size();
    if (v != nullptr && PMIx_Value_load(v.get(), &n, PMIX_SIZE) == PMIX_SUCCESS) return v;
    return nullptr;
  }
  Result<pmix_value_t*> v = Status(PMIX_ERR_NOT_FOUND);
  if (key == PMIX_QUERY_GROUP_NAMES) v = groups::StringArrayValue(registry.Names());
  if (key == PMIX_QUERY_GROUP_MEMBERSHIP) {
    std::optional<std::string> name = InfoString(q.qualifiers.view(), PMIX_GROUP_ID);
    const groups::Group* g = name ? registry.Find(*name) : nullptr;
    if (g != nullptr) v = groups::ProcArrayValue(g->Current());
  }
  if (v.ok()) return gds::ValuePtr(*v);
  return PsetQueryAnswer(q, key);
}

}  // namespace pmix::server
