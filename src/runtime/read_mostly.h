// Guarding data that many threads read and one rarely writes (the client's
// cache, which Gets read on the caller's thread): readers never wait.
//
// A reader announces itself in a counter of its own (one cache line per
// slot, a thread's slot chosen once), then looks whether a writer is at
// work; if one is, it withdraws and the caller takes its slow path (the
// progress thread, which is the writer, answers it after the write). A
// writer raises its flag, then waits until every slot is empty: readers
// already inside finish (a lookup, bounded), new ones back off. Both
// sides use sequentially consistent operations, so that a reader and a
// writer starting at once cannot both miss each other (the reader sees
// the flag, or the writer sees the reader's count).
//
// What a reader then reads, the writer's earlier changes included, is
// ordered by the release of its leaving and of the writer's unlock. With
// more threads than slots, threads share a slot: a counter, not a flag,
// so sharing costs contention only.
//
// Threads: any. lock()/unlock() make it a BasicLockable for writers
// (std::unique_lock<ReadMostly>); writers also exclude each other.
#ifndef PMIXX_SRC_RUNTIME_READ_MOSTLY_H
#define PMIXX_SRC_RUNTIME_READ_MOSTLY_H

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace pmix::runtime {

class ReadMostly {
 public:
  static constexpr size_t kSlots = 64;

  // A reader's stay: inside while it converts to true (no writer was at
  // work when it came); leaves when destroyed.
  class Reader {
   public:
    explicit Reader(const ReadMostly& guard);
    ~Reader() {
      if (slot_ != nullptr) slot_->fetch_sub(1, std::memory_order_release);
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;
    explicit operator bool() const { return slot_ != nullptr; }

   private:
    std::atomic<uint32_t>* slot_ = nullptr;
  };

  // Writers: waits for the readers inside, keeps new ones out.
  void lock();
  void unlock();

 private:
  struct alignas(64) Slot {
    std::atomic<uint32_t> readers{0};
  };
  // This thread's slot (the same for every ReadMostly).
  static size_t SlotOfThisThread();
  // Threads given a slot so far (a writer scans no further).
  static std::atomic<size_t> threads_;

  mutable std::array<Slot, kSlots> slots_{};
  std::atomic<bool> writing_{false};
  std::mutex writers_;
};

}  // namespace pmix::runtime

#endif  // PMIXX_SRC_RUNTIME_READ_MOSTLY_H
