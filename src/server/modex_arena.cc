// Published chunks holding committed records (modex_arena.h).
#include "src/server/modex_arena.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "mca/gds/base/gds_base.h"
#include "pmix.h"
#include "src/common/output.h"

namespace pmix::server::modex {

size_t Arena::Budget::live() {
  std::erase_if(made_, [](const std::weak_ptr<const Chunk>& c) { return c.expired(); });
  return made_.size();
}

std::shared_ptr<Arena::Chunk> Arena::NewChunk(size_t size) {
  Budget& budget = *budget_;
  if (budget.unavailable_ || budget.live() >= budget.max_chunks_) return nullptr;
  auto module = gds::RegionModule();
  if (!module.ok() || *module == nullptr || (*module)->region_publish == nullptr) {
    budget.unavailable_ = true;
    return nullptr;
  }
  // Whole pages: the tail of the last one would be mapped anyway.
  long page = ::sysconf(_SC_PAGESIZE);
  size_t unit = page > 0 ? static_cast<size_t>(page) : 4096;
  if (size > SIZE_MAX - unit) return nullptr;
  size = (size + unit - 1) / unit * unit;
  auto builder = gds::RegionBuilder::Create(*module, size);
  if (!builder.ok()) {
    output::Verbose("server", 1, "modex: no region of %zu bytes (%s): records stay on the heap", size,
                    PMIx_Error_string(builder.status().code()));
    return nullptr;
  }
  if (Status published = builder->Publish(); !published.ok()) {
    output::Verbose("server", 1, "modex: regions cannot be published (%s): records stay on the heap",
                    PMIx_Error_string(published.code()));
    budget.unavailable_ = true;  // the kernel or module cannot: do not retry each record
    return nullptr;
  }
  static std::atomic<uint64_t> last_serial{0};
  auto chunk = std::make_shared<Chunk>(std::move(*builder), ++last_serial);
  budget.made_.push_back(chunk);
  return chunk;
}

std::optional<Arena::Placed> Arena::Place(std::span<const uint8_t> record) {
  if (record.empty()) return std::nullopt;
  if (current_ == nullptr || current_->size() - current_->used_ < record.size()) {
    // A record larger than a chunk gets one of its own; the current chunk
    // goes on being filled afterwards.
    bool own = record.size() > chunk_bytes_;
    auto chunk = NewChunk(std::max(chunk_bytes_, record.size()));
    if (chunk == nullptr) return std::nullopt;
    if (!own) current_ = chunk;
    std::memcpy(chunk->region_.bytes().data(), record.data(), record.size());
    chunk->used_ = record.size();
    return Placed{std::move(chunk), 0};
  }
  size_t at = current_->used_;
  std::memcpy(current_->region_.bytes().data() + at, record.data(), record.size());
  current_->used_ += record.size();
  return Placed{current_, at};
}

}  // namespace pmix::server::modex
