// gds/shmem: memfd regions -- create, seal, attach, release.
#include "plugins/gds/shmem/shmem_module.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>

// Older C library headers (glibc < 2.38) lack these; the kernel ABI values.
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

namespace pmix::gds::shmem {
namespace {

std::atomic<const pmix_mca_services_t*> g_services{nullptr};

// What a reader relies on: the bytes and the size can never change.
constexpr int kReaderSeals = F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW;
// What the maker adds: the above, and no seal can be removed or added.
constexpr int kMakerSeals = kReaderSeals | F_SEAL_SEAL;

constexpr const char* kMemfdName = "pmix-gds-shmem";

void Say(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void Say(int level, const char* fmt, ...) {
  const pmix_mca_services_t* services = g_services.load(std::memory_order_acquire);
  if (services == nullptr || services->output == nullptr) return;
  char text[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  services->output("gds", level, "shmem: %s", text);
}

pmix_status_t FromErrno(int err) {
  switch (err) {
    case ENOMEM: return PMIX_ERR_NOMEM;
    case EMFILE: case ENFILE: case ENOSPC: case EFBIG: return PMIX_ERR_OUT_OF_RESOURCE;
    default: return PMIX_ERROR;
  }
}

// A sealable memfd. MFD_NOEXEC_SEAL first (kernels >= 6.3 warn about a
// memfd created without saying whether it may be executed); older kernels
// refuse the flag with EINVAL.
int NewMemfd() {
  int fd = ::memfd_create(kMemfdName, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL);
  if (fd < 0 && errno == EINVAL) fd = ::memfd_create(kMemfdName, MFD_CLOEXEC | MFD_ALLOW_SEALING);
  return fd;
}

// module_data of a created, unsealed region: its descriptor + 1, so that
// a zeroed region (nullptr) owns none.
void* MakerData(int fd) { return reinterpret_cast<void*>(static_cast<intptr_t>(fd) + 1); }
int MakerFd(const pmix_gds_region_t* region) {
  return static_cast<int>(reinterpret_cast<intptr_t>(region->module_data) - 1);
}

void* MapShared(int fd, size_t size, int prot) {
  void* base = ::mmap(nullptr, size, prot, MAP_SHARED, fd, 0);
  return base == MAP_FAILED ? nullptr : base;
}

pmix_status_t RegionCreate(size_t size, pmix_gds_region_t* region) {
  if (region == nullptr || size == 0) return PMIX_ERR_BAD_PARAM;
  if (size > static_cast<size_t>(std::numeric_limits<off_t>::max())) return PMIX_ERR_BAD_PARAM;
  int fd = NewMemfd();
  if (fd < 0) {
    int err = errno;
    Say(1, "memfd_create failed: %s", std::strerror(err));
    return FromErrno(err);
  }
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    int err = errno;
    Say(1, "cannot size a region to %zu bytes: %s", size, std::strerror(err));
    ::close(fd);
    return err == EINVAL ? PMIX_ERR_BAD_PARAM : FromErrno(err);
  }
  void* base = MapShared(fd, size, PROT_READ | PROT_WRITE);
  if (base == nullptr) {
    int err = errno;
    Say(1, "cannot map a region of %zu bytes: %s", size, std::strerror(err));
    ::close(fd);
    return FromErrno(err);
  }
  // Until sealed, the descriptor stays the module's (fd -1): nobody may
  // share a region that can still change.
  region->base = base;
  region->size = size;
  region->fd = -1;
  region->module_data = MakerData(fd);
  return PMIX_SUCCESS;
}

pmix_status_t RegionSeal(pmix_gds_region_t* region) {
  if (region == nullptr || region->base == nullptr || region->fd >= 0) return PMIX_ERR_BAD_PARAM;
  int fd = MakerFd(region);
  if (fd < 0) return PMIX_ERR_BAD_PARAM;
  // F_SEAL_WRITE is refused while any shared mapping of a writable
  // descriptor exists (even a read-only one: it could be mprotect'ed), so
  // the writable view goes first and the read-only one comes after.
  ::munmap(region->base, region->size);
  region->base = nullptr;
  if (::fcntl(fd, F_ADD_SEALS, kMakerSeals) != 0) {
    int err = errno;
    Say(1, "cannot seal a region: %s", std::strerror(err));
    region->base = MapShared(fd, region->size, PROT_READ | PROT_WRITE);
    return err == ENOMEM ? PMIX_ERR_NOMEM : PMIX_ERROR;
  }
  void* ro = MapShared(fd, region->size, PROT_READ);
  if (ro == nullptr) {
    int err = errno;
    Say(1, "cannot map a sealed region of %zu bytes: %s", region->size, std::strerror(err));
    return FromErrno(err);
  }
  region->base = ro;
  region->fd = fd;
  region->module_data = nullptr;
  return PMIX_SUCCESS;
}

// What a published region carries: its size is fixed and only its
// creator's mapping made before the seal can write it.
constexpr int kPublishedSeals = F_SEAL_FUTURE_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;

pmix_status_t RegionPublish(pmix_gds_region_t* region) {
  if (region == nullptr || region->base == nullptr || region->fd >= 0) return PMIX_ERR_BAD_PARAM;
  int fd = MakerFd(region);
  if (fd < 0) return PMIX_ERR_BAD_PARAM;
  // The writable mapping stays: F_SEAL_FUTURE_WRITE keeps only it.
  if (::fcntl(fd, F_ADD_SEALS, kPublishedSeals) != 0) {
    int err = errno;
    Say(1, "cannot publish a region: %s", std::strerror(err));
    return err == ENOMEM ? PMIX_ERR_NOMEM : PMIX_ERROR;
  }
  region->fd = fd;
  region->module_data = nullptr;
  return PMIX_SUCCESS;
}

// Why fd cannot be a sealed (published: or published) region of `size`
// bytes, or nullptr.
const char* Unsuitable(int fd, size_t size, bool published = false) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return "not an open descriptor";
  if (!S_ISREG(st.st_mode)) return "not a memory file";
  int seals = ::fcntl(fd, F_GET_SEALS);
  // Files outside shmem/hugetlbfs know no seals (EINVAL).
  if (seals < 0) return "not a sealable memory file";
  constexpr int kFixed = F_SEAL_SHRINK | F_SEAL_GROW;
  bool write_sealed = (seals & F_SEAL_WRITE) != 0 || (published && (seals & F_SEAL_FUTURE_WRITE) != 0);
  if ((seals & kFixed) != kFixed || !write_sealed) return "not sealed against writing and resizing";
  if (st.st_size < 0 || static_cast<unsigned long long>(st.st_size) != size)
    return "not of the announced size";
  return nullptr;
}

pmix_status_t Attach(int fd, size_t size, pmix_gds_region_t* region, bool published) {
  if (fd < 0) return PMIX_ERR_BAD_PARAM;
  if (region == nullptr || size == 0) {
    ::close(fd);
    return PMIX_ERR_BAD_PARAM;
  }
  if (const char* why = Unsuitable(fd, size, published)) {
    Say(1, "refusing to attach descriptor %d (%zu bytes announced): %s", fd, size, why);
    ::close(fd);
    return PMIX_ERR_BAD_PARAM;
  }
  void* base = MapShared(fd, size, PROT_READ);
  int err = errno;
  // The mapping keeps the memory; a client needs no descriptor per region.
  ::close(fd);
  if (base == nullptr) {
    Say(1, "cannot map a region of %zu bytes: %s", size, std::strerror(err));
    return FromErrno(err);
  }
  region->base = base;
  region->size = size;
  region->fd = -1;
  region->module_data = nullptr;
  return PMIX_SUCCESS;
}

pmix_status_t RegionAttach(int fd, size_t size, pmix_gds_region_t* region) {
  return Attach(fd, size, region, false);
}

pmix_status_t RegionAttachPublished(int fd, size_t size, pmix_gds_region_t* region) {
  return Attach(fd, size, region, true);
}

void RegionRelease(pmix_gds_region_t* region) {
  if (region == nullptr) return;
  if (region->base != nullptr && region->size > 0) ::munmap(region->base, region->size);
  if (region->fd >= 0) ::close(region->fd);
  if (int maker_fd = MakerFd(region); maker_fd >= 0) ::close(maker_fd);
  *region = pmix_gds_region_t{nullptr, 0, -1, nullptr};
}

}  // namespace

void Configure(const pmix_mca_services_t* services) {
  g_services.store(services, std::memory_order_release);
}

bool SealingWorks() {
  static const bool works = [] {
    int fd = NewMemfd();
    if (fd < 0) return false;
    bool ok = ::ftruncate(fd, 1) == 0 && ::fcntl(fd, F_ADD_SEALS, kMakerSeals) == 0 &&
              (::fcntl(fd, F_GET_SEALS) & kMakerSeals) == kMakerSeals;
    ::close(fd);
    return ok;
  }();
  return works;
}

const pmix_gds_module_t kModule = {
    "shmem", false,
    // No key/value store.
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    RegionCreate, RegionSeal, RegionAttach, RegionRelease,
    RegionPublish, RegionAttachPublished,
};

}  // namespace pmix::gds::shmem
