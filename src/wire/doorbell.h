// Doorbells: how a server releases a local client's blocking fence without
// a message. Measured on a 2-core machine with 128 clients, a release by
// socket costs each client two wakeups (its progress thread reads the
// reply, then wakes the caller) and the server one sendmsg per client; a
// release by doorbell wakes the waiting caller itself, and the progress
// threads sleep on.
//
// A doorbell page is a memory file of kPageBytes the server makes for one
// connection (a Unix-socket client that asks, Msg::kDoorbell), seals
// against shrinking and growing, maps, and hands to the client as a
// descriptor; the server keeps no descriptor, only its mapping. The page
// holds kSlots slots of kSlotBytes, each
//   u32 seq      at offset 0: the ticket last answered in this slot
//   i32 status   at offset 4: that answer's status
//   u32 mail     at offset 8: the bytes of that answer's mail (0: none)
// then, from kMailOffset, one mailbox of kMailBytes per slot.
// A client sends a fence with a ticket (slot, seq; seq unique among its
// tickets); the server answers by storing the mail (if any) and its
// length, the status, then the seq (release order), and waking the futex
// on the seq word. Mail is a small answer body the caller reads itself: a
// collect fence whose records all lie in regions the client was sent
// before (proc_data_region.h, RegionCache::Keep) is answered by mail
// naming them. Any other answer (records inline or in regions the client
// does not hold) goes as a frame (type kFence, not a reply, tag = the
// seq), which the client's progress thread stores into the slot the same
// way, as it does a local failure (server lost): a waiter thus only ever
// waits for its slot's seq word to change, and no wakeup is lost.
//
// The server never reads the page: what a client writes there concerns
// that client only.
//
// Release words: woken one by one, the waiters a server releases first
// take the CPUs from it (on a node with more processes than cores) before
// it has woken the others, which then wait for a time slice each. So a
// server also has one release page of kReleaseWords words, a memory file
// sealed against writing by anyone but the server (F_SEAL_FUTURE_WRITE),
// which every doorbell client able to wait on two words at once
// (futex_waitv, Linux >= 5.16) maps read-only. Such a client names in its
// ticket a word chosen from the fence's processes (ReleaseWordOf), so
// that the participants of one fence name the same word, and waits on
// its slot's seq word and that word together. The server, releasing
// several waiters of one word, stores every answer, then bumps the word
// and wakes all its waiters with one call (Release). Another fence's
// waiters on that word wake too, find their seq unchanged and wait on.
#ifndef PMIXX_SRC_WIRE_DOORBELL_H
#define PMIXX_SRC_WIRE_DOORBELL_H

#include <fcntl.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mca/ptl/base/fd.h"
#include "pmix_common.h"
#include "src/common/status.h"

namespace pmix::wire::doorbell {

inline constexpr size_t kSlots = 64;
inline constexpr size_t kSlotBytes = 64;
inline constexpr size_t kMailBytes = 1024;
inline constexpr size_t kMailOffset = kSlots * kSlotBytes;
inline constexpr size_t kPageBytes = kMailOffset + kSlots * kMailBytes;

// The seals a doorbell page carries: its size is fixed for good.
inline constexpr int kSeals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;

inline constexpr size_t kReleaseWords = 1024;
inline constexpr size_t kReleaseBytes = kReleaseWords * sizeof(uint32_t);
inline constexpr uint32_t kNoWord = UINT32_MAX;
// The seals of a release page: fixed size, and no writable mapping but
// the server's own.
inline constexpr int kReleaseSeals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL;

// A fence's claim on a slot, and the release word its caller also waits
// on (kNoWord: none).
struct Ticket {
  uint32_t slot = 0;
  uint32_t seq = 0;
  uint32_t word = kNoWord;
};

// The words of slot `slot` (< kSlots) of a mapped page.
inline std::atomic_ref<uint32_t> Seq(uint8_t* page, size_t slot) {
  return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(page + slot * kSlotBytes));
}
inline std::atomic_ref<int32_t> StatusWord(uint8_t* page, size_t slot) {
  return std::atomic_ref<int32_t>(*reinterpret_cast<int32_t*>(page + slot * kSlotBytes + 4));
}
inline std::atomic_ref<uint32_t> MailWord(uint8_t* page, size_t slot) {
  return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(page + slot * kSlotBytes + 8));
}
inline uint8_t* Mailbox(uint8_t* page, size_t slot) { return page + kMailOffset + slot * kMailBytes; }

// A mapped doorbell page (read and write; unmapped when destroyed).
class Page {
 public:
  // Server: a new page, zeroed and sealed, and the descriptor to hand over
  // (the caller closes it once sent).
  static Result<std::pair<std::unique_ptr<Page>, ptl::Fd>> Create();
  // Client: maps the page a server sent. A descriptor that is not a
  // sealed memory file of kPageBytes is refused (PMIX_ERR_BAD_PARAM).
  // Does not take the descriptor.
  static Result<std::unique_ptr<Page>> Attach(int fd);
  ~Page();
  Page(const Page&) = delete;
  Page& operator=(const Page&) = delete;

  uint8_t* data() const { return base_; }

 private:
  explicit Page(uint8_t* base) : base_(base) {}
  uint8_t* base_;
};

// A server's release page (see above): mapped read and write by the
// server, read-only by clients.
class ReleasePage {
 public:
  // Server: a new page, zeroed and sealed, and its descriptor (which the
  // server keeps, to hand a duplicate to each client).
  static Result<std::pair<std::unique_ptr<ReleasePage>, ptl::Fd>> Create();
  // Client: maps the page a server sent, read-only. A descriptor that is
  // not a memory file of kReleaseBytes sealed with kReleaseSeals is
  // refused (PMIX_ERR_BAD_PARAM). Does not take the descriptor.
  static Result<std::unique_ptr<ReleasePage>> Attach(int fd);
  ~ReleasePage();
  ReleasePage(const ReleasePage&) = delete;
  ReleasePage& operator=(const ReleasePage&) = delete;

  // Word `word` (< kReleaseWords).
  std::atomic_ref<uint32_t> Word(uint32_t word) const {
    return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(base_ + word * sizeof(uint32_t)));
  }
  const uint32_t* WordAddress(uint32_t word) const {
    return reinterpret_cast<const uint32_t*>(base_ + word * sizeof(uint32_t));
  }
  // Server: bumps `word` and wakes everyone waiting on it.
  void Release(uint32_t word);

 private:
  ReleasePage(uint8_t* base, bool writable) : base_(base), writable_(writable) {}
  uint8_t* base_;
  bool writable_;
};

// Whether this kernel waits on two words at once (futex_waitv); asked
// once.
bool CanWaitOnTwo();
// The release word of a fence over procs: the same for any order of the
// same processes.
uint32_t ReleaseWordOf(std::span<const pmix_proc_t> procs);

// Stores an answer (with mail of at most kMailBytes) into a slot and
// wakes whoever waits for it; false, and nothing stored, when the mail is
// longer.
bool Ring(uint8_t* page, const Ticket& t, pmix_status_t status, std::span<const uint8_t> mail = {});
// Ring in two steps, for a server releasing many waiters at once: Store
// every answer first, then Wake each slot, so that the waiters woken
// first (which may take the CPUs from the server) find every other answer
// stored already and the wakeups follow one another closely.
bool Store(uint8_t* page, const Ticket& t, pmix_status_t status, std::span<const uint8_t> mail = {});
void Wake(uint8_t* page, uint32_t slot);

// The answer in a slot whose seq word holds the waiter's ticket: its
// status and a copy of its mail (PMIX_ERR_BAD_PARAM for a mail length
// beyond kMailBytes: the page is not as the server writes it).
pmix_status_t Collect(uint8_t* page, size_t slot, std::vector<uint8_t>* mail);

// Waits while the seq word of `slot` still holds `seen`, at most until
// `deadline` (none: no bound). Returns on a change, a wakeup or a signal;
// the caller checks the word again.
void WaitWhile(uint8_t* page, size_t slot, uint32_t seen,
               std::optional<std::chrono::steady_clock::time_point> deadline);
// The same, returning also when release word `word` of `release` no
// longer holds `word_seen` (CanWaitOnTwo() must be true).
void WaitWhile(uint8_t* page, size_t slot, uint32_t seen, const ReleasePage& release, uint32_t word,
               uint32_t word_seen, std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace pmix::wire::doorbell

#endif  // PMIXX_SRC_WIRE_DOORBELL_H
