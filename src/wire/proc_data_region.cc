// Records inline or in sealed regions (proc_data_region.h).
#include "src/wire/proc_data_region.h"

#include <string>
#include <utility>

#include "mca/gds/base/gds_base.h"
#include "mca/ptl/base/frame.h"

namespace pmix::wire {

SharedBytes Share(std::shared_ptr<const Bytes> payload) {
  if (payload == nullptr) return {};
  size_t size = payload->size();
  const uint8_t* base = payload->data();
  return SharedBytes{std::shared_ptr<const uint8_t>(std::move(payload), base), size};
}

SharedBytes Share(std::shared_ptr<const gds::Region> region) {
  if (region == nullptr) return {};
  std::span<const uint8_t> bytes = region->bytes();
  return SharedBytes{std::shared_ptr<const uint8_t>(std::move(region), bytes.data()), bytes.size()};
}

Status PackRecords(Writer& w, std::span<const gds::Region* const> regions, uint32_t first_fd) {
  if (first_fd > ptl::kMaxFrameFds || regions.size() > ptl::kMaxFrameFds - first_fd)
    return PMIX_ERR_BAD_PARAM;
  for (const gds::Region* region : regions) {
    if (region == nullptr || region->fd() < 0 || region->module() == nullptr || region->size() == 0)
      return PMIX_ERR_NOT_SUPPORTED;
  }
  w.U32(static_cast<uint32_t>(regions.size()));
  uint32_t index = first_fd;
  for (const gds::Region* region : regions) w.String(region->module()->name).U32(index++).U64(region->size());
  return w.status();
}

Result<std::vector<SharedBytes>> UnpackRecords(Reader& r, const std::shared_ptr<const Bytes>& payload,
                                               std::vector<ptl::Fd>& fds) {
  std::vector<SharedBytes> out;
  if (r.AtEnd()) return out;
  uint32_t n = r.U32();
  PMIX_RETURN_IF_ERROR(r.status());
  if (n > ptl::kMaxFrameFds || n > fds.size()) return Status(PMIX_ERR_BAD_PARAM);
  struct Announced {
    std::string medium;
    uint32_t index = 0;
    uint64_t size = 0;
  };
  std::vector<Announced> regions(n);
  for (Announced& a : regions) {
    a.medium = r.String();
    a.index = r.U32();
    a.size = r.U64();
  }
  PMIX_RETURN_IF_ERROR(r.status());
  size_t at = r.consumed();
  if (payload == nullptr || at > payload->size()) return Status(PMIX_ERR_BAD_PARAM);
  if (n == 0 && at == payload->size()) return Status(PMIX_ERR_BAD_PARAM);  // announces nothing
  if (at < payload->size())
    out.push_back(SharedBytes{std::shared_ptr<const uint8_t>(payload, payload->data() + at),
                              payload->size() - at});
  for (const Announced& a : regions) {
    if (a.index >= fds.size() || !fds[a.index].valid()) return Status(PMIX_ERR_BAD_PARAM);
    ptl::Fd fd = std::move(fds[a.index]);  // used once
    auto module = gds::ByName(a.medium);
    if (!module.ok()) return Status(PMIX_ERR_NOT_SUPPORTED);
    auto region = gds::Region::Attach(*module, fd.Release(), static_cast<size_t>(a.size));
    PMIX_RETURN_IF_ERROR(region.status());
    out.push_back(Share(std::make_shared<const gds::Region>(std::move(*region))));
  }
  return out;
}

}  // namespace pmix::wire
