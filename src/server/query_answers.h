// The pure parts of PMIx_Query_info (standard §7.1) shared by the client
// (src/client/client_query.cc) and the server (server_query.h): queries as
// owned values, their wire form, where a query's target is, a key looked
// up in a gds store as a get would, and the merging of answers from the
// places a query goes (the client's cache, the server library, the host).
//
// Result format (as OpenPMIx 4.2.2 returns it): one flat info array, one
// info per answered key (key = the query key), in query order and key
// order, followed by whatever else a source returned. Status: every key
// answered -> PMIX_SUCCESS, some -> PMIX_ERR_PARTIAL_SUCCESS, none ->
// PMIX_ERR_NOT_FOUND (or the first error other than NOT_FOUND a source
// reported, e.g. PMIX_ERR_NOT_SUPPORTED from a host without a query
// upcall); the infos are empty unless SUCCESS or PARTIAL_SUCCESS.
//
// Threads: no shared state; an Answers object belongs to one thread at a
// time (the progress thread).
#ifndef PMIXX_SRC_SERVER_QUERY_ANSWERS_H
#define PMIXX_SRC_SERVER_QUERY_ANSWERS_H

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mca/gds/base/gds_base.h"
#include "pmix_common.h"
#include "src/common/status.h"
#include "src/wire/buffer.h"

namespace pmix::query {

struct Query {
  std::vector<std::string> keys;  // at least one
  wire::Infos qualifiers;
};
using QueryList = std::vector<Query>;

// Deep copies of the caller's queries. PMIX_ERR_BAD_PARAM for no queries,
// a query without keys (NULL or empty argv), an empty or overlong
// (> PMIX_MAX_KEYLEN) key, NULL qualifiers with nqual > 0, or a query
// naming its process both by PMIX_PROCID and by PMIX_NSPACE/PMIX_RANK
// (§7.1.2).
Result<QueryList> CopyQueries(const pmix_query_t* queries, size_t nqueries);
Result<QueryList> CopyQueries(const QueryList& queries);
// The same checks for queries read from a peer.
Status CheckQueries(const QueryList& queries);

// Wire body: u32 count, then per query u32 nkeys, the keys (strings), the
// qualifiers (info array). Unpack leaves its error in the reader.
void PackQueries(wire::Writer& w, const QueryList& queries);
QueryList UnpackQueries(wire::Reader& r);

// PMIX_QUERY_REFRESH_CACHE among the qualifiers.
bool WantsRefresh(const Query& query);

// The process a query is about: PMIX_PROCID, else PMIX_NSPACE with
// PMIX_RANK (default PMIX_RANK_WILDCARD), else the requester's namespace
// with PMIX_RANK (default PMIX_RANK_WILDCARD: its job).
pmix_proc_t QueryTarget(const Query& query, const pmix_proc_t& requester);
// The namespace a query names (PMIX_NSPACE or PMIX_PROCID), if any.
std::optional<std::string> QueryNspace(const Query& query);

// `key` for `query` in `store`, looked up as PMIx_Get would with the
// query's qualifiers as its directives (realm qualifiers such as
// PMIX_NODE_INFO + PMIX_HOSTNAME included); `hostname` is the requester's
// node. The value, or PMIX_ERR_NOT_FOUND (also for qualifiers a get
// cannot use).
Result<gds::ValuePtr> LookupInStore(const gds::Store& store, const Query& query,
                                    std::string_view key, const pmix_proc_t& requester,
                                    std::string_view hostname, pmix_gds_view_t view);

// The answers to one set of queries, one slot per (query, key).
class Answers {
 public:
  struct Slot {
    size_t query = 0;
    size_t key = 0;
    std::string name;
  };
  // The keys some source still has to answer, as queries of their own
  // (qualifiers copied), and which slot each of their keys fills.
  struct Pending {
    QueryList queries;
    std::vector<Slot> slots;  // in the order of queries[i].keys
  };

  explicit Answers(const QueryList& queries);

  // Slot (query, key) answered with a copy of value.
  Status Answer(size_t query, size_t key, const pmix_value_t& value);
  bool Answered(size_t query, size_t key) const;
  bool Complete() const;

  Result<Pending> Unanswered(const QueryList& queries) const;
  // A source's reply to `pending`: each info fills the first slot of its
  // key not yet filled by this reply (a second answer to a filled key goes
  // with it); infos matching no key are kept as extras. A PMIX_SUCCESS
  // reply with infos counts every pending key as answered (a host may
  // answer under other keys, e.g. PMIX_QUERY_RESULTS); other statuses but
  // PARTIAL_SUCCESS contribute their status only.
  Status Absorb(const Pending& pending, pmix_status_t status, const wire::Infos& infos);

  pmix_status_t Outcome() const;
  // The merged infos (see the file comment); empty unless the outcome is
  // SUCCESS or PARTIAL_SUCCESS.
  Result<wire::Infos> Merged() const;

 private:
  struct Entry {
    std::string name;
    bool answered = false;
    wire::Infos values;
  };
  Entry& At(size_t query, size_t key);
  std::vector<Slot> slots_;
  std::vector<std::vector<Entry>> entries_;
  wire::Infos extras_;
  pmix_status_t error_ = PMIX_SUCCESS;  // first source error other than NOT_FOUND
};

}  // namespace pmix::query

#endif  // PMIXX_SRC_SERVER_QUERY_ANSWERS_H
