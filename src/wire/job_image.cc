// Job-data images in message bodies.
#include "src/wire/job_image.h"

#include <fcntl.h>

#include <string>

namespace pmix::wire {

Status PackImage(Writer& w, const gds::Image* image, std::vector<ptl::Fd>* fds) {
  if (image == nullptr) {
    w.Str("");
    return w.status();
  }
  const gds::Region& region = image->region();
  if (fds != nullptr && region.fd() >= 0 && region.module() != nullptr &&
      fds->size() < ptl::kMaxFrameFds) {
    ptl::Fd dup(::fcntl(region.fd(), F_DUPFD_CLOEXEC, 0));
    if (dup.valid()) {
      w.Str(region.module()->name).U32(static_cast<uint32_t>(fds->size())).U64(region.size());
      fds->push_back(std::move(dup));
      return w.status();
    }
    // Out of descriptors: the bytes still go.
  }
  w.Str(kInlineImage).Blob(region.bytes());
  return w.status();
}

Result<std::shared_ptr<const gds::Image>> UnpackImage(Reader& r, std::vector<ptl::Fd>& fds,
                                                      std::string_view expected_nspace) {
  std::string medium = r.String();
  PMIX_RETURN_IF_ERROR(r.status());
  if (medium.empty()) return std::shared_ptr<const gds::Image>();
  Result<gds::Region> region = Status(PMIX_ERR_BAD_PARAM);
  if (medium == kInlineImage) {
    Bytes bytes = r.Blob();
    PMIX_RETURN_IF_ERROR(r.status());
    if (bytes.empty()) return Status(PMIX_ERR_BAD_PARAM);
    region = gds::Region::Copy(bytes);
  } else {
    uint32_t index = r.U32();
    uint64_t size = r.U64();
    PMIX_RETURN_IF_ERROR(r.status());
    if (index >= fds.size() || !fds[index].valid()) return Status(PMIX_ERR_BAD_PARAM);
    ptl::Fd fd = std::move(fds[index]);  // used once
    auto module = gds::ByName(medium);
    if (!module.ok()) return Status(PMIX_ERR_NOT_SUPPORTED);
    region = gds::Region::Attach(*module, fd.Release(), size);
  }
  PMIX_RETURN_IF_ERROR(region.status());
  auto image = gds::Image::Open(std::move(*region));
  PMIX_RETURN_IF_ERROR(image.status());
  if ((*image)->nspace() != expected_nspace) return Status(PMIX_ERR_BAD_PARAM);
  return std::move(*image);
}

}  // namespace pmix::wire
