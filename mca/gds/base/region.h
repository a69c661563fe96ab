// Regions: the memory job-data images (image.h) and other shared data live
// in. A region is made by the server (RegionBuilder: writable, then sealed
// read-only) in the medium of a gds module with regions (a sealed memfd for
// "shmem", shareable with the node's clients through its descriptor) or on
// the private heap (module nullptr), and reached by a client either by
// attaching the descriptor the server sent (Region::Attach) or as a heap
// copy of bytes that came inline in a message (Region::Copy).
//
// Ownership: move-only RAII; the destructor unmaps/frees and closes.
// A sealed Region is immutable: any thread may read bytes() concurrently.
#ifndef PMIXX_MCA_GDS_BASE_REGION_H
#define PMIXX_MCA_GDS_BASE_REGION_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "pmix/mca/gds.h"
#include "src/common/status.h"

namespace pmix::gds {

class Region {
 public:
  Region() = default;
  Region(Region&& other) noexcept;
  Region& operator=(Region&& other) noexcept;
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region();

  // A private heap copy of bytes (PMIX_ERR_NOMEM). Empty bytes give an
  // empty region.
  static Result<Region> Copy(std::span<const uint8_t> bytes);
  // Maps descriptor fd (ownership taken, closed on failure too) as a
  // region of module, expected to hold `size` bytes: the module's
  // region_attach statuses (PMIX_ERR_BAD_PARAM for a descriptor that is
  // not a sealed region of that size; PMIX_ERR_NOT_SUPPORTED for a module
  // without shared regions or a NULL module).
  static Result<Region> Attach(const pmix_gds_module_t* module, int fd, size_t size);
  // The same for a published region (RegionBuilder::Publish) or a sealed
  // one: module->region_attach_published (PMIX_ERR_NOT_SUPPORTED when the
  // module has none). The bytes may still be appended to by their maker.
  static Result<Region> AttachPublished(const pmix_gds_module_t* module, int fd, size_t size);

  std::span<const uint8_t> bytes() const {
    return {static_cast<const uint8_t*>(region_.base), region_.size};
  }
  size_t size() const { return region_.size; }
  // The descriptor other local processes can attach, or -1 (heap, or a
  // module whose regions are private).
  int fd() const { return region_.fd; }
  // The module the region belongs to (nullptr: heap).
  const pmix_gds_module_t* module() const { return module_; }
  // The name clients use to attach it: the module's, or "heap".
  std::string_view medium() const;

 private:
  friend class RegionBuilder;
  Region(const pmix_gds_module_t* module, const pmix_gds_region_t& region)
      : module_(module), region_(region) {}
  void Reset();

  const pmix_gds_module_t* module_ = nullptr;  // nullptr: heap (region_.base malloc'd)
  pmix_gds_region_t region_{nullptr, 0, -1, nullptr};
};

// A region being filled by its maker.
class RegionBuilder {
 public:
  RegionBuilder(RegionBuilder&& other) noexcept = default;
  RegionBuilder& operator=(RegionBuilder&& other) noexcept = default;

  // size (> 0) zeroed bytes in module's medium (nullptr or a module
  // without regions: the heap). PMIX_ERR_BAD_PARAM for size 0, else the
  // module's status.
  static Result<RegionBuilder> Create(const pmix_gds_module_t* module, size_t size);

  std::span<uint8_t> bytes() {
    return {static_cast<uint8_t*>(region_.region_.base), region_.region_.size};
  }
  // Makes the region read-only (and shareable when the medium is). On
  // failure the builder is left as it was.
  Result<Region> Seal() &&;
  // Makes the region shareable while this builder goes on writing it
  // (module->region_publish): afterwards fd() is the descriptor readers
  // attach with Region::AttachPublished. PMIX_ERR_NOT_SUPPORTED for the
  // heap or a module without publishing; on failure nothing changes.
  Status Publish();
  // After Publish: the descriptor (else -1).
  int fd() const { return region_.fd(); }
  size_t size() const { return region_.size(); }
  const pmix_gds_module_t* module() const { return region_.module(); }

 private:
  explicit RegionBuilder(Region region) : region_(std::move(region)) {}
  Region region_;
};

}  // namespace pmix::gds

#endif  // PMIXX_MCA_GDS_BASE_REGION_H
