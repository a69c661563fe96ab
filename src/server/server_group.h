// Process groups on the server (standard ch. 14.2, RFC0033, host upcall
// §17.3.29): what the rest of the server calls. The implementation is in
// server_group.cc (messages, construct/destruct collectives),
// server_group_invite.cc (invite/join), server_group_fail.cc (failures,
// leader election, handler decisions) and server_group_ids.cc (group ids
// in other operations, live keys, queries); docs/groups.md describes the
// behaviour and the decisions the standard leaves open.
//
// Construct and destruct are collectives on the fence machinery
// (server_fence.h trackers, server_collective.h helpers): local members'
// requests are gathered; when all are in the operation completes here
// (every member local and no context id wanted) or goes to the host's
// `group` upcall once, with PMIX_LOCAL_COLLECTIVE_STATUS and the local
// members' data as PMIX_GROUP_ENDPT_DATA. On completion every local
// member gets the results, the job info of the members' namespaces (as a
// connect does) and the members' data.
//
// The server keeps the groups that have members here; their ids are
// accepted wherever a proc is ({grp, PMIX_RANK_WILDCARD}: the present
// members, {grp, r}: group rank r) and replaced by the members' own ids
// before anything reaches the host.
//
// Threads: progress thread only.
#ifndef PMIXX_SRC_SERVER_SERVER_GROUP_H
#define PMIXX_SRC_SERVER_SERVER_GROUP_H

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "src/event/event.h"
#include "src/server/query_answers.h"
#include "src/server/server_state.h"

namespace pmix::server {

// The wire::Msg::kGroup handler.
void HandleGroup(Server& s, const PeerPtr& peer, ptl::Frame&& frame);

// Core hooks (server_peers.cc, server_registry.cc, server.cc).
void GroupOnPeerLost(Server& s, const PeerPtr& peer);
void GroupOnNamespaceGone(Server& s, const std::string& nspace);
void GroupShutdown(Server& s);

// `procs` with every reference to a group known here replaced by its
// members (unchanged when there is none). PMIX_ERR_NOT_FOUND: a group rank
// that is not (or no longer) a member.
Result<std::vector<pmix_proc_t>> TranslateGroupProcs(Server& s, std::span<const pmix_proc_t> procs);
// The same for the proc lists an event's infos carry
// (PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROC(S)); *infos is
// rewritten only when something was translated.
Status TranslateEventInfos(Server& s, wire::Infos* infos);

// Events: one a local client raised (true: the group machinery consumed
// it: a leader's PMIX_GROUP_CONSTRUCT_ABORT or _COMPLETE for its own
// invitation), and one the host delivered (group bookkeeping of other
// nodes' members: completions, aborts, departures, answers to a local
// leader). Neither changes the event.
bool GroupOnClientEvent(Server& s, const PeerPtr& peer, const event::Event& ev);
void GroupOnHostEvent(Server& s, const event::Event& ev);

// Keys a get answers from the server's live state instead of a store:
// PMIX_GROUP_NAMES (the groups a process is in) and PMIX_PSET_NAMES (the
// process sets it belongs to). The value for `proc`; nullptr when it has
// none (PMIX_ERR_NOT_FOUND).
bool IsLiveKey(std::string_view key);
gds::ValuePtr LiveKeyValue(Server& s, const pmix_proc_t& proc, std::string_view key);

// Query keys (PMIX_QUERY_NUM_GROUPS, PMIX_QUERY_GROUP_NAMES,
// PMIX_QUERY_GROUP_MEMBERSHIP with PMIX_GROUP_ID), answered from the groups
// with members here (nullptr: not answered).
gds::ValuePtr GroupQueryAnswer(Server& s, const query::Query& q, std::string_view key);

}  // namespace pmix::server

#endif  // PMIXX_SRC_SERVER_SERVER_GROUP_H
