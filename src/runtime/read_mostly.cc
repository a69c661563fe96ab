// Readers that never wait (read_mostly.h).
#include "src/runtime/read_mostly.h"

#include <thread>

namespace pmix::runtime {

size_t ReadMostly::SlotOfThisThread() {
  static std::atomic<size_t> next{0};
  thread_local const size_t mine = next.fetch_add(1, std::memory_order_relaxed) % kSlots;
  return mine;
}

ReadMostly::Reader::Reader(const ReadMostly& guard) {
  std::atomic<uint32_t>& slot = guard.slots_[SlotOfThisThread()].readers;
  slot.fetch_add(1, std::memory_order_seq_cst);
  if (guard.writing_.load(std::memory_order_seq_cst)) {
    slot.fetch_sub(1, std::memory_order_release);
    return;
  }
  slot_ = &slot;
}

void ReadMostly::lock() {
  writers_.lock();
  writing_.store(true, std::memory_order_seq_cst);
  for (Slot& s : slots_) {
    // A reader inside does a lookup and leaves; one that was preempted
    // there is waited for as a reader lock's holder would be.
    for (unsigned spins = 0; s.readers.load(std::memory_order_seq_cst) != 0; ++spins) {
      if (spins >= 64) std::this_thread::yield();
    }
  }
}

void ReadMostly::unlock() {
  writing_.store(false, std::memory_order_release);
  writers_.unlock();
}

}  // namespace pmix::runtime
