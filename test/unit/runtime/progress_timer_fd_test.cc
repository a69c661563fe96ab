// The progress engine's timers and fd watches. Durations are only checked
// as lower bounds; every wait is bounded by kWait.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <memory>

#include "src/runtime/progress.h"

namespace pmix::runtime {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kWait = 10s;
using Mode = ProgressEngine::Mode;

class SocketPair {
 public:
  SocketPair() { ok_ = socketpair(AF_UNIX, SOCK_STREAM, 0, fds_.data()) == 0; }
  ~SocketPair() {
    if (ok_) {
      close(fds_[0]);
      close(fds_[1]);
    }
  }
  bool ok() const { return ok_; }
  int watched() const { return fds_[0]; }
  int peer() const { return fds_[1]; }
  bool SendByte() const { return write(peer(), "x", 1) == 1; }
  bool ReadByte() const {
    char c;
    return read(watched(), &c, 1) == 1;
  }

 private:
  std::array<int, 2> fds_{-1, -1};
  bool ok_ = false;
};

class ProgressTimerFd : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(engine_.Start(Mode::kThread).ok()); }
  // Waits until everything posted before has run.
  bool Flush() {
    Completion<bool> done;
    if (!engine_.Post([&] { done.Set(true); }).ok()) return false;
    return done.WaitFor(kWait).has_value();
  }
  ProgressEngine engine_;
};

TEST_F(ProgressTimerFd, TimerFiresOnceAfterAtLeastItsDelayOnTheLoop) {
  std::atomic<int> fired{0};
  Completion<std::pair<Clock::time_point, bool>> first;
  const auto added = Clock::now();
  auto timer = engine_.AddTimer(30ms, [&] {
    ++fired;
    first.Set({Clock::now(), engine_.IsProgressThread()});
  });
  ASSERT_NE(timer, nullptr);
  auto result = first.WaitFor(kWait);
  ASSERT_TRUE(result.has_value());
  EXPECT_GE(result->first - added, 30ms);
  EXPECT_TRUE(result->second);
  // A later timer firing shows the first one had every chance to fire again.
  Completion<bool> later;
  auto sentinel = engine_.AddTimer(40ms, [&] { later.Set(true); });
  ASSERT_TRUE(later.WaitFor(kWait).has_value());
  EXPECT_EQ(fired.load(), 1);
  timer->Cancel();  // after firing: no effect
}

TEST_F(ProgressTimerFd, CancelledOrDestroyedTimersNeverFire) {
  // The loop is held in a closure meanwhile, so the timers cannot be due and
  // run before this thread cancels them, however slowly it gets there.
  Completion<bool> held, gate;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    held.Set(true);
                    gate.WaitFor(kWait);
                  })
                  .ok());
  ASSERT_TRUE(held.WaitFor(kWait).has_value());
  std::atomic<int> fired{0};
  auto cancelled = engine_.AddTimer(1ms, [&] { ++fired; });
  auto destroyed = engine_.AddTimer(1ms, [&] { ++fired; });
  ASSERT_NE(cancelled, nullptr);
  ASSERT_NE(destroyed, nullptr);
  cancelled->Cancel();
  cancelled->Cancel();
  destroyed.reset();
  Completion<bool> later;  // timers fire in deadline order
  auto sentinel = engine_.AddTimer(20ms, [&] { later.Set(true); });
  gate.Set(true);
  ASSERT_TRUE(later.WaitFor(kWait).has_value());
  EXPECT_EQ(fired.load(), 0);
}

TEST_F(ProgressTimerFd, CancelOnTheProgressThreadBeforeItIsDue) {
  std::atomic<int> fired{0};
  std::unique_ptr<ProgressEngine::Timer> timer;  // progress thread only
  std::unique_ptr<ProgressEngine::Timer> sentinel;
  Completion<bool> later;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    timer = engine_.AddTimer(0ms, [&] { ++fired; });
                    sentinel = engine_.AddTimer(20ms, [&] { later.Set(true); });
                    timer->Cancel();
                  })
                  .ok());
  ASSERT_TRUE(later.WaitFor(kWait).has_value());
  EXPECT_EQ(fired.load(), 0);
  ASSERT_TRUE(Flush());
}

TEST_F(ProgressTimerFd, ATimerMayDestroyItsOwnHandleFromItsCallback) {
  std::unique_ptr<ProgressEngine::Timer> timer;  // progress thread only
  auto token = std::make_shared<int>(0);
  Completion<bool> done;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    timer = engine_.AddTimer(1ms, [&, token] {
                      timer.reset();
                      done.Set(true);
                    });
                  })
                  .ok());
  ASSERT_TRUE(done.WaitFor(kWait).has_value());
  ASSERT_TRUE(Flush());
  EXPECT_EQ(token.use_count(), 1);  // the callback's captures are released
}

TEST_F(ProgressTimerFd, ReadableFiresOnTheLoopAndStopsWhenTheHandleIsDestroyed) {
  SocketPair pair;
  ASSERT_TRUE(pair.ok());
  std::unique_ptr<ProgressEngine::FdWatch> watch;  // progress thread only
  int fired = 0;                                   // progress thread only
  Completion<std::pair<bool, bool>> first;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    watch =
                        engine_.WatchFd(pair.watched(), false, [&](bool readable, bool writable) {
                          ++fired;
                          EXPECT_TRUE(pair.ReadByte());
                          watch.reset();  // destroyed inside its own callback
                          first.Set({readable && engine_.IsProgressThread(), writable});
                        });
                  })
                  .ok());
  ASSERT_TRUE(pair.SendByte());
  auto result = first.WaitFor(kWait);
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(result->first);
  EXPECT_FALSE(result->second);
  // Readable again: a second watch sees it, the destroyed one must not.
  ASSERT_TRUE(pair.SendByte());
  std::unique_ptr<ProgressEngine::FdWatch> second;
  Completion<int> seen;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    second = engine_.WatchFd(pair.watched(), false, [&](bool, bool) {
                      second.reset();
                      seen.Set(fired);
                    });
                  })
                  .ok());
  auto fired_then = seen.WaitFor(kWait);
  ASSERT_TRUE(fired_then.has_value());
  EXPECT_EQ(*fired_then, 1);
}

TEST_F(ProgressTimerFd, WritableOnlyWhenAsked) {
  SocketPair pair;
  ASSERT_TRUE(pair.ok());
  std::unique_ptr<ProgressEngine::FdWatch> watch;  // progress thread only
  int writable_events = 0;
  Completion<bool> writable_seen;
  Completion<bool> readable_seen;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    watch =
                        engine_.WatchFd(pair.watched(), false, [&](bool readable, bool writable) {
                          if (writable) {
                            ++writable_events;
                            EXPECT_TRUE(watch->SetWantWrite(false));  // output drained
                            writable_seen.Set(true);
                          }
                          if (readable) {
                            EXPECT_TRUE(pair.ReadByte());
                            readable_seen.Set(true);
                          }
                        });
                  })
                  .ok());
  // Not asked yet: only the byte makes it fire, as readable.
  ASSERT_TRUE(pair.SendByte());
  ASSERT_TRUE(readable_seen.WaitFor(kWait).has_value());
  ASSERT_TRUE(engine_.Post([&] { EXPECT_TRUE(watch->SetWantWrite(true)); }).ok());
  ASSERT_TRUE(writable_seen.WaitFor(kWait).has_value());
  ASSERT_TRUE(Flush());
  Completion<int> count;
  ASSERT_TRUE(engine_
                  .Post([&] {
                    watch.reset();  // before Set: the test's locals go once it returns
                    count.Set(writable_events);
                  })
                  .ok());
  auto n = count.WaitFor(kWait);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(*n, 1);
}

TEST_F(ProgressTimerFd, WatchAskingForWriteFiresWritableAtOnce) {
  SocketPair pair;
  ASSERT_TRUE(pair.ok());
  Completion<bool> writable_seen;
  auto watch = engine_.WatchFd(pair.watched(), true, [&](bool, bool writable) {
    if (writable) writable_seen.Set(true);
  });
  ASSERT_NE(watch, nullptr);
  ASSERT_TRUE(writable_seen.WaitFor(kWait).has_value());
  watch.reset();  // from this thread while the loop may be calling it
}

TEST_F(ProgressTimerFd, WatchesOutlivingTheEngineAreInert) {
  SocketPair pair;
  ASSERT_TRUE(pair.ok());
  auto watch = engine_.WatchFd(pair.watched(), false, [](bool, bool) {});
  ASSERT_NE(watch, nullptr);
  engine_.Stop();
  EXPECT_EQ(engine_.WatchFd(pair.watched(), false, [](bool, bool) {}), nullptr);
  watch.reset();
}

TEST(ExternalProgressTimerFd, TimersAndWatchesRunInsideRunOnce) {
  ProgressEngine engine;
  ASSERT_TRUE(engine.Start(Mode::kExternal).ok());
  SocketPair pair;
  ASSERT_TRUE(pair.ok());
  bool timer_ran = false, watch_ran = false, watch_on_caller = false;
  auto timer = engine.AddTimer(0ms, [&] { timer_ran = true; });
  auto watch = engine.WatchFd(pair.watched(), false, [&](bool readable, bool) {
    watch_ran = readable && pair.ReadByte();
    watch_on_caller = engine.IsProgressThread();
  });
  ASSERT_NE(timer, nullptr);
  ASSERT_NE(watch, nullptr);
  ASSERT_TRUE(pair.SendByte());
  EXPECT_FALSE(timer_ran);
  EXPECT_FALSE(watch_ran);
  EXPECT_EQ(engine.RunOnce(), 2);
  EXPECT_TRUE(timer_ran);
  EXPECT_TRUE(watch_ran);
  EXPECT_TRUE(watch_on_caller);
}

}  // namespace
}  // namespace pmix::runtime
