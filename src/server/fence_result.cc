// A completed fence's data, inline and in sealed regions (fence_result.h).
#include "src/server/fence_result.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <utility>

#include "mca/bfrops/base/bfrops_base.h"
#include "mca/gds/base/gds_base.h"
#include "mca/ptl/base/frame.h"
#include "pmix.h"
#include "src/common/output.h"
#include "src/server/server_get.h"
#include "src/server/server_internal.h"
#include "src/wire/proc_data_region.h"

namespace pmix::server::fence {
namespace {

// The status, then the records' fields (pack; nullptr: no records).
Result<wire::Bytes> Head(const pmix_bfrops_module_t* codec,
                         const std::function<Status(wire::Writer&)>& pack) {
  wire::Writer w(codec);
  w.Status(PMIX_SUCCESS);
  if (pack != nullptr) PMIX_RETURN_IF_ERROR(pack(w));
  return w.Take();
}

}  // namespace

FenceResult::FenceResult(const modex::Store& store, wire::Bytes jobs, std::vector<pmix_proc_t> procs)
    : jobs_(std::move(jobs)) {
  size_ = jobs_.size();
  std::map<const modex::Arena::Chunk*, size_t> index;  // chunk -> regions_ entry
  // The spans stay valid: the store is not changed while this lives (one
  // progress-thread turn), and the chunks are held here.
  for (const pmix_proc_t& who : procs) {
    store.ForEach(who, PMIX_GDS_VIEW_LOCAL,
                  [&](std::span<const uint8_t> record, const std::shared_ptr<const modex::Arena::Chunk>& chunk,
                      size_t offset) {
                    records_.push_back(record);
                    in_chunk_.push_back(chunk != nullptr);
                    size_ += record.size();
                    if (chunk == nullptr) return;
                    auto [it, added] = index.emplace(chunk.get(), regions_.size());
                    if (added) {
                      chunks_.push_back(chunk);
                      regions_.push_back(
                          wire::RegionRecords{chunk->fd(), chunk->serial(), chunk->module(), chunk->size(), {}});
                    }
                    regions_[it->second].extents.emplace_back(offset, record.size());
                  });
  }
  // In the order of the chunk, which is the order of the commits (a chunk
  // is only appended to), adjacent records merged: the participants'
  // commits since the last fence are usually one extent, whatever the
  // order of their ranks.
  for (wire::RegionRecords& region : regions_) {
    auto& extents = region.extents;
    std::sort(extents.begin(), extents.end());
    size_t kept = 0;
    for (const auto& extent : extents) {
      if (kept > 0 && extents[kept - 1].first + extents[kept - 1].second == extent.first)
        extents[kept - 1].second += extent.second;
      else
        extents[kept++] = extent;
    }
    extents.resize(kept);
  }
}

size_t FenceResult::shared_extents() const {
  size_t n = 0;
  for (const wire::RegionRecords& region : regions_) n += region.extents.size();
  return n;
}

Result<std::shared_ptr<const wire::Bytes>> FenceResult::All() {
  if (all_ != nullptr) return all_;
  auto bytes = std::make_shared<wire::Bytes>();
  bytes->reserve(size_);
  bytes->assign(jobs_.begin(), jobs_.end());
  for (std::span<const uint8_t> record : records_) bytes->insert(bytes->end(), record.begin(), record.end());
  all_ = std::move(bytes);
  return all_;
}

std::shared_ptr<const wire::Bytes> FenceResult::Rest() {
  if (rest_ != nullptr) return rest_;
  auto bytes = std::make_shared<wire::Bytes>(jobs_);
  for (size_t i = 0; i < records_.size(); ++i)
    if (!in_chunk_[i]) bytes->insert(bytes->end(), records_[i].begin(), records_[i].end());
  rest_ = std::move(bytes);
  return rest_;
}

const gds::Region* FenceResult::Combined() {
  if (combined_tried_) return combined_.get();
  combined_tried_ = true;
  size_t local = size_ - jobs_.size();  // the job records stay inline
  if (local < kRegionMinBytes) return nullptr;
  auto module = gds::RegionModule();
  if (!module.ok() || *module == nullptr) return nullptr;
  auto builder = gds::RegionBuilder::Create(*module, local);
  if (!builder.ok()) {
    output::Verbose("server", 1, "fence: no region of %zu bytes (%s): the data goes inline", local,
                    PMIx_Error_string(builder.status().code()));
    return nullptr;
  }
  uint8_t* out = builder->bytes().data();
  size_t at = 0;
  for (std::span<const uint8_t> record : records_) {
    std::memcpy(out + at, record.data(), record.size());
    at += record.size();
  }
  auto sealed = std::move(*builder).Seal();
  if (!sealed.ok() || sealed->fd() < 0) {
    output::Verbose("server", 1, "fence: cannot share a region of %zu bytes: the data goes inline", local);
    return nullptr;
  }
  combined_ = std::make_unique<gds::Region>(std::move(*sealed));
  return combined_.get();
}

// The regions named by serial alone (no descriptor).
std::vector<wire::RegionRecords> FenceResult::NamedBySerial() const {
  std::vector<wire::RegionRecords> named = regions_;
  for (wire::RegionRecords& region : named) region.fd = -1;
  return named;
}

// Their fields packed; nullptr when they cannot be.
std::shared_ptr<const wire::Bytes> FenceResult::Pack(const pmix_bfrops_module_t* codec,
                                                     std::span<const wire::RegionRecords> named) {
  wire::Writer w(codec);
  if (!wire::PackRecords(w, named).ok()) return nullptr;
  auto bytes = w.Take();
  return bytes.ok() ? std::make_shared<const wire::Bytes>(std::move(*bytes)) : nullptr;
}

// For a Unix-socket peer speaking the default codec; an empty body when
// nothing can be shared.
Answer FenceResult::Shared(const pmix_bfrops_module_t* codec) {
  if (!regions_.empty() && regions_.size() <= ptl::kMaxFrameFds) {
    auto head = Head(codec, [&](wire::Writer& w) {
      return wire::PackRecords(w, std::span<const wire::RegionRecords>(regions_));
    });
    if (head.ok()) {
      std::shared_ptr<const wire::Bytes> rest = Rest();
      Answer a{wire::Body(std::move(*head), rest)};
      for (const wire::RegionRecords& region : regions_) a.fds.push_back(region.fd);
      for (size_t i = 0; i < regions_.size(); ++i) a.shared.push_back({regions_[i].serial, chunks_[i]});
      if (rest->empty()) {
        a.named = NamedBySerial();
        a.mail = Pack(codec, a.named);
      }
      return a;
    }
  }
  if (const gds::Region* region = Combined()) {
    const gds::Region* one[] = {region};
    auto head = Head(codec, [&](wire::Writer& w) {
      return wire::PackRecords(w, std::span<const gds::Region* const>(one));
    });
    if (head.ok()) {
      auto jobs = std::make_shared<const wire::Bytes>(jobs_);
      return Answer{wire::Body(std::move(*head), std::move(jobs)), {region->fd()}};
    }
  }
  return Answer{};
}

Answer FenceResult::For(const pmix_bfrops_module_t* codec, bool fds_ok) {
  if (size_ == 0) {
    auto head = Head(codec, nullptr);
    pmix_status_t status = head.ok() ? PMIX_SUCCESS : head.status().code();
    return Answer{head.ok() ? std::move(*head) : StatusBody(codec, status), {}, status};
  }
  auto fallback = bfrops::DefaultCodec();
  if (!fallback.ok()) return Answer{StatusBody(codec, fallback.status().code())};
  if (fds_ok && codec == *fallback) {
    Answer shared = Shared(codec);
    if (shared.body.size() > 0) return shared;
  }
  auto bytes = All();
  auto tail = bytes.ok() ? get::ForCodec(codec, *bytes) : Result<std::shared_ptr<const wire::Bytes>>(bytes.status());
  if (!tail.ok()) return Answer{StatusBody(codec, tail.status().code())};
  auto head = Head(codec, [](wire::Writer& w) {
    return wire::PackRecords(w, std::span<const wire::RegionRecords>());
  });
  if (!head.ok()) return Answer{StatusBody(codec, head.status().code())};
  return Answer{wire::Body(std::move(*head), std::move(*tail))};
}

}  // namespace pmix::server::fence
