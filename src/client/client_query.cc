// PMIx_Query_info and PMIx_Query_info_nb (standard §7.1).
//
// A query runs on the progress thread. Its keys are answered, each by the
// first that can: the library itself (PMIX_QUERY_STABLE_ABI_VERSION and
// PMIX_QUERY_PROVISIONAL_ABI_VERSION, also before PMIx_Init in the
// blocking form, §7.1.2); the client's cache, as a get would look it up
// with the query's qualifiers (job data it holds: PMIX_JOB_SIZE, node and
// app keys, ...), unless the query carries PMIX_QUERY_REFRESH_CACHE or the
// key is one the server answers from live state; then the server
// (server_query.h: its own answers, its store, its host), asked once with
// the remaining keys. In a process that is itself a server the server part
// runs locally; a singleton has no server to ask. Answers are merged as
// src/server/query_answers.h says (flat info array, OpenPMIx 4.2.2's
// format; SUCCESS / PARTIAL_SUCCESS / NOT_FOUND or the host's error).
#include <memory>
#include <string_view>
#include <utility>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/client/client_state.h"
#include "src/common/api_guard.h"
#include "src/common/attribute_support.h"
#include "src/runtime/context.h"
#include "src/server/query_answers.h"
#include "src/server/server_query.h"
#include "src/server/server_query_keys.h"

namespace pmix::client {
namespace {

using query::Answers;
using query::QueryList;
using QueriesPtr = std::shared_ptr<const QueryList>;

// The standard ABI versions this library offers: none (as OpenPMIx 4.2.2
// answers).
constexpr const char* kNoAbiVersion = "0.0";

bool IsAbiKey(std::string_view key) {
  return key == PMIX_QUERY_STABLE_ABI_VERSION || key == PMIX_QUERY_PROVISIONAL_ABI_VERSION;
}

bool OnlyAbiKeys(const QueryList& queries) {
  for (const auto& q : queries)
    for (const auto& k : q.keys)
      if (!IsAbiKey(k)) return false;
  return true;
}

// PMIX_QUERY_ATTRIBUTE_SUPPORT about the library's own levels only
// (src/common/attribute_support.h): answered here, without a server.
bool AnswerAttributeSupport(const query::Query& q, size_t qi, size_t ki, Answers& answers) {
  auto qual = q.qualifiers.view();
  if (!attrs::AsksLibrary(qual) || attrs::AsksHost(qual)) return false;
  std::vector<pmix_info_t> infos;
  Status st = attrs::AddLibraryAnswer(qual, &infos);
  pmix_value_t v;
  PMIx_Value_construct(&v);
  if (st.ok() && !infos.empty()) {
    pmix_data_array_t array{PMIX_INFO, infos.size(), infos.data()};
    if (PMIx_Value_load(&v, &array, PMIX_DATA_ARRAY) == PMIX_SUCCESS) answers.Answer(qi, ki, v).ok();
  }
  PMIx_Value_destruct(&v);
  for (pmix_info_t& i : infos) PMIx_Info_destruct(&i);
  return true;
}

// The library's and (in a client) the cache's answers.
void AnswerLocally(Client* c, const QueryList& queries, Answers& answers) {
  pmix_value_t abi;
  PMIx_Value_construct(&abi);
  abi.type = PMIX_STRING;
  abi.data.string = const_cast<char*>(kNoAbiVersion);
  for (size_t q = 0; q < queries.size(); ++q) {
    bool use_cache = c != nullptr && !query::WantsRefresh(queries[q]);
    for (size_t k = 0; k < queries[q].keys.size(); ++k) {
      const std::string& key = queries[q].keys[k];
      if (IsAbiKey(key)) {
        answers.Answer(q, k, abi).ok();
        continue;
      }
      if (key == PMIX_QUERY_ATTRIBUTE_SUPPORT && AnswerAttributeSupport(queries[q], q, k, answers))
        continue;
      if (!use_cache || server::IsLibraryQueryKey(key)) continue;
      auto v = query::LookupInStore(c->cache, queries[q], key, c->myproc, c->hostname,
                                    PMIX_GDS_VIEW_ALL);
      if (v.ok()) answers.Answer(q, k, **v).ok();
    }
  }
}

void Finish(const Answers& answers, const InfoDone& done) {
  auto merged = answers.Merged();
  if (!merged.ok()) return done(InfoReply{merged.status().code(), {}});
  done(InfoReply{answers.Outcome(), std::move(*merged)});
}

// The keys left, to the server (or, in a server process, to its own query).
void AskServer(std::shared_ptr<Answers> answers, std::shared_ptr<Answers::Pending> pending,
               const InfoDone& done) {
  auto absorb = [answers, pending, done](InfoReply&& reply) {
    Status st = answers->Absorb(*pending, reply.status, reply.info);
    if (!st.ok()) return done(InfoReply{st.code(), {}});
    Finish(*answers, done);
  };
  pmix_status_t rc = StartInfoRequest(
      wire::Msg::kQuery, [pending](wire::Writer& w) { query::PackQueries(w, pending->queries); },
      [pending](server::Server& s, InfoDone reply) {
        auto copy = query::CopyQueries(pending->queries);
        if (!copy.ok()) return reply(InfoReply{copy.status().code(), {}});
        server::Query(s, s.myproc, std::move(*copy),
                      [reply](pmix_status_t status, wire::Infos&& infos) {
                        reply(InfoReply{status, std::move(infos)});
                      });
      },
      absorb);
  if (rc != PMIX_SUCCESS) absorb(InfoReply{rc, {}});
}

// Progress thread: the whole query.
void RunQuery(const QueriesPtr& queries, const InfoDone& done) {
  Client* c = CurrentClient();
  auto answers = std::make_shared<Answers>(*queries);
  AnswerLocally(c, *queries, *answers);
  bool no_server =
      c != nullptr && (c->singleton || c->conn == nullptr) && server::CurrentServer() == nullptr;
  if (answers->Complete() || no_server) return Finish(*answers, done);
  auto pending = answers->Unanswered(*queries);
  if (!pending.ok()) return done(InfoReply{pending.status().code(), {}});
  AskServer(answers, std::make_shared<Answers::Pending>(std::move(*pending)), done);
}

pmix_status_t Start(const QueriesPtr& queries, InfoDone done) {
  runtime::ProgressEngine* engine = runtime::Engine();
  if (engine == nullptr) return PMIX_ERR_INIT;
  return engine->Post([queries, done = std::move(done)] { RunQuery(queries, done); }).code();
}

Result<QueriesPtr> Prepare(pmix_query_t queries[], size_t nqueries) {
  auto list = query::CopyQueries(queries, nqueries);
  if (!list.ok()) return list.status();
  return QueriesPtr(std::make_shared<const QueryList>(std::move(*list)));
}

// Before init: only the ABI keys, answered here (§7.1.2).
pmix_status_t AnswerWithoutLibrary(const QueryList& queries, pmix_info_t** info, size_t* ninfo) {
  if (!OnlyAbiKeys(queries)) return PMIX_ERR_INIT;
  Answers answers(queries);
  AnswerLocally(nullptr, queries, answers);
  auto merged = answers.Merged();
  if (!merged.ok()) return merged.status().code();
  return CopyInfoReplyOut(InfoReply{answers.Outcome(), std::move(*merged)}, info, ninfo);
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries,
                                            pmix_info_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Query_info_nb", [&]() -> pmix_status_t {
    auto prepared = client::Prepare(queries, nqueries);
    if (!prepared.ok()) return prepared.status().code();
    return client::Start(*prepared, [cbfunc, cbdata](client::InfoReply&& r) {
      client::DeliverInfoReply(cbfunc, cbdata, std::move(r));
    });
  });
}

extern "C" pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries,
                                         pmix_info_t* info[], size_t* ninfo) {
  return pmix::ApiGuard("PMIx_Query_info", [&]() -> pmix_status_t {
    if (info != nullptr) *info = nullptr;
    if (ninfo != nullptr) *ninfo = 0;
    if (info == nullptr || ninfo == nullptr) return PMIX_ERR_BAD_PARAM;
    auto prepared = client::Prepare(queries, nqueries);
    if (!prepared.ok()) return prepared.status().code();
    if (pmix::runtime::Engine() == nullptr)
      return client::AnswerWithoutLibrary(**prepared, info, ninfo);
    auto r = client::WaitInfoReply(
        [&](client::InfoDone done) { return client::Start(*prepared, std::move(done)); });
    if (!r.ok()) return r.status().code();
    return client::CopyInfoReplyOut(*r, info, ninfo);
  });
}
