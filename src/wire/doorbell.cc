// Doorbell slots (doorbell.h): the futex calls.
#include "src/wire/doorbell.h"

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
// futex_waitv (Linux 5.16) has this number on every architecture.
#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif

namespace pmix::wire::doorbell {

static_assert(kSlotBytes >= 12 && kMailOffset % 4096 == 0 && kPageBytes % 4096 == 0);

namespace {

uint8_t* MapPage(int fd) {
  void* base = ::mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return base == MAP_FAILED ? nullptr : static_cast<uint8_t*>(base);
}

// A sealable memory file of `bytes`, zeroed.
Result<ptl::Fd> MakeFile(const char* name, size_t bytes) {
  // MFD_NOEXEC_SEAL first (kernels >= 6.3 warn about a memfd created
  // without saying); older kernels refuse the flag with EINVAL.
  ptl::Fd fd(::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL));
  if (!fd.valid() && errno == EINVAL) fd = ptl::Fd(::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd.valid()) return Status(errno == ENOMEM ? PMIX_ERR_NOMEM : PMIX_ERR_OUT_OF_RESOURCE);
  if (::ftruncate(fd.get(), static_cast<off_t>(bytes)) != 0) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  return fd;
}

// Whether fd is a memory file of `bytes` carrying at least `seals`.
bool IsSealedFile(int fd, size_t bytes, int seals) {
  struct stat st {};
  int held = ::fcntl(fd, F_GET_SEALS);
  return held >= 0 && (held & seals) == seals && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
         st.st_size == static_cast<off_t>(bytes);
}

// The layout of the kernel's struct futex_waitv.
struct WaitV {
  uint64_t val;
  uint64_t uaddr;
  uint32_t flags;
  uint32_t reserved;
};
constexpr uint32_t kFutex32 = 2;  // FUTEX_32: a 32-bit word, shared

// futex_waitv on words[0..n); deadline: absolute, CLOCK_MONOTONIC.
long WaitOnWords(const WaitV* words, unsigned n, const timespec* deadline) {
  return ::syscall(SYS_futex_waitv, words, n, 0, deadline, CLOCK_MONOTONIC);
}

}  // namespace

Result<std::pair<std::unique_ptr<Page>, ptl::Fd>> Page::Create() {
  auto made = MakeFile("pmixx-doorbell", kPageBytes);
  if (!made.ok()) return made.status();
  ptl::Fd fd = std::move(*made);
  if (::fcntl(fd.get(), F_ADD_SEALS, kSeals) != 0) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  uint8_t* base = MapPage(fd.get());
  if (base == nullptr) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  return std::pair(std::unique_ptr<Page>(new Page(base)), std::move(fd));
}

Result<std::unique_ptr<Page>> Page::Attach(int fd) {
  if (!IsSealedFile(fd, kPageBytes, kSeals)) return Status(PMIX_ERR_BAD_PARAM);
  uint8_t* base = MapPage(fd);
  if (base == nullptr) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  return std::unique_ptr<Page>(new Page(base));
}

Page::~Page() { ::munmap(base_, kPageBytes); }

Result<std::pair<std::unique_ptr<ReleasePage>, ptl::Fd>> ReleasePage::Create() {
  auto made = MakeFile("pmixx-doorbell-release", kReleaseBytes);
  if (!made.ok()) return made.status();
  ptl::Fd fd = std::move(*made);
  // The writable mapping first: F_SEAL_FUTURE_WRITE keeps only mappings
  // made before it writable.
  void* base = ::mmap(nullptr, kReleaseBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (base == MAP_FAILED) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  std::unique_ptr<ReleasePage> page(new ReleasePage(static_cast<uint8_t*>(base), true));
  if (::fcntl(fd.get(), F_ADD_SEALS, kReleaseSeals) != 0) return Status(PMIX_ERR_NOT_SUPPORTED);
  return std::pair(std::move(page), std::move(fd));
}

Result<std::unique_ptr<ReleasePage>> ReleasePage::Attach(int fd) {
  if (!IsSealedFile(fd, kReleaseBytes, kReleaseSeals)) return Status(PMIX_ERR_BAD_PARAM);
  void* base = ::mmap(nullptr, kReleaseBytes, PROT_READ, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  return std::unique_ptr<ReleasePage>(new ReleasePage(static_cast<uint8_t*>(base), false));
}

ReleasePage::~ReleasePage() { ::munmap(base_, kReleaseBytes); }

void ReleasePage::Release(uint32_t word) {
  if (!writable_ || word >= kReleaseWords) return;
  Word(word).fetch_add(1, std::memory_order_release);
  ::syscall(SYS_futex, base_ + word * sizeof(uint32_t), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

bool CanWaitOnTwo() {
  static const bool can = [] {
    // A word that does not hold the value asked: EAGAIN where the call
    // exists, ENOSYS where it does not.
    uint32_t word = 1;
    WaitV one{0, reinterpret_cast<uintptr_t>(&word), kFutex32, 0};
    return WaitOnWords(&one, 1, nullptr) == -1 && errno == EAGAIN;
  }();
  return can;
}

uint32_t ReleaseWordOf(std::span<const pmix_proc_t> procs) {
  // Order-free: the sum of each process's FNV-1a hash.
  uint64_t sum = 0;
  for (const pmix_proc_t& p : procs) {
    uint64_t h = 1469598103934665603ULL;
    auto mix = [&h](const void* data, size_t n) {
      for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(data)[i]) * 1099511628211ULL;
    };
    mix(p.nspace, ::strnlen(p.nspace, PMIX_MAX_NSLEN));
    mix(&p.rank, sizeof(p.rank));
    sum += h;
  }
  return static_cast<uint32_t>((sum ^ (sum >> 32)) % kReleaseWords);
}

bool Ring(uint8_t* page, const Ticket& t, pmix_status_t status, std::span<const uint8_t> mail) {
  if (!Store(page, t, status, mail)) return false;
  Wake(page, t.slot);
  return true;
}

bool Store(uint8_t* page, const Ticket& t, pmix_status_t status, std::span<const uint8_t> mail) {
  if (mail.size() > kMailBytes) return false;
  if (!mail.empty()) std::memcpy(Mailbox(page, t.slot), mail.data(), mail.size());
  MailWord(page, t.slot).store(static_cast<uint32_t>(mail.size()), std::memory_order_relaxed);
  StatusWord(page, t.slot).store(status, std::memory_order_relaxed);
  Seq(page, t.slot).store(t.seq, std::memory_order_release);
  return true;
}

void Wake(uint8_t* page, uint32_t slot) {
  // Shared (not private) futex: the word is in a mapping of a memory file
  // other processes map too.
  ::syscall(SYS_futex, page + slot * kSlotBytes, FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

pmix_status_t Collect(uint8_t* page, size_t slot, std::vector<uint8_t>* mail) {
  // The seq word was read with acquire: what was stored before it is seen.
  pmix_status_t status = StatusWord(page, slot).load(std::memory_order_relaxed);
  uint32_t length = MailWord(page, slot).load(std::memory_order_relaxed);
  if (length > kMailBytes) return PMIX_ERR_BAD_PARAM;
  if (mail != nullptr) mail->assign(Mailbox(page, slot), Mailbox(page, slot) + length);
  return status;
}

void WaitWhile(uint8_t* page, size_t slot, uint32_t seen, const ReleasePage& release, uint32_t word,
               uint32_t word_seen, std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (word >= kReleaseWords) return WaitWhile(page, slot, seen, deadline);
  timespec at{};
  if (deadline) {
    // steady_clock is CLOCK_MONOTONIC on Linux.
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline->time_since_epoch()).count();
    at.tv_sec = static_cast<time_t>(ns / 1000000000);
    at.tv_nsec = static_cast<long>(ns % 1000000000);
  }
  WaitV words[2] = {
      {seen, reinterpret_cast<uintptr_t>(page + slot * kSlotBytes), kFutex32, 0},
      {word_seen, reinterpret_cast<uintptr_t>(release.WordAddress(word)), kFutex32, 0},
  };
  // Any return (a wakeup, EAGAIN, EINTR, ETIMEDOUT) means: look again.
  WaitOnWords(words, 2, deadline ? &at : nullptr);
}

void WaitWhile(uint8_t* page, size_t slot, uint32_t seen,
               std::optional<std::chrono::steady_clock::time_point> deadline) {
  timespec rel{};
  timespec* timeout = nullptr;
  if (deadline) {
    auto left = *deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return;
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    rel.tv_sec = static_cast<time_t>(ns / 1000000000);
    rel.tv_nsec = static_cast<long>(ns % 1000000000);
    timeout = &rel;
  }
  // EAGAIN (the word changed already), EINTR and ETIMEDOUT all mean: look again.
  ::syscall(SYS_futex, page + slot * kSlotBytes, FUTEX_WAIT, seen, timeout, nullptr, 0);
}

}  // namespace pmix::wire::doorbell
