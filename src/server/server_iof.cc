// Forwarded output: the registrations and PMIx_server_IOF_deliver
// (server_iof.h).
#include "src/server/server_iof.h"

#include <memory>
#include <string>

#include "pmix_server.h"
#include "src/common/api_guard.h"
#include "src/common/info_lookup.h"
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

}  // namespace

uint64_t IofRegistry::Add(std::vector<pmix_proc_t> sources, pmix_iof_channel_t channels,
                          IofSink sink) {
  uint64_t id = next_id_++;
  registrations_.emplace(id, Registration{std::move(sources), channels, std::move(sink)});
  return id;
}

bool IofRegistry::Remove(uint64_t id) { return registrations_.erase(id) > 0; }

size_t IofRegistry::Deliver(const IofChunk& chunk) const {
  size_t delivered = 0;
  for (const auto& [id, reg] : registrations_) {
    if ((reg.channels & chunk.channel) == 0) continue;
    for (const pmix_proc_t& want : reg.sources) {
      if (!Matches(want, chunk.source)) continue;
      reg.sink(chunk);
      ++delivered;
      break;
    }
  }
  return delivered;
}

}  // namespace pmix::server

namespace server = pmix::server;

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
    return server::RunOp(
        [from, channel, held, bytes](server::Server& s) {
          server::IofChunk chunk{from, channel, {bytes->data(), bytes->size()}, held->view()};
          s.iof.Deliver(chunk);
          return pmix::Status();
        },
        cbfunc, cbdata);
  });
}
