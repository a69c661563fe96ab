// PMIx_Query_info on the server: library, store, then host (server_query.h).
#include "src/server/server_query.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/server/server_get.h"
#include "src/server/server_query_keys.h"
#include "src/server/server_upcall.h"

namespace pmix::server {
namespace {

// The remaining queries in the form the host's upcall takes; alive until
// the host's callback (pointers into `pending`).
struct HostQueries {
  query::Answers::Pending pending;
  std::vector<std::vector<char*>> argvs;
  std::vector<pmix_query_t> queries;
  pmix_proc_t requester{};

  void Build() {
    argvs.resize(pending.queries.size());
    queries.resize(pending.queries.size());
    for (size_t i = 0; i < pending.queries.size(); ++i) {
      query::Query& q = pending.queries[i];
      for (std::string& k : q.keys) argvs[i].push_back(k.data());
      argvs[i].push_back(nullptr);
      queries[i].keys = argvs[i].data();
      queries[i].qualifiers = q.qualifiers.size() > 0 ? q.qualifiers.data() : nullptr;
      queries[i].nqual = q.qualifiers.size();
    }
  }
};

// Steps 1 and 2 for every key.
void AnswerHere(Server& s, const pmix_proc_t& requester, const query::QueryList& queries,
                query::Answers& answers) {
  for (size_t q = 0; q < queries.size(); ++q) {
    for (size_t k = 0; k < queries[q].keys.size(); ++k) {
      const std::string& key = queries[q].keys[k];
      gds::ValuePtr value = LibraryQueryAnswer(s, requester, queries[q], key);
      if (value == nullptr && !IsLibraryQueryKey(key)) {
        pmix_proc_t target = query::QueryTarget(queries[q], requester);
        if (s.FindNamespace(target.nspace) != nullptr) {
          auto v = query::LookupInStore(s.store, queries[q], key, requester, s.hostname,
                                        get::ViewOf(s, target));
          if (v.ok()) value = std::move(*v);
        }
      }
      if (value != nullptr) answers.Answer(q, k, *value).ok();
    }
  }
}

void Finish(const std::shared_ptr<query::Answers>& answers, const QueryDone& done) {
  auto merged = answers->Merged();
  if (!merged.ok()) return done(merged.status().code(), wire::Infos());
  done(answers->Outcome(), std::move(*merged));
}

void AskHost(Server& s, std::shared_ptr<HostQueries> host, std::shared_ptr<query::Answers> answers,
             QueryDone done) {
  auto absorb = [host, answers, done](pmix_status_t status, wire::Infos&& infos) {
    Status st = answers->Absorb(host->pending, status, infos);
    if (!st.ok()) return done(st.code(), wire::Infos());
    Finish(answers, done);
  };
  if (s.module.query == nullptr) return absorb(PMIX_ERR_NOT_SUPPORTED, wire::Infos());
  host->Build();
  auto upcall = s.module.query;
  CallHostForInfos(
      [&](pmix_info_cbfunc_t cbfunc, void* cbdata) {
        return upcall(&host->requester, host->queries.data(), host->queries.size(), cbfunc, cbdata);
      },
      absorb);
}

}  // namespace

void Query(Server& s, const pmix_proc_t& requester, query::QueryList&& queries, QueryDone done) {
  Status valid = query::CheckQueries(queries);
  if (!valid.ok()) return done(valid.code(), wire::Infos());
  auto answers = std::make_shared<query::Answers>(queries);
  AnswerHere(s, requester, queries, *answers);
  if (answers->Complete()) return Finish(answers, done);
  auto pending = answers->Unanswered(queries);
  if (!pending.ok()) return done(pending.status().code(), wire::Infos());
  auto host = std::make_shared<HostQueries>();
  host->pending = std::move(*pending);
  host->requester = requester;
  AskHost(s, std::move(host), std::move(answers), std::move(done));
}

void HandleQuery(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  query::QueryList queries = query::UnpackQueries(r);
  InfosDone reply = InfosReplier(peer, frame);
  if (!r.status().ok()) return reply(r.status().code(), wire::Infos());
  Query(s, peer->proc, std::move(queries), std::move(reply));
}

}  // namespace pmix::server
