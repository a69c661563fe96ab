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

namespace pmix::wire::doorbell {

static_assert(kSlotBytes >= 12 && kMailOffset % 4096 == 0 && kPageBytes % 4096 == 0);

namespace {

uint8_t* MapPage(int fd) {
  void* base = ::mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return base == MAP_FAILED ? nullptr : static_cast<uint8_t*>(base);
}

}  // namespace

Result<std::pair<std::unique_ptr<Page>, ptl::Fd>> Page::Create() {
  // MFD_NOEXEC_SEAL first (kernels >= 6.3 warn about a memfd created
  // without saying); older kernels refuse the flag with EINVAL.
  ptl::Fd fd(::memfd_create("pmixx-doorbell", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL));
  if (!fd.valid() && errno == EINVAL)
    fd = ptl::Fd(::memfd_create("pmixx-doorbell", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd.valid()) return Status(errno == ENOMEM ? PMIX_ERR_NOMEM : PMIX_ERR_OUT_OF_RESOURCE);
  if (::ftruncate(fd.get(), kPageBytes) != 0 || ::fcntl(fd.get(), F_ADD_SEALS, kSeals) != 0)
    return Status(PMIX_ERR_OUT_OF_RESOURCE);
  uint8_t* base = MapPage(fd.get());
  if (base == nullptr) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  return std::pair(std::unique_ptr<Page>(new Page(base)), std::move(fd));
}

Result<std::unique_ptr<Page>> Page::Attach(int fd) {
  struct stat st {};
  int seals = ::fcntl(fd, F_GET_SEALS);
  if (seals < 0 || (seals & kSeals) != kSeals || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size != static_cast<off_t>(kPageBytes))
    return Status(PMIX_ERR_BAD_PARAM);
  uint8_t* base = MapPage(fd);
  if (base == nullptr) return Status(PMIX_ERR_OUT_OF_RESOURCE);
  return std::unique_ptr<Page>(new Page(base));
}

Page::~Page() { ::munmap(base_, kPageBytes); }

bool Ring(uint8_t* page, const Ticket& t, pmix_status_t status, std::span<const uint8_t> mail) {
  if (mail.size() > kMailBytes) return false;
  if (!mail.empty()) std::memcpy(Mailbox(page, t.slot), mail.data(), mail.size());
  MailWord(page, t.slot).store(static_cast<uint32_t>(mail.size()), std::memory_order_relaxed);
  StatusWord(page, t.slot).store(status, std::memory_order_relaxed);
  Seq(page, t.slot).store(t.seq, std::memory_order_release);
  // Shared (not private) futex: the word is in a mapping of a memory file
  // other processes map too.
  ::syscall(SYS_futex, page + t.slot * kSlotBytes, FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
  return true;
}

pmix_status_t Collect(uint8_t* page, size_t slot, std::vector<uint8_t>* mail) {
  // The seq word was read with acquire: what was stored before it is seen.
  pmix_status_t status = StatusWord(page, slot).load(std::memory_order_relaxed);
  uint32_t length = MailWord(page, slot).load(std::memory_order_relaxed);
  if (length > kMailBytes) return PMIX_ERR_BAD_PARAM;
  if (mail != nullptr) mail->assign(Mailbox(page, slot), Mailbox(page, slot) + length);
  return status;
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
