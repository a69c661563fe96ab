#include "mca/gds/base/region.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <utility>

namespace pmix::gds {
namespace {

bool HasRegions(const pmix_gds_module_t* module) {
  return module != nullptr && module->region_create != nullptr &&
         module->region_seal != nullptr && module->region_release != nullptr;
}

}  // namespace

Region::Region(Region&& other) noexcept
    : module_(other.module_), region_(std::exchange(other.region_, {nullptr, 0, -1, nullptr})) {}

Region& Region::operator=(Region&& other) noexcept {
  if (this != &other) {
    Reset();
    module_ = other.module_;
    region_ = std::exchange(other.region_, {nullptr, 0, -1, nullptr});
  }
  return *this;
}

Region::~Region() { Reset(); }

void Region::Reset() {
  if (module_ != nullptr) {
    // Always: a region whose seal failed may own a descriptor with neither
    // base nor fd set (module_data), and a zeroed one is a no-op.
    module_->region_release(&region_);
  } else {
    std::free(region_.base);
  }
  region_ = {nullptr, 0, -1, nullptr};
}

std::string_view Region::medium() const { return module_ != nullptr ? module_->name : "heap"; }

Result<Region> Region::Copy(std::span<const uint8_t> bytes) {
  Region out;
  if (bytes.empty()) return out;
  void* base = std::malloc(bytes.size());
  if (base == nullptr) return Status(PMIX_ERR_NOMEM);
  std::memcpy(base, bytes.data(), bytes.size());
  out.region_ = {base, bytes.size(), -1, nullptr};
  return out;
}

Result<Region> Region::Attach(const pmix_gds_module_t* module, int fd, size_t size) {
  if (module == nullptr || module->region_attach == nullptr || module->region_release == nullptr) {
    if (fd >= 0) ::close(fd);
    return Status(PMIX_ERR_NOT_SUPPORTED);
  }
  pmix_gds_region_t region{nullptr, 0, -1, nullptr};
  pmix_status_t rc = module->region_attach(fd, size, &region);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return Region(module, region);
}

Result<Region> Region::AttachPublished(const pmix_gds_module_t* module, int fd, size_t size) {
  if (module == nullptr || module->region_attach_published == nullptr ||
      module->region_release == nullptr) {
    if (fd >= 0) ::close(fd);
    return Status(PMIX_ERR_NOT_SUPPORTED);
  }
  pmix_gds_region_t region{nullptr, 0, -1, nullptr};
  pmix_status_t rc = module->region_attach_published(fd, size, &region);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return Region(module, region);
}

Result<RegionBuilder> RegionBuilder::Create(const pmix_gds_module_t* module, size_t size) {
  if (size == 0) return Status(PMIX_ERR_BAD_PARAM);
  if (!HasRegions(module)) {
    void* base = std::calloc(1, size);
    if (base == nullptr) return Status(PMIX_ERR_NOMEM);
    Region heap;
    heap.region_ = {base, size, -1, nullptr};
    return RegionBuilder(std::move(heap));
  }
  pmix_gds_region_t region{nullptr, 0, -1, nullptr};
  pmix_status_t rc = module->region_create(size, &region);
  if (rc != PMIX_SUCCESS) return Status(rc);
  return RegionBuilder(Region(module, region));
}

Result<Region> RegionBuilder::Seal() && {
  const pmix_gds_module_t* module = region_.module_;
  if (module != nullptr) {
    pmix_status_t rc = module->region_seal(&region_.region_);
    if (rc != PMIX_SUCCESS) return Status(rc);
  }
  return std::move(region_);
}

Status RegionBuilder::Publish() {
  const pmix_gds_module_t* module = region_.module_;
  if (module == nullptr || module->region_publish == nullptr) return PMIX_ERR_NOT_SUPPORTED;
  if (region_.region_.fd >= 0) return PMIX_ERR_BAD_PARAM;  // published already
  return Status(module->region_publish(&region_.region_));
}

}  // namespace pmix::gds
