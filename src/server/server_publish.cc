// Publish / lookup / unpublish on the server: requests handed to the
// host's datastore upcalls (server_publish.h).
#include "src/server/server_publish.h"

#include <cstring>
#include <memory>
#include <utility>

#include "pmix_server.h"
#include "src/server/server_internal.h"

namespace pmix::server {
namespace {

// What an upcall is handed, kept alive until the host calls back: the
// requester, its directives and (lookup, unpublish) a NULL-terminated copy
// of the keys. Built in place and never moved (argv points into keys).
struct UpcallArgs {
  pmix_proc_t proc{};
  wire::Infos info;
  std::vector<std::string> keys;
  std::vector<char*> argv;

  UpcallArgs(const pmix_proc_t& who, wire::Infos directives, const std::vector<std::string>& names)
      : proc(who), info(std::move(directives)), keys(names) {
    for (std::string& k : keys) argv.push_back(k.data());
    argv.push_back(nullptr);
  }
  UpcallArgs(const UpcallArgs&) = delete;
  UpcallArgs& operator=(const UpcallArgs&) = delete;

  // NULL when there are no keys (unpublish: "all of mine").
  char** Keys() { return keys.empty() ? nullptr : argv.data(); }
  pmix_info_t* Info() { return info.size() > 0 ? info.data() : nullptr; }
};

Result<std::shared_ptr<UpcallArgs>> MakeArgs(const Requester& who,
                                             std::span<const pmix_info_t> directives,
                                             const std::vector<std::string>& keys) {
  for (const std::string& k : keys)
    if (!ValidPubsubKey(k.c_str())) return Status(PMIX_ERR_BAD_PARAM);
  auto dirs = WithRequesterIds(directives, who);
  if (!dirs.ok()) return dirs.status();
  return std::make_shared<UpcallArgs>(who.proc, std::move(*dirs), keys);
}

// u32 count, then that many strings.
Result<std::vector<std::string>> ReadKeys(wire::Reader& r) {
  uint32_t n = r.U32();
  if (!r.status().ok()) return r.status();
  if (n > kMaxPubsubKeys) return Status(PMIX_ERR_BAD_PARAM);
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < n && r.status().ok(); ++i) keys.push_back(r.String());
  if (!r.status().ok()) return r.status();
  return keys;
}

// A lookup's / unpublish's body: the keys, then the directives.
struct KeysRequest {
  std::vector<std::string> keys;
  wire::Infos directives;
};

Result<KeysRequest> ReadKeysRequest(const PeerPtr& peer, const ptl::Frame& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  auto keys = ReadKeys(r);
  if (!keys.ok()) return keys.status();
  wire::Infos directives = r.InfoArray();
  if (!r.status().ok()) return r.status();
  return KeysRequest{std::move(*keys), std::move(directives)};
}

}  // namespace

bool ValidPubsubKey(const char* key) {
  if (key == nullptr || key[0] == '\0') return false;
  return strnlen(key, PMIX_MAX_KEYLEN + 1) <= PMIX_MAX_KEYLEN;
}

void Publish(Server& s, const Requester& who, std::span<const pmix_info_t> info,
             StatusDone done) {
  auto publish = s.module.publish;
  if (publish == nullptr) return done(PMIX_ERR_NOT_SUPPORTED);
  auto args = MakeArgs(who, info, {});
  if (!args.ok()) return done(args.status().code());
  std::shared_ptr<UpcallArgs> held = *args;
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        return publish(&held->proc, held->Info(), held->info.size(), cbfunc, cbdata);
      },
      [held, done](pmix_status_t status) { done(status); });
}

void Lookup(Server& s, const Requester& who, const std::vector<std::string>& keys,
            std::span<const pmix_info_t> directives, LookupDone done) {
  auto lookup = s.module.lookup;
  if (lookup == nullptr) return done(PMIX_ERR_NOT_SUPPORTED, LookupFound());
  if (keys.empty()) return done(PMIX_ERR_BAD_PARAM, LookupFound());
  auto args = MakeArgs(who, directives, keys);
  if (!args.ok()) return done(args.status().code(), LookupFound());
  std::shared_ptr<UpcallArgs> held = *args;
  CallHostForLookup(
      [&](pmix_lookup_cbfunc_t cbfunc, void* cbdata) {
        return lookup(&held->proc, held->Keys(), held->Info(), held->info.size(), cbfunc, cbdata);
      },
      [held, done](pmix_status_t status, LookupFound&& found) { done(status, std::move(found)); });
}

void Unpublish(Server& s, const Requester& who, const std::vector<std::string>& keys,
               std::span<const pmix_info_t> directives, StatusDone done) {
  auto unpublish = s.module.unpublish;
  if (unpublish == nullptr) return done(PMIX_ERR_NOT_SUPPORTED);
  auto args = MakeArgs(who, directives, keys);
  if (!args.ok()) return done(args.status().code());
  std::shared_ptr<UpcallArgs> held = *args;
  CallHostForStatus(
      [&](pmix_op_cbfunc_t cbfunc, void* cbdata) {
        return unpublish(&held->proc, held->Keys(), held->Info(), held->info.size(), cbfunc,
                         cbdata);
      },
      [held, done](pmix_status_t status) { done(status); });
}

Result<wire::Infos> EncodeFound(const LookupFound& found) {
  if (found.publishers.size() != found.data.size()) return Status(PMIX_ERR_BAD_PARAM);
  wire::Infos out;
  for (size_t i = 0; i < found.data.size(); ++i) {
    PMIX_RETURN_IF_ERROR(out.Append(found.data.view()[i]));
    PMIX_RETURN_IF_ERROR(out.Add(PMIX_PROCID, &found.publishers[i], PMIX_PROC));
  }
  return out;
}

Result<LookupFound> DecodeFound(std::span<const pmix_info_t> infos) {
  if (infos.size() % 2 != 0) return Status(PMIX_ERR_UNPACK_FAILURE);
  LookupFound found;
  for (size_t i = 0; i < infos.size(); i += 2) {
    const pmix_info_t& who = infos[i + 1];
    if (!PMIX_CHECK_KEY(&who, PMIX_PROCID) || who.value.type != PMIX_PROC ||
        who.value.data.proc == nullptr)
      return Status(PMIX_ERR_UNPACK_FAILURE);
    PMIX_RETURN_IF_ERROR(found.data.Append(infos[i]));
    found.publishers.push_back(*who.value.data.proc);
  }
  return found;
}

// --- message handlers ----------------------------------------------------------

void HandlePublish(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  wire::Reader r(peer->conn->codec(), frame.payload);
  wire::Infos info = r.InfoArray();
  StatusDone reply = StatusReplier(peer, frame);
  if (!r.status().ok()) return reply(r.status().code());
  Publish(s, RequesterOf(*peer), info.view(), std::move(reply));
}

void HandleLookup(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  auto req = ReadKeysRequest(peer, frame);
  InfosDone reply = InfosReplier(peer, frame);
  if (!req.ok()) return reply(req.status().code(), wire::Infos());
  Lookup(s, RequesterOf(*peer), req->keys, req->directives.view(),
         [reply](pmix_status_t status, LookupFound&& found) {
           auto infos = EncodeFound(found);
           if (!infos.ok()) return reply(infos.status().code(), wire::Infos());
           reply(status, std::move(*infos));
         });
}

void HandleUnpublish(Server& s, const PeerPtr& peer, ptl::Frame&& frame) {
  auto req = ReadKeysRequest(peer, frame);
  StatusDone reply = StatusReplier(peer, frame);
  if (!req.ok()) return reply(req.status().code());
  Unpublish(s, RequesterOf(*peer), req->keys, req->directives.view(), std::move(reply));
}

}  // namespace pmix::server
