// ReadMostly (src/runtime/read_mostly.h): readers never wait, a writer
// waits for the readers inside and keeps new ones out, and what readers
// see is always a whole write. Under ThreadSanitizer (the tsan step runs
// this program) a missing ordering shows up as a race on the plain ints.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "src/runtime/read_mostly.h"

namespace pmix::runtime {
namespace {

using namespace std::chrono_literals;

TEST(ReadMostly, AReaderEntersUnlessAWriterIsAtWork) {
  ReadMostly guard;
  {
    ReadMostly::Reader inside(guard);
    EXPECT_TRUE(inside);
    ReadMostly::Reader another(guard);  // readers do not exclude each other
    EXPECT_TRUE(another);
  }
  {
    std::unique_lock<ReadMostly> writing(guard);
    ReadMostly::Reader turned_away(guard);
    EXPECT_FALSE(turned_away);
  }
  ReadMostly::Reader after(guard);
  EXPECT_TRUE(after);
}

TEST(ReadMostly, AWriterWaitsForTheReaderInside) {
  ReadMostly guard;
  std::atomic<bool> release{false}, entered{false}, written{false};
  std::thread reader([&] {
    ReadMostly::Reader inside(guard);
    ASSERT_TRUE(inside);
    entered = true;
    while (!release) std::this_thread::yield();
  });
  while (!entered) std::this_thread::yield();
  std::thread writer([&] {
    std::unique_lock<ReadMostly> lock(guard);
    written = true;
  });
  // The reader is still inside: the writer cannot have got in.
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(written);
  release = true;
  reader.join();
  writer.join();
  EXPECT_TRUE(written);
}

// Readers on several threads against a writer that keeps two plain ints
// equal: a reader inside never sees them differ, and readers get in.
TEST(ReadMostly, ReadersSeeOnlyWholeWrites) {
  ReadMostly guard;
  int a = 0, b = 0;
  constexpr int kWrites = 2000;
  std::atomic<bool> done{false};
  std::atomic<long> reads{0}, torn{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&] {
      // Until the writer is done, then a last read, which must get in.
      for (;;) {
        bool last = done.load();
        ReadMostly::Reader inside(guard);
        if (inside) {
          if (a != b) ++torn;
          ++reads;
        } else if (last) {
          ADD_FAILURE() << "a reader was turned away with no writer at work";
        }
        if (last) break;
      }
    });
  }
  for (int i = 1; i <= kWrites; ++i) {
    std::unique_lock<ReadMostly> lock(guard);
    a = i;
    b = i;
  }
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_GE(reads.load(), 3);
  EXPECT_EQ(a, kWrites);
  EXPECT_EQ(b, kWrites);
}

}  // namespace
}  // namespace pmix::runtime
