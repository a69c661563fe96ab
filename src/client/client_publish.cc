// PMIx_Publish / PMIx_Lookup / PMIx_Unpublish and their _nb forms
// (standard ch. 9).
//
// The datastore is the host's: a client sends the request to its server
// (wire::Msg::kPublish / kLookup / kUnpublish, bodies and server side in
// src/server/server_publish.h), a process that is itself a server hands it
// to its own host. Argument errors (a NULL array with a nonzero count, no
// keys, an empty key or one longer than PMIX_MAX_KEYLEN) are
// PMIX_ERR_BAD_PARAM before anything is sent. Callbacks run on the
// progress thread, after the _nb call returned.
//
// Lookup results (§9.6, §9.7): when the datastore answers with data, the
// status says how much of what was asked came back: PMIX_SUCCESS all of it,
// PMIX_ERR_PARTIAL_SUCCESS some (the blocking form marks the keys not found
// with a PMIX_UNDEF value; the _nb form returns only what was found),
// PMIX_ERR_NOT_FOUND none (no pdata). Any other status of the datastore
// (PMIX_ERR_NO_PERMISSIONS, PMIX_ERR_TIMEOUT, ...) is returned as it is.
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pmix.h"
#include "src/client/client_request.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/server/server_publish.h"

namespace pmix::client {
namespace {

using Keys = std::vector<std::string>;

bool InfoValid(const pmix_info_t* info, size_t ninfo) { return info != nullptr || ninfo == 0; }

// A NULL-terminated key list (NULL: none), or nullopt when a key is bad.
std::optional<Keys> KeyList(char** keys) {
  Keys out;
  for (size_t i = 0; keys != nullptr && keys[i] != nullptr; ++i) {
    if (!server::ValidPubsubKey(keys[i])) return std::nullopt;
    out.emplace_back(keys[i]);
  }
  return out;
}

Result<std::shared_ptr<wire::Infos>> SharedCopy(std::span<const pmix_info_t> info) {
  auto copy = wire::Infos::CopyOf(info);
  if (!copy.ok()) return copy.status();
  return std::make_shared<wire::Infos>(std::move(*copy));
}

void WriteKeys(wire::Writer& w, const Keys& keys) {
  w.U32(static_cast<uint32_t>(keys.size()));
  for (const std::string& k : keys) w.Str(k);
}

pmix_status_t StartPublish(std::span<const pmix_info_t> info, InfoDone done) {
  auto data = SharedCopy(info);
  if (!data.ok()) return data.status().code();
  std::shared_ptr<wire::Infos> held = *data;
  return StartInfoRequest(
      wire::Msg::kPublish, [held](wire::Writer& w) { w.InfoArray(held->view()); },
      [held](server::Server& s, InfoDone done) {
        server::Publish(s, server::SelfRequester(s), held->view(),
                        AsStatusDone(std::move(done)));
      },
      std::move(done));
}

// Runs a lookup / unpublish in a server process: the keys and directives
// stay valid while it runs.
using KeysRunner = std::function<void(server::Server&, const Keys&,
                                      std::span<const pmix_info_t>, InfoDone)>;

// A request whose body is the keys, then the directives.
pmix_status_t StartKeysRequest(wire::Msg msg, Keys keys, std::span<const pmix_info_t> directives,
                               KeysRunner run, InfoDone done) {
  auto dirs = SharedCopy(directives);
  if (!dirs.ok()) return dirs.status().code();
  std::shared_ptr<wire::Infos> held = *dirs;
  auto names = std::make_shared<const Keys>(std::move(keys));
  return StartInfoRequest(
      msg,
      [held, names](wire::Writer& w) {
        WriteKeys(w, *names);
        w.InfoArray(held->view());
      },
      [held, names, run = std::move(run)](server::Server& s, InfoDone done) {
        run(s, *names, held->view(), std::move(done));
      },
      std::move(done));
}

pmix_status_t StartUnpublish(Keys keys, std::span<const pmix_info_t> directives, InfoDone done) {
  return StartKeysRequest(
      wire::Msg::kUnpublish, std::move(keys), directives,
      [](server::Server& s, const Keys& names, std::span<const pmix_info_t> dirs, InfoDone done) {
        server::Unpublish(s, server::SelfRequester(s), names, dirs, AsStatusDone(std::move(done)));
      },
      std::move(done));
}

pmix_status_t StartLookup(Keys keys, std::span<const pmix_info_t> directives, InfoDone done) {
  return StartKeysRequest(
      wire::Msg::kLookup, std::move(keys), directives,
      [](server::Server& s, const Keys& names, std::span<const pmix_info_t> dirs, InfoDone done) {
        server::Lookup(s, server::SelfRequester(s), names, dirs,
                       [done](pmix_status_t status, server::LookupFound&& found) {
                         auto infos = server::EncodeFound(found);
                         if (!infos.ok()) return done(InfoReply{infos.status().code(), {}});
                         done(InfoReply{status, std::move(*infos)});
                       });
      },
      std::move(done));
}

// What a lookup of `keys` got: the data found (only when the datastore
// answered with data) and the status the caller sees (header comment).
struct LookupOutcome {
  pmix_status_t status = PMIX_ERROR;
  server::LookupFound found;
};

// The first datum for `key`, or -1.
ssize_t FindDatum(const server::LookupFound& found, const char* key) {
  auto data = found.data.view();
  for (size_t i = 0; i < data.size(); ++i)
    if (PMIX_CHECK_KEY(&data[i], key)) return static_cast<ssize_t>(i);
  return -1;
}

LookupOutcome Interpret(InfoReply&& reply, const Keys& keys) {
  LookupOutcome out;
  out.status = reply.status;
  if (reply.status != PMIX_SUCCESS && reply.status != PMIX_ERR_PARTIAL_SUCCESS) return out;
  auto found = server::DecodeFound(reply.info.view());
  if (!found.ok()) {
    out.status = found.status().code();
    return out;
  }
  out.found = std::move(*found);
  size_t matched = 0;
  for (const std::string& k : keys) matched += FindDatum(out.found, k.c_str()) >= 0 ? 1 : 0;
  out.status = matched == keys.size() ? PMIX_SUCCESS
               : matched == 0         ? PMIX_ERR_NOT_FOUND
                                      : PMIX_ERR_PARTIAL_SUCCESS;
  if (matched == 0) out.found = server::LookupFound();
  return out;
}

// Hands the found data to a pmix_lookup_cbfunc_t as a pdata array that
// lives for the call.
void DeliverLookup(pmix_lookup_cbfunc_t cbfunc, void* cbdata, const Keys& keys,
                   InfoReply&& reply) {
  if (cbfunc == nullptr) return;
  LookupOutcome out = Interpret(std::move(reply), keys);
  auto data = out.found.data.view();
  std::vector<pmix_pdata_t> pdata(data.size());
  for (size_t i = 0; i < data.size(); ++i) {
    PMIx_Pdata_construct(&pdata[i]);
    PMIx_Load_key(pdata[i].key, data[i].key);
    pdata[i].proc = out.found.publishers[i];
    pmix_status_t rc = PMIx_Value_xfer(&pdata[i].value, &data[i].value);
    if (rc != PMIX_SUCCESS && out.status == PMIX_SUCCESS) out.status = rc;
  }
  cbfunc(out.status, pdata.empty() ? nullptr : pdata.data(), pdata.size(), cbdata);
  for (pmix_pdata_t& p : pdata) PMIx_Pdata_destruct(&p);
}

// Fills the caller's pdata from the outcome (the blocking form).
pmix_status_t FillPdata(pmix_pdata_t* pdata, size_t ndata, const LookupOutcome& out) {
  if (out.status != PMIX_SUCCESS && out.status != PMIX_ERR_PARTIAL_SUCCESS) return out.status;
  auto data = out.found.data.view();
  for (size_t i = 0; i < ndata; ++i) {
    ssize_t at = FindDatum(out.found, pdata[i].key);
    if (at < 0) {
      pdata[i].value.type = PMIX_UNDEF;
      continue;
    }
    pdata[i].proc = out.found.publishers[at];
    pmix_status_t rc = PMIx_Value_xfer(&pdata[i].value, &data[at].value);
    if (rc != PMIX_SUCCESS) return rc;
  }
  return out.status;
}

void DeliverOp(pmix_op_cbfunc_t cbfunc, void* cbdata, const InfoReply& reply) {
  if (cbfunc != nullptr) cbfunc(reply.status, cbdata);
}

}  // namespace
}  // namespace pmix::client

namespace client = pmix::client;

extern "C" pmix_status_t PMIx_Publish_nb(const pmix_info_t info[], size_t ninfo,
                                         pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Publish_nb", [&]() -> pmix_status_t {
    if (info == nullptr || ninfo == 0) return PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < ninfo; ++i)
      if (!pmix::server::ValidPubsubKey(info[i].key)) return PMIX_ERR_BAD_PARAM;
    return client::StartPublish(pmix::InfoSpan(info, ninfo), [cbfunc, cbdata](client::InfoReply&& r) {
      client::DeliverOp(cbfunc, cbdata, r);
    });
  });
}

extern "C" pmix_status_t PMIx_Publish(const pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Publish", [&]() -> pmix_status_t {
    if (info == nullptr || ninfo == 0) return PMIX_ERR_BAD_PARAM;
    for (size_t i = 0; i < ninfo; ++i)
      if (!pmix::server::ValidPubsubKey(info[i].key)) return PMIX_ERR_BAD_PARAM;
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::StartPublish(pmix::InfoSpan(info, ninfo), std::move(done));
    });
    return r.ok() ? r->status : r.status().code();
  });
}

extern "C" pmix_status_t PMIx_Lookup_nb(char** keys, const pmix_info_t info[], size_t ninfo,
                                        pmix_lookup_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Lookup_nb", [&]() -> pmix_status_t {
    if (!client::InfoValid(info, ninfo)) return PMIX_ERR_BAD_PARAM;
    auto names = client::KeyList(keys);
    if (!names || names->empty()) return PMIX_ERR_BAD_PARAM;
    auto wanted = std::make_shared<const client::Keys>(*names);
    return client::StartLookup(std::move(*names), pmix::InfoSpan(info, ninfo),
                               [cbfunc, cbdata, wanted](client::InfoReply&& r) {
                                 client::DeliverLookup(cbfunc, cbdata, *wanted, std::move(r));
                               });
  });
}

extern "C" pmix_status_t PMIx_Lookup(pmix_pdata_t data[], size_t ndata, const pmix_info_t info[],
                                     size_t ninfo) {
  return pmix::ApiGuard("PMIx_Lookup", [&]() -> pmix_status_t {
    if (data == nullptr || ndata == 0 || !client::InfoValid(info, ninfo)) return PMIX_ERR_BAD_PARAM;
    client::Keys keys;
    for (size_t i = 0; i < ndata; ++i) {
      if (!pmix::server::ValidPubsubKey(data[i].key)) return PMIX_ERR_BAD_PARAM;
      keys.emplace_back(data[i].key);
    }
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::StartLookup(keys, pmix::InfoSpan(info, ninfo), std::move(done));
    });
    if (!r.ok()) return r.status().code();
    return client::FillPdata(data, ndata, client::Interpret(std::move(*r), keys));
  });
}

extern "C" pmix_status_t PMIx_Unpublish_nb(char** keys, const pmix_info_t info[], size_t ninfo,
                                           pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_Unpublish_nb", [&]() -> pmix_status_t {
    if (!client::InfoValid(info, ninfo)) return PMIX_ERR_BAD_PARAM;
    auto names = client::KeyList(keys);
    if (!names) return PMIX_ERR_BAD_PARAM;
    return client::StartUnpublish(std::move(*names), pmix::InfoSpan(info, ninfo),
                                  [cbfunc, cbdata](client::InfoReply&& r) {
                                    client::DeliverOp(cbfunc, cbdata, r);
                                  });
  });
}

extern "C" pmix_status_t PMIx_Unpublish(char** keys, const pmix_info_t info[], size_t ninfo) {
  return pmix::ApiGuard("PMIx_Unpublish", [&]() -> pmix_status_t {
    if (!client::InfoValid(info, ninfo)) return PMIX_ERR_BAD_PARAM;
    auto names = client::KeyList(keys);
    if (!names) return PMIX_ERR_BAD_PARAM;
    auto r = client::WaitInfoReply([&](client::InfoDone done) {
      return client::StartUnpublish(*names, pmix::InfoSpan(info, ninfo), std::move(done));
    });
    return r.ok() ? r->status : r.status().code();
  });
}
