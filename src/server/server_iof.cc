// Forwarded output: the registrations and PMIx_server_IOF_deliver
// (server_iof.h).
#include "src/server/server_iof.h"

#include <memory>
#include <string>

#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
#include "src/runtime/context.h"
#include "src/server/server_internal.h"
#include "src/wire/buffer.h"

namespace pmix::server {
namespace {

bool Matches(const pmix_proc_t& want, const pmix_proc_t& source) {
  return PMIX_CHECK_NSPACE(want.nspace, source.nspace) &&
         (want.rank == PMIX_RANK_WILDCARD || want.rank == source.rank);
}

bool ValidChannel(pmix_iof_channel_t channel) {
  return channel != PMIX_FWD_NO_CHANNELS && (channel & ~PMIX_FWD_ALL_CHANNELS) == 0;
}

// One delivery's completion, once every connection it went to drained
// below the low-water mark.
struct Completion {
  std::function<void(pmix_status_t)> done;
  size_t waiting = 0;
};

// `high`/`low`: the marks (0, 0 for the end of a stream: everything written).
void CompleteWhenDrained(std::vector<std::shared_ptr<wire::Connection>> conns, size_t high,
                         size_t low, std::function<void(pmix_status_t)> done) {
  auto c = std::make_shared<Completion>();
  c->done = std::move(done);
  for (const auto& conn : conns)
    if (conn->queued_bytes() > high) ++c->waiting;
  if (c->waiting == 0) return c->done(PMIX_SUCCESS);
  for (const auto& conn : conns) {
    if (conn->queued_bytes() <= high) continue;
    conn->WhenDrained(low, [c] {
      if (--c->waiting == 0) c->done(PMIX_SUCCESS);
    });
  }
}

}  // namespace

uint64_t IofRegistry::Add(std::vector<pmix_proc_t> sources, pmix_iof_channel_t channels,
                          IofSink sink, const void* owner, std::weak_ptr<wire::Connection> conn) {
  uint64_t id = next_id_++;
  registrations_.emplace(id, Registration{std::move(sources), channels, std::move(sink), owner,
                                          std::move(conn)});
  return id;
}

std::optional<IofRegistry::Removed> IofRegistry::Remove(uint64_t id, const void* owner) {
  auto it = registrations_.find(id);
  if (it == registrations_.end() || (owner != nullptr && it->second.owner != owner))
    return std::nullopt;
  Removed out{std::move(it->second.sources), it->second.channels};
  registrations_.erase(it);
  return out;
}

std::vector<IofRegistry::Removed> IofRegistry::RemoveOwner(const void* owner) {
  std::vector<Removed> out;
  for (auto it = registrations_.begin(); it != registrations_.end();) {
    if (it->second.owner == owner) {
      out.push_back(Removed{std::move(it->second.sources), it->second.channels});
      it = registrations_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

size_t IofRegistry::Deliver(const IofChunk& chunk,
                            std::vector<std::shared_ptr<wire::Connection>>* conns) const {
  size_t delivered = 0;
  for (const auto& [id, reg] : registrations_) {
    if ((reg.channels & chunk.channel) == 0) continue;
    for (const pmix_proc_t& want : reg.sources) {
      if (!Matches(want, chunk.source)) continue;
      reg.sink(chunk);
      ++delivered;
      if (conns != nullptr)
        if (auto c = reg.conn.lock(); c != nullptr && !c->closed()) conns->push_back(std::move(c));
      break;
    }
  }
  return delivered;
}

}  // namespace pmix::server

namespace server = pmix::server;
namespace runtime = pmix::runtime;

extern "C" pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t* source,
                                                 pmix_iof_channel_t channel,
                                                 const pmix_byte_object_t* bo,
                                                 const pmix_info_t info[], size_t ninfo,
                                                 pmix_op_cbfunc_t cbfunc, void* cbdata) {
  return pmix::ApiGuard("PMIx_server_IOF_deliver", [&]() -> pmix_status_t {
    if (!server::ServerInitialized()) return PMIX_ERR_INIT;
    if (source == nullptr || bo == nullptr || (bo->bytes == nullptr && bo->size > 0) ||
        (info == nullptr && ninfo > 0) || !server::ValidChannel(channel))
      return PMIX_ERR_BAD_PARAM;
    auto meta = pmix::wire::Infos::CopyOf(pmix::InfoSpan(info, ninfo));
    if (!meta.ok()) return meta.status().code();
    auto held = std::make_shared<pmix::wire::Infos>(std::move(*meta));
    auto bytes = std::make_shared<std::string>(bo->bytes != nullptr ? bo->bytes : "", bo->size);
    pmix_proc_t from = *source;
    const bool end = pmix::InfoFlag(held->view(), PMIX_IOF_COMPLETE);
    auto start = [from, channel, held, bytes, end](std::function<void(pmix_status_t)> done) {
      server::Server* s = server::CurrentServer();
      if (s == nullptr) return done(PMIX_ERR_INIT);
      server::IofChunk chunk{from, channel, {bytes->data(), bytes->size()}, held->view()};
      std::vector<std::shared_ptr<pmix::wire::Connection>> conns;
      s->iof.Deliver(chunk, &conns);
      server::CompleteWhenDrained(std::move(conns), end ? 0 : server::kIofHighWater,
                                  end ? 0 : server::kIofLowWater, std::move(done));
    };
    if (cbfunc == nullptr) {
      auto rc = runtime::CallBlocking<pmix_status_t>(start);
      return rc.ok() ? *rc : rc.status().code();
    }
    return runtime::Engine()
        ->Post([start, cbfunc, cbdata] {
          start([cbfunc, cbdata](pmix_status_t rc) { cbfunc(rc, cbdata); });
        })
        .code();
  });
}
