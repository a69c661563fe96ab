// Internal to the server's get path (server_get.cc: requests from clients,
// commits, held requests; server_dmodex.cc: the host's direct_modex and
// PMIx_server_dmodex_request). Progress thread only.
//
// A held request waits either for a local process's commit (kCommit) or
// for the host's direct_modex answer (kHost). Every held request is
// answered exactly once: data, PMIX_ERR_TIMEOUT (its PMIX_TIMEOUT), an
// error when what it waits for is gone, or PMIX_ERR_INIT at shutdown; a
// request from a peer that left is dropped.
#ifndef PMIXX_SRC_SERVER_SERVER_GET_H
#define PMIXX_SRC_SERVER_SERVER_GET_H

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "pmix_server.h"
#include "src/server/server_state.h"
#include "src/wire/proc_data.h"

namespace pmix::server::get {

// A client's kGet, parsed.
struct Request {
  PeerPtr requester;
  ptl::Frame reply_to;  // the request's type and tag (payload dropped)
  pmix_proc_t target{};
  std::string key;      // empty: every key of the target
  bool immediate = false;
  bool refresh = false;
  bool want_job = false;  // the client lacks the target namespace's job info
  int timeout = 0;        // seconds; 0: none
  wire::Infos infos;      // the client's directives (handed to the host)
};

enum class Wait { kCommit, kHost };

struct Held {
  Request req;
  Wait wait = Wait::kCommit;
  std::unique_ptr<runtime::ProgressEngine::Timer> timer;
};

// A PMIx_server_dmodex_request waiting for a local process's commit.
struct DmodexHold {
  pmix_proc_t proc{};
  pmix_dmodex_response_fn_t cbfunc = nullptr;
  void* cbdata = nullptr;
};

struct State {
  uint64_t next_id = 1;
  std::map<uint64_t, Held> held;
  std::set<std::pair<std::string, pmix_rank_t>> host_inflight;  // direct_modex calls out
  // Targets whose data came without the key a timed request wants: asked
  // again after a pause (the host's dmodex request cannot name the key).
  std::map<std::pair<std::string, pmix_rank_t>, std::unique_ptr<runtime::ProgressEngine::Timer>>
      host_retry;
  std::vector<DmodexHold> dmodex_holds;
  // Per remote process: the keys its server holds in scopes this node does
  // not see, as the last direct-modex answer about it said (HiddenKeys).
  std::map<std::pair<std::string, pmix_rank_t>, std::set<std::string>> hidden;
};
State& GetState();

bool SameProc(const pmix_proc_t& a, const pmix_proc_t& b);
// The view a requester on this node has of proc's data.
pmix_gds_view_t ViewOf(Server& s, const pmix_proc_t& proc);

// Replies (no-ops when the requester's connection is closed).
void ReplyStatus(const Request& req, pmix_status_t status);
// SUCCESS + the job info when asked for + the data of {target nspace, owner}
// (owner may be PMIX_RANK_UNDEF/WILDCARD: no process record).
void ReplyData(Server& s, const Request& req, pmix_rank_t owner);
// Answers req from the store when it can (data or EXISTS_OUTSIDE_SCOPE).
bool TryAnswer(Server& s, const Request& req);
// Keeps req until what `wait` names arrives (or its timeout fires).
void Hold(Server& s, Request&& req, Wait wait);

// The job-realm data of nspace as a record with rank PMIX_RANK_WILDCARD
// (empty kvs when none).
wire::ProcData JobRecord(Server& s, const char* nspace);

// Records (default codec) as the tail of a message to a peer speaking
// codec: the same bytes, or a transcoded copy when the codecs differ.
Result<std::shared_ptr<const wire::Bytes>> ForCodec(const pmix_bfrops_module_t* codec,
                                                    std::shared_ptr<const wire::Bytes> records);

// A local process committed: answers the held requests about it that the
// store can now answer.
void ReleaseCommitted(Server& s, const pmix_proc_t& who);

// server_commit.cc: stores what `who` committed (a kCommit body, in the
// peer's codec) into s.modex. A malformed body, a record of another
// process or a scope a client cannot commit is refused whole (nothing of it
// stored); keys a client may not put (RFC0009) are dropped.
Status StoreCommit(Server& s, const pmix_proc_t& who, const pmix_bfrops_module_t* codec,
                   const std::shared_ptr<const wire::Bytes>& payload);

// server_commit.cc: stores a blob of records other servers sent through
// the host (default codec). Records of processes local here are skipped
// (what they committed here is authoritative); rank PMIX_RANK_WILDCARD
// records go to the job realm of s.store unless the namespace is
// registered here; the others into s.modex as PMIX_GLOBAL (their server
// filtered them for remote readers). A hidden-keys marker (kHiddenKeysKey)
// is not stored as data: it replaces the process's entry in
// GetState().hidden. Every record is decoded first: a malformed blob, or a
// record of an invalid rank, stores nothing. The stored records share
// `blob` (no copy). Returns the records taken (all but the skipped local
// ones and the markers), for forwarding.
Result<std::vector<wire::RecordRef>> StoreRemoteData(Server& s,
                                                     const std::shared_ptr<const wire::Bytes>& blob);
// The records of blob (a host's fence result, read where the host keeps
// it) that StoreRemoteData would look at: all but this server's local
// processes' own, copied (a malformed blob: its error).
Result<wire::Bytes> ForeignRecords(Server& s, std::span<const uint8_t> blob);

// server_dmodex.cc: what a direct-modex answer says about keys the asking
// node cannot see. After a process's records, its server adds one record
// of that process holding only kHiddenKeysKey (PMIX_DATA_ARRAY of
// PMIX_STRING): the names (never the values) of the keys it committed only
// in scopes remote readers do not see (PMIX_LOCAL). The asking server then
// answers a Get of such a key at once, as OpenPMIx 4.2.2 does, instead of
// holding it until its PMIX_TIMEOUT: the owner committed it and it will
// never be visible there. The key is reserved ("pmix" prefix), so no
// client can commit it (StoreCommit drops it).
inline constexpr const char kHiddenKeysKey[] = "pmixx.dmdx.hidden";
Status AppendHiddenKeys(const pmix_bfrops_module_t* codec, const pmix_proc_t& proc,
                        const std::vector<std::string>& keys, wire::Bytes& out);
// Whether kvs (a decoded record) is such a marker; *keys gets the names.
// PMIX_ERR_BAD_PARAM for a marker of the wrong shape.
Result<bool> ParseHiddenKeys(std::span<const pmix_info_t> kvs, std::vector<std::string>* keys);

// server_dmodex.cc: asks the host for req.target's data (req is held as
// kHost; one direct_modex call per target at a time).
void AskHost(Server& s, Request&& req);
// server_dmodex.cc: local proc committed / is gone (status) / shutdown.
void DmodexOnCommit(Server& s, const pmix_proc_t& proc);
void DmodexFail(Server& s, const pmix_proc_t& proc, pmix_status_t status, bool whole_nspace);

}  // namespace pmix::server::get

#endif  // PMIXX_SRC_SERVER_SERVER_GET_H
