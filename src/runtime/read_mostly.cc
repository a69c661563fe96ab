// Readers that never wait (read_mostly.h).
#include "src/runtime/read_mostly.h"

#include <algorithm>
#include <thread>

namespace pmix::runtime {

std::atomic<size_t> ReadMostly::threads_{0};

size_t ReadMostly::SlotOfThisThread() {
  // seq_cst: a writer that counted the threads before this one came is
  // seen by it (lock() below), so it scans only the slots given out.
  thread_local const size_t mine = threads_.fetch_add(1, std::memory_order_seq_cst) % kSlots;
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
  // Only the slots handed out so far can hold readers: a thread given one
  // later raised its count after this flag, and sees it.
  size_t used = std::min(threads_.load(std::memory_order_seq_cst), kSlots);
  for (size_t i = 0; i < used; ++i) {
    Slot& s = slots_[i];
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
