// Records inline or in sealed regions (proc_data_region.h).
#include "src/wire/proc_data_region.h"

#include <sys/stat.h>

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

Status PackRecords(Writer& w, std::span<const RegionRecords> regions, uint32_t first_fd) {
  if (first_fd > ptl::kMaxFrameFds || regions.size() > ptl::kMaxFrameFds - first_fd)
    return PMIX_ERR_BAD_PARAM;
  for (const RegionRecords& region : regions) {
    if ((region.fd < 0 && region.serial == 0) || region.module == nullptr || region.size == 0)
      return PMIX_ERR_NOT_SUPPORTED;
    if (region.extents.empty()) return PMIX_ERR_BAD_PARAM;
    for (const auto& [offset, length] : region.extents)
      if (length == 0 || offset > region.size || length > region.size - offset) return PMIX_ERR_BAD_PARAM;
  }
  w.U32(static_cast<uint32_t>(regions.size()));
  uint32_t index = first_fd;
  for (const RegionRecords& region : regions) {
    w.String(region.module->name).U32(region.fd < 0 ? kKept : index++).U64(region.serial).U64(region.size);
    w.U32(static_cast<uint32_t>(region.extents.size()));
    for (const auto& [offset, length] : region.extents) w.U64(offset).U64(length);
  }
  return w.status();
}

Status PackRecords(Writer& w, std::span<const gds::Region* const> regions, uint32_t first_fd) {
  std::vector<RegionRecords> whole;
  for (const gds::Region* region : regions) {
    if (region == nullptr) return PMIX_ERR_NOT_SUPPORTED;
    whole.push_back(RegionRecords{region->fd(), 0, region->module(), region->size(), {{0, region->size()}}});
  }
  return PackRecords(w, whole, first_fd);
}

Result<std::shared_ptr<const gds::Region>> RegionCache::Attach(const pmix_gds_module_t* module, ptl::Fd fd,
                                                               size_t size) {
  if (module == nullptr) return Status(PMIX_ERR_NOT_SUPPORTED);
  struct stat st;
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0) return Status(PMIX_ERR_BAD_PARAM);
  Id id{module, static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  std::lock_guard<std::mutex> lock(mu_);
  auto it = held_.find(id);
  if (it != held_.end()) {
    // The file lives while our mapping does: a live entry is this file.
    if (auto region = it->second.lock()) {
      if (region->size() != size) return Status(PMIX_ERR_BAD_PARAM);
      return region;  // fd closes here
    }
    held_.erase(it);
  }
  auto region = module->region_attach_published != nullptr
                    ? gds::Region::AttachPublished(module, fd.Release(), size)
                    : gds::Region::Attach(module, fd.Release(), size);
  if (!region.ok()) return region.status();
  auto shared = std::make_shared<const gds::Region>(std::move(*region));
  std::erase_if(held_, [](const auto& entry) { return entry.second.expired(); });
  held_[id] = shared;
  return shared;
}

bool RegionCache::Keep(uint64_t serial, std::shared_ptr<const gds::Region> region) {
  std::lock_guard<std::mutex> lock(mu_);
  if (serial == 0 || region == nullptr || forgotten_.count(serial) != 0) return false;
  kept_[serial] = std::move(region);
  return true;
}

std::shared_ptr<const gds::Region> RegionCache::Kept(uint64_t serial, const pmix_gds_module_t* module,
                                                     size_t size) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = kept_.find(serial);
  if (it == kept_.end() || it->second->module() != module || it->second->size() != size) return nullptr;
  return it->second;
}

void RegionCache::Forget(uint64_t serial) {
  std::lock_guard<std::mutex> lock(mu_);
  kept_.erase(serial);
  forgotten_.insert(serial);
}

size_t RegionCache::kept() {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_.size();
}

size_t RegionCache::size() {
  std::lock_guard<std::mutex> lock(mu_);
  std::erase_if(held_, [](const auto& entry) { return entry.second.expired(); });
  return held_.size();
}

Result<std::vector<SharedBytes>> UnpackRecords(Reader& r, const std::shared_ptr<const Bytes>& payload,
                                               std::vector<ptl::Fd>& fds, RegionCache* cache,
                                               size_t* inline_parts, bool keep) {
  std::vector<SharedBytes> out;
  if (inline_parts != nullptr) *inline_parts = 0;
  if (r.AtEnd()) return out;
  uint32_t n = r.U32();
  PMIX_RETURN_IF_ERROR(r.status());
  if (n > ptl::kMaxFrameFds) return Status(PMIX_ERR_BAD_PARAM);
  struct Announced {
    std::string medium;
    uint32_t index = 0;
    uint64_t serial = 0;
    uint64_t size = 0;
    std::vector<std::pair<uint64_t, uint64_t>> extents;
  };
  std::vector<Announced> regions(n);
  for (Announced& a : regions) {
    a.medium = r.String();
    a.index = r.U32();
    a.serial = r.U64();
    a.size = r.U64();
    uint32_t m = r.U32();
    PMIX_RETURN_IF_ERROR(r.status());
    if (m == 0) return Status(PMIX_ERR_BAD_PARAM);
    // Each extent takes 16 bytes of the body: the reader stops a lie.
    for (uint32_t i = 0; i < m && r.status().ok(); ++i) {
      uint64_t offset = r.U64();
      uint64_t length = r.U64();
      if (length == 0 || offset > a.size || length > a.size - offset) return Status(PMIX_ERR_BAD_PARAM);
      a.extents.emplace_back(offset, length);
    }
  }
  PMIX_RETURN_IF_ERROR(r.status());
  size_t at = r.consumed();
  if (payload == nullptr || at > payload->size()) return Status(PMIX_ERR_BAD_PARAM);
  if (n == 0 && at == payload->size()) return Status(PMIX_ERR_BAD_PARAM);  // announces nothing
  if (at < payload->size())
    out.push_back(SharedBytes{std::shared_ptr<const uint8_t>(payload, payload->data() + at),
                              payload->size() - at});
  size_t inlined = out.size();
  RegionCache local;
  std::vector<std::pair<uint64_t, std::shared_ptr<const gds::Region>>> to_keep;
  for (const Announced& a : regions) {
    auto module = gds::ByName(a.medium);
    std::shared_ptr<const gds::Region> region;
    if (a.index == kKept) {
      if (a.serial == 0 || cache == nullptr) return Status(PMIX_ERR_BAD_PARAM);
      if (!module.ok()) return Status(PMIX_ERR_NOT_SUPPORTED);
      region = cache->Kept(a.serial, *module, static_cast<size_t>(a.size));
      if (region == nullptr) return Status(PMIX_ERR_BAD_PARAM);
    } else {
      if (a.index >= fds.size() || !fds[a.index].valid()) return Status(PMIX_ERR_BAD_PARAM);
      ptl::Fd fd = std::move(fds[a.index]);  // used once
      if (!module.ok()) return Status(PMIX_ERR_NOT_SUPPORTED);
      auto attached =
          (cache != nullptr ? cache : &local)->Attach(*module, std::move(fd), static_cast<size_t>(a.size));
      PMIX_RETURN_IF_ERROR(attached.status());
      region = std::move(*attached);
      if (keep && a.serial != 0) to_keep.emplace_back(a.serial, region);
    }
    SharedBytes whole = Share(std::move(region));
    for (const auto& [offset, length] : a.extents)
      out.push_back(SharedBytes{std::shared_ptr<const uint8_t>(whole.data, whole.data.get() + offset),
                                static_cast<size_t>(length)});
  }
  if (cache != nullptr)
    for (auto& [serial, region] : to_keep) cache->Keep(serial, std::move(region));
  if (inline_parts != nullptr) *inline_parts = inlined;
  return out;
}

}  // namespace pmix::wire
